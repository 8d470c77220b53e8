//! MutatingAdmissionPolicy fixtures: mutations, patch types, reinvocation policy, DELETE.

use crate::check_diagnostics;
use expect_test::expect;

#[test]
fn valid_mutating_policies_are_clean() {
    for version in ["v1alpha1", "v1beta1", "v1"] {
        let text = format!(
            r#"
apiVersion: admissionregistration.k8s.io/{version}
kind: MutatingAdmissionPolicy
metadata: {{name: demo}}
spec:
  reinvocationPolicy: Never
  matchConstraints:
    resourceRules:
    - {{apiGroups: [""], apiVersions: [v1], operations: ["*"], resources: [pods]}}
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration: {{expression: "Object{{}}"}}
  - patchType: JSONPatch
    jsonPatch: {{expression: "[]"}}
"#
        );
        check_diagnostics(&text, expect![[r#""#]]);
    }
}

#[test]
fn mutation_rules() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: a}
spec:
  failurePolicy: Sometimes
  reinvocationPolicy: Always
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, DELETE, PATCH], resources: [pods]}
  mutations:
  - patchType: JSONPatch
    applyConfiguration: {expression: "Object{}"}
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: "  "}
    jsonPatch: {expression: "[]"}
  - patchType: Strategic
  - jsonPatch: {expression: "[]"}
"#,
        expect![[r#""#]],
    );
}

#[test]
fn mutations_and_reinvocation_policy_required() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: a}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
"#,
        expect![[r#""#]],
    );
}
