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
fn outside_expressions_and_keys_nothing() {
    check_hover(
        &policy("  validations:\n  - expression: 'true'\n    message: hel$0lo\n"),
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

#[test]
fn policy_key_shows_schema_type_and_description() {
    check_hover(
        &policy("  validations:\n  - expression: 'true'\n    messageExp$0ression: \"'x'\"\n"),
        expect![[r#"
            *messageExpression*
            ```yaml
            messageExpression: string
            ```

            ---

            `spec.validations[].messageExpression` · optional

            ---

            messageExpression declares a CEL expression that evaluates to the validation failure message that is returned when this rule fails. Since messageExpression is used as a failure message, it must evaluate to a string. If both message and messageExpression are present on a validation, then messageExpression will be used if validation fails. If messageExpression results in a runtime error, the runtime error is logged, and the validation failure message is produced as if the messageExpression field were unset. If messageExpression evaluates to an empty string, a string with only spaces, or a string that contains line breaks, then the validation failure message will also be produced as if the messageExpression field were unset, and the fact that messageExpression produced an empty string/string with only spaces/string with line breaks will be logged. messageExpression has access to all the same variables as the `expression` except for 'authorizer' and 'authorizer.requestResource'. Example: "object.x must be less than max ("+string(params.max)+")"
        "#]],
    );
}

#[test]
fn policy_key_with_a_closed_value_set() {
    check_hover(
        &policy("  failure$0Policy: Fail\n"),
        expect![[r#"
        *failurePolicy*
        ```yaml
        failurePolicy: string
        ```

        ---

        `spec.failurePolicy` · optional

        ---

        allowed values: `Fail`, `Ignore`

        ---

        failurePolicy defines how to handle failures for the admission policy. Failures can occur from CEL expression parse errors, type check errors, runtime errors and invalid or mis-configured policy definitions or bindings.

        A policy is invalid if spec.paramKind refers to a non-existent Kind. A binding is invalid if spec.paramRef.name refers to a non-existent resource.

        failurePolicy does not define how validations that evaluate to false are handled.

        When failurePolicy is set to Fail, ValidatingAdmissionPolicyBinding validationActions define how failures are enforced.

        Allowed values are Ignore or Fail. Defaults to Fail.
    "#]],
    );
}

#[test]
fn policy_key_of_object_meta_and_of_a_list() {
    check_hover(
        &policy("  variab$0les: []\n"),
        expect![[r#"
        *variables*
        ```yaml
        variables: []Variable
        ```

        ---

        `spec.variables` · optional

        ---

        variables contain definitions of variables that can be used in composition of other expressions. Each variable is defined as a named CEL expression. The variables defined here will be available under `variables` in other expressions of the policy except MatchConditions because MatchConditions are evaluated before the rest of the policy.

        The expression of a variable can refer to other variables defined earlier in the list but not those after. Thus, Variables must be sorted by the order of first appearance and acyclic.
    "#]],
    );
    check_hover(
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  na$0me: x\n",
        expect![[r#"
            *name*
            ```yaml
            name: string
            ```

            ---

            `metadata.name` · optional

            ---

            Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names
        "#]],
    );
}

#[test]
fn required_from_the_description_when_the_schema_has_no_list() {
    // 1.30 publishes no `required` list for the binding spec; the field's doc ends in "Required.".
    check_hover(
        "#- /b.yaml k8s:1.30\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b}\nspec:\n  policyName: demo\n  validationAc$0tions: [Deny]\n",
        expect![[r#"
            *validationActions*
            ```yaml
            validationActions: []string
            ```

            ---

            `spec.validationActions` · required

            ---

            allowed values: `Audit`, `Deny`, `Warn`

            ---

            validationActions declares how Validations of the referenced ValidatingAdmissionPolicy are enforced. If a validation evaluates to false it is always enforced according to these actions.

            Failures defined by the ValidatingAdmissionPolicy's FailurePolicy are enforced according to these actions only if the FailurePolicy is set to Fail, otherwise the failures are ignored. This includes compilation errors, runtime errors and misconfigurations of the policy.

            validationActions is declared as a set of action values. Order does not matter. validationActions may not contain duplicates of the same action.

            The supported actions values are:

            "Deny" specifies that a validation failure results in a denied request.

            "Warn" specifies that a validation failure is reported to the request client in HTTP Warning headers, with a warning code of 299. Warnings can be sent both for allowed or denied admission responses.

            "Audit" specifies that a validation failure is included in the published audit event for the request. The audit event will contain a `validation.policy.admission.k8s.io/validation_failure` audit annotation with a value containing the details of the validation failures, formatted as a JSON list of objects, each with the following fields: - message: The validation failure message string - policy: The resource name of the ValidatingAdmissionPolicy - binding: The resource name of the ValidatingAdmissionPolicyBinding - expressionIndex: The index of the failed validations in the ValidatingAdmissionPolicy - validationActions: The enforcement actions enacted for the validation failure Example audit annotation: `"validation.policy.admission.k8s.io/validation_failure": "[{"message": "Invalid value", {"policy": "policy.example.com", {"binding": "policybinding.example.com", {"expressionIndex": "1", {"validationActions": ["Audit"]}]"`

            Clients should expect to handle additional values by ignoring any values not recognized.

            "Deny" and "Warn" may not be used together since this combination needlessly duplicates the validation failure both in the API response body and the HTTP warning headers.

            Required.
        "#]],
    );
}

#[test]
fn the_target_version_decides_which_kinds_have_docs() {
    let policy = "apiVersion: admissionregistration.k8s.io/v1beta1\nkind: MutatingAdmissionPolicy\nmetadata: {name: m}\nspec:\n  reinvocationPolicy: Never\n  failure$0Policy: Fail\n";
    // v1beta1 MutatingAdmissionPolicy is served from 1.34.
    check_hover(
        &format!("#- /m.yaml k8s:1.33\n{policy}"),
        expect![[r#"
        no hover
    "#]],
    );
    check_hover(
        &format!("#- /m.yaml k8s:1.34\n{policy}"),
        expect![[r#"
        *failurePolicy*
        ```yaml
        failurePolicy: string
        ```

        ---

        `spec.failurePolicy` · optional

        ---

        allowed values: `Fail`, `Ignore`

        ---

        failurePolicy defines how to handle failures for the admission policy. Failures can occur from CEL expression parse errors, type check errors, runtime errors and invalid or mis-configured policy definitions or bindings.

        A policy is invalid if paramKind refers to a non-existent Kind. A binding is invalid if paramRef.name refers to a non-existent resource.

        failurePolicy does not define how validations that evaluate to false are handled.

        Allowed values are Ignore or Fail. Defaults to Fail.
    "#]],
    );
}

#[test]
fn mutating_policy_key_in_v1alpha1() {
    check_hover(
        "apiVersion: admissionregistration.k8s.io/v1alpha1\nkind: MutatingAdmissionPolicy\nmetadata: {name: m}\nspec:\n  reinvocation$0Policy: Never\n",
        expect![[r#"
            *reinvocationPolicy*
            ```yaml
            reinvocationPolicy: string
            ```

            ---

            `spec.reinvocationPolicy` · required

            ---

            allowed values: `IfNeeded`, `Never`

            ---

            reinvocationPolicy indicates whether mutations may be called multiple times per MutatingAdmissionPolicyBinding as part of a single admission evaluation. Allowed values are "Never" and "IfNeeded".

            Never: These mutations will not be called more than once per binding in a single admission evaluation.

            IfNeeded: These mutations may be invoked more than once per binding for a single admission request and there is no guarantee of order with respect to other admission plugins, admission webhooks, bindings of this policy and admission policies.  Mutations are only reinvoked when mutations change the object after this mutation is invoked. Required.
        "#]],
    );
}

#[test]
fn keys_of_other_documents_nothing() {
    check_hover(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nda$0ta: {}\n",
        expect![[r#"
            no hover
        "#]],
    );
}

#[test]
fn diagnostic_code_on_a_yaml_value() {
    check_hover(
        &policy("  failurePolicy: Some$0times\n"),
        expect![[r#"
            *Sometimes*
            **error[not-supported]**: spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"

            a value outside the allowed set.

            Matches the API server's `Unsupported value` error, which lists the supported values. Examples:
            `failurePolicy: Sometimes`, `patchType: MergePatch`, a `reason` of `Unauthorized`, an operation
            `DELETE` in a MutatingAdmissionPolicy (mutations run only on CREATE, UPDATE and CONNECT), and an
            `apiVersion` the target Kubernetes version does not serve (MutatingAdmissionPolicy v1alpha1 before
            1.32, ValidatingAdmissionPolicy v1beta1 from 1.34 on), which the API server refuses as 'no matches
            for kind'.
        "#]],
    );
}

#[test]
fn diagnostic_code_appended_to_the_cel_hover() {
    check_hover(
        &policy("  validations:\n  - expression: object.spec.repl$0icas\n"),
        expect![[r#"
            *replicas*
            ```cel
            int
            ```

            ---

            field `replicas` of `apps.v1.Deployment.spec`

            ---

            Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.

            ---

            **error[cel-result-type]**: spec.validations[0].expression: must evaluate to bool but got dyn

            the expression's type is not the one its field requires.

            Validations and matchConditions must be bool, messageExpression string, auditAnnotation values
            string or null, applyConfiguration expressions an Object, jsonPatch expressions a list of JSONPatch.
            The API server rejects a validation whose type is `dyn` as well.
        "#]],
    );
}

#[test]
fn unknown_key_shows_its_diagnostic_only() {
    check_hover(
        &policy("  validation$0: []\n"),
        expect![[r#"
        *validation*
        **warning[unknown-field]**: unknown field "spec.validation" (did you mean "validations"?)

        a key that the policy API does not have.

        The API server drops unknown fields (or rejects them under strict field validation, as
        `kubectl apply --validate=strict` does), so the setting never takes effect.
    "#]],
    );
}

/// Hover on a field of `self` inside a CRD rule shows the schema's type and description
/// (issue 16).
#[test]
fn crd_rule_field_shows_schema_type() {
    let crd = "
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
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, description: How many widgets to run.}
            x-kubernetes-validations:
            - rule: self.repl$0icas >= 0
";
    check_hover(
        crd,
        expect![[r#"
            *replicas*
            ```cel
            int
            ```

            ---

            field `replicas` of `example.com.v1.Widget.spec`

            ---

            How many widgets to run.

            ---

            estimated cost 3 of 10,000,000 per expression; this schema's rules 3 of 100,000,000
        "#]],
    );
}

/// Hover in a CRD rule shows its estimated cost (times the values its node can have: here a
/// list of at most 10 items) and its schema's total against the API server's limits
/// (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go:
/// StaticEstimatedCostLimit, StaticEstimatedCRDCostLimit); a messageExpression counts once.
#[test]
fn crd_rule_shows_its_cost_and_the_budget() {
    let crd = "
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
        properties:
          spec:
            type: object
            properties:
              names:
                type: array
                maxItems: 10
                items:
                  type: string
                  maxLength: 64
                  x-kubernetes-validations:
                  - rule: self.startsWith('w-')
                    messageExpression: \"'bad name ' + self\"
            x-kubernetes-validations:
            - rule: self.names.all(n, n.size() > 2)
";
    check_hover(
        &crd.replace("self.startsWith", "self.starts$0With"),
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

            ---

            estimated cost 20 of 10,000,000 per expression; this schema's rules 111 of 100,000,000
        "#]],
    );
    check_hover(
        &crd.replace("'bad name ' + self", "'bad name ' + se$0lf"),
        expect![[r#"
            *self*
            ```cel
            string
            ```

            ---

            variable `self`

            ---

            The value of the schema node this rule is on.

            ---

            estimated cost 28 of 10,000,000 per expression; this schema's rules 111 of 100,000,000
        "#]],
    );
}

/// Inside a Kyverno policy (a document family): the matched kind types `object`, the earlier
/// variables type `variables`, and Kyverno's functions are declared.
#[test]
fn kyverno_policy_fields_variables_and_library() {
    let head = "
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
  variables:
  - name: replicas
    expression: object.spec.replicas
  validations:
";
    check_hover(
        &format!("{head}  - expression: variables.repl$0icas <= 5\n"),
        expect![[r#"
            *replicas*
            ```cel
            int
            ```

            ---

            field `replicas` of `kyverno.variables`
        "#]],
    );
    check_hover(
        &format!("{head}  - expression: image('nginx').regi$0stry() == 'docker.io'\n"),
        expect![[r#"
            *registry*
            ```cel
            string
            ```

            ---

            ```cel
            fn kyverno.image.registry() -> string
            ```

            ---

            The registry of the image reference.
        "#]],
    );
}

/// The cel-go extension functions Kyverno enables have their own description on hover, not that
/// of a Kyverno function of the same last name (`base64.decode` is not `x509.decode`).
#[test]
fn kyverno_extension_function_docs() {
    let head = "
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata: {name: demo}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [''], apiVersions: [v1], resources: [secrets], operations: [CREATE]}
  validations:
";
    check_hover(
        &format!("{head}  - expression: size(base64.dec$0ode(object.metadata.name)) < 10\n"),
        expect![[r#"
            *decode*
            ```cel
            bytes
            ```

            ---

            ```cel
            fn base64.decode(string) -> bytes
            ```

            ---

            Decodes base64 text (padded or not) into bytes.
        "#]],
    );
    check_hover(
        &format!(
            "{head}  - expression: regex.extr$0act(object.metadata.name, 'a(.)').hasValue()\n"
        ),
        expect![[r#"
            *extract*
            ```cel
            optional_type(string)
            ```

            ---

            ```cel
            fn regex.extract(string, string) -> optional_type(string)
            ```

            ---

            The first match of an RE2 pattern in the text (or its one capture group), as an optional: none when nothing matches. Kyverno 1.19 and later.
        "#]],
    );
}

/// Inside a Gatekeeper template, the driver's `variables.params` is typed from the template's
/// parameters schema (the Constraint CRD it creates).
#[test]
fn gatekeeper_parameters_are_typed_from_the_template_schema() {
    check_hover(
        r#"
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: {name: k8smaxreplicas}
spec:
  crd:
    spec:
      names: {kind: K8sMaxReplicas}
      validation:
        openAPIV3Schema:
          type: object
          properties:
            max: {type: integer}
  targets:
  - target: admission.k8s.gatekeeper.sh
    code:
    - engine: K8sNativeValidation
      source:
        validations:
        - expression: variables.anyObject.spec.replicas <= variables.params.m$0ax
"#,
        expect![[r#"
            *max*
            ```cel
            int
            ```

            ---

            field `max` of `constraints.gatekeeper.sh.v1beta1.K8sMaxReplicas.spec.parameters`
        "#]],
    );
}

/// A ValidatingWebhookConfiguration whose webhook matches Deployments, with `tail` as the items
/// of its `matchConditions`.
fn webhook(tail: &str) -> String {
    format!(
        "
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {{name: demo}}
webhooks:
- name: demo.example.com
  clientConfig: {{url: 'https://hook.example.com/'}}
  sideEffects: None
  admissionReviewVersions: [v1]
  rules:
  - {{apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}}
  matchConditions:
{tail}"
    )
}

#[test]
fn webhook_match_condition_is_typed_by_the_webhook_rules() {
    check_hover(
        &webhook("  - name: big\n    expression: object.spec.repl$0icas > 5\n"),
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
fn webhook_match_condition_namespace_object_is_declared() {
    // Declared as in a policy (apiserver `pkg/admission/plugin/cel/compile.go`,
    // `createEnvForOpts`) and null at evaluation (`webhook/matchconditions/matcher.go` passes no
    // namespace).
    check_hover(
        &webhook("  - name: ns\n    expression: namespace$0Object == null\n"),
        expect![[r#"
            *namespaceObject*
            ```cel
            kubernetes.Namespace
            ```

            ---

            variable `namespaceObject`

            ---

            The namespace of the object (null for cluster-scoped objects and in match conditions).
        "#]],
    );
}
