//! Hover fixtures: `$0` marks the cursor; the snapshot shows `*hovered text*` and the markdown.

mod ide_support;

use expect_test::{Expect, expect};

#[track_caller]
fn check_hover(fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let text = loaded.analysis.file_text(loaded.file).unwrap_or_default();
    let actual = match loaded
        .analysis
        .hover(loaded.file, loaded.offset, &loaded.config)
    {
        Some(hover) => {
            let hovered = &text[hover.range];
            format!("*{hovered}*\n{}\n", hover.markdown)
        }
        None => "no hover\n".to_owned(),
    };
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

fn policy(tail: &str) -> String {
    format!("{HEAD}{tail}")
}

#[test]
fn schema_field_shows_type_and_description() {
    check_hover(
        &policy("  validations:\n  - expression: object.spec.repl$0icas <= 5\n"),
        expect![[r#"
            *replicas*
            ```cel
            int
            ```

            ---

            field `replicas` of `apps.v1.Deployment.spec`

            ---

            Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.
        "#]],
    );
}

#[test]
fn function_shows_signature_docs_and_version() {
    check_hover(
        &policy("  validations:\n  - expression: object.metadata.name.starts$0With('a')\n"),
        expect![[r#"
            *startsWith*
            ```cel
            bool
            ```

            ---

            ```cel
            fn string.startsWith(string) -> bool
            ```

            ---

            Whether the string begins with the argument.

            ---

            Kubernetes 1.24+
        "#]],
    );
}

#[test]
fn variable_shows_type_and_definition() {
    check_hover(
        &policy(
            "  variables:\n  - {name: replicas, expression: object.spec.replicas}\n  validations:\n  - expression: variables.repl$0icas < 5\n",
        ),
        expect![[r#"
            *replicas*
            ```cel
            int
            ```

            ---

            field `replicas` of `kubernetes.variables`

            ---

            ```cel
            object.spec.replicas
            ```
        "#]],
    );
}

#[test]
fn root_variable_and_macro() {
    check_hover(
        &policy(
            "  validations:\n  - expression: obj$0ect.spec.template.spec.containers.all(c, c.name != '')\n",
        ),
        expect![[r#"
            *object*
            ```cel
            apps.v1.Deployment
            ```

            ---

            variable `object`

            ---

            The object from the incoming request (null for DELETE), converted to the matched version.
        "#]],
    );
    check_hover(
        &policy(
            "  validations:\n  - expression: object.spec.template.spec.containers.a$0ll(c, c.name != '')\n",
        ),
        expect![[r#"
            *object.spec.template.spec.containers.all(c, c.name != '')*
            ```cel
            bool
            ```

            ---

            ```cel
            macro _.all(_, _)
            ```

            ---

            True when the predicate holds for every element of a list (or key of a map). Errors are absorbed when any element gives false.
        "#]],
    );
}

#[test]
fn block_scalar_and_half_typed_expression() {
    check_hover(
        &policy("  validations:\n  - expression: |\n      object.spec.$0\n"),
        expect![[r#"
            no hover
        "#]],
    );
}

#[test]
fn outside_expressions_nothing() {
    check_hover(
        &policy("  validations:\n  - expr$0ession: 'true'\n"),
        expect![[r#"
        no hover
    "#]],
    );
    check_hover(
        "$0",
        expect![[r#"
        no hover
    "#]],
    );
    check_hover(
        "# 😀 $0\n",
        expect![[r#"
        no hover
    "#]],
    );
}
