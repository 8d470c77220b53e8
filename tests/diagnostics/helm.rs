//! Helm chart templates and kustomize patches (reduced reproductions of what the charts of Envoy
//! Gateway, Gatekeeper and Kyverno and the `config/crd/patches` of Cluster API hold): template
//! actions are masked so the YAML and CEL around them are checked and no action is a syntax error;
//! a file named as a patch by a kustomization is not a whole document. A fixture's files are the
//! disk: a `Chart.yaml` above `templates/` makes a chart, a `kustomization.yaml` names patches.

use crate::check_diagnostics;
use expect_test::expect;

/// The controls, values, keys, quoted strings, comments and multi-line actions of a chart
/// template are no syntax error; the fields and CEL around them are still checked.
#[test]
fn template_actions_are_masked_and_the_rest_is_checked() {
    check_diagnostics(
        r#"
#- /chart/Chart.yaml
apiVersion: v2
name: chart
version: 0.1.0
#- /chart/templates/policy.yaml
{{/* A policy the chart installs. */}}
{{- if .Values.policy.enabled }}
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: {{ include "chart.fullname" . }}-replicas
  labels:
    {{- include "chart.labels" . | nindent 4 }}
    {{ .Values.extraLabelKey }}: "{{ .Values.extraLabelValue }}"
  annotations: {{ toYaml .Values.annotations
    | nindent 4 }}
spec:
  failurePolicy: {{ .Values.failurePolicy | default "Fail" }}
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
      scopes: "*"
  validations:
  - expression: "object.spec.replicas <= {{ .Values.maxReplicas }}"
  - expression: "object.spec.replicas >"
    message: "{{ .Values.message | default "too many" }}"
{{- end }}
"#,
        expect![[r#"
            chart/templates/policy.yaml:20:7: warning[unknown-field] (accepted): unknown field "spec.matchConstraints.resourceRules[0].scopes" (did you mean "scope"?)
               |
            20 |       scopes: "*"
               |       ^^^^^^
            chart/templates/policy.yaml:23:40: error[cel-syntax] (refused on create): spec.validations[1].expression: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
               |
            23 |   - expression: "object.spec.replicas >"
               |                                        ^
        "#]],
    );
}

/// An action alone on its lines writes YAML of its own (`toYaml`, `include … | nindent`): the
/// mapping it sits in is unknown, so the fields it may write are not reported missing.
#[test]
fn a_block_written_by_an_action_may_hold_the_required_fields() {
    check_diagnostics(
        r#"
#- /Chart.yaml
apiVersion: v2
name: c
version: 1.0.0
#- /templates/binding.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: b
spec:
  {{- toYaml .Values.binding | nindent 2 }}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: p
spec:
  matchConstraints:
{{ include "match" . | indent 4 }}
  validations:
  - expression: "object.spec.replicas > 0"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: no-actions-here
spec: {}
"#,
        expect![[r#"
            templates/binding.yaml:22:1: error[required] (refused on create): spec.policyName: Required value
               |
            22 | spec: {}
               | ^^^^
            templates/binding.yaml:22:1: error[required] (refused on create): spec.validationActions: Required value: at least one validation action is required
               |
            22 | spec: {}
               | ^^^^
        "#]],
    );
}

/// `if`/`else` and `range` choose or repeat lines: the same key in both branches is no duplicate.
#[test]
fn keys_in_both_branches_of_an_if_are_no_duplicates() {
    check_diagnostics(
        r#"
#- /Chart.yaml
name: c
#- /templates/policy.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: p
spec:
  {{- if .Values.strict }}
  failurePolicy: Fail
  {{- else }}
  failurePolicy: Ignore
  {{- end }}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: "true"
"#,
        expect![""],
    );
}

/// A template whose YAML cannot be read even with its actions masked is skipped, once, with the
/// reason; the same text outside a chart is plain YAML, with its syntax errors.
#[test]
fn a_template_that_does_not_parse_once_masked_is_skipped() {
    check_diagnostics(
        r#"
#- /charts/c/Chart.yaml
name: c
#- /charts/c/templates/broken.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: x
 {{ .Values.key }}: y
#- /charts/c/templates/_helpers.tpl
{{- define "c.name" -}}
{{ .Chart.Name }}
{{- end }}
#- /not-a-chart/templates/policy.yaml
{{- if .Values.enabled }}
metadata:
  name: x
{{- end }}
"#,
        expect![[r#"
            charts/c/templates/broken.yaml: note: skipped: a Helm template whose YAML does not parse once its template actions are masked (line 5: while parsing a block mapping, did not find expected key)
            charts/c/templates/_helpers.tpl: note: skipped: a Helm helper template (.tpl): Go template text, not YAML
            not-a-chart/templates/policy.yaml:1:3: error[yaml-syntax] (refused on create): "-" is only valid inside a block
              |
            1 | {{- if .Values.enabled }}
              |   ^
        "#]],
    );
}

/// Cluster API's `config/crd/patches`: strategic-merge patches of a CRD that a kustomization names
/// are not whole CRDs (no `spec.group: required`), but the CEL rules they add are syntax-checked;
/// a policy patch has no required fields and only its CEL syntax is checked (its types are the
/// base's); a JSON 6902 patch is skipped with the reason; a file no kustomization names is read
/// as written.
#[test]
fn kustomize_patches_are_not_whole_documents() {
    check_diagnostics(
        r#"
#- /config/crd/kustomization.yaml
resources:
- bases/widgets.yaml
patches:
- path: patches/webhook_in_widgets.yaml
- path: patches/ops.yaml
patchesStrategicMerge:
- patches/rules.yaml
- patches/policy.yaml
#- /config/crd/patches/webhook_in_widgets.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: ["v1"]
      clientConfig:
        service:
          namespace: system
          name: webhook-service
          path: /convert
#- /config/crd/patches/rules.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        properties:
          spec:
            x-kubernetes-validations:
            - rule: "self.replicas >="
#- /config/crd/patches/policy.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: widgets-policy
spec:
  validations:
  - expression: "object.spec.size >"
  - expression: "object.spec.nosuchfield == 1"
#- /config/crd/patches/ops.yaml
- op: add
  path: /spec/versions/0/schema/openAPIV3Schema/x-kubernetes-validations
  value: [{rule: "self.x >"}]
#- /config/crd/patches/not-named.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  conversion:
    strategy: None
"#,
        expect![[r#"
            config/crd/patches/rules.yaml:13:38: error[cel-syntax] (refused on create): spec.versions[0].schema.openAPIV3Schema.properties.spec.x-kubernetes-validations[0].rule: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
               |
            13 |             - rule: "self.replicas >="
               |                                      ^
            config/crd/patches/policy.yaml:7:36: error[cel-syntax] (refused on create): spec.validations[0].expression: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
              |
            7 |   - expression: "object.spec.size >"
              |                                    ^
            config/crd/patches/ops.yaml: note: skipped: a JSON 6902 patch a kustomization names (a list of operations on another document)
            config/crd/patches/not-named.yaml:6:3: error[invalid] (refused on create): CustomResourceDefinition spec.group: required; its kinds are untyped
              |
            6 |   conversion:
              |   ^^^^^^^^^^^
        "#]],
    );
}

/// An action in a block-scalar expression or in a variable leaves that expression unchecked; the
/// expressions without one, the uses of the variable included, are checked as usual (the field
/// Deployments do not have is still an error).
#[test]
fn an_action_in_an_expression_leaves_only_that_expression_unchecked() {
    check_diagnostics(
        r#"
#- /Chart.yaml
name: c
#- /templates/policy.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: p
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: ["apps"], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  variables:
  - name: max
    expression: "{{ .Values.max }}"
  validations:
  - expression: >-
      object.spec.replicas <= {{ .Values.max }} &&
      object.metadata.name.startsWith(
  - expression: "object.spec.replicas <= variables.max"
  - expression: "object.spec.replicaz > 0"
"#,
        expect![[r#"
            templates/policy.yaml:17:30: error[cel-undefined-field] (fails at admission): spec.validations[2].expression: undefined field 'replicaz'; did you mean 'replicas'? (in apps/v1, Kind=Deployment)
               |
            17 |   - expression: "object.spec.replicaz > 0"
               |                              ^^^^^^^^
        "#]],
    );
}
