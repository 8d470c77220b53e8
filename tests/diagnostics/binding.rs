//! Binding fixtures: policyName, paramRef, validationActions and the MutatingAdmissionPolicyBinding
//! DELETE restriction.

use crate::check_diagnostics;
use expect_test::expect;

#[test]
fn valid_bindings_are_clean() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: by-name}
spec:
  policyName: demo.example.com
  validationActions: [Deny, Audit]
  paramRef: {name: limits, namespace: default, parameterNotFoundAction: Deny}
---
apiVersion: admissionregistration.k8s.io/v1alpha1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: by-selector}
spec:
  policyName: demo
  validationActions: [Warn]
  paramRef:
    selector: {matchLabels: {env: prod}}
"#,
        expect![[r#""#]],
    );
}

#[test]
fn policy_name_and_validation_actions() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: a}
spec:
  validationActions: []
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: b}
spec:
  policyName: Not_A_Policy
  validationActions: [Deny, Warn, Deny, Block]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: c}
spec:
  policyName: demo
"#,
        expect![[r#""#]],
    );
}

#[test]
fn param_ref_rules() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: a}
spec:
  policyName: demo
  validationActions: [Deny]
  paramRef:
    name: "a/b"
    selector: {matchLabels: {"bad key!": x}}
    parameterNotFoundAction: Maybe
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: b}
spec:
  policyName: demo
  validationActions: [Deny]
  paramRef:
    namespace: default
"#,
        expect![[r#""#]],
    );
}

#[test]
fn mutating_binding_rules() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: a}
spec:
  paramRef: {name: "..", parameterNotFoundAction: Allow}
  matchResources:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, DELETE], resources: [pods]}
  validationActions: [Deny]
"#,
        expect![[r#""#]],
    );
}
