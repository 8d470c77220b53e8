//! ValidatingAdmissionPolicy fixtures: versions, defaults, metadata, paramKind, match resources,
//! match conditions, variables, validations and audit annotations.

use crate::check_diagnostics;
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
        check_diagnostics(&text, expect![[r#""#]]);
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
        expect![[r#""#]],
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
        expect![[r#""#]],
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
        expect![[r#""#]],
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
        expect![[r#""#]],
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
        expect![[r#""#]],
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
        expect![[r#""#]],
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
    check_diagnostics(&text, expect![[r#""#]]);
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
        expect![[r#""#]],
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
        expect![[r#""#]],
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
        expect![[r#""#]],
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
    check_diagnostics(&text, expect![[r#""#]]);
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
    check_diagnostics(&text, expect![[r#""#]]);
}
