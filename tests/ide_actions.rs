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
