//! One MutatingPolicy (or NamespacedMutatingPolicy) against one request, as kyverno/kyverno
//! decides it: `pkg/cel/policies/mpol/engine/engine.go` `handlePolicy` (match constraints, then
//! the compiled policy, then one rule result: skip when a matchCondition is false, error with
//! "failed to evaluate policy", otherwise pass with the patched object) and
//! `pkg/cel/policies/mpol/compiler/policy.go` `evaluate` (matchConditions, then every mutation in
//! order on the object the previous one produced; an ApplyConfiguration merged by the kind's
//! schema as `applyconfig.go` does through the API server's structured merge, a JSONPatch applied
//! as `json.go` does, a failed `test` leaving the object as it was; then audit annotations).
//! The merge and the patch are the ones our MutatingAdmissionPolicy evaluation uses.

use std::sync::Arc;

use serde_json::Value as Json;

use super::library::{ContextData, Library};
use super::validating::{
    Settings, activation, audit_annotations, evaluate_bool, evaluate_text, has_selector,
    matches_policy,
};
use super::{EvalInput, FamilyOutcome, Response, Status};
use crate::cel::eval::Value;
use crate::cel::types::Type;
use crate::policy::admission::mutate::{check_type_names, json_patch};
use crate::policy::admission::view::{self, Document, Mutation, Policy};
use crate::policy::admission::{explain, merge, patch};
use crate::policy::{ApiVersion, PolicyKind, read_kinds};
use crate::schema::{Gvk, KubeVersion, SchemaTypes};
use crate::yaml::Node;

/// The responses of the policy as written and of its autogen variants, which Kyverno's provider
/// compiles beside it (`mpol/engine/provider.go`).
pub(super) fn evaluate(root: &Node, kind: &str, input: &EvalInput) -> Vec<Response> {
    let Some(policy) = read_view(root) else {
        return Vec::new();
    };
    let mut settings = Settings::read(root, kind);
    // A MutatingPolicy has no validationActions.
    settings.actions.clear();
    let mut responses = vec![respond(&policy, &settings, input)];
    for (name, variant) in super::mutating_autogen::variants(root, &policy) {
        let mut response = respond(&variant, &settings, input);
        response.outcome.variant = Some(name);
        responses.push(response);
    }
    if admission_disabled(root) {
        for response in responses.iter_mut().filter(|r| r.status.is_some()) {
            response.outcome.notes.push(ADMISSION_OFF.into());
        }
    }
    responses
}

/// What a policy with admission evaluation off gets: the CLI's provider still runs it on the
/// request (`mpol/engine/provider.go` `Fetch`), a cluster's webhook does not (`reconciler.go`).
const ADMISSION_OFF: &str = "evaluation.admission.enabled is false: a cluster does not run this policy on admission requests (Kyverno's CLI, and this result, still do)";

/// `spec.evaluation.admission.enabled: false`.
fn admission_disabled(root: &Node) -> bool {
    let enabled = root
        .get("spec")
        .and_then(|s| s.get("evaluation"))
        .and_then(|e| e.get("admission"))
        .and_then(|a| a.get("enabled"))
        .and_then(Node::as_scalar)
        .and_then(|s| s.as_bool());
    enabled == Some(false)
}

/// The policy's view: its spec read as a MutatingAdmissionPolicy's, whose mutations it shares.
fn read_view(root: &Node) -> Option<Policy> {
    let document = read_kinds::document(root, PolicyKind::MutatingPolicy, ApiVersion::V1);
    match view::from_model(&document) {
        Document::Policy(policy) => Some(policy),
        Document::Binding(_) => None,
    }
}

fn respond(policy: &Policy, settings: &Settings, input: &EvalInput) -> Response {
    let mut outcome = FamilyOutcome {
        kind: settings.kind.clone(),
        policy: policy.name.clone(),
        ..FamilyOutcome::default()
    };
    let has_selector = has_selector(policy.match_constraints.as_ref());
    if !matches_policy(policy, settings, input) {
        return Response::no_match(outcome, has_selector);
    }
    let data = Arc::new(ContextData::of(input));
    let mut changes = Vec::new();
    let (ran, explained) = explain::traced(|| run(policy, settings, input, &data, &mut changes));
    outcome.explained = explained;
    outcome.mutation_patches = changes;
    let (status, message, patched) = match ran {
        Ran::Skipped => (Status::Skip, "skip".to_string(), None),
        Ran::Exempted(status, message) => (status, message, None),
        Ran::Failed(e) => (
            Status::Error,
            format!("failed to evaluate policy: {e}"),
            None,
        ),
        Ran::Mutated(object, annotations) => {
            outcome.audit_annotations = annotations;
            (Status::Pass, "success".to_string(), Some(object))
        }
    };
    outcome.result = status.as_str().into();
    outcome.decision = match status {
        Status::Pass => "allow",
        Status::Skip => "skip",
        Status::Fail | Status::Error => "error",
    }
    .into();
    outcome.message = Some(message);
    if let (Some(object), Some(before)) = (&patched, input.request.object.as_ref()) {
        outcome.patch = Some(patch::diff(before, object));
        outcome.object = Some(object.clone());
    }
    Response {
        outcome,
        status: Some(status),
        has_selector,
        patched,
        unavailable: data.unavailable_after(status),
    }
}

/// How a matched policy ran.
enum Ran {
    /// A matchCondition was false.
    Skipped,
    /// A condition, mutation or audit annotation failed.
    Failed(String),
    /// A PolicyException exempted the object: the status and message it gives.
    Exempted(Status, String),
    /// Every mutation ran: the object and the audit annotations.
    Mutated(Json, Vec<(String, String)>),
}

/// Runs a matched policy; `changes` gets what each mutation that ran changed, when traced.
fn run(
    policy: &Policy,
    settings: &Settings,
    input: &EvalInput,
    data: &Arc<ContextData>,
    changes: &mut Vec<(usize, Vec<Json>)>,
) -> Ran {
    let Some(mut object) = input.request.object.clone() else {
        // No object (a DELETE): nothing to mutate; Kyverno's matchConditions see a null object.
        return Ran::Skipped;
    };
    let scope = scope_on(policy, settings, input, &object, data);
    // `mpol/compiler/policy.go`: the exceptions first, as for a ValidatingPolicy.
    let applicable = super::exceptions::applicable(&input.context, &policy.name, &settings.kind);
    if !applicable.is_empty() {
        match super::exceptions::for_validating(&applicable, &scope, false) {
            Ok(exempted) => {
                if let Some((status, message)) = exempted.result {
                    return Ran::Exempted(status, message);
                }
            }
            Err(e) => return Ran::Failed(e),
        }
    }
    match conditions_hold(policy, &scope) {
        Ok(true) => {}
        Ok(false) => return Ran::Skipped,
        Err(e) => return Ran::Failed(e),
    }
    let schemas = SchemaTypes::new(KubeVersion::newest().minor());
    for (index, mutation) in policy.mutations.iter().enumerate() {
        // Each mutation sees the object the previous one produced (`data[ObjectKey]` updated).
        let scope = scope_on(policy, settings, input, &object, data);
        match mutate(&scope, &schemas, input, &object, mutation) {
            Ok(next) => {
                // Only the editor's live verdicts, which run traced, read them.
                if explain::enabled() {
                    changes.push((index, patch::diff(&object, &next)));
                }
                object = next;
            }
            Err(e) => return Ran::Failed(e),
        }
    }
    let scope = scope_on(policy, settings, input, &object, data);
    match audit_annotations(policy, &scope) {
        Ok(annotations) => Ran::Mutated(object, annotations),
        Err(e) => Ran::Failed(e),
    }
}

/// `Policy.match`: every condition runs; a `false` one skips; otherwise the errors, joined, are
/// the policy's error whatever its failurePolicy (the mutating and generating compilers do not
/// read it).
pub(super) fn conditions_hold(
    policy: &Policy,
    scope: &crate::policy::admission::expr::Scope,
) -> Result<bool, String> {
    let mut errors = Vec::new();
    for condition in &policy.match_conditions {
        let label = || format!("matchCondition {}", condition.name);
        match explain::labelled(label, || evaluate_bool(scope, &condition.expression)) {
            Ok(false) => return Ok(false),
            Ok(true) => {}
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(true)
    } else {
        Err(errors.join("; "))
    }
}

/// The evaluation scope with `object` bound as the request's object.
fn scope_on(
    policy: &Policy,
    settings: &Settings,
    input: &EvalInput,
    object: &Json,
    data: &Arc<ContextData>,
) -> crate::policy::admission::expr::Scope {
    let mut current = input.clone();
    current.request.object = Some(object.clone());
    let variables: Vec<(String, String)> = policy
        .variables
        .iter()
        .map(|v| (v.name.clone(), v.expression.clone()))
        .collect();
    let functions = Library::shared(data.clone());
    crate::policy::admission::expr::Scope::kyverno(
        activation(settings, &current),
        &variables,
        functions,
    )
}

/// One mutation on `object`: the object it gives.
pub(super) fn mutate(
    scope: &crate::policy::admission::expr::Scope,
    schemas: &SchemaTypes,
    input: &EvalInput,
    object: &Json,
    mutation: &Mutation,
) -> Result<Json, String> {
    match mutation.patch_type.as_str() {
        "ApplyConfiguration" => {
            let run = || evaluate_text(scope, &mutation.apply_configuration);
            let value = explain::labelled(|| "applyConfiguration".into(), run)?;
            apply_configuration(schemas, input, object, &value)
        }
        "JSONPatch" => {
            let run = || evaluate_text(scope, &mutation.json_patch);
            let value = explain::labelled(|| "jsonPatch".into(), run)?;
            json_patch(object, &value)
        }
        other => Err(format!("unsupported patch type: {other}")),
    }
}

/// `applyConfigPatcher.Patch`: an `Object{…}` whose nested type names follow the field path,
/// merged into the object by the kind's schema.
fn apply_configuration(
    schemas: &SchemaTypes,
    input: &EvalInput,
    object: &Json,
    value: &Value,
) -> Result<Json, String> {
    let Value::Object(root) = value else {
        return Err(format!(
            "unsupported return type from ApplyConfiguration expression: {}",
            value.type_name()
        ));
    };
    check_type_names(root, "Object")?;
    let patch = value.to_json().map_err(|e| e.message)?;
    let request = &input.request;
    let gvk = Gvk::new(&request.group, &request.version, &request.kind);
    let Some(root_type @ Type::Object(_)) = schemas.kind_type(&gvk) else {
        return Err(format!("no schema for {}", gvk.kind));
    };
    merge::apply(schemas, &root_type, object, &patch)
}
