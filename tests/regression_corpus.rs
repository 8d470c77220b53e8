//! The regression corpus: reduced real-world reproductions of false errors and false silences
//! (one file each in `tests/cli_fixtures/corpus/`, written for this corpus; where a case has the
//! shape of a published policy, its file says which), checked through the built binary as a user
//! runs `admission-ls check FILE`.

#[path = "support/cli.rs"]
mod cli;

use cli::run;
use expect_test::{Expect, expect};

/// Checks one corpus file and compares the exit status and the report.
#[track_caller]
fn check(name: &str, status: i32, stdout: Expect) {
    let path = format!("tests/cli_fixtures/corpus/{name}");
    let (code, out, err) = run(&["check", &path]);
    assert_eq!(code, status, "stdout: {out}\nstderr: {err}");
    stdout.assert_eq(&out);
}

/// `orValue(null)` on an `optional(string)`: a typed-check warning (an error before the severity model).
#[test]
fn optional_or_null() {
    check(
        "01-optional-or-null.yaml",
        0,
        expect![[r#"
            tests/cli_fixtures/corpus/01-optional-or-null.yaml:12:69: warning[cel-no-overload] (typed check only): spec.validations[0].expression: found no matching overload for 'orValue' applied to 'optional_type(string).(null)' (in apps/v1, Kind=Deployment)
               |
            12 |   - expression: "object.metadata.?annotations[?'example.com/owner'].orValue(null) != null"
               |                                                                     ^^^^^^^

            checked 1 file: 0 errors, 1 warning
        "#]],
    );
}

/// `'labels' in object.metadata`: metadata is a map at run time, a typed-check warning.
#[test]
fn in_metadata() {
    check(
        "02-in-metadata.yaml",
        0,
        expect![[r#"
            tests/cli_fixtures/corpus/02-in-metadata.yaml:12:27: warning[cel-no-overload] (typed check only): spec.validations[0].expression: found no matching overload for '@in' applied to '(string, core.v1.Service.metadata)' (in /v1, Kind=Service)
               |
            12 |   - expression: "'labels' in object.metadata && 'app.kubernetes.io/name' in object.metadata.labels"
               |                           ^^

            checked 1 file: 0 errors, 1 warning
        "#]],
    );
}

/// `.all()` and `[k]` over schema objects that are maps at run time: typed-check warnings.
#[test]
fn object_as_map() {
    check(
        "03-object-as-map.yaml",
        0,
        expect![[r#"
            tests/cli_fixtures/corpus/03-object-as-map.yaml:11:18: warning[cel-type] (typed check only): spec.validations[0].expression: expression of type 'core.v1.Pod.spec' cannot be range of a comprehension (must be list, map, or dynamic) (in /v1, Kind=Pod)
               |
            11 |   - expression: "object.spec.all(k, !(k in ['hostNetwork', 'hostPID', 'hostIPC']))"
               |                  ^^^^^^^^^^^
            tests/cli_fixtures/corpus/03-object-as-map.yaml:12:33: warning[cel-no-overload] (typed check only): spec.validations[1].expression: found no matching overload for '_[_]' applied to '(core.v1.Pod.metadata, string)' (in /v1, Kind=Pod)
               |
            12 |   - expression: "object.metadata['namespace'] != 'kube-system'"
               |                                 ^

            checked 1 file: 0 errors, 2 warnings
        "#]],
    );
}

/// A list literal of a string and a map: a typed-check warning (the create-time environment has `object` as dyn).
#[test]
fn mixed_list_literal() {
    check(
        "04-mixed-list-literal.yaml",
        0,
        expect![[r#"
            tests/cli_fixtures/corpus/04-mixed-list-literal.yaml:12:41: warning[cel-type] (typed check only): spec.validations[0].expression: expected type 'string' but found 'map(string, string)' (in /v1, Kind=ConfigMap)
               |
            12 |   - expression: "[object.metadata.name, object.metadata.labels].all(x, x != null)"
               |                                         ^^^^^^^^^^^^^^^^^^^^^^

            checked 1 file: 0 errors, 1 warning
        "#]],
    );
}

/// A ternary over two object types compared with null: clean (cel-go joins the branch types).
#[test]
fn ternary_two_types() {
    check(
        "05-ternary-two-types.yaml",
        0,
        expect![[r#"
            checked 1 file: 0 errors, 0 warnings
        "#]],
    );
}

/// `data[k] == false` on a map of strings: heterogeneous equality is false at run time, a typed-check warning.
#[test]
fn string_map_equals_bool() {
    check(
        "06-string-map-equals-bool.yaml",
        0,
        expect![[r#"
            tests/cli_fixtures/corpus/06-string-map-equals-bool.yaml:13:129: warning[cel-no-overload] (typed check only): spec.validations[0].expression: found no matching overload for '_==_' applied to '(string, bool)' (in /v1, Kind=ConfigMap)
               |
            13 |   - expression: "!has(object.data) || !('allow-snippet-annotations' in object.data) || object.data['allow-snippet-annotations'] == false"
               |                                                                                                                                 ^^

            checked 1 file: 0 errors, 1 warning
        "#]],
    );
}

/// A quoted expression continued left of its key: go-yaml reads it (scannerc.go has no indentation check in quoted scalars), clean.
#[test]
fn quoted_continuation() {
    check(
        "07-quoted-continuation.yaml",
        0,
        expect![[r#"
            checked 1 file: 0 errors, 0 warnings
        "#]],
    );
}

/// `in` over short list literals on the items of an unbounded list: within the CRD rule budget (cel-go `checker/cost.go` prices `@in` on a list by its size).
#[test]
fn in_list_cost() {
    check(
        "08-in-list-cost.yaml",
        0,
        expect![[r#"
            checked 1 file: 0 errors, 0 warnings
        "#]],
    );
}

/// A branch only CronJobs reach, with a field CronJobs do not have: an error for CronJob (every CronJob request fails with `no such key`); it was silent before.
#[test]
fn cronjob_guard() {
    check(
        "09-cronjob-guard.yaml",
        1,
        expect![[r#"
            tests/cli_fixtures/corpus/09-cronjob-guard.yaml:13:75: error[cel-undefined-field] (fails at admission): spec.validations[0].expression: undefined field 'volumes' (in batch/v1, Kind=CronJob)
               |
            13 |   - expression: "object.kind != 'CronJob' || object.spec.jobTemplate.spec.volumes.size() <= 5"
               |                                                                           ^^^^^^^

            checked 1 file: 1 error, 0 warnings
        "#]],
    );
}

/// Resource rules shared by an anchor and a merge key: clean, as kubectl's go-yaml v2 merges them.
#[test]
fn merge_keys() {
    check(
        "10-merge-keys.yaml",
        0,
        expect![[r#"
            checked 1 file: 0 errors, 0 warnings
        "#]],
    );
}

/// A key written twice: a warning, kubectl keeps the last value.
#[test]
fn duplicate_key() {
    check(
        "11-duplicate-key.yaml",
        0,
        expect![[r#"
            tests/cli_fixtures/corpus/11-duplicate-key.yaml:7:3: warning[duplicate] (accepted): duplicate field "spec.failurePolicy": kubectl keeps the last value
              |
            7 |   failurePolicy: Ignore
              |   ^^^^^^^^^^^^^

            checked 1 file: 0 errors, 1 warning
        "#]],
    );
}

/// A tab after a key's colon: clean, go-yaml skips it as a blank.
#[test]
fn tab_after_colon() {
    check(
        "12-tab-after-colon.yaml",
        0,
        expect![[r#"
            checked 1 file: 0 errors, 0 warnings
        "#]],
    );
}
