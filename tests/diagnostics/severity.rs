//! The severity model: what each finding predicts the API server does. Typed-check findings that
//! evaluation on the JSON-shaped objects survives are warnings (the API server only reports them in
//! `status.typeChecking`, apiserver `pkg/admission/plugin/policy/validating/typechecking.go`);
//! those every evaluation fails on are errors; `strict` makes the warnings errors.

use crate::{check_diagnostics, check_diagnostics_with};
use admission_ls::ide::DiagnosticsConfig;
use expect_test::expect;

/// A policy for ConfigMaps with `validations` to follow.
fn config_map_policy(validations: &str) -> String {
    let head = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  validations:
"#;
    format!("{head}{validations}")
}

/// Each of these evaluates without error on every ConfigMap: an optional's `orValue(null)`, `in`,
/// `[k]` and `all()` on `metadata` (a map at run time), a ternary over two object types,
/// heterogeneous equality (`false`, not an error), and a list literal of two `dyn` values at
/// create that the typed checker sees as string and map (the API server's
/// `HomogeneousAggregateLiterals` is a checker option: nothing checks it at run time). The `in
/// object.metadata` and `data[k] == true` cases are reduced from datreeio/validating-admission-policy
/// `policies/CVE/vap-cve-001/policy.yaml`, reported as four errors before.
#[test]
fn findings_evaluation_survives_are_typed_check_warnings() {
    let fixture = config_map_policy(
        r#"  - expression: "object.metadata.?name.orValue(null) != null"
  - expression: "'name' in object.metadata"
  - expression: "object.metadata.all(k, k != 'x')"
  - expression: "object.metadata['name'] != ''"
  - expression: "(has(object.data) ? object.metadata : object.metadata.ownerReferences[0]) != null"
  - expression: "object.data['k'] == true"
  - expression: "[object.metadata.name, object.data].size() == 2"
"#,
    );
    check_diagnostics(
        &fixture,
        expect![[r#"
        policy.yaml:9:40: warning[cel-no-overload] (typed check only): spec.validations[0].expression: found no matching overload for 'orValue' applied to 'optional_type(string).(null)' (in /v1, Kind=ConfigMap)
          |
        9 |   - expression: "object.metadata.?name.orValue(null) != null"
          |                                        ^^^^^^^
        policy.yaml:10:25: warning[cel-no-overload] (typed check only): spec.validations[1].expression: found no matching overload for '@in' applied to '(string, core.v1.ConfigMap.metadata)' (in /v1, Kind=ConfigMap)
           |
        10 |   - expression: "'name' in object.metadata"
           |                         ^^
        policy.yaml:11:18: warning[cel-type] (typed check only): spec.validations[2].expression: expression of type 'core.v1.ConfigMap.metadata' cannot be range of a comprehension (must be list, map, or dynamic) (in /v1, Kind=ConfigMap)
           |
        11 |   - expression: "object.metadata.all(k, k != 'x')"
           |                  ^^^^^^^^^^^^^^^
        policy.yaml:12:33: warning[cel-no-overload] (typed check only): spec.validations[3].expression: found no matching overload for '_[_]' applied to '(core.v1.ConfigMap.metadata, string)' (in /v1, Kind=ConfigMap)
           |
        12 |   - expression: "object.metadata['name'] != ''"
           |                                 ^
        policy.yaml:14:35: warning[cel-no-overload] (typed check only): spec.validations[5].expression: found no matching overload for '_==_' applied to '(string, bool)' (in /v1, Kind=ConfigMap)
           |
        14 |   - expression: "object.data['k'] == true"
           |                                   ^^
        policy.yaml:15:41: warning[cel-type] (typed check only): spec.validations[6].expression: expected type 'string' but found 'map(string, string)' (in /v1, Kind=ConfigMap)
           |
        15 |   - expression: "[object.metadata.name, object.data].size() == 2"
           |                                         ^^^^^^^^^^^
    "#]],
    );
}

/// Each of these fails on every ConfigMap: a field the kind cannot have (`no such key`), an
/// ordering of an int and a string (no overload at run time either), a field of a string.
#[test]
fn findings_every_evaluation_fails_on_are_errors() {
    let fixture = config_map_policy(
        r#"  - expression: "object.metadata.nam != ''"
  - expression: "size(object.data) <= object.metadata.name"
  - expression: "object.metadata.name.first == 'a'"
"#,
    );
    check_diagnostics(
        &fixture,
        expect![[r#"
        policy.yaml:9:34: error[cel-undefined-field] (fails at admission): spec.validations[0].expression: undefined field 'nam'; did you mean 'name'? (in /v1, Kind=ConfigMap)
          |
        9 |   - expression: "object.metadata.nam != ''"
          |                                  ^^^
        policy.yaml:10:36: error[cel-no-overload] (fails at admission): spec.validations[1].expression: found no matching overload for '_<=_' applied to '(int, string)' (in /v1, Kind=ConfigMap)
           |
        10 |   - expression: "size(object.data) <= object.metadata.name"
           |                                    ^^
        policy.yaml:11:39: error[cel-type] (fails at admission): spec.validations[2].expression: type 'string' does not support field selection (in /v1, Kind=ConfigMap)
           |
        11 |   - expression: "object.metadata.name.first == 'a'"
           |                                       ^^^^^
    "#]],
    );
}

#[test]
fn strict_makes_typed_check_warnings_errors() {
    let fixture = config_map_policy(
        r#"  - expression: "object.data['k'] == true"
"#,
    );
    let config = DiagnosticsConfig {
        strict: true,
        ..DiagnosticsConfig::default()
    };
    check_diagnostics_with(
        &fixture,
        &config,
        expect![[r#"
        policy.yaml:9:35: error[cel-no-overload] (typed check only): spec.validations[0].expression: found no matching overload for '_==_' applied to '(string, bool)' (in /v1, Kind=ConfigMap)
          |
        9 |   - expression: "object.data['k'] == true"
          |                                   ^^
    "#]],
    );
}

/// A policy for Deployments, Jobs and CronJobs with `validations` to follow.
fn workload_policy(validations: &str) -> String {
    let head = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: workloads}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
    - {apiGroups: [batch], apiVersions: [v1], operations: [CREATE], resources: [jobs, cronjobs]}
  validations:
"#;
    format!("{head}{validations}")
}

/// The branch a kind test leaves to CronJobs misses a level (`jobTemplate.spec.volumes`), so
/// every CronJob request fails with `no such key`; the other kinds never evaluate it. Reported for
/// CronJob only, whether the guard is `!=` with `||`, `==` with `&&`, `in`, `request.kind.kind`,
/// a ternary, or `has()` of the field only CronJobs have (required there, so always true).
#[test]
fn a_branch_none_of_the_kinds_its_guard_leaves_can_evaluate_is_an_error() {
    let fixture = workload_policy(
        r#"  - expression: "object.kind != 'CronJob' || object.spec.jobTemplate.spec.volumes.size() < 5"
  - expression: "object.kind == 'CronJob' && object.spec.jobTemplate.spec.volumes.size() < 5 || object.kind != 'CronJob'"
  - expression: "!(request.kind.kind in ['CronJob']) || object.spec.jobTemplate.spec.volumes.size() < 5"
  - expression: "object.kind == 'CronJob' ? object.spec.jobTemplate.spec.volumes.size() < 5 : true"
  - expression: "!has(object.spec.jobTemplate) || object.spec.jobTemplate.spec.volumes.size() < 5"
"#,
    );
    check_diagnostics(
        &fixture,
        expect![[r#"
            policy.yaml:10:75: error[cel-undefined-field] (fails at admission): spec.validations[0].expression: undefined field 'volumes' (in batch/v1, Kind=CronJob)
               |
            10 |   - expression: "object.kind != 'CronJob' || object.spec.jobTemplate.spec.volumes.size() < 5"
               |                                                                           ^^^^^^^
            policy.yaml:11:75: error[cel-undefined-field] (fails at admission): spec.validations[1].expression: undefined field 'volumes' (in batch/v1, Kind=CronJob)
               |
            11 |   - expression: "object.kind == 'CronJob' && object.spec.jobTemplate.spec.volumes.size() < 5 || object.kind != 'CronJob'"
               |                                                                           ^^^^^^^
            policy.yaml:12:86: error[cel-undefined-field] (fails at admission): spec.validations[2].expression: undefined field 'volumes' (in batch/v1, Kind=CronJob)
               |
            12 |   - expression: "!(request.kind.kind in ['CronJob']) || object.spec.jobTemplate.spec.volumes.size() < 5"
               |                                                                                      ^^^^^^^
            policy.yaml:13:74: error[cel-undefined-field] (fails at admission): spec.validations[3].expression: undefined field 'volumes' (in batch/v1, Kind=CronJob)
               |
            13 |   - expression: "object.kind == 'CronJob' ? object.spec.jobTemplate.spec.volumes.size() < 5 : true"
               |                                                                          ^^^^^^^
            policy.yaml:14:80: error[cel-undefined-field] (fails at admission): spec.validations[4].expression: undefined field 'volumes' (in batch/v1, Kind=CronJob)
               |
            14 |   - expression: "!has(object.spec.jobTemplate) || object.spec.jobTemplate.spec.volumes.size() < 5"
               |                                                                                ^^^^^^^
        "#]],
    );
}

/// The same guards with the right path are clean, and a guard the kind does not decide
/// (`apiVersion`) keeps the old caution: nothing is reported behind it. A Deployment or Job never
/// takes a `!has(object.spec.template)` branch (the field is required), as in
/// AverageMarcus/common-admission-policies `policies/block-latest-tag/policy.yaml`.
#[test]
fn branches_each_kind_can_evaluate_are_clean() {
    let fixture = workload_policy(
        r#"  - expression: "object.kind != 'CronJob' || object.spec.jobTemplate.spec.template.spec.volumes.size() < 5"
  - expression: "object.kind == 'Deployment' ? object.spec.replicas < 5 : true"
  - expression: "!has(object.spec.jobTemplate) || object.spec.jobTemplate.spec.template.spec.volumes.size() < 5"
  - expression: "object.apiVersion != 'batch/v1' || object.spec.jobTemplate.spec.volumes.size() < 5"
  - expression: "!has(object.spec.template) && object.spec.jobTemplate.spec.suspend == true || has(object.spec.template)"
"#,
    );
    check_diagnostics(&fixture, expect![[r#""#]]);
}

/// Two files of a workspace with a ValidatingAdmissionPolicy of the same name: applying both
/// keeps one. A warning at both names (neither is refused on its own, neither fails at
/// admission); a MutatingAdmissionPolicy of that name is another object and is not counted.
#[test]
fn policies_of_one_kind_sharing_a_name_across_files_are_reported_at_both() {
    let policy = |kind: &str| {
        format!(
            r#"apiVersion: admissionregistration.k8s.io/v1
kind: {kind}
metadata: {{name: replicas}}
spec:
  matchConstraints:
    resourceRules:
    - {{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}}
"#
        )
    };
    let validating = policy("ValidatingAdmissionPolicy")
        + "  validations:\n  - expression: object.spec.replicas < 5\n";
    let mutating = policy("MutatingAdmissionPolicy")
        + "  reinvocationPolicy: Never\n  mutations:\n  - patchType: ApplyConfiguration\n    applyConfiguration: {expression: 'Object{}'}\n";
    let fixture = format!(
        "\n#- /team-a/policy.yaml\n{validating}#- /team-b/policy.yaml\n{validating}#- /mutating.yaml\n{mutating}"
    );
    check_diagnostics(
        &fixture,
        expect![[r#"
        team-a/policy.yaml:3:18: warning[duplicate] (accepted): metadata.name: 2 ValidatingAdmissionPolicy objects in the workspace are named 'replicas'; the API server keeps one object per name, so applying them all leaves only the last one applied (kubectl create refuses the others as AlreadyExists); rename one
          |
        3 | metadata: {name: replicas}
          |                  ^^^^^^^^
        team-b/policy.yaml:3:18: warning[duplicate] (accepted): metadata.name: 2 ValidatingAdmissionPolicy objects in the workspace are named 'replicas'; the API server keeps one object per name, so applying them all leaves only the last one applied (kubectl create refuses the others as AlreadyExists); rename one
          |
        3 | metadata: {name: replicas}
          |                  ^^^^^^^^
    "#]],
    );
}

/// Reduced from AverageMarcus/common-admission-policies `policies/block-latest-tag/policy.yaml`:
/// the branch for Pods (`!has(object.spec.template)`; Deployments always have it, it is required)
/// reads `object.spec.template.spec.initContainers` once a Pod has init containers, so every such
/// Pod fails with `no such key`; Deployments never reach it.
#[test]
fn a_pod_branch_behind_has_of_a_required_field_is_checked_for_pods_only() {
    let fixture = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: block-latest-tag}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: |
      (!has(object.spec.template) && object.spec.containers.all(c, !c.image.endsWith(':latest')) &&
        (!has(object.spec.initContainers) ||
         object.spec.template.spec.initContainers.all(c, !c.image.endsWith(':latest')))) ||
      (has(object.spec.template) && object.spec.template.spec.containers.all(c, !c.image.endsWith(':latest')))
"#;
    check_diagnostics(
        fixture,
        expect![[r#"
        policy.yaml:13:22: error[cel-undefined-field] (fails at admission): spec.validations[0].expression: undefined field 'template' (in /v1, Kind=Pod)
           |
        13 |          object.spec.template.spec.initContainers.all(c, !c.image.endsWith(':latest')))) ||
           |                      ^^^^^^^^
    "#]],
    );
}
