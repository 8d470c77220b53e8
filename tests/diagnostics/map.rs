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
    jsonPatch: {{expression: "[JSONPatch{{op: 'test', path: '/spec', value: object.spec}}]"}}
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
        expect![[r#"
            policy.yaml:5:18: error[not-supported] (refused on create): spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"
              |
            5 |   failurePolicy: Sometimes
              |                  ^^^^^^^^^
            policy.yaml:6:23: error[not-supported] (refused on create): spec.reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"
              |
            6 |   reinvocationPolicy: Always
              |                       ^^^^^^
            policy.yaml:9:65: error[not-supported] (refused on create): spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"
              |
            9 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, DELETE, PATCH], resources: [pods]}
              |                                                                 ^^^^^^
            policy.yaml:9:73: error[not-supported] (refused on create): spec.matchConstraints.resourceRules.operations: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "UPDATE"
              |
            9 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, DELETE, PATCH], resources: [pods]}
              |                                                                         ^^^^^
            policy.yaml:9:73: error[not-supported] (refused on create): spec.matchConstraints.resourceRules[0].operations[2]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"
              |
            9 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, DELETE, PATCH], resources: [pods]}
              |                                                                         ^^^^^
            policy.yaml:11:5: error[required] (refused on create): spec.mutations[0].jsonPatch: Required value: must be specified when patchType is JSONPatch
               |
            11 |   - patchType: JSONPatch
               |     ^^^^^^^^^^^^^^^^^^^^
            policy.yaml:12:5: error[invalid] (refused on create): spec.mutations[0].applyConfiguration: Invalid value: "{applyConfiguration}": must not be specified when patchType is JSONPatch
               |
            12 |     applyConfiguration: {expression: "Object{}"}
               |     ^^^^^^^^^^^^^^^^^^
            policy.yaml:14:38: error[required] (refused on create): spec.mutations[1].applyConfiguration.expression: Required value
               |
            14 |     applyConfiguration: {expression: "  "}
               |                                      ^^^^
            policy.yaml:15:5: error[invalid] (refused on create): spec.mutations[1].jsonPatch: Invalid value: "{jsonPatch}": must not be specified when patchType is ApplyConfiguration
               |
            15 |     jsonPatch: {expression: "[]"}
               |     ^^^^^^^^^
            policy.yaml:15:30: error[cel-result-type] (refused on create): spec.mutations[1].jsonPatch.expression: must evaluate to list(JSONPatch) but got list(dyn)
               |
            15 |     jsonPatch: {expression: "[]"}
               |                              ^^
            policy.yaml:16:16: error[not-supported] (refused on create): spec.mutations[2].patchType: Unsupported value: "Strategic": supported values: "ApplyConfiguration", "JSONPatch"
               |
            16 |   - patchType: Strategic
               |                ^^^^^^^^^
            policy.yaml:17:5: error[required] (refused on create): spec.mutations[3].patchType: Required value
               |
            17 |   - jsonPatch: {expression: "[]"}
               |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:17:30: error[cel-result-type] (refused on create): spec.mutations[3].jsonPatch.expression: must evaluate to list(JSONPatch) but got list(dyn)
               |
            17 |   - jsonPatch: {expression: "[]"}
               |                              ^^
        "#]],
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
        expect![[r#"
            policy.yaml:4:1: error[required] (refused on create): spec.mutations: Required value: mutations must contain at least one item
              |
            4 | spec:
              | ^^^^
            policy.yaml:4:1: error[required] (refused on create): spec.reinvocationPolicy: Required value
              |
            4 | spec:
              | ^^^^
        "#]],
    );
}

#[test]
fn api_versions_the_target_version_does_not_serve() {
    // MAP v1alpha1 is first served by 1.32; VAP v1beta1 was removed in 1.34 (the bundled schemas of each version).
    check_diagnostics(
        r#"
#- /map.yaml k8s:1.31
apiVersion: admissionregistration.k8s.io/v1alpha1
kind: MutatingAdmissionPolicy
metadata: {name: early}
spec:
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: "Object{}"}
#- /vap.yaml k8s:1.34
apiVersion: admissionregistration.k8s.io/v1beta1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: late}
spec: {policyName: p, validationActions: [Deny]}
#- /vap-1.33.yaml k8s:1.33
apiVersion: admissionregistration.k8s.io/v1beta1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: still-served}
spec: {policyName: p, validationActions: [Deny]}
"#,
        expect![[r#"
            map.yaml:1:13: error[not-supported] (refused on create): apiVersion: Unsupported value: "admissionregistration.k8s.io/v1alpha1": MutatingAdmissionPolicy v1alpha1 is not served by Kubernetes 1.31; it is first served by 1.32
              |
            1 | apiVersion: admissionregistration.k8s.io/v1alpha1
              |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            map.yaml:4:1: error[required] (refused on create): spec.matchConstraints: Required value
              |
            4 | spec:
              | ^^^^
            vap.yaml:1:13: error[not-supported] (refused on create): apiVersion: Unsupported value: "admissionregistration.k8s.io/v1beta1": ValidatingAdmissionPolicyBinding v1beta1 is not served by Kubernetes 1.34; it was last served by 1.33
              |
            1 | apiVersion: admissionregistration.k8s.io/v1beta1
              |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            vap.yaml:4:20: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'p' in the workspace
              |
            4 | spec: {policyName: p, validationActions: [Deny]}
              |                    ^
            vap-1.33.yaml:4:20: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'p' in the workspace
              |
            4 | spec: {policyName: p, validationActions: [Deny]}
              |                    ^
        "#]],
    );
}
