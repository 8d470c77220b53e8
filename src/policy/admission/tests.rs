//! Evaluation through the module's API on JSON documents: variables are lazy and evaluated once per
//! evaluation, budgets are shared, and DELETE binds `object` to null.

use std::sync::Arc;

use serde_json::{Value as Json, json};

use super::view::{Document, document_of};
use super::{Decision, Input, Outcome, Request, TriState};
use crate::schema::SchemaTypes;

/// Evaluates a policy and binding written as JSON, read through the evaluation view.
fn evaluate(policy: &Json, binding: Option<&Json>, input: &Input) -> Outcome {
    let Document::Policy(policy) = document_of(policy) else {
        panic!("not a policy");
    };
    let binding = binding.map(|b| match document_of(b) {
        Document::Binding(binding) => binding,
        Document::Policy(_) => panic!("not a binding"),
    });
    super::evaluate(&policy, binding.as_ref(), input)
}

fn policy(variables: Json, validations: Json) -> Json {
    json!({
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingAdmissionPolicy",
        "metadata": {"name": "p"},
        "spec": {"variables": variables, "validations": validations}
    })
}

fn input(object: Option<Json>, old: Option<Json>) -> Input {
    Input {
        request: Request::new(object, old, None),
        params: None,
        param_pool: Vec::new(),
        schemas: Arc::new(SchemaTypes::new(crate::schema::bundled::newest())),
        authorizer: None,
        ignore_matching: true,
    }
}

fn pod() -> Json {
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "n"}})
}

#[test]
fn a_variable_is_evaluated_once_per_evaluation() {
    // About 725,000 cost units: forty uses would exceed the 10M budget if each recomputed it.
    let expensive = "lists.range(300).all(i, lists.range(300).all(j, i + j >= 0))";
    let validations: Vec<Json> = (0..40)
        .map(|_| json!({"expression": "variables.big"}))
        .collect();
    let p = policy(
        json!([{"name": "big", "expression": expensive}]),
        Json::Array(validations),
    );
    let out = evaluate(&p, None, &input(Some(pod()), None));
    assert_eq!(out.decision, Decision::Allow, "{:?}", out.messages);
    assert!(out.validations.iter().all(|v| v.result == TriState::True));
}

#[test]
fn an_unused_failing_variable_is_never_evaluated() {
    let p = policy(
        json!([{"name": "broken", "expression": "object.spec.missing"}]),
        json!([{"expression": "true"}]),
    );
    let out = evaluate(&p, None, &input(Some(pod()), None));
    assert_eq!(out.decision, Decision::Allow);
}

#[test]
fn a_failing_variable_names_itself() {
    let p = policy(
        json!([{"name": "broken", "expression": "object.spec.missing"}]),
        json!([{"expression": "variables.broken == 1"}]),
    );
    let out = evaluate(&p, None, &input(Some(pod()), None));
    assert_eq!(out.decision, Decision::Error);
    assert_eq!(
        out.validations[0].message.as_deref(),
        Some(
            "expression 'variables.broken == 1' resulted in error: composited variable \"broken\" fails to evaluate: no such key: spec"
        )
    );
}

#[test]
fn delete_binds_object_to_null() {
    let p = policy(
        json!([]),
        json!([{"expression": "object == null && oldObject.metadata.name == 'p'"}]),
    );
    let out = evaluate(&p, None, &input(None, Some(pod())));
    assert_eq!(out.decision, Decision::Allow, "{:?}", out.validations);
}

#[test]
fn a_syntax_error_is_a_compilation_error() {
    let p = policy(
        json!([]),
        json!([{"expression": "object.metadata.name =="}]),
    );
    let out = evaluate(&p, None, &input(Some(pod()), None));
    assert_eq!(out.decision, Decision::Error);
    let message = out.validations[0].message.clone().unwrap_or_default();
    assert!(
        message.starts_with("compilation error: compilation failed: ERROR: <input>:1:"),
        "{message}"
    );
}

#[test]
fn recomputing_the_variable_would_exhaust_the_budget() {
    // The control for `a_variable_is_evaluated_once_per_evaluation`: the same work inlined.
    let expensive = "lists.range(300).all(i, lists.range(300).all(j, i + j >= 0))";
    let validations: Vec<Json> = (0..40).map(|_| json!({"expression": expensive})).collect();
    let p = policy(json!([]), Json::Array(validations));
    let out = evaluate(&p, None, &input(Some(pod()), None));
    assert_eq!(out.decision, Decision::Error);
    let last = out.validations.last().and_then(|v| v.message.clone());
    assert_eq!(last.as_deref(), Some(super::expr::BUDGET_MESSAGE));
    assert!(
        out.validations.len() < 40,
        "validations stop at the exhausted budget"
    );
}

#[test]
fn a_namespaced_param_for_a_cluster_scoped_request_is_a_configuration_error() {
    let mut p = policy(json!([]), json!([{"expression": "true"}]));
    p["spec"]["paramKind"] = json!({"apiVersion": "v1", "kind": "ConfigMap"});
    let binding = json!({
        "kind": "ValidatingAdmissionPolicyBinding",
        "metadata": {"name": "b"},
        "spec": {"policyName": "p", "validationActions": ["Deny"], "paramRef": {"name": "c", "parameterNotFoundAction": "Allow"}}
    });
    let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}});
    let out = evaluate(&p, Some(&binding), &input(Some(node), None));
    assert_eq!(out.decision, Decision::Error);
    assert_eq!(
        out.messages,
        [
            "nodes \"n1\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources"
        ]
    );
}

/// `validating/validator.go` `Validate`: an audit annotation of a type other than string or null
/// is an error even under `Ignore` (only an evaluation error follows the failurePolicy). The API
/// server refuses such a policy on write, so only a stored one reaches this.
#[test]
fn an_audit_annotation_of_another_type_refuses_even_under_ignore() {
    let mut p = policy(json!([]), json!([{"expression": "true"}]));
    p["spec"]["failurePolicy"] = json!("Ignore");
    p["spec"]["auditAnnotations"] = json!([{"key": "k", "valueExpression": "1"}]);
    let out = evaluate(&p, None, &input(Some(pod()), None));
    assert_eq!(out.decision, Decision::Error);
    assert_eq!(
        out.messages,
        [
            "pods \"p\" is forbidden: ValidatingAdmissionPolicy 'p' denied request: valueExpression '1' resulted in unsupported return type: int. Return type must be either string or null."
        ]
    );
}

/// The status of a refusal: a validating policy answers with the first denied decision's reason
/// and its code (`validating/dispatcher.go` `Dispatch`, `policy_decision.go` `reasonToCode`), an
/// error with `Invalid`; a mutating policy with `admission.NewForbidden`'s 403 and the policy
/// error's reason (`generic/policy_dispatcher.go` `Dispatch`).
#[test]
fn a_refusal_carries_the_api_servers_status() {
    let validation = |v: Json| policy(json!([]), json!([v]));
    let mut mutating = json!({
        "apiVersion": "admissionregistration.k8s.io/v1beta1",
        "kind": "MutatingAdmissionPolicy",
        "metadata": {"name": "m"},
        "spec": {"mutations": [{"patchType": "ApplyConfiguration",
            "applyConfiguration": {"expression": "object.spec.missing"}}]}
    });
    let cases = [
        (
            validation(json!({"expression": "false", "reason": "Forbidden"})),
            403,
            "Forbidden",
        ),
        (
            validation(json!({"expression": "false", "reason": "Unauthorized"})),
            401,
            "Unauthorized",
        ),
        (validation(json!({"expression": "false"})), 422, "Invalid"),
        (
            validation(json!({"expression": "object.spec.missing"})),
            422,
            "Invalid",
        ),
        (mutating.take(), 403, "Invalid"),
    ];
    for (p, code, reason) in cases {
        let out = evaluate(&p, None, &input(Some(pod()), None));
        let status = out.status.expect("refused");
        assert_eq!((status.code, status.reason.as_str()), (code, reason), "{p}");
    }
}

/// `cel.CreateNamespaceObject` (`cel/condition.go`): a validating policy sees the Namespace with
/// spec, status and a fixed set of metadata fields, and without `apiVersion`/`kind` (the typed
/// object from the API server's cache has an empty TypeMeta). A checked policy cannot name the
/// dropped fields (`kubernetes.Namespace` does not declare them); a stored one could.
#[test]
fn a_validating_policy_sees_the_trimmed_namespace() {
    let p = policy(
        json!([]),
        json!([{"expression": "!has(namespaceObject.kind) && !has(namespaceObject.metadata.managedFields) && namespaceObject.metadata.labels.team == 'x'"}]),
    );
    let mut input = input(Some(pod()), None);
    input.request.namespace_object = Some(json!({
        "apiVersion": "v1", "kind": "Namespace",
        "metadata": {"name": "n", "labels": {"team": "x"}, "managedFields": [{"manager": "kubectl"}]}
    }));
    let out = evaluate(&p, None, &input);
    assert_eq!(out.decision, Decision::Allow, "{:?}", out.validations);
}
