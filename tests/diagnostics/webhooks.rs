//! ValidatingWebhookConfiguration and MutatingWebhookConfiguration: the webhook's structure as
//! the API server validates it (k/k `pkg/apis/admissionregistration/validation/validation.go`,
//! `validateWebhook`), and its `matchConditions` compiled with `object`, `oldObject`, `request` and
//! `authorizer` (no `params`, no `variables`), then typed against the kinds its `rules` match.

use crate::check_diagnostics;
use expect_test::expect;

/// A webhook as cert-manager-style charts ship it: clean.
#[test]
fn published_style_webhook_is_clean() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: example-webhook
webhooks:
- name: webhook.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  timeoutSeconds: 30
  failurePolicy: Fail
  matchPolicy: Equivalent
  clientConfig:
    service: {name: example-webhook, namespace: example, path: /validate}
  rules:
  - apiGroups: [apps]
    apiVersions: [v1]
    operations: [CREATE, UPDATE]
    resources: [deployments]
  matchConditions:
  - name: exclude-leases
    expression: '!(request.resource.group == "coordination.k8s.io" && request.resource.resource == "leases")'
  - name: not-kube-system
    expression: object.metadata.namespace != 'kube-system'
  - name: has-replicas
    expression: has(object.spec.replicas) && object.spec.replicas > 0
  - name: authorized
    expression: authorizer.group('apps').resource('deployments').namespace('x').check('get').allowed()
"#,
        expect![[r#""#]],
    );
}

/// The structural rules of a webhook.
#[test]
fn webhook_structure() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: example-webhook
webhooks:
- name: webhook
  admissionReviewVersions: [v2]
  timeoutSeconds: 45
  failurePolicy: Never
  matchPolicy: Loose
  reinvocationPolicy: Always
  clientConfig:
    url: https://example.com/mutate
    service: {name: example-webhook, namespace: example}
  rules:
  - apiGroups: [""]
    apiVersions: [v1]
    operations: [PATCH]
    resources: [pods]
  matchConditions:
  - name: "not a name"
    expression: "true"
  - name: twice
    expression: "true"
  - name: twice
    expression: " "
- name: webhook.example.com
  sideEffects: Some
  admissionReviewVersions: [v1, v1]
  clientConfig: {}
- name: webhook.example.com
  sideEffects: None
  admissionReviewVersions: [v1]
  clientConfig: {url: https://example.com}
"#,
        expect![[r#"
            policy.yaml:6:3: error[required] (refused on create): webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun
              |
            6 | - name: webhook
              |   ^^^^^^^^^^^^^
            policy.yaml:6:9: error[invalid] (refused on create): webhooks[0].name: Invalid value: "webhook": should be a domain with at least three segments separated by dots
              |
            6 | - name: webhook
              |         ^^^^^^^
            policy.yaml:7:28: error[invalid] (refused on create): webhooks[0].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1
              |
            7 |   admissionReviewVersions: [v2]
              |                            ^^^^
            policy.yaml:8:19: error[invalid] (refused on create): webhooks[0].timeoutSeconds: Invalid value: 45: the timeout value must be between 1 and 30 seconds
              |
            8 |   timeoutSeconds: 45
              |                   ^^
            policy.yaml:9:18: error[not-supported] (refused on create): webhooks[0].failurePolicy: Unsupported value: "Never": supported values: "Fail", "Ignore"
              |
            9 |   failurePolicy: Never
              |                  ^^^^^
            policy.yaml:10:16: error[not-supported] (refused on create): webhooks[0].matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"
               |
            10 |   matchPolicy: Loose
               |                ^^^^^
            policy.yaml:11:23: error[not-supported] (refused on create): webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"
               |
            11 |   reinvocationPolicy: Always
               |                       ^^^^^^
            policy.yaml:12:3: error[required] (refused on create): webhooks[0].clientConfig: Required value: exactly one of url or service is required
               |
            12 |   clientConfig:
               |   ^^^^^^^^^^^^
            policy.yaml:18:18: error[not-supported] (refused on create): webhooks[0].rules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"
               |
            18 |     operations: [PATCH]
               |                  ^^^^^
            policy.yaml:21:11: error[invalid] (refused on create): webhooks[0].matchConditions[0].name: Invalid value: "not a name": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
               |
            21 |   - name: "not a name"
               |           ^^^^^^^^^^^^
            policy.yaml:25:11: error[duplicate] (refused on create): webhooks[0].matchConditions[2].name: Duplicate value: "twice"
               |
            25 |   - name: twice
               |           ^^^^^
            policy.yaml:26:17: error[required] (refused on create): webhooks[0].matchConditions[2].expression: Required value
               |
            26 |     expression: " "
               |                 ^^^
            policy.yaml:28:16: error[not-supported] (refused on create): webhooks[1].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"
               |
            28 |   sideEffects: Some
               |                ^^^^
            policy.yaml:29:33: error[duplicate] (refused on create): webhooks[1].admissionReviewVersions[1]: Duplicate value: "v1"
               |
            29 |   admissionReviewVersions: [v1, v1]
               |                                 ^^
            policy.yaml:30:3: error[required] (refused on create): webhooks[1].clientConfig: Required value: exactly one of url or service is required
               |
            30 |   clientConfig: {}
               |   ^^^^^^^^^^^^
            policy.yaml:31:9: error[duplicate] (refused on create): webhooks[2].name: Duplicate value: "webhook.example.com"
               |
            31 | - name: webhook.example.com
               |         ^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// CEL in match conditions: no params, no variables, a bool result, and typed against the kinds
/// the rules match.
#[test]
fn match_condition_cel() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: example-webhook
webhooks:
- name: webhook.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig: {url: https://example.com}
  rules:
  - apiGroups: [apps]
    apiVersions: [v1]
    operations: [CREATE]
    resources: [deployments]
  - apiGroups: [""]
    apiVersions: [v1]
    operations: [CREATE]
    resources: [pods, podz]
  matchConditions:
  - name: params
    expression: params.x == 1
  - name: variables
    expression: variables.x
  - name: not-bool
    expression: object.metadata.name
  - name: typed
    expression: object.spec.replica > 1
  - name: syntax
    expression: object.metadata.name ==
  # Declared, as in a policy (apiserver pkg/admission/plugin/cel/compile.go, createEnvForOpts).
  - name: namespace
    expression: namespaceObject.metadata.name == 'x'
"#,
        expect![[r#"
            policy.yaml:18:23: warning[unresolved-reference] (accepted): webhooks[0].rules[1].resources[1]: no resource 'podz' in API group "" version v1 of Kubernetes 1.37 (bundled) or of a CustomResourceDefinition in the workspace: the rule matches nothing and the typed check could not run for it; did you mean `pods`?
               |
            18 |     resources: [pods, podz]
               |                       ^^^^
            policy.yaml:21:17: error[cel-undeclared] (refused on create): webhooks[0].matchConditions[0].expression: undeclared reference to 'params' (in container '')
               |
            21 |     expression: params.x == 1
               |                 ^^^^^^
            policy.yaml:23:17: error[cel-undeclared] (refused on create): webhooks[0].matchConditions[1].expression: undeclared reference to 'variables' (in container '')
               |
            23 |     expression: variables.x
               |                 ^^^^^^^^^
            policy.yaml:25:17: error[cel-result-type] (refused on create): webhooks[0].matchConditions[2].expression: must evaluate to bool but got dyn
               |
            25 |     expression: object.metadata.name
               |                 ^^^^^^^^^^^^^^^^^^^^
            policy.yaml:27:29: error[cel-undefined-field] (fails at admission): webhooks[0].matchConditions[3].expression: undefined field 'replica' (in /v1, Kind=Pod)
               |
            27 |     expression: object.spec.replica > 1
               |                             ^^^^^^^
            policy.yaml:27:29: error[cel-undefined-field] (fails at admission): webhooks[0].matchConditions[3].expression: undefined field 'replica'; did you mean 'replicas'? (in apps/v1, Kind=Deployment)
               |
            27 |     expression: object.spec.replica > 1
               |                             ^^^^^^^
            policy.yaml:29:40: error[cel-syntax] (refused on create): webhooks[0].matchConditions[4].expression: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
               |
            29 |     expression: object.metadata.name ==
               |                                        ^
        "#]],
    );
}
