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
        expect![[r#""#]],
    );
}

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
  validations: [{expression: "true"}]
"#,
        expect![[r#""#]],
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
        expect![[r#""#]],
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
        expect![[r#""#]],
    );
}
