//! Static admission manifests marked by their name: from Kubernetes 1.37 (feature
//! ManifestBasedAdmissionControlConfig on by default) a name ending in `.static.k8s.io` can only be
//! a file of the API server's `staticManifestsDir` (the API refuses such names:
//! k/k `pkg/apis/admissionregistration/validation/static_suffix.go`), so the manifest loader's rules
//! apply (kubernetes/apiserver `pkg/admission/plugin/policy/manifest/loader/loader.go`,
//! `webhook/manifest/loader/loader.go`). Folders marked in `.admission-ls.yaml` are tested in
//! `tests/cli_config.rs`.

use crate::{check_diagnostics, check_diagnostics_at};
use expect_test::expect;

const STATIC_POLICY_AND_BINDING: &str = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: deny-privileged.static.k8s.io
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: "true"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: deny-privileged.static.k8s.io
spec:
  policyName: deny-privileged
  paramRef: {name: limits, parameterNotFoundAction: Deny}
  validationActions: [Deny]
"#;

/// paramKind, paramRef and a policyName without the suffix are refused by the loader.
#[test]
fn a_static_policy_and_binding_break_the_loader_rules() {
    check_diagnostics(
        STATIC_POLICY_AND_BINDING,
        expect![[r#"
            policy.yaml:6:3: error[static-manifest] (refused on create): ValidatingAdmissionPolicy "deny-privileged.static.k8s.io": spec.paramKind is not supported for static manifests
              |
            6 |   paramKind: {apiVersion: v1, kind: ConfigMap}
              |   ^^^^^^^^^
            policy.yaml:18:15: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'deny-privileged' in the workspace
               |
            18 |   policyName: deny-privileged
               |               ^^^^^^^^^^^^^^^
            policy.yaml:18:15: error[static-manifest] (refused on create): ValidatingAdmissionPolicyBinding "deny-privileged.static.k8s.io": spec.policyName "deny-privileged" must end with ".static.k8s.io"
               |
            18 |   policyName: deny-privileged
               |               ^^^^^^^^^^^^^^^
            policy.yaml:19:3: error[static-manifest] (refused on create): ValidatingAdmissionPolicyBinding "deny-privileged.static.k8s.io": spec.paramRef is not supported for static manifests
               |
            19 |   paramRef: {name: limits, parameterNotFoundAction: Deny}
               |   ^^^^^^^^
        "#]],
    );
}

/// Before 1.37 the suffix is an ordinary name: nothing of the loader applies.
#[test]
fn before_1_37_the_suffix_marks_nothing() {
    check_diagnostics_at(
        36,
        STATIC_POLICY_AND_BINDING,
        expect![[r#"
            policy.yaml:18:15: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'deny-privileged' in the workspace
               |
            18 |   policyName: deny-privileged
               |               ^^^^^^^^^^^^^^^
        "#]],
    );
}

/// A static webhook configuration calls a URL; a service reference or no URL is refused.
#[test]
fn a_static_webhook_must_use_a_url() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: hooks.static.k8s.io
webhooks:
- name: service.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig:
    service: {name: hook, namespace: system}
- name: url.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig:
    url: https://hook.example.com/validate
"#,
        expect![[r#"
            policy.yaml:10:5: error[static-manifest] (refused on create): webhook "service.example.com" in "hooks.static.k8s.io": clientConfig.service is not supported for static manifests; use clientConfig.url instead
               |
            10 |     service: {name: hook, namespace: system}
               |     ^^^^^^^
        "#]],
    );
}

/// Only admissionregistration.k8s.io/v1 is decoded into the types the loader accepts.
#[test]
fn a_static_manifest_of_another_version_is_unsupported() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1alpha1
kind: MutatingAdmissionPolicy
metadata:
  name: add-label.static.k8s.io
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{}"
"#,
        expect![[r#"
            policy.yaml:1:13: error[static-manifest] (refused on create): unsupported resource type admissionregistration.k8s.io/v1alpha1, Kind=MutatingAdmissionPolicy; a static manifest is an admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy, MutatingAdmissionPolicy, their bindings, a ValidatingWebhookConfiguration or MutatingWebhookConfiguration, or a List of them
              |
            1 | apiVersion: admissionregistration.k8s.io/v1alpha1
              |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:5:1: error[required] (refused on create): spec.reinvocationPolicy: Required value
              |
            5 | spec:
              | ^^^^
        "#]],
    );
}

/// A clean static policy and binding (the shape of the KEP's example).
#[test]
fn a_clean_static_policy_and_binding() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: deny-privileged.static.k8s.io
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [pods]}
  validations:
  - expression: "object.spec.containers.all(c, !has(c.securityContext) || !has(c.securityContext.privileged) || !c.securityContext.privileged)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: deny-privileged-binding.static.k8s.io
spec:
  policyName: deny-privileged.static.k8s.io
  validationActions: [Deny]
"#,
        expect![""],
    );
}
