//! Bad input (issue 7): a cursor anywhere — in a key, a comment, between documents, inside a
//! broken expression, at the end of the file, on a line with emoji — gives an empty or correct
//! answer from every feature, never a panic.

use admission_ls::ide::{Analysis, AnalysisHost, DiagnosticsConfig, FileId, TextRange, TextSize};

const TEXT: &str = "# 😀 policies
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
  variables:
  - {name: few, expression: \"object.spec.replicas < 5 && '😀' != ''\"}
  validations:
  - expression: |
      variables.few && object.spec.( && size(
    message: \"😀 object.spec\"
  - expression: 'Object{spec: '
  - expression: \"object.spec.template.spec.securityContext.runAsNonRoot && !object.spec.template.spec.containers.all(c, c.image.indexOf('😀', \"
    messageExpression: \"object.metadata.?name.orValue('') + string(object.spec.replicas\"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: b}
spec: {policyName: demo, validationActions: [Deny], paramRef: {name: cfg, namespace: ns}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: ns}
";

/// Policy YAML being typed: half keys, empty items, flow mappings, missing required fields,
/// an unknown version, a comment between documents and no newline at the end.
const KEYS: &str = "apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: m, 😀: x}
spec:
  fail
  matchConstraints:
    resourceRules:
    - operations: [CREATE, ]
      scope:
    - {}
  mutations:
  - patchType: 
  - {patchType: JSONPatch, }
  reinvocationPolicy: N
# 😀 between documents
---
apiVersion: admissionregistration.k8s.io/v9
kind: ValidatingAdmissionPolicyBinding
spec: {policyName: , validationActions: [Deny, , Warn]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
spec:
  paramRef:
    - 
  validationActions: [";

#[test]
fn every_feature_at_every_offset() {
    let analysis = sweep(TEXT);
    let (file, config) = (FileId(0), DiagnosticsConfig::default());
    let whole = TextRange::new(TextSize::from(0), TextSize::of(TEXT));
    assert!(!analysis.semantic_tokens(file).is_empty());
    assert!(!analysis.document_symbols(file).is_empty());
    assert!(!analysis.inlay_hints(file, whole, &config).is_empty());
    assert!(!analysis.workspace_symbols("").is_empty());
}

#[test]
fn every_feature_at_every_offset_of_policy_yaml_being_typed() {
    let analysis = sweep(KEYS);
    let at = KEYS.find("  fail").map_or(0, |i| i + 6);
    let items = analysis.completions(
        FileId(0),
        TextSize::from(at as u32),
        &DiagnosticsConfig::default(),
    );
    assert!(
        items.iter().any(|i| i.label == "failurePolicy"),
        "{items:?}"
    );
}

/// Asks every feature at every offset of `text`; the analysis, for further checks.
fn sweep(text: &str) -> Analysis {
    let mut host = AnalysisHost::new();
    host.set_file(FileId(0), text.into());
    let analysis = host.snapshot();
    let config = DiagnosticsConfig::default();
    let file = FileId(0);
    // Every byte, including those inside a multi-byte character (a front-end bug must not panic).
    for at in 0..=text.len() {
        let offset = TextSize::from(at as u32);
        let _ = analysis.hover(file, offset, &config);
        let _ = analysis.completions(file, offset, &config);
        let _ = analysis.goto_definition(file, offset, &config);
        let _ = analysis.signature_help(file, offset, &config);
        let _ = analysis.references(file, offset);
        let _ = analysis.highlights(file, offset);
        let _ = analysis.prepare_rename(file, offset, &config);
        let _ = analysis.rename(file, offset, "renamed", &config);
        let _ = analysis.code_actions(file, TextRange::empty(offset), &config);
    }
    analysis
}

/// Webhook match conditions being typed: a broken one, a block scalar with leading blanks (the
/// API server compiles the trimmed text), emoji, an empty one, a webhook without rules.
const WEBHOOKS: &str = "apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: hooks}
webhooks:
- name: a.example.com
  rules:
  - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
  matchConditions:
  - name: broken
    expression: \"object.spec.( && '😀'.startsWith(\"
  - name: block
    expression: |4-
         
        request.userInfo.username != '😀' && object.spec.replicas > 1
  - name: empty
    expression: ''
- name: b.example.com
  matchConditions:
  - {name: x, expression: 'request.'}
";

#[test]
fn every_feature_at_every_offset_of_webhook_match_conditions() {
    let analysis = sweep(WEBHOOKS);
    let at = WEBHOOKS.find("replicas > 1").map_or(0, |i| i + 2);
    let hover = analysis.hover(
        FileId(0),
        TextSize::from(at as u32),
        &DiagnosticsConfig::default(),
    );
    let markdown = hover.map(|h| h.markdown).unwrap_or_default();
    assert!(markdown.contains("apps.v1.Deployment.spec"), "{markdown}");
}
