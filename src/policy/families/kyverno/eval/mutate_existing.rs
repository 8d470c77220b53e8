//! A MutatingPolicy's mutate-existing evaluation (`spec.evaluation.mutateExisting.enabled`): the
//! existing objects a trigger selects, each mutated, as Kyverno's CLI runs it
//! (`cmd/cli/kubectl-kyverno/processor/policy_processor.go`: `discoverCELTargets` and
//! `targetMatchPredicate`, then `mpol/engine/engine.go` `Evaluate` with no matcher).
//!
//! A target is selected by `spec.targetMatchConstraints`: its `expression` (run with `object` the
//! trigger, the variables and the lookups; a list's `items` or the one object returned, by
//! namespace and name), else its resource rules, else the policy's `matchConstraints`, every
//! operation allowed. A selected target is evaluated as `mpol/compiler/policy.go` `evaluate`
//! does in target mode: `object` the target, `oldObject` and `namespaceObject` null, `request`
//! the trigger's request (with the trigger as its `object`), the variables, then
//! `spec.targetMatchConditions` (a false one skips), then every mutation on the target.

use std::sync::Arc;

use serde_json::{Value as Json, json};

use super::library::{ContextData, Library};
use super::mutating::{conditions_hold, mutate};
use super::validating::{Settings, audit_annotations, evaluate_text, matches_policy};
use super::{EvalInput, FamilyOutcome, Response, Status, value_of};
use crate::cel::eval::Value;
use crate::policy::admission::Request;
use crate::policy::admission::expr::Scope;
use crate::policy::admission::json::str_at;
use crate::policy::admission::patch;
use crate::policy::admission::view::{self, Document, Policy};
use crate::policy::{ApiVersion, PolicyKind, read_kinds};
use crate::schema::{KubeVersion, SchemaTypes};
use crate::yaml::{Entry, Node, NodeKind};

/// The variant name of a target's response starts with this.
pub const TARGET_VARIANT: &str = "mutate-existing";

/// Whether the policy at `root` runs on existing objects.
pub fn enabled(root: &Node) -> bool {
    root.get("spec")
        .and_then(|s| s.get("evaluation"))
        .and_then(|e| e.get("mutateExisting"))
        .and_then(|m| m.get("enabled"))
        .and_then(Node::as_scalar)
        .and_then(|s| s.as_bool())
        .unwrap_or(false)
}

/// The policy's responses for the trigger in `input` on each of `targets` it selects, each
/// target starting from `targets` as given; `Err` when the target expression fails (the CLI
/// stops there).
pub(super) fn evaluate(
    root: &Node,
    kind: &str,
    input: &EvalInput,
    targets: &[Json],
) -> Result<Vec<(Json, Response)>, String> {
    let Some(policy) = target_view(root) else {
        return Ok(Vec::new());
    };
    let mut settings = Settings::read(root, kind);
    settings.actions.clear();
    let selected = selected_by_expression(root, &policy, input)?;
    let mut out = Vec::new();
    for target in targets {
        let chosen = match &selected {
            Some(keys) => keys.contains(&key(target)),
            None => matches_policy(&policy, &settings, &target_input(target)),
        };
        if chosen {
            out.push((target.clone(), respond(&policy, &settings, input, target)));
        }
    }
    Ok(out)
}

/// The policy read for its targets: `targetMatchConstraints` (when it has resource rules) as its
/// match constraints, `targetMatchConditions` as its match conditions, every operation allowed.
fn target_view(root: &Node) -> Option<Policy> {
    let mut root = root.clone();
    if let Some(NodeKind::Mapping(entries)) = spec_entries(&mut root) {
        let has_rules = entries.iter().any(|e| {
            e.key.as_str() == Some("targetMatchConstraints")
                && e.value.get("resourceRules").is_some()
        });
        entries.retain(|e| {
            let key = e.key.as_str();
            key != Some("matchConditions") && !(has_rules && key == Some("matchConstraints"))
        });
        for entry in entries.iter_mut() {
            match entry.key.as_str() {
                Some("targetMatchConstraints") if has_rules => rename(entry, "matchConstraints"),
                Some("targetMatchConditions") => rename(entry, "matchConditions"),
                _ => {}
            }
        }
    }
    let document = read_kinds::document(&root, PolicyKind::MutatingPolicy, ApiVersion::V1);
    let Document::Policy(mut policy) = view::from_model(&document) else {
        return None;
    };
    // `targetMatchPredicate`: operations are irrelevant to a target.
    if let Some(constraints) = policy.match_constraints.as_mut() {
        for rule in &mut constraints.resource_rules {
            rule.operations = vec!["*".to_string()];
        }
    }
    Some(policy)
}

fn spec_entries(root: &mut Node) -> Option<&mut NodeKind> {
    let NodeKind::Mapping(entries) = &mut root.kind else {
        return None;
    };
    let spec = entries
        .iter_mut()
        .find(|e| e.key.as_str() == Some("spec"))?;
    Some(&mut spec.value.kind)
}

/// The entry under another key (only its text is read again, never its positions).
fn rename(entry: &mut Entry, key: &str) {
    if let NodeKind::Scalar(scalar) = &mut entry.key.kind {
        scalar.value = key.to_string();
    }
}

/// `discoverCELTargets`: the keys the target expression selects, `None` without an expression.
fn selected_by_expression(
    root: &Node,
    policy: &Policy,
    input: &EvalInput,
) -> Result<Option<Vec<String>>, String> {
    let expression = root
        .get("spec")
        .and_then(|s| s.get("targetMatchConstraints"))
        .and_then(|t| t.get("expression"))
        .and_then(Node::as_str)
        .unwrap_or("");
    if expression.is_empty() {
        return Ok(None);
    }
    let activation = vec![("object", value_of(input.request.object.as_ref()))];
    let scope = Scope::kyverno(activation, &variables(policy), functions(input));
    let value = evaluate_text(&scope, expression).map_err(|e| {
        format!(
            "failed to evaluate CEL expression for policy {}: {e}",
            policy.name
        )
    })?;
    let json = match value {
        Value::Map(_) | Value::Object(_) => value.to_json().map_err(|e| e.message)?,
        other => {
            return Err(format!(
                "failed to convert CEL result for policy {}: type conversion error from '{}' to 'map'",
                policy.name,
                other.type_name()
            ));
        }
    };
    let keys = match json.get("items") {
        Some(Json::Array(items)) => items.iter().map(key).collect(),
        _ => vec![key(&json)],
    };
    Ok(Some(keys))
}

/// `namespace/name`, or `name` for a cluster-scoped object.
fn key(object: &Json) -> String {
    let name = str_at(object, &["metadata", "name"]);
    match str_at(object, &["metadata", "namespace"]) {
        "" => name.to_string(),
        namespace => format!("{namespace}/{name}"),
    }
}

/// An input whose request is about `target` (its kind for the schema, its namespace).
fn target_input(target: &Json) -> EvalInput {
    EvalInput {
        request: Request::new(Some(target.clone()), None, None),
        ..EvalInput::default()
    }
}

fn variables(policy: &Policy) -> Vec<(String, String)> {
    policy
        .variables
        .iter()
        .map(|v| (v.name.clone(), v.expression.clone()))
        .collect()
}

fn functions(input: &EvalInput) -> Arc<dyn crate::cel::eval::ExternalFunctions> {
    let data = ContextData::of(input);
    Library::shared(Arc::new(data))
}

/// `handlePolicy` in target mode on one target.
fn respond(policy: &Policy, settings: &Settings, input: &EvalInput, target: &Json) -> Response {
    let mut outcome = FamilyOutcome {
        kind: settings.kind.clone(),
        policy: policy.name.clone(),
        variant: Some(format!(
            "{TARGET_VARIANT} {}/{}",
            str_at(target, &["kind"]),
            key(target)
        )),
        ..FamilyOutcome::default()
    };
    let (status, message, patched) = match run(policy, input, target) {
        Ok(None) => (Status::Skip, "skip".to_string(), None),
        Ok(Some((object, annotations))) => {
            outcome.audit_annotations = annotations;
            (Status::Pass, "success".to_string(), Some(object))
        }
        Err(e) => (
            Status::Error,
            format!("failed to evaluate policy: {e}"),
            None,
        ),
    };
    outcome.result = status.as_str().into();
    outcome.decision = match status {
        Status::Pass => "allow",
        Status::Skip => "skip",
        Status::Fail | Status::Error => "error",
    }
    .into();
    outcome.message = Some(message);
    if let Some(object) = &patched {
        outcome.patch = Some(patch::diff(target, object));
        outcome.object = Some(object.clone());
    }
    Response {
        outcome,
        status: Some(status),
        has_selector: true,
        patched,
        unavailable: None,
    }
}

/// A mutated target and the audit annotations.
type Mutated = (Json, Vec<(String, String)>);

/// The target's mutations: `Ok(None)` when a target match condition is false.
fn run(policy: &Policy, input: &EvalInput, target: &Json) -> Result<Option<Mutated>, String> {
    let about_target = target_input(target);
    let scope = target_scope(policy, input, target);
    if !conditions_hold(policy, &scope)? {
        return Ok(None);
    }
    let schemas = SchemaTypes::new(KubeVersion::newest().minor());
    let mut object = target.clone();
    for mutation in &policy.mutations {
        let scope = target_scope(policy, input, &object);
        object = mutate(&scope, &schemas, &about_target, &object, mutation)?;
    }
    let annotations = audit_annotations(policy, &target_scope(policy, input, &object))?;
    Ok(Some((object, annotations)))
}

/// `prepareData` for a target: the target as `object`, the trigger's request as `request`.
fn target_scope(policy: &Policy, input: &EvalInput, target: &Json) -> Scope {
    let trigger = &input.request;
    let mut request = trigger.to_json(&trigger.version, &trigger.resource);
    if let Json::Object(map) = &mut request {
        map.insert(
            "object".into(),
            trigger.object.clone().unwrap_or(Json::Null),
        );
        map.insert(
            "oldObject".into(),
            trigger.old_object.clone().unwrap_or(Json::Null),
        );
    }
    let exceptions = json!({"allowedImages": [], "allowedValues": []});
    let activation = vec![
        ("object", value_of(Some(target))),
        ("oldObject", Value::Null),
        ("request", value_of(Some(&request))),
        ("namespaceObject", Value::Null),
        ("exceptions", value_of(Some(&exceptions))),
    ];
    Scope::kyverno(activation, &variables(policy), functions(input))
}
