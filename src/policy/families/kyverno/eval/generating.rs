//! One GeneratingPolicy (or NamespacedGeneratingPolicy) against one trigger, as kyverno/kyverno
//! decides it: `pkg/cel/policies/gpol/engine/engine.go` `generate` (match constraints, then the
//! compiled policy; a pass "policy evaluated successfully" with the generated resources, or an
//! error "failed to evaluate policy") and `pkg/cel/policies/gpol/compiler/policy.go` `Evaluate`
//! (the PolicyExceptions naming it first, a full exemption ending it with a pass or skip;
//! matchConditions, all run, a false one ending the evaluation with no result at all; variables;
//! each `generate` expression in order, the first error ending it; audit annotations). The
//! resources come from `generator.Apply` (`generator.rs`). There are no autogen variants.
//!
//! What the settings under `spec.evaluation` do happens in a cluster over time (keeping the
//! downstream in sync, deleting it with the policy, generating for existing triggers); offline
//! they change nothing, and each one set is reported as a note.

use std::sync::Arc;

use serde_json::Value as Json;

use super::generator::Sink;
use super::library::{ContextData, Library};
use super::mutating::conditions_hold;
use super::validating::{Settings, activation, audit_annotations, evaluate_text, matches_policy};
use super::{EvalInput, FamilyOutcome, Response, Status, text_at};
use crate::policy::admission::explain;
use crate::policy::admission::expr::Scope;
use crate::policy::admission::view::Policy;
use crate::yaml::Node;

/// One `generate` entry.
enum Generation {
    /// A CEL expression calling `generator.Apply`.
    Expression(String),
    /// A YAML template (Kyverno 1.18's `template`), refused: not rendered here.
    Template,
}

/// The policy's one response (a GeneratingPolicy has no autogen variants); `Err` for a policy
/// with a `template` entry, which this tool does not render yet.
pub(super) fn evaluate(
    root: &Node,
    kind: &str,
    input: &EvalInput,
) -> Result<Vec<Response>, String> {
    let generations = generations(root);
    if generations
        .iter()
        .any(|g| matches!(g, Generation::Template))
    {
        return Err(format!(
            "{kind} {}: a generate entry written as a `template` (Kyverno 1.18, pkg/cel/policies/gpol/template) is not evaluated by admission-ls yet; write it as an expression calling generator.Apply",
            text_at(root, &["metadata", "name"])
        ));
    }
    let Some(policy) = super::validating::read_view(root) else {
        return Ok(Vec::new());
    };
    let mut settings = Settings::read(root, kind);
    // A GeneratingPolicy has no validationActions.
    settings.actions.clear();
    let namespace = if kind.starts_with("Namespaced") {
        text_at(root, &["metadata", "namespace"])
    } else {
        ""
    };
    let mut response = respond(&policy, &settings, input, &generations, namespace);
    response.outcome.notes.extend(offline_notes(root));
    Ok(vec![response])
}

/// `spec.generate`, in order.
fn generations(root: &Node) -> Vec<Generation> {
    let spec = root.get("spec");
    let entries = spec
        .and_then(|s| s.get("generate"))
        .and_then(Node::as_sequence);
    entries
        .unwrap_or_default()
        .iter()
        .map(
            |entry| match entry.get("expression").and_then(Node::as_str) {
                Some(text) if !text.is_empty() => Generation::Expression(text.to_string()),
                _ => Generation::Template,
            },
        )
        .collect()
}

/// A note for each `spec.evaluation` switch that is on and acts only in a cluster.
fn offline_notes(root: &Node) -> Vec<String> {
    let enabled = |field: &str| {
        root.get("spec")
            .and_then(|s| s.get("evaluation"))
            .and_then(|e| e.get(field))
            .and_then(|f| f.get("enabled"))
            .and_then(Node::as_scalar)
            .and_then(|s| s.as_bool())
            .unwrap_or(false)
    };
    let mut notes = Vec::new();
    if enabled("synchronize") {
        notes.push("synchronize: Kyverno keeps the generated resources in sync with the policy and the trigger in a cluster; nothing changes offline".to_string());
    }
    if enabled("orphanDownstreamOnPolicyDelete") {
        notes.push("orphanDownstreamOnPolicyDelete: the generated resources stay when the policy is deleted; nothing changes offline".to_string());
    }
    if enabled("generateExisting") {
        notes.push("generateExisting: Kyverno also generates for the triggers that exist when the policy is created; offline, each object given is a trigger".to_string());
    }
    notes
}

fn respond(
    policy: &Policy,
    settings: &Settings,
    input: &EvalInput,
    generations: &[Generation],
    namespace: &str,
) -> Response {
    let mut outcome = FamilyOutcome {
        kind: settings.kind.clone(),
        policy: policy.name.clone(),
        ..FamilyOutcome::default()
    };
    // The CLI keeps a generating policy's response only when it has a result
    // (`processor/policy_processor.go`: `if res.Result == nil { continue }`).
    let dropped = Response::no_match(outcome.clone(), true);
    if !matches_policy(policy, settings, input) {
        return dropped;
    }
    let data = Arc::new(ContextData::of(input));
    let (ran, explained) = explain::traced(|| {
        run(
            policy,
            settings,
            input,
            generations,
            namespace,
            data.clone(),
        )
    });
    outcome.explained = explained;
    let (status, message, generated) = match ran {
        Ran::Skipped => {
            let mut response = dropped;
            response.outcome.explained = outcome.explained;
            response.outcome.result = "skip".into();
            response.outcome.message = Some("a matchCondition is false: no result".into());
            return response;
        }
        Ran::Failed(e) => (
            Status::Error,
            format!("failed to evaluate policy: {e}"),
            Vec::new(),
        ),
        Ran::Exempted(status, message) => (status, message, Vec::new()),
        Ran::Generated(resources, annotations) => {
            outcome.audit_annotations = annotations;
            let message = "policy evaluated successfully".to_string();
            (Status::Pass, message, resources)
        }
    };
    outcome.result = status.as_str().into();
    outcome.decision = if status == Status::Pass {
        "allow"
    } else {
        "error"
    }
    .into();
    outcome.message = Some(message);
    // The resources of a policy that ran to the end (an error generates nothing).
    outcome.generated = (status == Status::Pass).then_some(generated);
    Response {
        outcome,
        status: Some(status),
        has_selector: true,
        patched: None,
        unavailable: data.unavailable_after(status),
    }
}

/// How a matched policy ran.
enum Ran {
    /// A matchCondition was false.
    Skipped,
    /// A condition, generation or audit annotation failed.
    Failed(String),
    /// A PolicyException exempted the trigger: the status and message it gives
    /// (`gpol/engine/engine.go`, by the exception of the highest priority).
    Exempted(Status, String),
    /// Every generation ran: the resources and the audit annotations.
    Generated(Vec<Json>, Vec<(String, String)>),
}

fn run(
    policy: &Policy,
    settings: &Settings,
    input: &EvalInput,
    generations: &[Generation],
    namespace: &str,
    data: Arc<ContextData>,
) -> Ran {
    let variables: Vec<(String, String)> = policy
        .variables
        .iter()
        .map(|v| (v.name.clone(), v.expression.clone()))
        .collect();
    let sink = Arc::new(Sink::new(namespace));
    let functions = Library::generating(data, sink.clone());
    let scope = Scope::kyverno(activation(settings, input), &variables, functions);
    // `gpol/compiler/policy.go` `Evaluate`: the exceptions first, a full exemption ending it.
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
    for (index, generation) in generations.iter().enumerate() {
        // Templates are refused before the evaluation (`evaluate`).
        let Generation::Expression(text) = generation else {
            continue;
        };
        let label = || format!("generate[{index}]");
        if let Err(e) = explain::labelled(label, || evaluate_text(&scope, text)) {
            return Ran::Failed(e);
        }
    }
    match audit_annotations(policy, &scope) {
        Ok(annotations) => Ran::Generated(sink.resources(), annotations),
        Err(e) => Ran::Failed(e),
    }
}
