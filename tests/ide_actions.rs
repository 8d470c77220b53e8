//! Code-action fixtures: `$0` marks the cursor; each action is shown as its title and the file
//! after its edits.

mod ide_support;

use admission_ls::ide::{AnalysisHost, CodeAction, FileId, TextRange};
use expect_test::{Expect, expect};

/// The text of the fixture's file after `action`'s edits.
fn apply(text: &str, action: &CodeAction) -> String {
    let mut after = text.to_owned();
    let mut edits = action.edits.clone();
    edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start()));
    for (range, new) in edits {
        after.replace_range(std::ops::Range::<usize>::from(range), &new);
    }
    after
}

/// Like [`check_actions`], and each result is checked again: its diagnostics follow the changed
/// lines (`no diagnostics` when the rewrite type-checks).
#[track_caller]
fn check_rewrites(fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let text = loaded.analysis.file_text(loaded.file).unwrap_or_default();
    let range = TextRange::empty(loaded.offset);
    let mut actual = String::new();
    for action in loaded
        .analysis
        .code_actions(loaded.file, range, &loaded.config)
    {
        let after = apply(&text, &action);
        let changed: Vec<&str> = after
            .lines()
            .filter(|line| !text.lines().any(|old| old == *line))
            .collect();
        let mut host = AnalysisHost::new();
        host.set_file(FileId(0), after.as_str().into());
        let diagnostics = host.snapshot().diagnostics(FileId(0), &loaded.config);
        let verdict = if diagnostics.is_empty() {
            "no diagnostics".to_owned()
        } else {
            diagnostics
                .iter()
                .map(|d| format!("[{}] {}", d.code.as_str(), d.message))
                .collect::<Vec<_>>()
                .join("\n  ")
        };
        actual.push_str(&format!(
            "{:?} {}\n  {}\n  => {verdict}\n",
            action.kind,
            action.title,
            changed.join("\n  ")
        ));
    }
    expect.assert_eq(&actual);
}

#[track_caller]
fn check_actions(fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let text = loaded.analysis.file_text(loaded.file).unwrap_or_default();
    let range = TextRange::empty(loaded.offset);
    let mut actual = String::new();
    for action in loaded
        .analysis
        .code_actions(loaded.file, range, &loaded.config)
    {
        let after = apply(&text, &action);
        let changed: Vec<&str> = after
            .lines()
            .filter(|line| !text.lines().any(|old| old == *line))
            .collect();
        actual.push_str(&format!(
            "{:?} {}\n  {}\n",
            action.kind,
            action.title,
            changed.join("\n  ")
        ));
    }
    expect.assert_eq(&actual);
}

const HEAD: &str = "
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
";

#[test]
fn did_you_mean_a_field() {
    check_actions(
        &format!("{HEAD}  validations:\n  - expression: object.spec.repl$0icaz <= 5\n"),
        expect![[r#"
            QuickFix Change to 'replicas'
                - expression: object.spec.replicas <= 5
        "#]],
    );
}

#[test]
fn did_you_mean_a_key() {
    check_actions(
        &format!("{HEAD}  validations:\n  - expression: 'true'\n    mesage$0: hi\n"),
        expect![[r#"
            QuickFix Change to 'message'
                  message: hi
        "#]],
    );
}

#[test]
fn message_written_as_cel() {
    check_actions(
        &format!(
            "{HEAD}  validations:\n  - expression: 'true'\n    mess$0age: \"'too many: ' + string(object.spec.replicas)\"\n"
        ),
        expect![[r#"
            Rewrite Turn this message into a messageExpression
                  messageExpression: "'too many: ' + string(object.spec.replicas)"
        "#]],
    );
    check_actions(
        &format!(
            "{HEAD}  validations:\n  - expression: 'true'\n    mess$0age: too many replicas\n"
        ),
        expect![[r#""#]],
    );
}

/// The whole file after applying the action titled `title` (`no action` when there is none), so
/// the inserted key's indentation shows.
#[track_caller]
fn check_applied(title: &str, fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let text = loaded.analysis.file_text(loaded.file).unwrap_or_default();
    let range = TextRange::empty(loaded.offset);
    let actions = loaded
        .analysis
        .code_actions(loaded.file, range, &loaded.config);
    let actual = match actions.iter().find(|a| a.title == title) {
        Some(action) => {
            let mut after = text.to_string();
            let mut edits = action.edits.clone();
            edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start()));
            for (range, new) in edits {
                after.replace_range(std::ops::Range::<usize>::from(range), &new);
            }
            after
        }
        None => "no action\n".to_owned(),
    };
    expect.assert_eq(&actual);
}

#[test]
fn add_a_missing_key_to_a_block_list_item() {
    check_applied(
        "Add required field 'expression'",
        &format!("{HEAD}  validations:\n  - mess$0age: hi # why\n    reason: Invalid\n"),
        expect![[r#"
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: demo}
            spec:
              matchConstraints:
                resourceRules:
                - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
              validations:
              - message: hi # why
                reason: Invalid
                expression: ""
        "#]],
    );
}

#[test]
fn add_a_missing_key_to_a_flow_mapping() {
    check_applied(
        "Add required field 'expression'",
        &format!("{HEAD}  validations:\n  - expression: 'true'\n  variables:\n  - {{name: a$0}}\n"),
        expect![[r#"
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: demo}
            spec:
              matchConstraints:
                resourceRules:
                - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
              validations:
              - expression: 'true'
              variables:
              - {name: a, expression: ""}
        "#]],
    );
    check_applied(
        "Add required field 'name'",
        &format!("{HEAD}  validations:\n  - expression: 'true'\n  matchConditions:\n  - {{$0}}\n"),
        expect![[r#"
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicy
            metadata: {name: demo}
            spec:
              matchConstraints:
                resourceRules:
                - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
              validations:
              - expression: 'true'
              matchConditions:
              - {name: ""}
        "#]],
    );
}

#[test]
fn add_a_missing_spec_field_with_a_placeholder_of_its_type() {
    check_applied(
        "Add required field 'validationActions'",
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nsp$0ec:\n  policyName: demo\n",
        expect![[r#"
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingAdmissionPolicyBinding
            metadata: {name: b}
            spec:
              policyName: demo
              validationActions: []
        "#]],
    );
    check_applied(
        "Add required field 'reinvocationPolicy'",
        "apiVersion: admissionregistration.k8s.io/v1alpha1\nkind: MutatingAdmissionPolicy\nmetadata: {name: m}\nsp$0ec:\n  matchConstraints:\n    resourceRules:\n    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}\n  mutations:\n  - patchType: ApplyConfiguration\n    applyConfiguration:\n      expression: >\n        Object{}\n",
        expect![[r#"
            apiVersion: admissionregistration.k8s.io/v1alpha1
            kind: MutatingAdmissionPolicy
            metadata: {name: m}
            spec:
              matchConstraints:
                resourceRules:
                - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
              mutations:
              - patchType: ApplyConfiguration
                applyConfiguration:
                  expression: >
                    Object{}
              reinvocationPolicy: ""
        "#]],
    );
}

#[test]
fn no_fix_when_the_key_is_there_but_empty() {
    check_actions(
        &format!(
            "{HEAD}  validations:\n  - expression: 'true'\n  matchConditions:\n  - name: a\n    expression: $0''\n"
        ),
        expect![[r#""#]],
    );
}
#[test]
fn guard_an_optional_field() {
    check_rewrites(
        &format!(
            "{HEAD}  validations:\n  - expression: object.spec.template.spec.securityContext.runAs$0NonRoot == true\n"
        ),
        expect![[r#"
            Rewrite Guard the optional fields with has()
                - expression: has(object.spec.template.spec) && has(object.spec.template.spec.securityContext) && has(object.spec.template.spec.securityContext.runAsNonRoot) && object.spec.template.spec.securityContext.runAsNonRoot == true
              => no diagnostics
            Rewrite Rewrite as an optional chain with orValue()
                - expression: object.spec.template.?spec.?securityContext.?runAsNonRoot.orValue(false) == true
              => no diagnostics
        "#]],
    );
}

#[test]
fn guard_inside_a_macro_and_a_quoted_scalar() {
    check_rewrites(
        &format!(
            "{HEAD}  validations:\n  - expression: \"object.spec.template.spec.containers.all(c, c.image$0 != '')\"\n"
        ),
        expect![[r#"
            Rewrite Guard the optional fields with has()
                - expression: "object.spec.template.spec.containers.all(c, (has(c.image) && c.image != ''))"
              => no diagnostics
            Rewrite Rewrite as an optional chain with orValue()
                - expression: "object.spec.template.spec.containers.all(c, c.?image.orValue('') != '')"
              => no diagnostics
        "#]],
    );
    check_rewrites(
        &format!(
            "{HEAD}  validations:\n  - expression: '!object.spec.template.spec.containers.exists(c, c.securityContext.privi$0leged)'\n"
        ),
        expect![[r#"
            Rewrite Guard the optional fields with has()
                - expression: '!object.spec.template.spec.containers.exists(c, (has(c.securityContext) && has(c.securityContext.privileged) && c.securityContext.privileged))'
              => no diagnostics
            Rewrite Rewrite as an optional chain with orValue()
                - expression: '!object.spec.template.spec.containers.exists(c, c.?securityContext.?privileged.orValue(false))'
              => no diagnostics
        "#]],
    );
}

#[test]
fn required_links_and_map_keys_are_not_guarded() {
    check_rewrites(
        &format!(
            "{HEAD}  validations:\n  - expression: object.spec.template.spec.conta$0iners.size() > 0 && object.metadata.name != ''\n"
        ),
        expect![[r#"
            Rewrite Guard the optional fields with has()
                - expression: has(object.spec.template.spec) && object.spec.template.spec.containers.size() > 0 && object.metadata.name != ''
              => no diagnostics
            Rewrite Rewrite as an optional chain with orValue()
                - expression: object.spec.template.?spec.containers.orValue([]).size() > 0 && object.metadata.name != ''
              => no diagnostics
        "#]],
    );
    check_rewrites(
        &format!("{HEAD}  validations:\n  - expression: object.metadata.na$0me != ''\n"),
        expect![[r#"
            Rewrite Guard the optional fields with has()
                - expression: has(object.metadata.name) && object.metadata.name != ''
              => no diagnostics
            Rewrite Rewrite as an optional chain with orValue()
                - expression: object.metadata.?name.orValue('') != ''
              => no diagnostics
        "#]],
    );
    check_rewrites(
        &format!("{HEAD}  validations:\n  - expression: object.metadata.labels.a$0pp == 'x'\n"),
        expect![[r#""#]],
    );
}

#[test]
fn string_zero_value_in_a_single_quoted_scalar() {
    check_rewrites(
        &format!("{HEAD}  validations:\n  - expression: 'object.metadata.na$0me.size() > 0'\n"),
        expect![[r#"
            Rewrite Guard the optional fields with has()
                - expression: 'has(object.metadata.name) && object.metadata.name.size() > 0'
              => no diagnostics
            Rewrite Rewrite as an optional chain with orValue()
                - expression: 'object.metadata.?name.orValue("").size() > 0'
              => no diagnostics
        "#]],
    );
}

#[test]
fn no_guard_outside_the_macro_that_binds_the_chain() {
    check_rewrites(
        &format!(
            "{HEAD}  validations:\n  - expression: \"object.spec.template.spec.containers.map(c, c.ima$0ge)[0] == 'x'\"\n"
        ),
        expect![[r#"
            Rewrite Rewrite as an optional chain with orValue()
                - expression: "object.spec.template.spec.containers.map(c, c.?image.orValue(''))[0] == 'x'"
              => no diagnostics
        "#]],
    );
}

#[test]
fn links_already_guarded_are_not_guarded_again() {
    check_rewrites(
        &format!(
            "{HEAD}  validations:\n  - expression: has(object.spec.template.spec) && has(object.spec.template.spec.securityContext) && object.spec.template.spec.securityContext.runAs$0NonRoot\n"
        ),
        expect![[r#"
            Rewrite Guard the optional fields with has()
                - expression: has(object.spec.template.spec) && has(object.spec.template.spec.securityContext) && has(object.spec.template.spec.securityContext.runAsNonRoot) && object.spec.template.spec.securityContext.runAsNonRoot
              => no diagnostics
            Rewrite Rewrite as an optional chain with orValue()
                - expression: has(object.spec.template.spec) && has(object.spec.template.spec.securityContext) && object.spec.template.spec.securityContext.?runAsNonRoot.orValue(false)
              => no diagnostics
        "#]],
    );
    check_rewrites(
        &format!(
            "{HEAD}  validations:\n  - expression: has(object.spec.template.spec.securityCon$0text)\n"
        ),
        expect![[r#""#]],
    );
}

/// In a Kyverno policy: the "did you mean" fix of a misspelt field (checked again after the
/// rewrite: nothing left) and of a misspelt key (Kyverno's schema has `message`).
#[test]
fn kyverno_policy_fixes() {
    let head = "
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
";
    check_rewrites(
        &format!("{head}  validations:\n  - expression: object.spec.repl$0icaz <= 5\n"),
        expect![[r#"
            QuickFix Change to 'replicas'
                - expression: object.spec.replicas <= 5
              => no diagnostics
        "#]],
    );
    check_actions(
        &format!("{head}  validations:\n  - expression: 'true'\n    mesage$0: hi\n"),
        expect![[r#"
            QuickFix Change to 'message'
                  message: hi
        "#]],
    );
}
