//! One DeletingPolicy (or NamespacedDeletingPolicy) against one existing object, as
//! kyverno/kyverno's cleanup engine decides it (`pkg/cel/policies/dpol/engine/engine.go`
//! `Handle`: the match constraints with every operation allowed, the namespace object of the
//! object's namespace, or built from a Namespace itself; `dpol/compiler/policy.go` `Evaluate`:
//! `object`, `namespaceObject` and the variables bound, every condition run, a false one keeping
//! the object, errors joined) and as Kyverno's CLI reports it (`commands/test/test.go`
//! `applyDeletingPolicies`: `pass` "resource matched" when it would be deleted, `fail` "resource
//! did not match" when kept, `error` with the error, nothing when the policy does not select it).
//! The schedule is shown, checked with the cleanup controller's parser (`cron.rs`).

use std::sync::Arc;

use serde_json::{Value as Json, json};

use super::super::cron;
use super::library::{ContextData, Library};
use super::validating::{Settings, evaluate_bool, matches_policy};
use super::{EvalInput, FamilyOutcome, Response, Status, text_at, value_of};
use crate::policy::admission::explain;
use crate::policy::admission::expr::Scope;
use crate::policy::admission::json::str_at;
use crate::policy::admission::view::Policy;
use crate::yaml::Node;

/// A named condition.
struct Condition {
    name: String,
    expression: String,
}

/// The policy's one response.
pub(super) fn evaluate(root: &Node, kind: &str, input: &EvalInput) -> Vec<Response> {
    let Some(mut policy) = super::validating::read_view(root) else {
        return Vec::new();
    };
    // `matchPolicy` allows every operation: the object exists, no request made it.
    if let Some(constraints) = policy.match_constraints.as_mut() {
        for rule in &mut constraints.resource_rules {
            rule.operations = vec!["*".to_string()];
        }
    }
    let mut settings = Settings::read(root, kind);
    settings.actions.clear();
    let mut response = respond(&policy, &settings, input, &conditions(root));
    response.outcome.notes.extend(schedule_notes(root));
    vec![response]
}

/// `spec.conditions`, in order.
fn conditions(root: &Node) -> Vec<Condition> {
    let spec = root.get("spec");
    let items = spec
        .and_then(|s| s.get("conditions"))
        .and_then(Node::as_sequence);
    items
        .unwrap_or_default()
        .iter()
        .map(|item| Condition {
            name: text_at(item, &["name"]).to_string(),
            expression: text_at(item, &["expression"]).to_string(),
        })
        .collect()
}

/// The schedule (and whether the cleanup controller can parse it) and the propagation policy.
fn schedule_notes(root: &Node) -> Vec<String> {
    let schedule = text_at(root, &["spec", "schedule"]);
    let mut notes = vec![match cron::parse(schedule) {
        Ok(()) if !schedule.is_empty() => format!(
            "schedule: {schedule} (the cleanup controller deletes what matches at those times; offline, each object given is judged once)"
        ),
        Ok(()) => "schedule: none (Kyverno refuses the policy: schedule is required)".to_string(),
        Err(e) => format!(
            "schedule: {schedule} is not in proper cron format: {e} (Kyverno refuses the policy)"
        ),
    }];
    let propagation = text_at(root, &["spec", "deletionPropagationPolicy"]);
    if !propagation.is_empty() {
        notes.push(format!("deletionPropagationPolicy: {propagation}"));
    }
    notes
}

fn respond(
    policy: &Policy,
    settings: &Settings,
    input: &EvalInput,
    conditions: &[Condition],
) -> Response {
    let mut outcome = FamilyOutcome {
        kind: settings.kind.clone(),
        policy: policy.name.clone(),
        ..FamilyOutcome::default()
    };
    // The object judged: the request's object, or the old one of a DELETE.
    let object = input
        .request
        .object
        .as_ref()
        .or(input.request.old_object.as_ref());
    let mut current = input.clone();
    current.request.object = object.cloned();
    if !matches_policy(policy, settings, &current) {
        // `applyDeletingPolicies` emits no row for an object the policy does not select.
        return Response::no_match(outcome, true);
    }
    let data = Arc::new(ContextData::of(input));
    let (ran, explained) =
        explain::traced(|| run(policy, &current, object, conditions, data.clone()));
    outcome.explained = explained;
    let (status, message, decision) = match ran {
        Ok(None) => (Status::Pass, "resource matched".to_string(), "delete"),
        Ok(Some(kept_by)) => (
            Status::Fail,
            format!("resource did not match: condition '{kept_by}' is false"),
            "keep",
        ),
        Err(e) => (Status::Error, e, "error"),
    };
    Response {
        outcome: FamilyOutcome {
            result: status.as_str().into(),
            decision: decision.into(),
            message: Some(message),
            ..outcome
        },
        status: Some(status),
        has_selector: true,
        patched: None,
        unavailable: data.unavailable_after(status),
    }
}

/// `Evaluate`: `Ok(None)` when every condition holds, `Ok(Some(name))` with the first false one.
fn run(
    policy: &Policy,
    input: &EvalInput,
    object: Option<&Json>,
    conditions: &[Condition],
    data: Arc<ContextData>,
) -> Result<Option<String>, String> {
    let variables: Vec<(String, String)> = policy
        .variables
        .iter()
        .map(|v| (v.name.clone(), v.expression.clone()))
        .collect();
    let functions = Library::shared(data);
    let activation = vec![
        ("object", value_of(object)),
        (
            "namespaceObject",
            value_of(namespace_object(input, object).as_ref()),
        ),
    ];
    let scope = Scope::kyverno(activation, &variables, functions);
    let mut errors = Vec::new();
    for condition in conditions {
        let label = || format!("condition {}", condition.name);
        match explain::labelled(label, || evaluate_bool(&scope, &condition.expression)) {
            Ok(false) => return Ok(Some(condition.name.clone())),
            Ok(true) => {}
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(None)
    } else {
        Err(errors.join("; "))
    }
}

/// The namespace of a namespaced object (`--namespace`, the suite's values), or a Namespace
/// itself as the engine builds it (its name and labels).
fn namespace_object(input: &EvalInput, object: Option<&Json>) -> Option<Json> {
    let object = object?;
    if !input.request.namespace.is_empty() {
        return input.request.namespace_object.clone();
    }
    let group_version = str_at(object, &["apiVersion"]);
    if group_version == "v1" && str_at(object, &["kind"]) == "Namespace" {
        let labels = object
            .pointer("/metadata/labels")
            .cloned()
            .unwrap_or(Json::Null);
        let mut metadata = json!({ "name": str_at(object, &["metadata", "name"]) });
        if !labels.is_null() {
            metadata["labels"] = labels;
        }
        return Some(json!({ "apiVersion": "v1", "kind": "Namespace", "metadata": metadata }));
    }
    None
}
