//! ValidatingAdmissionPolicy fixtures: versions, defaults, metadata, paramKind, match resources,
//! match conditions, variables, validations and audit annotations.

use crate::{check_diagnostics, check_diagnostics_at};
use expect_test::expect;

#[test]
fn valid_policies_in_all_three_versions_are_clean() {
    for version in ["v1alpha1", "v1beta1", "v1"] {
        let text = format!(
            "
apiVersion: admissionregistration.k8s.io/{version}
kind: ValidatingAdmissionPolicy
metadata:
  name: demo
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments]
  validations:
  - expression: object.spec.replicas <= 5
"
        );
        check_diagnostics_at(31, &text, expect![[r#""#]]);
    }
}

#[test]
fn other_kinds_and_versions_are_ignored() {
    check_diagnostics(
        r#"
apiVersion: v1
kind: ConfigMap
metadata:
  name: Not A Valid Name
data:
  expression: "1 +"
---
apiVersion: admissionregistration.k8s.io/v2
kind: ValidatingAdmissionPolicy
spec:
  failurePolicy: Sometimes
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
webhooks: 3
"#,
        expect![[r#""#]],
    );
}

#[test]
fn metadata_name_is_required_and_a_dns_subdomain() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
spec:
  failurePolicy: Sometimes
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: "true"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: Bad_Name
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: "true"
"#,
        expect![[r#"
            policy.yaml:2:7: error[required] (refused on create): metadata.name: Required value: name or generateName is required
              |
            2 | kind: ValidatingAdmissionPolicy
              |       ^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:4:18: error[not-supported] (refused on create): spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"
              |
            4 |   failurePolicy: Sometimes
              |                  ^^^^^^^^^
            policy.yaml:14:9: error[invalid] (refused on create): metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
               |
            14 |   name: Bad_Name
               |         ^^^^^^^^
        "#]],
    );
}

#[test]
fn param_kind_rules() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  paramKind: {apiVersion: example.com/v1/x}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations: [{expression: "true"}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: b}
spec:
  paramKind: {apiVersion: Example.com/1, kind: Replica_Limit}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations: [{expression: "true"}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: c}
spec:
  paramKind: {apiVersion: "example.com/", kind: ReplicaLimit}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations: [{expression: "true"}]
"#,
        expect![[r#"
            policy.yaml:5:3: error[required] (refused on create): spec.paramKind.kind: Required value
              |
            5 |   paramKind: {apiVersion: example.com/v1/x}
              |   ^^^^^^^^^
            policy.yaml:5:27: error[invalid] (refused on create): spec.paramKind.apiVersion: Invalid value: "example.com/v1/x": unexpected GroupVersion string: example.com/v1/x
              |
            5 |   paramKind: {apiVersion: example.com/v1/x}
              |                           ^^^^^^^^^^^^^^^^
            policy.yaml:15:14: warning[unresolved-reference] (accepted): spec.paramKind: Example.com/1, Kind=Replica_Limit is neither a bundled kind nor a CustomResourceDefinition in the workspace; params is untyped
               |
            15 |   paramKind: {apiVersion: Example.com/1, kind: Replica_Limit}
               |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:15:27: error[invalid] (refused on create): spec.paramKind.apiVersion: Invalid value: "Example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
               |
            15 |   paramKind: {apiVersion: Example.com/1, kind: Replica_Limit}
               |                           ^^^^^^^^^^^
            policy.yaml:15:39: error[invalid] (refused on create): spec.paramKind.apiVersion: Invalid value: "1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')
               |
            15 |   paramKind: {apiVersion: Example.com/1, kind: Replica_Limit}
               |                                       ^
            policy.yaml:15:48: error[invalid] (refused on create): spec.paramKind.kind: Invalid value: "Replica_Limit": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')
               |
            15 |   paramKind: {apiVersion: Example.com/1, kind: Replica_Limit}
               |                                                ^^^^^^^^^^^^^
            policy.yaml:25:14: warning[unresolved-reference] (accepted): spec.paramKind: example.com/, Kind=ReplicaLimit is neither a bundled kind nor a CustomResourceDefinition in the workspace; params is untyped
               |
            25 |   paramKind: {apiVersion: "example.com/", kind: ReplicaLimit}
               |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:25:27: error[invalid] (refused on create): spec.paramKind.apiVersion: Invalid value: "example.com/": version must be specified
               |
            25 |   paramKind: {apiVersion: "example.com/", kind: ReplicaLimit}
               |                           ^^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn match_constraints_are_required_with_rules() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  validations: [{expression: "true"}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: b}
spec:
  matchConstraints:
    matchPolicy: Approximately
  validations: [{expression: "true"}]
"#,
        expect![[r#"
            policy.yaml:4:1: error[required] (refused on create): spec.matchConstraints: Required value
              |
            4 | spec:
              | ^^^^
            policy.yaml:11:3: error[required] (refused on create): spec.matchConstraints.resourceRules: Required value
               |
            11 |   matchConstraints:
               |   ^^^^^^^^^^^^^^^^
            policy.yaml:12:18: error[not-supported] (refused on create): spec.matchConstraints.matchPolicy: Unsupported value: "Approximately": supported values: "Equivalent", "Exact"
               |
            12 |     matchPolicy: Approximately
               |                  ^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn rule_and_selector_rules() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  matchConstraints:
    namespaceSelector:
      matchLabels: {"bad key!": ok, good: "-bad-value"}
      matchExpressions:
      - {key: tier, operator: Equals}
      - {key: env, operator: Exists, values: [prod]}
      - {key: env, operator: In}
      - {key: env, operator: NotIn, values: ["not ok"]}
    resourceRules:
    - apiGroups: ["*", apps]
      apiVersions: ["", "*"]
      operations: ["*", PATCH]
      resources: [pods]
      resourceNames: [a/b, "..", a/b]
      scope: Everywhere
    - apiGroups: []
      operations: []
      resources: []
    excludeResourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [DELETE], resources: [pods]}
  validations: [{expression: "true"}]
"#,
        expect![[r#"
            policy.yaml:7:21: error[invalid] (refused on create): spec.matchConstraints.namespaceSelector.matchLabels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
              |
            7 |       matchLabels: {"bad key!": ok, good: "-bad-value"}
              |                     ^^^^^^^^^^
            policy.yaml:7:43: error[invalid] (refused on create): spec.matchConstraints.namespaceSelector.matchLabels: Invalid value: "-bad-value": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
              |
            7 |       matchLabels: {"bad key!": ok, good: "-bad-value"}
              |                                           ^^^^^^^^^^^^
            policy.yaml:9:31: error[invalid] (refused on create): spec.matchConstraints.namespaceSelector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator
              |
            9 |       - {key: tier, operator: Equals}
              |                               ^^^^^^
            policy.yaml:10:46: error[forbidden] (refused on create): spec.matchConstraints.namespaceSelector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'
               |
            10 |       - {key: env, operator: Exists, values: [prod]}
               |                                              ^^^^^^
            policy.yaml:11:9: error[required] (refused on create): spec.matchConstraints.namespaceSelector.matchExpressions[2].values: Required value: must be specified when `operator` is 'In' or 'NotIn'
               |
            11 |       - {key: env, operator: In}
               |         ^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:12:46: error[invalid] (refused on create): spec.matchConstraints.namespaceSelector.matchExpressions[3].values[0]: Invalid value: "not ok": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
               |
            12 |       - {key: env, operator: NotIn, values: ["not ok"]}
               |                                              ^^^^^^^^
            policy.yaml:14:18: error[invalid] (refused on create): spec.matchConstraints.resourceRules[0].apiGroups: Invalid value: ["*","apps"]: if '*' is present, must not specify other API groups
               |
            14 |     - apiGroups: ["*", apps]
               |                  ^^^^^^^^^^^
            policy.yaml:15:20: error[invalid] (refused on create): spec.matchConstraints.resourceRules[0].apiVersions: Invalid value: ["","*"]: if '*' is present, must not specify other API versions
               |
            15 |       apiVersions: ["", "*"]
               |                    ^^^^^^^^^
            policy.yaml:15:21: error[required] (refused on create): spec.matchConstraints.resourceRules[0].apiVersions[0]: Required value
               |
            15 |       apiVersions: ["", "*"]
               |                     ^^
            policy.yaml:16:19: error[invalid] (refused on create): spec.matchConstraints.resourceRules[0].operations: Invalid value: ["*","PATCH"]: if '*' is present, must not specify other operations
               |
            16 |       operations: ["*", PATCH]
               |                   ^^^^^^^^^^^^
            policy.yaml:16:25: error[not-supported] (refused on create): spec.matchConstraints.resourceRules[0].operations[1]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"
               |
            16 |       operations: ["*", PATCH]
               |                         ^^^^^
            policy.yaml:18:23: error[invalid] (refused on create): spec.matchConstraints.resourceRules[0].resourceNames[0]: Invalid value: "a/b": may not contain '/'
               |
            18 |       resourceNames: [a/b, "..", a/b]
               |                       ^^^
            policy.yaml:18:28: error[invalid] (refused on create): spec.matchConstraints.resourceRules[0].resourceNames[1]: Invalid value: "..": may not be '..'
               |
            18 |       resourceNames: [a/b, "..", a/b]
               |                            ^^^^
            policy.yaml:18:34: error[invalid] (refused on create): spec.matchConstraints.resourceRules[0].resourceNames[2]: Invalid value: "a/b": may not contain '/'
               |
            18 |       resourceNames: [a/b, "..", a/b]
               |                                  ^^^
            policy.yaml:18:34: error[duplicate] (refused on create): spec.matchConstraints.resourceRules[0].resourceNames[2]: Duplicate value: "a/b"
               |
            18 |       resourceNames: [a/b, "..", a/b]
               |                                  ^^^
            policy.yaml:19:14: error[not-supported] (refused on create): spec.matchConstraints.resourceRules[0].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"
               |
            19 |       scope: Everywhere
               |              ^^^^^^^^^^
            policy.yaml:20:7: error[required] (refused on create): spec.matchConstraints.resourceRules[1].apiVersions: Required value
               |
            20 |     - apiGroups: []
               |       ^^^^^^^^^^^^^
            policy.yaml:20:18: error[required] (refused on create): spec.matchConstraints.resourceRules[1].apiGroups: Required value
               |
            20 |     - apiGroups: []
               |                  ^^
            policy.yaml:21:19: error[required] (refused on create): spec.matchConstraints.resourceRules[1].operations: Required value
               |
            21 |       operations: []
               |                   ^^
            policy.yaml:22:18: error[required] (refused on create): spec.matchConstraints.resourceRules[1].resources: Required value
               |
            22 |       resources: []
               |                  ^^
        "#]],
    );
}

#[test]
fn resource_wildcard_rules() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: ["*/*", pods]}
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: ["*", pods]}
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: ["pods/*", pods/status, "*/scale", deployments/scale, ""]}
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: ["*", "*/status"]}
  validations: [{expression: "true"}]
"#,
        expect![[r#"
            policy.yaml:7:77: error[invalid] (refused on create): spec.matchConstraints.resourceRules[0].resources: Invalid value: ["*/*","pods"]: if '*/*' is present, must not specify other resources
              |
            7 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: ["*/*", pods]}
              |                                                                             ^^^^^^^^^^^^^
            policy.yaml:8:77: error[invalid] (refused on create): spec.matchConstraints.resourceRules[1].resources: Invalid value: ["*","pods"]: if '*' is present, must not specify other resources without subresources
              |
            8 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: ["*", pods]}
              |                                                                             ^^^^^^^^^^^
            policy.yaml:9:88: error[invalid] (refused on create): spec.matchConstraints.resourceRules[2].resources[1]: Invalid value: "pods/status": if 'pods/*' is present, must not specify pods/status
              |
            9 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: ["pods/*", pods/status, "*/scale", deployments/scale, ""]}
              |                                                                                        ^^^^^^^^^^^
            policy.yaml:9:112: error[invalid] (refused on create): spec.matchConstraints.resourceRules[2].resources[3]: Invalid value: "deployments/scale": if '*/scale' is present, must not specify deployments/scale
              |
            9 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: ["pods/*", pods/status, "*/scale", deployments/scale, ""]}
              |                                                                                                                ^^^^^^^^^^^^^^^^^
            policy.yaml:9:112: warning[unresolved-reference] (accepted): spec.matchConstraints.resourceRules[2].resources[3]: no resource 'deployments' in API group "" version v1 of Kubernetes 1.37 (bundled) or of a CustomResourceDefinition in the workspace: the rule matches nothing and the typed check could not run for it; did you mean apiGroups: ["apps"]?
              |
            9 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: ["pods/*", pods/status, "*/scale", deployments/scale, ""]}
              |                                                                                                                ^^^^^^^^^^^^^^^^^
            policy.yaml:9:131: error[required] (refused on create): spec.matchConstraints.resourceRules[2].resources[4]: Required value
              |
            9 |     - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: ["pods/*", pods/status, "*/scale", deployments/scale, ""]}
              |                                                                                                                                   ^^
        "#]],
    );
}

#[test]
fn match_condition_rules() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  matchConditions:
  - name: "bad name!"
    expression: "true"
  - name: example.com/fine
    expression: "true"
  - name: example.com/fine
    expression: "   "
  - expression: "true"
  validations: [{expression: "true"}]
"#,
        expect![[r#"
            policy.yaml:9:11: error[invalid] (refused on create): spec.matchConditions[0].name: Invalid value: "bad name!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
              |
            9 |   - name: "bad name!"
              |           ^^^^^^^^^^^
            policy.yaml:13:11: error[duplicate] (refused on create): spec.matchConditions[2].name: Duplicate value: "example.com/fine"
               |
            13 |   - name: example.com/fine
               |           ^^^^^^^^^^^^^^^^
            policy.yaml:14:17: error[required] (refused on create): spec.matchConditions[2].expression: Required value
               |
            14 |     expression: "   "
               |                 ^^^^^
            policy.yaml:15:5: error[required] (refused on create): spec.matchConditions[3].name: Required value
               |
            15 |   - expression: "true"
               |     ^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn at_most_64_match_conditions() {
    let mut text = String::from(
        "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations: [{expression: \"true\"}]
  matchConditions:
",
    );
    for i in 0..65 {
        text.push_str(&format!("  - {{name: c{i}, expression: \"true\"}}\n"));
    }
    check_diagnostics(
        &text,
        expect![[r#"
            policy.yaml:10:3: error[too-many] (refused on create): spec.matchConditions: Too many: 65: must have at most 64 items
               |
            10 |   - {name: c0, expression: "true"}
               |   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn variable_rules() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  variables:
  - {name: 1st, expression: "1"}
  - {name: namespace, expression: "1"}
  - {name: twice, expression: "2"}
  - {name: twice, expression: " "}
  - {expression: "3"}
  validations: [{expression: "true"}]
"#,
        expect![[r#"
            policy.yaml:9:12: error[invalid] (refused on create): spec.variables[0].name: Invalid value: "1st": name is not a valid CEL identifier
              |
            9 |   - {name: 1st, expression: "1"}
              |            ^^^
            policy.yaml:10:12: error[invalid] (refused on create): spec.variables[1].name: Invalid value: "namespace": name is not a valid CEL identifier
               |
            10 |   - {name: namespace, expression: "1"}
               |            ^^^^^^^^^
            policy.yaml:12:12: error[duplicate] (refused on create): spec.variables[3].name: Duplicate value: "twice": variable names must be unique (required by the API documentation; the API server does not check it)
               |
            12 |   - {name: twice, expression: " "}
               |            ^^^^^
            policy.yaml:12:31: error[required] (refused on create): spec.variables[3].expression: Required value: expression is not specified
               |
            12 |   - {name: twice, expression: " "}
               |                               ^^^
            policy.yaml:13:5: error[required] (refused on create): spec.variables[4].name: Required value: name is not specified
               |
            13 |   - {expression: "3"}
               |     ^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// The API server adds a variable to `variables` only after compiling it, so a variable can use
/// the variables before it, not itself nor a later one: cel-go's `undefined field`, with a hint.
#[test]
fn a_variable_uses_only_the_variables_before_it() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  variables:
  - {name: first, expression: "variables.second + 1"}
  - {name: second, expression: "2"}
  - {name: third, expression: "variables.third + variables.first"}
  - {name: fourth, expression: "variables.nope + size(object.spec.second)"}
  validations: [{expression: "variables.second > 1"}]
"#,
        expect![[r#"
            policy.yaml:9:42: error[cel-undefined-field] (refused on create): spec.variables[0].expression: undefined field 'second'; variables.second is declared after this variable; a variable can only use the variables before it
              |
            9 |   - {name: first, expression: "variables.second + 1"}
              |                                          ^^^^^^
            policy.yaml:11:42: error[cel-undefined-field] (refused on create): spec.variables[2].expression: undefined field 'third'; variables.third refers to itself; a variable can only use the variables before it
               |
            11 |   - {name: third, expression: "variables.third + variables.first"}
               |                                          ^^^^^
            policy.yaml:12:43: error[cel-undefined-field] (refused on create): spec.variables[3].expression: undefined field 'nope'
               |
            12 |   - {name: fourth, expression: "variables.nope + size(object.spec.second)"}
               |                                           ^^^^
            policy.yaml:12:67: error[cel-undefined-field] (fails at admission): spec.variables[3].expression: undefined field 'second' (in /v1, Kind=Pod)
               |
            12 |   - {name: fourth, expression: "variables.nope + size(object.spec.second)"}
               |                                                                   ^^^^^^
        "#]],
    );
}

#[test]
fn validation_rules() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: "true"
    message: "   "
    reason: Unauthorized
  - expression: "true"
    message: "two\nlines"
    messageExpression: "  "
  - message: |
      one line, trailing break trimmed
    reason: RequestEntityTooLarge
"#,
        expect![[r#"
            policy.yaml:10:14: error[invalid] (refused on create): spec.validations[0].message: Invalid value: "   ": message must be non-empty if specified
               |
            10 |     message: "   "
               |              ^^^^^
            policy.yaml:11:13: error[not-supported] (refused on create): spec.validations[0].reason: Unsupported value: "Unauthorized": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"
               |
            11 |     reason: Unauthorized
               |             ^^^^^^^^^^^^
            policy.yaml:13:14: error[invalid] (refused on create): spec.validations[1].message: Invalid value: "two\nlines": message must not contain line breaks
               |
            13 |     message: "two\nlines"
               |              ^^^^^^^^^^^^
            policy.yaml:14:24: error[invalid] (refused on create): spec.validations[1].messageExpression: Invalid value: "  ": must be non-empty if specified
               |
            14 |     messageExpression: "  "
               |                        ^^^^
            policy.yaml:15:5: error[required] (refused on create): spec.validations[2].expression: Required value: expression is not specified
               |
            15 |   - message: |
               |     ^^^^^^^^^^
        "#]],
    );
}

#[test]
fn validations_or_audit_annotations_required() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  failurePolicy: Ignore
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations: []
"#,
        expect![[r#"
            policy.yaml:4:1: error[required] (refused on create): spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item
              |
            4 | spec:
              | ^^^^
            policy.yaml:9:16: error[required] (refused on create): spec.validations: Required value: validations or auditAnnotations must contain at least one item
              |
            9 |   validations: []
              |                ^^
        "#]],
    );
}

#[test]
fn audit_annotation_rules() {
    // A value expression of more than 5120 bytes, as a literal block of 400 short lines.
    let long = "      'xxxxxxxxxx',\n".repeat(400);
    let text = format!(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {{name: policy.example.com}}
spec:
  matchConstraints:
    resourceRules:
    - {{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}}
  auditAnnotations:
  - {{key: fine, valueExpression: "'x'"}}
  - {{key: fine, valueExpression: "'y'"}}
  - {{key: "a/b", valueExpression: "'z'"}}
  - {{key: "bad key", valueExpression: ""}}
  - key: long
    valueExpression: |
      [
{long}      'x'].join('')
"#
    );
    check_diagnostics(
        &text,
        expect![[r#"
            policy.yaml:10:11: error[duplicate] (refused on create): spec.auditAnnotations[1].key: Duplicate value: "fine"
               |
            10 |   - {key: fine, valueExpression: "'y'"}
               |           ^^^^
            policy.yaml:11:11: error[invalid] (refused on create): spec.auditAnnotations[2].key: Invalid value: "policy.example.com/a/b": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')
               |
            11 |   - {key: "a/b", valueExpression: "'z'"}
               |           ^^^^^
            policy.yaml:12:11: error[invalid] (refused on create): spec.auditAnnotations[3].key: Invalid value: "policy.example.com/bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
               |
            12 |   - {key: "bad key", valueExpression: ""}
               |           ^^^^^^^^^
            policy.yaml:12:39: error[required] (refused on create): spec.auditAnnotations[3].valueExpression: Required value: valueExpression is not specified
               |
            12 |   - {key: "bad key", valueExpression: ""}
               |                                       ^^
            policy.yaml:14:22: error[required] (refused on create): spec.auditAnnotations[4].valueExpression: Required value: must not exceed 5120 bytes in length
               |
            14 |     valueExpression: |
               |                      ^
        "#]],
    );
}

#[test]
fn at_most_20_audit_annotations_and_a_named_policy() {
    let mut text = String::from(
        "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {generateName: gen-}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  auditAnnotations:
  - {key: k, valueExpression: \"'v'\"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  auditAnnotations:
",
    );
    for i in 0..21 {
        text.push_str(&format!("  - {{key: k{i}, valueExpression: \"'v'\"}}\n"));
    }
    check_diagnostics(
        &text,
        expect![[r#"
            policy.yaml:9:11: error[invalid] (refused on create): spec.auditAnnotations[0].key: Invalid value: "k": requires metadata.name be non-empty
              |
            9 |   - {key: k, valueExpression: "'v'"}
              |           ^
            policy.yaml:19:3: error[too-many] (refused on create): spec.auditAnnotations: Invalid value: 21 items: must not have more than 20 auditAnnotations
               |
            19 |   - {key: k0, valueExpression: "'v'"}
               |   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn metadata_labels_and_annotations() {
    check_diagnostics(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: a
  labels: {"team name": platform, app: "-x", example.com/ok: "yes"}
  annotations: {Example.com/Owner: me, "bad//key": x}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations: [{expression: "true"}]
"#,
        expect![[r#"
            policy.yaml:5:12: error[invalid] (refused on create): metadata.labels: Invalid value: "team name": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
              |
            5 |   labels: {"team name": platform, app: "-x", example.com/ok: "yes"}
              |            ^^^^^^^^^^^
            policy.yaml:5:40: error[invalid] (refused on create): metadata.labels: Invalid value: "-x": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')
              |
            5 |   labels: {"team name": platform, app: "-x", example.com/ok: "yes"}
              |                                        ^^^^
            policy.yaml:6:40: error[invalid] (refused on create): metadata.annotations: Invalid value: "bad//key": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')
              |
            6 |   annotations: {Example.com/Owner: me, "bad//key": x}
              |                                        ^^^^^^^^^^
        "#]],
    );
}

/// A `kind: List` as `kubectl get -o yaml` writes it: kubectl applies each item
/// (apimachinery unstructured/helpers.go: a document with `items` decodes as a list; cli-runtime's
/// FlattenListVisitor visits the items), so each is checked, and the binding finds the policy in
/// the same list.
#[test]
fn the_items_of_a_list_are_checked() {
    check_diagnostics(
        r#"
apiVersion: v1
kind: List
metadata:
  resourceVersion: ""
items:
- apiVersion: admissionregistration.k8s.io/v1
  kind: ValidatingAdmissionPolicy
  metadata: {name: listed}
  spec:
    failurePolicy: Sometimes
    matchConstraints:
      resourceRules:
      - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
    validations:
    - expression: object.spec.replicas <= 'five'
- apiVersion: admissionregistration.k8s.io/v1
  kind: ValidatingAdmissionPolicyBinding
  metadata: {name: listed-binding}
  spec:
    policyName: listed
    validationActions: [Deny]
- apiVersion: admissionregistration.k8s.io/v1
  kind: ValidatingAdmissionPolicyBinding
  metadata: {name: elsewhere}
  spec:
    policyName: not-in-the-list
    validationActions: [Deny]
"#,
        expect![[r#"
            policy.yaml:10:20: error[not-supported] (refused on create): spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"
               |
            10 |     failurePolicy: Sometimes
               |                    ^^^^^^^^^
            policy.yaml:15:40: error[cel-no-overload] (fails at admission): spec.validations[0].expression: found no matching overload for '_<=_' applied to '(int, string)' (in apps/v1, Kind=Deployment)
               |
            15 |     - expression: object.spec.replicas <= 'five'
               |                                        ^^
            policy.yaml:26:17: warning[unresolved-reference] (accepted): spec.policyName: no ValidatingAdmissionPolicy named 'not-in-the-list' in the workspace
               |
            26 |     policyName: not-in-the-list
               |                 ^^^^^^^^^^^^^^^
        "#]],
    );
}
