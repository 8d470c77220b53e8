//! Decoding fixtures: unknown fields, repeated keys, values of the wrong kind, and documents around a
//! broken one.

use crate::check_diagnostics;
use expect_test::expect;

#[test]
fn unknown_fields_are_warnings_with_a_suggestion() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a, labels: {team: x}}
spec:
  matchConstraint: {}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods], verbs: [get]}
  validations:
  - expresion: "true"
    expression: "true"
status:
  anything: goes
"#,
        expect![[r#"
            policy.yaml:5:3: warning[unknown-field] (accepted): unknown field "spec.matchConstraint" (did you mean "matchConstraints"?)
              |
            5 |   matchConstraint: {}
              |   ^^^^^^^^^^^^^^^
            policy.yaml:8:85: warning[unknown-field] (accepted): unknown field "spec.matchConstraints.resourceRules[0].verbs"
              |
            8 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods], verbs: [get]}
              |                                                                                     ^^^^^
            policy.yaml:10:5: warning[unknown-field] (accepted): unknown field "spec.validations[0].expresion" (did you mean "expression"?)
               |
            10 |   - expresion: "true"
               |     ^^^^^^^^^
            policy.yaml:13:3: warning[unknown-field] (accepted): unknown field "status.anything"
               |
            13 |   anything: goes
               |   ^^^^^^^^
        "#]],
    );
}

/// kubectl decodes with go-yaml v2 into a map (sigs.k8s.io/yaml `Unmarshal`: duplicate fields are
/// ignored), so the last value of a repeated key is what the API server gets: a warning, and the
/// first value is not checked (its expression would not compile to a bool).
#[test]
fn repeated_keys_are_duplicates() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  failurePolicy: Fail
  failurePolicy: Ignore
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations: [{expression: "1"}]
  validations: [{expression: "true"}]
"#,
        expect![[r#"
            policy.yaml:6:3: warning[duplicate] (accepted): duplicate field "spec.failurePolicy": kubectl keeps the last value
              |
            6 |   failurePolicy: Ignore
              |   ^^^^^^^^^^^^^
            policy.yaml:11:3: warning[duplicate] (accepted): duplicate field "spec.validations": kubectl keeps the last value
               |
            11 |   validations: [{expression: "true"}]
               |   ^^^^^^^^^^^
        "#]],
    );
}

/// The first value of a repeated key never reaches the API server, so its type is not refused
/// either: a number before a string in an annotation map or an object field is only a duplicate.
#[test]
fn the_discarded_value_of_a_repeated_key_is_not_decoded() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: a
  annotations:
    c: 5
    c: fine
spec:
  failurePolicy: [Fail]
  failurePolicy: Ignore
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations: [{expression: "true"}]
"#,
        expect![[r#"
            policy.yaml:7:5: warning[duplicate] (accepted): duplicate field "metadata.annotations.c": kubectl keeps the last value
              |
            7 |     c: fine
              |     ^
            policy.yaml:10:3: warning[duplicate] (accepted): duplicate field "spec.failurePolicy": kubectl keeps the last value
               |
            10 |   failurePolicy: Ignore
               |   ^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn wrong_kinds_stop_validation_like_the_api_server() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: "Not Validated Further"}
spec:
  validations: "object.spec.replicas < 5"
  failurePolicy: [Fail]
  matchConstraints:
    resourceRules:
    - apiGroups: apps
      apiVersions: [v1]
      operations: [CREATE]
      resources: [pods]
      scope: 5
  variables:
  - {name: x, expression: true}
"#,
        expect![[r#"
            policy.yaml:5:16: error[invalid] (refused on create): spec.validations: Invalid value: "object.spec.replicas < 5": expected a list of Validation, not a string
              |
            5 |   validations: "object.spec.replicas < 5"
              |                ^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:6:18: error[invalid] (refused on create): spec.failurePolicy: Invalid value: […]: expected a string, not a list
              |
            6 |   failurePolicy: [Fail]
              |                  ^^^^^^
            policy.yaml:9:18: error[invalid] (refused on create): spec.matchConstraints.resourceRules[0].apiGroups: Invalid value: "apps": expected a list of strings, not a string
              |
            9 |     - apiGroups: apps
              |                  ^^^^
            policy.yaml:13:14: error[invalid] (refused on create): spec.matchConstraints.resourceRules[0].scope: Invalid value: 5: expected a string, not a number
               |
            13 |       scope: 5
               |              ^
            policy.yaml:15:27: error[invalid] (refused on create): spec.variables[0].expression: Invalid value: true: expected a string, not a boolean
               |
            15 |   - {name: x, expression: true}
               |                           ^^^^
        "#]],
    );
}

#[test]
fn a_broken_document_does_not_hide_its_neighbours() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: first}
spec:
  policyName: demo
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: broken
spec: [
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: third}
spec:
  validationActions: [Deny]
"#,
        expect![[r#"
            policy.yaml:4:1: error[required] (refused on create): spec.validationActions: Required value: at least one validation action is required
              |
            4 | spec:
              | ^^^^
            policy.yaml:5:15: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'demo' in the workspace
              |
            5 |   policyName: demo
              |               ^^^^
            policy.yaml:10:5: error[yaml-syntax] (refused on create): while parsing a flow mapping, did not find expected ',' or '}'
               |
            10 | spec: [
               |     ^
            policy.yaml:15:1: error[required] (refused on create): spec.policyName: Required value
               |
            15 | spec:
               | ^^^^
        "#]],
    );
}

#[test]
fn null_values_read_as_absent_and_null_items_as_empty_objects() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
spec:
  failurePolicy: ~
  matchConstraints:
    resourceRules:
    - ~
  validations: [~, {expression: !!str true}]
  variables:
  - name:
    expression: |

"#,
        expect![[r#"
            policy.yaml:3:1: error[required] (refused on create): metadata.name: Required value: name or generateName is required
              |
            3 | metadata:
              | ^^^^^^^^
            policy.yaml:8:7: error[required] (refused on create): spec.matchConstraints.resourceRules[0].apiGroups: Required value
              |
            8 |     - ~
              |       ^
            policy.yaml:8:7: error[required] (refused on create): spec.matchConstraints.resourceRules[0].apiVersions: Required value
              |
            8 |     - ~
              |       ^
            policy.yaml:8:7: error[required] (refused on create): spec.matchConstraints.resourceRules[0].operations: Required value
              |
            8 |     - ~
              |       ^
            policy.yaml:8:7: error[required] (refused on create): spec.matchConstraints.resourceRules[0].resources: Required value
              |
            8 |     - ~
              |       ^
            policy.yaml:9:17: error[required] (refused on create): spec.validations[0].expression: Required value: expression is not specified
              |
            9 |   validations: [~, {expression: !!str true}]
              |                 ^
            policy.yaml:11:5: error[required] (refused on create): spec.variables[0].name: Required value: name is not specified
               |
            11 |   - name:
               |     ^^^^^
            policy.yaml:12:17: error[required] (refused on create): spec.variables[0].expression: Required value: expression is not specified
               |
            12 |     expression: |
               |                 ^
        "#]],
    );
}

/// go-yaml (go.yaml.in/yaml/v2 `scannerc.go`, `yaml_parser_scan_flow_scalar`) checks no
/// indentation inside quoted scalars, so kubectl and the API server take an expression whose
/// continuation line starts left of its key; the CEL in it is checked and an error on the
/// continuation line points there.
#[test]
fn quoted_expression_continued_left_of_its_key() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
    - expression: "object.metadata.name.startsWith('a') &&
  object.metadata.name.size() < 'ten'"
      message: 'name too
 long'
"#,
        expect![[r#"
            policy.yaml:10:31: error[cel-no-overload] (refused on create): spec.validations[0].expression: found no matching overload for '_<_' applied to '(int, string)'
               |
            10 |   object.metadata.name.size() < 'ten'"
               |                               ^
        "#]],
    );
}
