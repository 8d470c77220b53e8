//! The evaluation view read from YAML: every field evaluation uses, `null` read as absent (a Go
//! struct's zero value), and the version of a binding whose apiVersion the checker rejects.

use expect_test::{Expect, expect};

use super::{Document, read};
use crate::yaml;

fn check(text: &str, expected: Expect) {
    let file = yaml::parse(text);
    let views: Vec<Option<Document>> = file
        .documents
        .iter()
        .filter_map(|d| d.root.as_ref())
        .map(read)
        .collect();
    expected.assert_debug_eq(&views);
}

#[test]
fn a_validating_policy_with_every_field() {
    check(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: p}
spec:
  failurePolicy: Ignore
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    matchPolicy: Exact
    namespaceSelector:
      matchLabels: {team: a}
      matchExpressions: [{key: env, operator: In, values: [prod]}]
    objectSelector: null
    resourceRules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods], scope: Namespaced}]
    excludeResourceRules: [{resourceNames: [kept]}]
  matchConditions: [{name: c, expression: "true"}]
  variables: [{name: v, expression: "1"}]
  validations: [{expression: "false", message: m, messageExpression: "'x'", reason: Forbidden}]
  auditAnnotations: [{key: k, valueExpression: "'v'"}]
"#,
        expect![[r#"
            [
                Some(
                    Policy(
                        Policy {
                            kind: ValidatingPolicy,
                            name: "p",
                            param_kind: Some(
                                ParamKind {
                                    api_version: "v1",
                                    kind: "ConfigMap",
                                },
                            ),
                            match_constraints: Some(
                                Resources {
                                    namespace_selector: Some(
                                        Selector {
                                            match_labels: Some(
                                                [
                                                    (
                                                        "team",
                                                        "a",
                                                    ),
                                                ],
                                            ),
                                            match_expressions: Some(
                                                [
                                                    Requirement {
                                                        key: "env",
                                                        operator: "In",
                                                        values: [
                                                            "prod",
                                                        ],
                                                    },
                                                ],
                                            ),
                                        },
                                    ),
                                    object_selector: None,
                                    resource_rules: [
                                        Rule {
                                            operations: [
                                                "CREATE",
                                            ],
                                            api_groups: [
                                                "",
                                            ],
                                            api_versions: [
                                                "v1",
                                            ],
                                            resources: [
                                                "pods",
                                            ],
                                            resource_names: [],
                                            scope: "Namespaced",
                                        },
                                    ],
                                    exclude_resource_rules: [
                                        Rule {
                                            operations: [],
                                            api_groups: [],
                                            api_versions: [],
                                            resources: [],
                                            resource_names: [
                                                "kept",
                                            ],
                                            scope: "",
                                        },
                                    ],
                                    match_policy: "Exact",
                                },
                            ),
                            failure_policy: "Ignore",
                            validations: [
                                Validation {
                                    expression: "false",
                                    message: "m",
                                    message_expression: "'x'",
                                    reason: "Forbidden",
                                },
                            ],
                            audit_annotations: [
                                AuditAnnotation {
                                    key: "k",
                                    value_expression: "'v'",
                                },
                            ],
                            match_conditions: [
                                Named {
                                    name: "c",
                                    expression: "true",
                                },
                            ],
                            variables: [
                                Named {
                                    name: "v",
                                    expression: "1",
                                },
                            ],
                            mutations: [],
                            reinvocation_policy: "",
                        },
                    ),
                ),
            ]
        "#]],
    );
}

#[test]
fn bindings_mutations_and_other_documents() {
    check(
        r#"
apiVersion: admissionregistration.k8s.io/v1alpha1
kind: MutatingAdmissionPolicy
metadata: {name: m}
spec:
  reinvocationPolicy: IfNeeded
  mutations:
  - {patchType: ApplyConfiguration, applyConfiguration: {expression: "Object{}"}}
  - {patchType: JSONPatch, jsonPatch: {expression: "[]"}}
---
apiVersion: admissionregistration.k8s.io/v1alpha1
kind: MutatingAdmissionPolicyBinding
metadata: {name: b}
spec:
  policyName: m
  paramRef: {name: n, namespace: ns, parameterNotFoundAction: Allow}
---
apiVersion: example.com/v1alpha1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: odd}
spec: {validationActions: [Warn, Audit], matchResources: {}}
---
apiVersion: v1
kind: ConfigMap
"#,
        expect![[r#"
            [
                Some(
                    Policy(
                        Policy {
                            kind: MutatingPolicy,
                            name: "m",
                            param_kind: None,
                            match_constraints: None,
                            failure_policy: "",
                            validations: [],
                            audit_annotations: [],
                            match_conditions: [],
                            variables: [],
                            mutations: [
                                Mutation {
                                    patch_type: "ApplyConfiguration",
                                    apply_configuration: "Object{}",
                                    json_patch: "",
                                },
                                Mutation {
                                    patch_type: "JSONPatch",
                                    apply_configuration: "",
                                    json_patch: "[]",
                                },
                            ],
                            reinvocation_policy: "IfNeeded",
                        },
                    ),
                ),
                Some(
                    Binding(
                        Binding {
                            kind: MutatingBinding,
                            version: V1alpha1,
                            name: "b",
                            policy_name: "m",
                            validation_actions: [],
                            param_ref: Some(
                                ParamRef {
                                    name: "n",
                                    namespace: "ns",
                                    selector: None,
                                    parameter_not_found_action: "Allow",
                                },
                            ),
                            match_resources: None,
                        },
                    ),
                ),
                Some(
                    Binding(
                        Binding {
                            kind: ValidatingBinding,
                            version: V1alpha1,
                            name: "odd",
                            policy_name: "",
                            validation_actions: [
                                "Warn",
                                "Audit",
                            ],
                            param_ref: None,
                            match_resources: Some(
                                Resources {
                                    namespace_selector: None,
                                    object_selector: None,
                                    resource_rules: [],
                                    exclude_resource_rules: [],
                                    match_policy: "",
                                },
                            ),
                        },
                    ),
                ),
                None,
            ]
        "#]],
    );
}
