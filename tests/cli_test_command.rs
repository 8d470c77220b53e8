//! `admission-ls test` end to end: kaptest's current manifest format with every key and each of
//! kaptest's rejections (fixtures in `tests/kaptest_current/`), PolicyTest files with unknown keys
//! or broken YAML (`tests/suites/malformed/`), no false green (no case found is exit 2), case
//! selection and output options, and the JUnit report validated against the rules of the Jenkins
//! `junit-10.xsd`.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/junit_schema.rs"]
mod junit_schema;

use cli::{run, run_with, timeless};
use expect_test::expect;

#[test]
fn kaptest_current_format_every_key_passes() {
    let (code, stdout, stderr) = run(&["test", "tests/kaptest_current/kaptest.yaml"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    expect![[r#"
        tests/kaptest_current/kaptest.yaml
          ok    replica-limit: object=Deployment/small → allow (…ms)
          ok    replica-limit: object=Deployment/big → deny (…ms)
          ok    replica-limit: object=Deployment/big oldObject=Deployment/small → deny (…ms)
          ok    replica-limit: object=Deployment/system → skip (…ms)
          ok    replica-limit: oldObject=Deployment/small → allow (…ms)
          ok    replica-limit: oldObject=Deployment/small → deny (…ms)
          ok    namespace-team: object=Deployment/team-small → allow (…ms)
          ok    namespace-team: object=Deployment/team-big → allow (…ms)
          ok    namespace-team: object=Deployment/team-big → deny (…ms)
          ok    namespace-team: object=Deployment/orphan → deny (…ms)
          ok    widget-size: object=Widget/small → allow (…ms)
          ok    widget-size: object=Widget/huge → deny (…ms)
          ok    widget-size: object=Widget/colourless → error (…ms)
          ok    replica-limit: object=Deployment/big → mutate (…ms)
          ok    replica-limit: object=Deployment/small → skip (…ms)
          ok    widget-colour: object=Widget/small → mutate (…ms)
          ok    widget-colour: object=Widget/huge → mutate (…ms)
          ok    widget-colour: object=Widget/sizeless → error (…ms)
        18 passed, 0 failed in …ms
    "#]]
    .assert_eq(&timeless(&stdout));
}

#[test]
fn kaptest_rejections_name_the_problem_with_its_position() {
    let (code, stdout, stderr) = run(&["test", "tests/kaptest_current/rejected"]);
    assert_eq!(code, 1, "{stderr}");
    expect![[r#"
        tests/kaptest_current/rejected/broken.yaml
          error: tests/kaptest_current/rejected/broken.yaml:8:11: YAML syntax error: while parsing a flow mapping, did not find expected ',' or '}'
        tests/kaptest_current/rejected/crd-url-and-absent-namespace.yaml
          error: tests/kaptest_current/rejected/crd-url-and-absent-namespace.yaml:7:3: crds: https://example.com/widgets.yaml: URLs are not fetched; download the CRD and give its path
          FAIL  namespace-team: object=Deployment/orphan → allow (…ms)
                expected allow, got deny: deployments.apps "orphan" is forbidden: ValidatingAdmissionPolicy 'namespace-team' denied request: the namespace has no team label
        tests/kaptest_current/rejected/missing.yaml
          error: tests/kaptest_current/rejected/missing.yaml:16:13: expect: unsupported value `allow`: supported values: admit, deny, skip, error
          error: tests/kaptest_current/rejected/missing.yaml:26:13: expectObject must be given when mutate expected
          ERROR nowhere: object=Widget/small → allow (…ms)
                policy 'nowhere' not found in the suite's policy files
          ERROR widget-size: object=Widget/ghost → allow (…ms)
                object Widget/ghost not found in the suite's resources
          ok    widget-size: object=Widget/small → allow (…ms)
          ERROR replica-limit: object=Deployment/small → allow (…ms)
                param ConfigMap/no-such-limits not found in the suite's resources
          ok    replica-limit: object=Deployment/big → mutate (…ms)
          FAIL  replica-limit: object=Deployment/big → mutate (…ms)
                object (- expected, + actual):
                 …
                       "app": "web"
                     },
                +    "name": "big",
                -    "name": "five",
                     "namespace": "default"
                   },
        tests/kaptest_current/rejected/no-policies.yaml
          error: tests/kaptest_current/rejected/no-policies.yaml:1:1: at least one policies is required
          ERROR widget-size: object=Widget/small → allow (…ms)
                policy 'widget-size' not found in the suite's policy files
        tests/kaptest_current/rejected/no-resources.yaml
          error: tests/kaptest_current/rejected/no-resources.yaml:1:1: at least one resources is required
          ERROR widget-size: object=Widget/small → allow (…ms)
                object Widget/small not found in the suite's resources
        tests/kaptest_current/rejected/no-suites.yaml
          error: tests/kaptest_current/rejected/no-suites.yaml:1:1: at least one vapTestSuites or mapTestSuites is required
        tests/kaptest_current/rejected/old-format.yaml
          ok    widget-size: object=Widget/small → allow (…ms)
          FAIL  widget-size: object=Widget/huge → allow (…ms)
                expected allow, got deny: widgets.example.com "huge" is forbidden: ValidatingAdmissionPolicy 'widget-size' denied request: widgets are at most 10
        tests/kaptest_current/rejected/unknown-keys.yaml
          error: tests/kaptest_current/rejected/unknown-keys.yaml:2:1: unknown key `polices` in a kaptest manifest (known: version, policies, resources, schemaLocations, crds, skipSchemaValidation, vapTestSuites, mapTestSuites, validatingAdmissionPolicies, testSuites); did you mean `policies`?
          error: tests/kaptest_current/rejected/unknown-keys.yaml:1:1: at least one policies is required
          error: tests/kaptest_current/rejected/unknown-keys.yaml:10:5: unknown key `expectt` in a test case (known: object, oldObject, param, expect, userInfo, deniedMessage); did you mean `expect`?
          error: tests/kaptest_current/rejected/unknown-keys.yaml:9:28: unknown key `nmae` in object (known: group, version, kind, namespace, name); did you mean `name`?
          error: tests/kaptest_current/rejected/unknown-keys.yaml:9:5: the test case has no `expect` (admit, deny, skip, error)
          error: tests/kaptest_current/rejected/unknown-keys.yaml:13:5: unknown key `deniedMesage` in a test case (known: object, oldObject, param, expect, userInfo, deniedMessage); did you mean `deniedMessage`?
          error: tests/kaptest_current/rejected/unknown-keys.yaml:14:16: unknown key `user` in userInfo (known: name, groups, extra)
          ERROR widget-size: object=Widget/ →  (…ms)
                the case expects nothing: it names no expected decision (nor, for a custom resource, `valid`), so it would pass whatever the policy does
          ERROR widget-size: object=Widget/huge → deny (…ms)
                policy 'widget-size' not found in the suite's policy files
        tests/kaptest_current/rejected/unsupported-version.yaml
          error: tests/kaptest_current/rejected/unsupported-version.yaml:1:10: unsupported version "v0.1.0", supported versions: [v1alpha1]
          ok    widget-size: object=Widget/small → allow (…ms)
        4 passed, 3 failed, 7 errored in …ms
    "#]].assert_eq(&timeless(&stdout));
}

#[test]
fn policy_test_files_with_unknown_keys_or_broken_yaml_are_errors_with_positions() {
    let (code, stdout, stderr) = run(&["test", "tests/suites/malformed"]);
    assert_eq!(code, 1, "{stderr}");
    expect![[r#"
        tests/suites/malformed/broken.test.yaml
          error: tests/suites/malformed/broken.test.yaml:7:1: YAML syntax error: while parsing a flow sequence, expected ',' or ']'
        tests/suites/malformed/duplicate-keys.test.yaml (duplicate-keys)
          error: tests/suites/malformed/duplicate-keys.test.yaml:24:7: duplicate key `cases[1].expect.decision` (first at tests/suites/malformed/duplicate-keys.test.yaml:23:7): YAML keeps only the last
          error: tests/suites/malformed/duplicate-keys.test.yaml:17:13: expect.decision (or expect.valid, for a custom resource) is required (allow, deny, warn, audit, skip, error)
          ERROR an empty expect (…ms)
                the case expects nothing: it names no expected decision (nor, for a custom resource, `valid`), so it would pass whatever the policy does
          ok    a decision written twice (…ms)
        tests/suites/malformed/empty.test.yaml (empty)
        tests/suites/malformed/unknown-keys.test.yaml (unknown-keys)
          error: tests/suites/malformed/unknown-keys.test.yaml:6:1: unknown key `polices` in a PolicyTest (known: apiVersion, kind, metadata, kubeVersion, defaults, policies, resources, cases); did you mean `policies`?
          error: tests/suites/malformed/unknown-keys.test.yaml:12:5: unknown key `expcet` in a case (known: name, policy, binding, operation, object, oldObject, params, namespace, userInfo, authorizer, expect); did you mean `expect`?
          error: tests/suites/malformed/unknown-keys.test.yaml:9:5: the case has no `expect`
          error: tests/suites/malformed/unknown-keys.test.yaml:16:32: unknown key `nmae` in object (known: kind, name, namespace); did you mean `name`?
          error: tests/suites/malformed/unknown-keys.test.yaml:18:7: unknown key `desicion` in expect (known: decision, valid, errors, message, warnings, auditAnnotations, object); did you mean `decision`?
          error: tests/suites/malformed/unknown-keys.test.yaml:18:7: expect.decision (or expect.valid, for a custom resource) is required (allow, deny, warn, audit, skip, error)
          error: tests/suites/malformed/unknown-keys.test.yaml:22:16: unknown key `user` in userInfo (known: username, groups)
          error: tests/suites/malformed/unknown-keys.test.yaml:24:17: expect.decision: unsupported value `admit`: supported values: allow, deny, warn, audit, skip, error
          ERROR a misspelt expect would check nothing (…ms)
                the case expects nothing: it names no expected decision (nor, for a custom resource, `valid`), so it would pass whatever the policy does
          ERROR a misspelt decision key (…ms)
                the case expects nothing: it names no expected decision (nor, for a custom resource, `valid`), so it would pass whatever the policy does
          ERROR an unsupported decision (…ms)
                policy 'require-labels' not found in the suite's policy files
        1 passed, 0 failed, 4 errored in …ms
    "#]].assert_eq(&timeless(&stdout));
}

#[test]
fn nothing_to_test_is_exit_2_not_a_pass() {
    let dir = std::env::temp_dir().join(format!("admission-ls-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let empty = dir.display().to_string();
    for (args, message) in [
        (
            vec!["test", empty.as_str()],
            format!("no test cases found in {empty}"),
        ),
        (
            vec!["test", "tests/cli_fixtures/deployment.yaml"],
            "no test cases found in tests/cli_fixtures/deployment.yaml".to_string(),
        ),
        (
            vec!["test", "tests/suites/malformed/empty.test.yaml"],
            "no test cases found in tests/suites/malformed/empty.test.yaml".to_string(),
        ),
        (
            vec!["test", "examples/tests", "--run", "no-such-case"],
            "no test cases found in examples/tests matching --run no-such-case".to_string(),
        ),
    ] {
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 2, "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(&message), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_selects_cases_by_name_and_suites_by_name_or_path() {
    let (code, stdout, _) = run(&["test", "examples/tests", "--run", "kube-system"]);
    assert_eq!(code, 0);
    expect![[r#"
        examples/tests/image-registry.test.yaml (image-registry)
          ok    kube-system is outside the namespaceSelector (…ms)
        examples/tests/required-labels.test.yaml (required-labels)
          ok    kube-system is skipped by a matchCondition (…ms)
        2 passed, 0 failed in …ms
    "#]]
    .assert_eq(&timeless(&stdout));
    let (code, stdout, _) = run(&["test", "examples/tests", "--run", "^audit-privileged$"]);
    assert_eq!(code, 0);
    assert!(
        timeless(&stdout).ends_with("3 passed, 0 failed in …ms\n"),
        "{stdout}"
    );
    let (code, _, stderr) = run(&["test", "examples/tests", "--run", "("]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--run: regex parse error"), "{stderr}");
}

#[test]
fn quiet_prints_only_what_did_not_pass_and_verbose_every_detail() {
    let (code, stdout, _) = run(&[
        "test",
        "tests/suites/bad",
        "examples/tests/required-labels.test.yaml",
        "--quiet",
    ]);
    assert_eq!(code, 1);
    let text = timeless(&stdout);
    assert!(!text.contains("required-labels"), "{text}");
    assert!(!text.contains("  ok "), "{text}");
    assert!(
        text.ends_with("5 passed, 1 failed, 4 errored in …ms\n"),
        "{text}"
    );
    let (_, same, _) = run(&["test", "tests/suites/bad", "--fail-only"]);
    assert!(!same.contains("  ok "), "{same}");
    let (code, stdout, _) = run(&["test", "examples/tests/required-labels.test.yaml", "-v"]);
    assert_eq!(code, 0);
    expect![[r#"
        examples/tests/required-labels.test.yaml (required-labels)
          ok    a deployment with both labels is allowed (…ms)
                decision: allow
          ok    the message names the missing labels (…ms)
                decision: deny
                message: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'required-labels' with binding 'required-labels' denied request: missing required labels: app.kubernetes.io/owner
          ok    kube-system is skipped by a matchCondition (…ms)
                decision: skip
          ok    pods are not matched (…ms)
                decision: skip
        4 passed, 0 failed in …ms
    "#]].assert_eq(&timeless(&stdout));
}

#[test]
fn colour_follows_the_option_and_no_color() {
    let args = ["test", "examples/tests/required-labels.test.yaml"];
    let green = "\x1b[32mok   \x1b[0m";
    let (_, piped, _) = run(&args);
    assert!(!piped.contains('\x1b'), "auto on a pipe has no colour");
    let (_, always, _) = run(&[&args[..], &["--color", "always"]].concat());
    assert!(always.contains(green), "{always:?}");
    let (_, always_no_color, _) = run_with(
        &[&args[..], &["--color", "always"]].concat(),
        "",
        &[("NO_COLOR", "1")],
    );
    assert!(
        always_no_color.contains(green),
        "an explicit --color always wins over NO_COLOR"
    );
    let (_, never, _) = run(&[&args[..], &["--color", "never"]].concat());
    assert!(!never.contains('\x1b'));
}

#[test]
fn kube_version_overrides_every_suite_and_is_checked() {
    let (code, stdout, _) = run(&[
        "test",
        "examples/tests/required-labels.test.yaml",
        "--kube-version",
        "v1.31",
    ]);
    assert_eq!(code, 0, "{stdout}");
    let (code, _, stderr) = run(&["test", "examples/tests", "--kube-version", "1.29"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("1.29"), "{stderr}");
}

#[test]
fn json_counts_errored_cases_apart_and_carries_durations() {
    let (code, stdout, _) = run(&["test", "tests/suites/bad", "--format", "json"]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let summary = &json["summary"];
    assert_eq!(
        (
            summary["passed"].as_u64(),
            summary["failed"].as_u64(),
            summary["errored"].as_u64()
        ),
        (Some(1), Some(1), Some(4))
    );
    assert!(
        summary["durationMs"].as_f64().is_some_and(|d| d > 0.0),
        "{summary}"
    );
    let case = &json["suites"][0]["cases"][5];
    assert!(case["durationMs"].as_f64().is_some(), "{case}");
}

#[test]
fn junit_validates_against_the_jenkins_schema() {
    let (code, stdout, _) = run(&[
        "test",
        "tests/suites/bad",
        "tests/kaptest_current",
        "examples/tests",
        "--format",
        "junit",
    ]);
    assert_eq!(code, 1);
    let violations = junit_schema::violations(&stdout);
    assert!(violations.is_empty(), "{violations:#?}\n{stdout}");
    let doc = roxmltree::Document::parse(&stdout).expect("XML");
    let suites: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    let bad = suites
        .iter()
        .find(|s| {
            s.attribute("name")
                .is_some_and(|n| n.starts_with("tests/suites/bad"))
        })
        .expect("the bad suite");
    // 6 cases and one for the suite's unreadable files.
    assert_eq!(
        [
            bad.attribute("tests"),
            bad.attribute("failures"),
            bad.attribute("errors"),
            bad.attribute("skipped")
        ],
        [Some("7"), Some("1"), Some("5"), Some("0")]
    );
    let failure = bad
        .descendants()
        .find(|n| n.has_tag_name("failure"))
        .expect("a failure");
    assert!(
        failure
            .attribute("message")
            .is_some_and(|m| m.starts_with("expected allow, got error"))
    );
    let errors = bad
        .descendants()
        .filter(|n| n.has_tag_name("error"))
        .count();
    assert_eq!(errors, 5);
    // The schema checker itself rejects what the schema rejects.
    assert!(
        !junit_schema::violations("<testsuites><testsuite name=\"x\"/></testsuites>").is_empty()
    );
    assert!(
        !junit_schema::violations(
            "<testsuite name=\"x\" tests=\"1\" failures=\"0\" errors=\"0\" time=\"1s\"/>"
        )
        .is_empty()
    );
}

#[test]
fn a_mutate_diff_is_the_failure_text_in_junit() {
    let (_, stdout, _) = run(&[
        "test",
        "tests/kaptest_current/rejected/missing.yaml",
        "--format",
        "junit",
    ]);
    assert!(junit_schema::violations(&stdout).is_empty(), "{stdout}");
    assert!(
        stdout.contains("object (- expected, + actual):\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("-    &quot;name&quot;: &quot;five&quot;"),
        "{stdout}"
    );
}

#[test]
fn a_named_file_that_is_not_a_suite_is_warned_about() {
    let (code, _, stderr) = run(&[
        "test",
        "examples/tests/required-labels.test.yaml",
        "tests/cli_fixtures/deployment.yaml",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        stderr,
        "admission-ls test: warning: tests/cli_fixtures/deployment.yaml holds no `kind: PolicyTest` document and no kaptest manifest; skipped\n"
    );
}

/// `--format compact`: a `path:line:column: error:` line per failing or errored case and suite
/// error (the lines Emacs' compilation-mode and Vim's `errorformat` step through), the rest of a
/// message indented, passing cases left out.
#[test]
fn compact_format_gives_one_location_line_per_failure() {
    let (code, stdout, _) = run(&[
        "test",
        "tests/suites/custom_resources_failing",
        "tests/kaptest_current/kaptest.yaml",
        "--format",
        "compact",
    ]);
    assert_eq!(code, 1);
    expect![[r#"
        tests/suites/custom_resources_failing/wrong.test.yaml:6:3: error: wrong expectations › expected valid but a rule fails failed: expected valid, got invalid: spec.size: Invalid value: size 7 needs mode slow
        tests/suites/custom_resources_failing/wrong.test.yaml:13:3: error: wrong expectations › expected other errors failed: expected invalid, got valid
            errors: expected ["spec: Required value"], got []
        tests/suites/custom_resources_failing/wrong.test.yaml:20:3: error: wrong expectations › a kind no CRD serves could not run: no CustomResourceDefinition in the suite's resources serves example.com/v2, Kind=Widget
        18 passed, 2 failed, 1 errored in …ms
    "#]]
    .assert_eq(&timeless(&stdout));
}

/// `--format json` places each case (`line`, `column`, 1-based) and gives a failed comparison's
/// two sides as `expected` and `actual`.
#[test]
fn json_places_each_case_and_splits_expected_from_actual() {
    let (_, stdout, _) = run(&[
        "test",
        "tests/suites/custom_resources_failing",
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let case = &json["suites"][0]["cases"][1];
    assert_eq!(
        (case["line"].as_u64(), case["column"].as_u64()),
        (Some(13), Some(3))
    );
    assert_eq!(
        case["expected"],
        "decision: invalid\nerrors: [\"spec: Required value\"]"
    );
    assert_eq!(case["actual"], "decision: valid\nerrors: []");
}
