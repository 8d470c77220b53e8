//! Binding fixtures: policyName, paramRef, validationActions and the MutatingAdmissionPolicyBinding
//! DELETE restriction.

use crate::{check_diagnostics, check_diagnostics_at};
use expect_test::expect;

#[test]
fn valid_bindings_are_clean() {
    check_diagnostics_at(
        31,
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
        expect![[r#"
            policy.yaml:5:15: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'demo.example.com' in the workspace
              |
            5 |   policyName: demo.example.com
              |               ^^^^^^^^^^^^^^^^
            policy.yaml:13:15: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'demo' in the workspace
               |
            13 |   policyName: demo
               |               ^^^^
        "#]],
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
        expect![[r#"
            policy.yaml:4:1: error[required] (refused on create): spec.policyName: Required value
              |
            4 | spec:
              | ^^^^
            policy.yaml:5:22: error[required] (refused on create): spec.validationActions: Required value: at least one validation action is required
              |
            5 |   validationActions: []
              |                      ^^
            policy.yaml:11:15: error[invalid] (refused on create): spec.policyName: Invalid value: "Not_A_Policy": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
               |
            11 |   policyName: Not_A_Policy
               |               ^^^^^^^^^^^^
            policy.yaml:11:15: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'Not_A_Policy' in the workspace
               |
            11 |   policyName: Not_A_Policy
               |               ^^^^^^^^^^^^
            policy.yaml:12:22: error[invalid] (refused on create): spec.validationActions: Invalid value: ["Deny","Warn","Deny","Block"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)
               |
            12 |   validationActions: [Deny, Warn, Deny, Block]
               |                      ^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:12:35: error[duplicate] (refused on create): spec.validationActions[2]: Duplicate value: "Deny"
               |
            12 |   validationActions: [Deny, Warn, Deny, Block]
               |                                   ^^^^
            policy.yaml:12:41: error[not-supported] (refused on create): spec.validationActions[3]: Unsupported value: "Block": supported values: "Audit", "Deny", "Warn"
               |
            12 |   validationActions: [Deny, Warn, Deny, Block]
               |                                         ^^^^^
            policy.yaml:17:1: error[required] (refused on create): spec.validationActions: Required value: at least one validation action is required
               |
            17 | spec:
               | ^^^^
            policy.yaml:18:15: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'demo' in the workspace
               |
            18 |   policyName: demo
               |               ^^^^
        "#]],
    );
}

#[test]
fn param_ref_rules() {
    check_diagnostics_at(
        31,
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
        expect![[r#"
            policy.yaml:5:15: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'demo' in the workspace
              |
            5 |   policyName: demo
              |               ^^^^
            policy.yaml:8:11: error[invalid] (refused on create): spec.paramRef.name: Invalid value: "a/b": may not contain '/'
              |
            8 |     name: "a/b"
              |           ^^^^^
            policy.yaml:8:11: error[forbidden] (refused on create): spec.paramRef.name: Forbidden: name and selector are mutually exclusive
              |
            8 |     name: "a/b"
              |           ^^^^^
            policy.yaml:9:5: error[forbidden] (refused on create): spec.paramRef.selector: Forbidden: name and selector are mutually exclusive
              |
            9 |     selector: {matchLabels: {"bad key!": x}}
              |     ^^^^^^^^
            policy.yaml:9:30: error[invalid] (refused on create): spec.paramRef.selector.matchLabels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
              |
            9 |     selector: {matchLabels: {"bad key!": x}}
              |                              ^^^^^^^^^^
            policy.yaml:10:30: error[not-supported] (refused on create): spec.paramRef.parameterNotFoundAction: Unsupported value: "Maybe": supported values: "Deny", "Allow"
               |
            10 |     parameterNotFoundAction: Maybe
               |                              ^^^^^
            policy.yaml:16:15: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'demo' in the workspace
               |
            16 |   policyName: demo
               |               ^^^^
            policy.yaml:18:3: error[required] (refused on create): spec.paramRef.parameterNotFoundAction: Required value
               |
            18 |   paramRef:
               |   ^^^^^^^^
            policy.yaml:18:3: error[required] (refused on create): spec.paramRef: Required value: one of name or selector must be specified
               |
            18 |   paramRef:
               |   ^^^^^^^^
        "#]],
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
        expect![[r#"
            policy.yaml:4:1: error[required] (refused on create): spec.policyName: Required value
              |
            4 | spec:
              | ^^^^
            policy.yaml:5:20: error[invalid] (refused on create): spec.paramRef.name: Invalid value: "..": may not be '..'
              |
            5 |   paramRef: {name: "..", parameterNotFoundAction: Allow}
              |                    ^^^^
            policy.yaml:8:65: error[not-supported] (refused on create): spec.matchResources.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"
              |
            8 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, DELETE], resources: [pods]}
              |                                                                 ^^^^^^
            policy.yaml:9:3: warning[unknown-field] (accepted): unknown field "spec.validationActions"
              |
            9 |   validationActions: [Deny]
              |   ^^^^^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn param_ref_namespace_of_a_cluster_scoped_param_kind() {
    check_diagnostics(
        r#"
#- /policies.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: by-namespace}
spec:
  paramKind: {apiVersion: v1, kind: Namespace}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: "true"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: by-tenant}
spec:
  paramKind: {apiVersion: example.com/v1, kind: Tenant}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: "true"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: by-configmap}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: "true"
#- /tenant-crd.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: tenants.example.com}
spec:
  group: example.com
  names: {kind: Tenant, plural: tenants}
  scope: Cluster
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
#- /bindings.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: by-namespace}
spec:
  policyName: by-namespace
  validationActions: [Deny]
  paramRef: {name: kube-system, namespace: default, parameterNotFoundAction: Deny}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: by-tenant}
spec:
  policyName: by-tenant
  validationActions: [Deny]
  paramRef: {name: acme, namespace: default, parameterNotFoundAction: Deny}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: by-configmap}
spec:
  policyName: by-configmap
  validationActions: [Deny]
  paramRef: {name: limits, namespace: default, parameterNotFoundAction: Deny}
"#,
        expect![[r#"
            bindings.yaml:7:44: error[forbidden] (fails at admission): spec.paramRef.namespace: Forbidden: paramRef.namespace must not be provided for a cluster-scoped `paramKind` (/v1, Kind=Namespace)
              |
            7 |   paramRef: {name: kube-system, namespace: default, parameterNotFoundAction: Deny}
              |                                            ^^^^^^^
            bindings.yaml:15:37: error[forbidden] (fails at admission): spec.paramRef.namespace: Forbidden: paramRef.namespace must not be provided for a cluster-scoped `paramKind` (example.com/v1, Kind=Tenant)
               |
            15 |   paramRef: {name: acme, namespace: default, parameterNotFoundAction: Deny}
               |                                     ^^^^^^^
        "#]],
    );
}

#[test]
fn param_ref_name_resolves_against_the_workspace_objects() {
    check_diagnostics(
        r#"
#- /policy.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: "true"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: quotas}
spec:
  paramKind: {apiVersion: v1, kind: Secret}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: "true"
#- /params.yaml
apiVersion: v1
kind: ConfigMap
metadata: {name: replica-limits, namespace: policies}
data: {max: "3"}
#- /bindings.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: found}
spec:
  policyName: replicas
  validationActions: [Deny]
  paramRef: {name: replica-limits, namespace: policies, parameterNotFoundAction: Deny}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: found-in-the-request-namespace}
spec:
  policyName: replicas
  validationActions: [Deny]
  paramRef: {name: replica-limits, parameterNotFoundAction: Deny}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: typo}
spec:
  policyName: replicas
  validationActions: [Deny]
  paramRef: {name: replica-limit, namespace: policies, parameterNotFoundAction: Deny}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: other-namespace}
spec:
  policyName: replicas
  validationActions: [Deny]
  paramRef: {name: replica-limits, namespace: default, parameterNotFoundAction: Deny}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: params-kept-elsewhere}
spec:
  policyName: quotas
  validationActions: [Deny]
  paramRef: {name: anything, parameterNotFoundAction: Deny}
"#,
        expect![[r#"
            bindings.yaml:23:20: warning[unresolved-reference] (accepted): spec.paramRef.name: no ConfigMap named 'replica-limit' in namespace 'policies' in the workspace, which has other objects of that kind
               |
            23 |   paramRef: {name: replica-limit, namespace: policies, parameterNotFoundAction: Deny}
               |                    ^^^^^^^^^^^^^
            bindings.yaml:31:20: warning[unresolved-reference] (accepted): spec.paramRef.name: no ConfigMap named 'replica-limits' in namespace 'default' in the workspace, which has other objects of that kind
               |
            31 |   paramRef: {name: replica-limits, namespace: default, parameterNotFoundAction: Deny}
               |                    ^^^^^^^^^^^^^^
        "#]],
    );
}
