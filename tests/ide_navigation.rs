//! Go-to-definition, document-symbol, references, highlight and rename fixtures: `$0` marks the
//! cursor; snapshots show each target as `file: focused text`, each symbol as an indented outline
//! and each rename edit as `file line:column: old → new` (or the reason it is refused).

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

/// Renders what renaming the name at the cursor to `new_name` does: prepareRename's placeholder,
/// then each edit with the text it replaces, or the reason the rename is refused.
fn render_rename(fixture: &str, new_name: &str) -> String {
    let loaded = ide_support::load(fixture);
    let analysis = &loaded.analysis;
    let prepared = analysis.prepare_rename(loaded.file, loaded.offset, &loaded.config);
    let renamable = match prepared {
        Ok(renamable) => renamable,
        Err(reason) => return format!("refused: {reason}\n"),
    };
    let mut actual = format!("rename `{}`\n", renamable.placeholder);
    match analysis.rename(loaded.file, loaded.offset, new_name, &loaded.config) {
        Err(reason) => actual.push_str(&format!("refused: {reason}\n")),
        Ok(edits) => {
            for edit in edits {
                let text = analysis.file_text(edit.file).unwrap_or_default();
                let start = usize::from(edit.range.start());
                let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
                let line = text[..start].matches('\n').count() + 1;
                actual.push_str(&format!(
                    "file {} {line}:{}: {} → {}\n",
                    edit.file.0,
                    start - line_start + 1,
                    &text[edit.range],
                    edit.new_text
                ));
            }
        }
    }
    actual
}

#[track_caller]
fn check_rename(fixture: &str, new_name: &str, expect: Expect) {
    expect.assert_eq(&render_rename(fixture, new_name));
}

/// A policy whose variable is written in every scalar style the expressions use.
const STYLED_POLICY: &str = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: styled}
spec:
  variables:
  - name: "limit"
    expression: "5"
  - name: doubled
    expression: variables.limit * 2
  validations:
  - expression: |
      object.spec.replicas <= variables.limit &&
        variables.doubled > variables.limit
  - expression: >
      variables.limit
      > 0
  - expression: 'variables.limit >= 0'
    messageExpression: "'at most ' + string(variables.limit)"
"#;

/// `fixture` with the rename at its cursor applied (the cursor's file only).
fn renamed_text(fixture: &str, new_name: &str) -> String {
    let loaded = ide_support::load(fixture);
    let mut text = loaded
        .analysis
        .file_text(loaded.file)
        .unwrap_or_default()
        .to_string();
    let edits = loaded
        .analysis
        .rename(loaded.file, loaded.offset, new_name, &loaded.config)
        .unwrap_or_default();
    for edit in edits.iter().rev().filter(|e| e.file == loaded.file) {
        text.replace_range(
            usize::from(edit.range.start())..usize::from(edit.range.end()),
            &edit.new_text,
        );
    }
    text
}

#[test]
fn rename_a_variable_in_every_scalar_style() {
    let fixture = STYLED_POLICY.replace("variables.limit * 2", "variables.li$0mit * 2");
    let expected = STYLED_POLICY.replace("limit", "maxReplicas");
    assert_eq!(renamed_text(&fixture, "maxReplicas"), expected.trim_start());
    check_rename(
        &STYLED_POLICY.replace("variables.limit * 2", "variables.li$0mit * 2"),
        "maxReplicas",
        expect![[r#"
            rename `limit`
            file 0 6:12: limit → maxReplicas
            file 0 9:27: limit → maxReplicas
            file 0 12:41: limit → maxReplicas
            file 0 13:39: limit → maxReplicas
            file 0 15:17: limit → maxReplicas
            file 0 17:28: limit → maxReplicas
            file 0 18:55: limit → maxReplicas
        "#]],
    );
}

#[test]
fn rename_a_variable_from_its_definition() {
    check_rename(
        &POLICY.replace("{name: replicas", "{name: repli$0cas"),
        "count",
        expect![[r#"
            rename `replicas`
            file 0 12:12: replicas → count
            file 0 14:27: replicas → count
        "#]],
    );
}

#[test]
fn rename_a_variable_quotes_a_plain_name_yaml_would_type() {
    // go-yaml v2 reads a plain `no` as a bool: the variable's name must stay a string.
    check_rename(
        &POLICY.replace("{name: replicas", "{name: repli$0cas"),
        "no",
        expect![[r#"
            rename `replicas`
            file 0 12:12: replicas → "no"
            file 0 14:27: replicas → no
        "#]],
    );
}

#[test]
fn rename_a_variable_refuses_a_bad_or_taken_name() {
    let fixture = STYLED_POLICY.replace("variables.doubled >", "variables.dou$0bled >");
    check_rename(
        &fixture,
        "max-replicas",
        expect![[r#"
            rename `doubled`
            refused: `max-replicas` cannot be the new name: `max-replicas` is not a valid CEL identifier (a letter or `_`, then letters, digits or `_`; not a CEL reserved word)
        "#]],
    );
    check_rename(
        &fixture,
        "in",
        expect![[r#"
            rename `doubled`
            refused: `in` cannot be the new name: `in` is not a valid CEL identifier (a letter or `_`, then letters, digits or `_`; not a CEL reserved word)
        "#]],
    );
    check_rename(
        &fixture,
        "limit",
        expect![[r#"
            rename `doubled`
            refused: the policy already has a variable named `limit`
        "#]],
    );
}

#[test]
fn rename_refuses_a_use_written_with_escapes() {
    let fixture = STYLED_POLICY
        .replace(
            r#""'at most ' + string(variables.limit)""#,
            r#""string(variables.l\u0069mit)""#,
        )
        .replace("variables.limit * 2", "variables.li$0mit * 2");
    check_rename(
        &fixture,
        "max",
        expect![[r#"
            rename `limit`
            refused: `limit` on line 18 is written with escapes or across lines: write it plainly first
        "#]],
    );
}

/// A policy, its bindings in another file, the suites naming it (a PolicyTest case, a kaptest
/// `vapTestSuites` entry), and a MutatingAdmissionPolicyBinding and `mapTestSuites` entry naming a
/// mutating policy of the same name, which the rename leaves alone.
const POLICY_AND_BINDINGS: &str = "
#- /policy.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: 'demo'
spec:
  paramKind: {apiVersion: example.com/v1, kind: Widget}
  validations:
  - expression: 'true'
#- /bindings.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: demo-binding}
spec:
  policyName: demo
  validationActions: [Deny]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: demo-binding-2}
spec: {policyName: \"demo\", validationActions: [Warn]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: demo-mutating}
spec: {policyName: demo}
#- /params.yaml
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
---
apiVersion: admission-ls.dev/v1alpha1
kind: PolicyTest
policies: [policy.yaml]
cases:
- {name: one, policy: demo, object: {}, expect: {decision: allow}}
- {name: other, policy: other, object: {}, expect: {decision: allow}}
---
version: v1alpha1
policies: [policy.yaml]
resources: [params.yaml]
vapTestSuites:
- policy: demo
  tests: []
mapTestSuites:
- policy: demo
  tests: []
---
apiVersion: other.com/v1
kind: Widget
metadata: {name: unrelated}
#- /crd.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true}]
";

#[test]
fn rename_a_policy_renames_its_bindings_and_suites_in_every_file() {
    let from_policy = POLICY_AND_BINDINGS.replace("name: 'demo'", "name: 'de$0mo'");
    let from_binding = POLICY_AND_BINDINGS.replace("policyName: demo\n", "policyName: d$0emo\n");
    assert_eq!(
        render_rename(&from_policy, "team-demo"),
        render_rename(&from_binding, "team-demo")
    );
    check_rename(
        &from_policy,
        "team-demo",
        expect![[r#"
            rename `demo`
            file 0 4:10: demo → team-demo
            file 1 5:15: demo → team-demo
            file 1 11:21: demo → team-demo
            file 2 9:23: demo → team-demo
            file 2 16:11: demo → team-demo
        "#]],
    );
}

#[test]
fn rename_a_policy_refuses_a_bad_or_taken_name() {
    let fixture = POLICY_AND_BINDINGS.replace("name: 'demo'", "name: 'de$0mo'");
    check_rename(
        &fixture,
        "Team_Demo",
        expect![[r#"
            rename `demo`
            refused: `Team_Demo` cannot be the new name: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
        "#]],
    );
    let taken = format!(
        "{fixture}#- /taken.yaml\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {{name: taken}}\nspec: {{}}\n"
    );
    check_rename(
        &taken,
        "taken",
        expect![[r#"
            rename `demo`
            refused: a ValidatingAdmissionPolicy named `taken` already exists in the workspace
        "#]],
    );
}

#[test]
fn rename_a_param_kind_renames_the_params_and_the_crd() {
    check_rename(
        &POLICY_AND_BINDINGS.replace("kind: Widget}", "kind: Wid$0get}"),
        "Gadget",
        expect![[r#"
            rename `Widget`
            file 0 6:49: Widget → Gadget
            file 2 2:7: Widget → Gadget
            file 3 6:17: Widget → Gadget
            file 3 6:35: Widget → Gadget
        "#]],
    );
    check_rename(
        &POLICY_AND_BINDINGS.replace("kind: Widget}", "kind: Wid$0get}"),
        "Gad_get",
        expect![[r#"
            rename `Widget`
            refused: `Gad_get` cannot be the new name: may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')
        "#]],
    );
}

#[test]
fn rename_is_refused_with_the_reason() {
    let at = |from: &str, to: &str| render_rename(&STYLED_POLICY.replace(from, to), "x");
    let refusals = [
        at("object.spec.replicas", "object.sp$0ec.replicas"),
        at("object.spec.replicas", "obj$0ect.spec.replicas"),
        at("string(variables", "str$0ing(variables"),
        at("metadata: {name: styled}", "meta$0data: {name: styled}"),
        at("variables.limit >= 0", "variables.limit >= $00"),
        // A typed object (the policy matches Deployments): the field's owner is named.
        render_rename(
            &format!("{POLICY}  - expression: object.sp$0ec.replicas > 0\n"),
            "x",
        ),
    ];
    expect![[r#"
        [
            "refused: `spec` is a field of the object at its left: its name comes from that object's schema, not from this file\n",
            "refused: `object` is a variable the API server declares for the expression: its name is fixed\n",
            "refused: `string` is a CEL function: its name is fixed by the library that declares it\n",
            "refused: nothing to rename here: a policy's variables, a policy's name (or a binding's policyName) and a paramKind's kind can be renamed\n",
            "refused: nothing to rename here: a literal or an operator\n",
            "refused: `spec` is a field of `apps.v1.Deployment`: its name comes from the object's schema, not from this file\n",
        ]
    "#]]
    .assert_debug_eq(&refusals);
}

#[test]
fn rename_is_refused_inside_a_helm_template_action() {
    use admission_ls::ide::{AnalysisHost, FileId, FileOrigin};
    let text = STYLED_POLICY.replace(
        "metadata: {name: styled}",
        "metadata: {name: {{ .Values.name }}}",
    );
    let mut host = AnalysisHost::new();
    host.set_origin(FileId(0), FileOrigin::HelmTemplate);
    host.set_file(FileId(0), text.clone().into());
    let analysis = host.snapshot();
    let config = admission_ls::ide::DiagnosticsConfig::default();
    let at =
        |needle: &str| admission_ls::ide::TextSize::from(text.find(needle).unwrap_or(0) as u32 + 3);
    let refused = analysis.prepare_rename(FileId(0), at(".Values"), &config);
    expect![[r#"
        Err(
            "a name inside a Helm template action: the chart's templates and values write it, not this YAML",
        )
    "#]]
    .assert_debug_eq(&refused);
    // Outside the action, the template's variables rename as in any policy.
    let edits = analysis.rename(FileId(0), at("limit * 2"), "max", &config);
    assert_eq!(edits.map(|e| e.len()), Ok(7));
}

/// A Kyverno ValidatingPolicy's variables are renamed, referenced and highlighted as an
/// admission policy's: `spec.variables[].name` and every `variables.NAME` of its expressions.
const KYVERNO_POLICY: &str = r#"
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata: {name: registry}
spec:
  validationActions: [Deny]
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  variables:
  - name: image
    expression: "image(object.spec.template.spec.containers[0].image)"
  - name: registry
    expression: variables.image.registry()
  validations:
  - expression: "variables.registry != 'example.com'"
    messageExpression: "'registry ' + variables.image.registry() + ' is not allowed'"
"#;

#[test]
fn rename_a_kyverno_policy_variable() {
    let fixture = KYVERNO_POLICY.replace(
        "variables.image.registry()\n",
        "variables.im$0age.registry()\n",
    );
    assert_eq!(
        renamed_text(&fixture, "img"),
        KYVERNO_POLICY
            .replace("name: image", "name: img")
            .replace("variables.image", "variables.img")
            .trim_start()
    );
    check_references(
        &fixture,
        expect![[r#"
            10: image
            13: image
            16: image
        "#]],
    );
    check_rename(
        &KYVERNO_POLICY.replace("- name: image", "- name: im$0age"),
        "registry",
        expect![[r#"
            rename `image`
            refused: the policy already has a variable named `registry`
        "#]],
    );
}

#[test]
fn rename_a_macro_variable_in_its_expression() {
    let policy = format!(
        "{POLICY}  - expression: \"object.spec.template.spec.containers.all(c, c.name != '' && c.image.startsWith(c.name))\"\n"
    );
    // From a use and from the declaration: the declaration and the three uses, this expression only.
    for cursor in ["c.image", "all(c,"] {
        let at = cursor.replacen('c', "c$0", 1).replacen("c$0", "$0c", 1);
        let fixture = policy.replacen(cursor, &at, 1);
        assert_eq!(
            renamed_text(&fixture, "container"),
            policy
                .replace("all(c, c.name", "all(container, container.name")
                .replace(
                    "c.image.startsWith(c.name)",
                    "container.image.startsWith(container.name)"
                )
                .trim_start()
        );
    }
    let fixture = policy.replacen("c.image", "$0c.image", 1);
    let refusals = [
        render_rename(&fixture, "object"),
        render_rename(&fixture, "int"),
        render_rename(&fixture, "c2"),
    ];
    expect![[r#"
        [
            "rename `c`\nrefused: `object` is already a name in this expression or its environment (a variable, a type or a macro variable): renaming to it would change what a name refers to\n",
            "rename `c`\nrefused: `int` is already a name in this expression or its environment (a variable, a type or a macro variable): renaming to it would change what a name refers to\n",
            "rename `c`\nfile 0 15:59: c → c2\nfile 0 15:62: c → c2\nfile 0 15:78: c → c2\nfile 0 15:97: c → c2\n",
        ]
    "#]]
    .assert_debug_eq(&refusals);
}

#[test]
fn highlights_of_a_variable_mark_its_definition() {
    let loaded =
        ide_support::load(&POLICY.replace("variables.replicas <", "variables.rep$0licas <"));
    let text = loaded.analysis.file_text(loaded.file).unwrap_or_default();
    let highlights: Vec<String> = loaded
        .analysis
        .highlights(loaded.file, loaded.offset)
        .into_iter()
        .map(|h| {
            let line = text[..usize::from(h.range.start())].matches('\n').count() + 1;
            let role = if h.definition { "write" } else { "read" };
            format!("{line}: {} ({role})", &text[h.range])
        })
        .collect();
    expect![[r#"
        [
            "12: replicas (write)",
            "14: replicas (read)",
        ]
    "#]]
    .assert_debug_eq(&highlights);
}
