//! Code-action fixtures: `$0` marks the cursor; each action is shown as its title and the file
//! after its edits.

mod ide_support;

use admission_ls::ide::TextRange;
use expect_test::{Expect, expect};

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
        let mut after = text.to_string();
        let mut edits = action.edits.clone();
        edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start()));
        for (range, new) in edits {
            after.replace_range(std::ops::Range::<usize>::from(range), &new);
        }
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
