//! Semantic-token fixtures: one line per token, `kind text`, in file order (`$0` is ignored
//! here but required by the fixture loader).

mod ide_support;

use expect_test::{Expect, expect};

#[track_caller]
fn check_tokens(fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let text = loaded.analysis.file_text(loaded.file).unwrap_or_default();
    let mut actual = String::new();
    for token in loaded.analysis.semantic_tokens(loaded.file) {
        actual.push_str(&format!("{:?} {}\n", token.kind, &text[token.range]));
    }
    expect.assert_eq(&actual);
}

#[test]
fn every_kind_in_quoted_and_block_expressions() {
    check_tokens(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  validations:
  - expression: "object.spec.replicas <= 5 && has(object.metadata.labels)"
  - expression: |
      object.spec.template.spec.containers.all(c,
        c.image.startsWith('registry/') || c.name in ['a', "b"]) == true$0
"#,
        expect![[r#"
            Variable object
            Property spec
            Property replicas
            Operator <=
            Number 5
            Operator &&
            Macro has
            Variable object
            Property metadata
            Property labels
            Variable object
            Property spec
            Property template
            Property spec
            Property containers
            Macro all
            Variable c
            Variable c
            Property image
            Function startsWith
            String 'registry/'
            Operator ||
            Variable c
            Property name
            Keyword in
            String 'a'
            String "b"
            Operator ==
            Keyword true
        "#]],
    );
}

#[test]
fn broken_and_foreign_text() {
    check_tokens("kind: [\n$0", expect![[r#""#]]);
    check_tokens(
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nspec:\n  validations:\n  - expression: 'object.spec. 😀 ('$0\n",
        expect![[r#"
            Variable object
            Property spec
        "#]],
    );
}

/// CRD `x-kubernetes-validations` rules and message expressions are highlighted as CEL (issue 16).
#[test]
fn crd_rules_are_highlighted() {
    check_tokens(
        r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: self.metadata.name.size() < 10$0
          messageExpression: "'too long: ' + self.metadata.name"
"#,
        expect![[r#"
            Variable self
            Property metadata
            Property name
            Function size
            Operator <
            Number 10
            String 'too long: '
            Operator +
            Variable self
            Property metadata
            Property name
        "#]],
    );
}

/// A Kyverno policy's expressions are highlighted too (a document family).
#[test]
fn kyverno_policy_expressions() {
    check_tokens(
        r#"
apiVersion: policies.kyverno.io/v1
kind: DeletingPolicy
metadata: {name: demo}
spec:
  conditions:
  - name: old
    expression: "object.metadata.name != ''$0"
"#,
        expect![[r#"
            Variable object
            Property metadata
            Property name
            Operator !=
            String ''
        "#]],
    );
}

#[test]
fn webhook_match_conditions_are_coloured() {
    check_tokens(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: demo}
webhooks:
- name: demo.example.com
  matchConditions:
  - name: not-system
    expression: "!request.userInfo.username.startsWith('system:')$0"
"#,
        expect![[r#"
            Operator !
            Variable request
            Property userInfo
            Property username
            Function startsWith
            String 'system:'
        "#]],
    );
}
