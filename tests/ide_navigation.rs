//! Go-to-definition and document-symbol fixtures: `$0` marks the cursor; snapshots show each
//! target as `file: focused text` and each symbol as an indented outline.

mod ide_support;

use admission_ls::ide::Symbol;
use expect_test::{Expect, expect};

#[track_caller]
fn check_definition(fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let targets = loaded
        .analysis
        .goto_definition(loaded.file, loaded.offset, &loaded.config);
    let mut actual = String::new();
    for target in targets {
        let text = loaded.analysis.file_text(target.file).unwrap_or_default();
        actual.push_str(&format!(
            "file {}: {}\n",
            target.file.0, &text[target.focus]
        ));
    }
    expect.assert_eq(&actual);
}

/// Like [`check_definition`], with the focus's 1-based line: for targets in one file.
#[track_caller]
fn check_definition_lines(fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let targets = loaded
        .analysis
        .goto_definition(loaded.file, loaded.offset, &loaded.config);
    let mut actual = String::new();
    for target in targets {
        let text = loaded.analysis.file_text(target.file).unwrap_or_default();
        let start = usize::from(target.focus.start());
        let line = text[..start].matches('\n').count() + 1;
        actual.push_str(&format!(
            "file {} line {line}: {}\n",
            target.file.0, &text[target.focus]
        ));
    }
    expect.assert_eq(&actual);
}

#[track_caller]
fn check_symbols(fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let mut actual = String::new();
    fn render(symbol: &Symbol, depth: usize, out: &mut String) {
        let indent = "  ".repeat(depth);
        out.push_str(&format!(
            "{indent}{:?} {} ({})\n",
            symbol.kind, symbol.name, symbol.detail
        ));
        for child in &symbol.children {
            render(child, depth + 1, out);
        }
    }
    for symbol in loaded.analysis.document_symbols(loaded.file) {
        render(&symbol, 0, &mut actual);
    }
    expect.assert_eq(&actual);
}

const POLICY: &str = "
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  paramKind: {apiVersion: example.com/v1, kind: Widget}
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
  matchConditions:
  - {name: not-kube-system, expression: \"object.metadata.namespace != 'kube-system'\"}
  variables:
  - {name: replicas, expression: object.spec.replicas}
  validations:
  - expression: variables.replicas < 5
";

#[test]
fn variable_reference_goes_to_the_variable() {
    let fixture = POLICY.replace("variables.replicas <", "variables.repl$0icas <");
    check_definition(
        &fixture,
        expect![[r#"
        file 0: replicas
    "#]],
    );
}

#[test]
fn binding_goes_to_the_policy_in_another_file() {
    let fixture = format!(
        "#- /policy.yaml{POLICY}#- /binding.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {{name: demo-binding}}
spec:
  policyName: de$0mo
  validationActions: [Deny]
"
    );
    check_definition(
        &fixture,
        expect![[r#"
        file 0: demo
    "#]],
    );
}

#[test]
fn param_kind_goes_to_the_crd() {
    let fixture = format!(
        "#- /crd.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: widgets.example.com}}
spec:
  group: example.com
  names: {{kind: Widget, plural: widgets}}
  scope: Namespaced
  versions: []
#- /policy.yaml{}",
        POLICY.replace("kind: Widget}", "kind: Wid$0get}")
    );
    check_definition(
        &fixture,
        expect![[r#"
        file 0: Widget
    "#]],
    );
}

#[test]
fn param_ref_name_goes_to_the_param_object() {
    let files = "
#- /policy.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: limits}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  validations:
  - expression: 'true'
#- /params.yaml
apiVersion: v1
kind: ConfigMap
metadata: {name: limits-config, namespace: team-a}
data: {max: '5'}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: limits-config
  namespace: team-b
---
apiVersion: v1
kind: Secret
metadata: {name: limits-config, namespace: team-a}
#- /other.yaml
apiVersion: v1
kind: ConfigMap
metadata: {name: other, namespace: team-a}
#- /binding.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: limits-binding}
spec:
  policyName: limits
  validationActions: [Deny]
  paramRef: {name: limits-con$0fig, NAMESPACE}
";
    check_definition_lines(
        &files.replace("NAMESPACE", "namespace: team-b"),
        expect![[r#"
            file 1 line 9: limits-config
        "#]],
    );
    check_definition_lines(
        &files.replace(", NAMESPACE", ""),
        expect![[r#"
            file 1 line 3: limits-config
            file 1 line 9: limits-config
        "#]],
    );
    check_definition_lines(
        &files.replace("NAMESPACE", "namespace: nowhere"),
        expect![[r#""#]],
    );
}

#[test]
fn nothing_elsewhere() {
    let fixture = POLICY.replace("metadata: {name", "meta$0data: {name");
    check_definition(&fixture, expect![[r#""#]]);
}

#[test]
fn outline_of_a_policy() {
    check_symbols(
        &format!("{POLICY}$0"),
        expect![[r#"
            Document demo (ValidatingAdmissionPolicy)
              Rule not-kube-system (matchCondition)
              Variable replicas (variable)
              Rule variables.replicas < 5 (validation)
        "#]],
    );
}

#[track_caller]
fn check_references(fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let text = loaded.analysis.file_text(loaded.file).unwrap_or_default();
    let mut actual = String::new();
    for range in loaded.analysis.references(loaded.file, loaded.offset) {
        let line = text[..usize::from(range.start())].matches('\n').count() + 1;
        actual.push_str(&format!("{line}: {}\n", &text[range]));
    }
    expect.assert_eq(&actual);
}

#[test]
fn references_of_a_variable_from_its_name_and_a_use() {
    let fixture = format!(
        "{POLICY}  - expression: variables.replicas > 0\n    messageExpression: \"string(variables.replicas)\"\n"
    );
    check_references(
        &fixture.replace("{name: replicas", "{name: repl$0icas"),
        expect![[r#"
        12: replicas
        14: replicas
        15: replicas
        16: replicas
    "#]],
    );
    check_references(
        &fixture.replace("variables.replicas > 0", "variables.re$0plicas > 0"),
        expect![[r#"
        12: replicas
        14: replicas
        15: replicas
        16: replicas
    "#]],
    );
}

#[test]
fn workspace_symbols_match_any_case() {
    let loaded = ide_support::load(&format!("{POLICY}$0"));
    let names: Vec<String> = loaded
        .analysis
        .workspace_symbols("DEM")
        .into_iter()
        .map(|s| format!("{} {}", s.kind, s.name))
        .collect();
    expect![[r#"
        [
            "ValidatingAdmissionPolicy demo",
        ]
    "#]]
    .assert_debug_eq(&names);
}
