//! Kyverno's evaluation of its CEL policies, as kyverno/kyverno's engines decide it: the policy as
//! written and its autogen variants (`pkg/cel/policies/vpol/engine/provider.go` compiles both),
//! each matched and evaluated on its own (`engine.go` `handlePolicy`), with one rule result each
//! (pass, fail with the message, skip, error) or none when the policy does not match.
//!
//! ValidatingPolicy and NamespacedValidatingPolicy are evaluated (`validating.rs`), and so are
//! MutatingPolicy and NamespacedMutatingPolicy (`mutating.rs`, the mutated object as the result),
//! GeneratingPolicy and NamespacedGeneratingPolicy (`generating.rs`, the resources
//! `generator.Apply` records, `generator.rs`), DeletingPolicy and NamespacedDeletingPolicy
//! (`deleting.rs`, whether an existing object would be deleted), and ImageValidatingPolicy and its
//! namespaced variant (`image_validating.rs`, signature checks read from the context by
//! `image_verify.rs`); the other kinds are refused with a message saying so.

mod deleting;
mod encoding;
mod exceptions;
mod external;
pub use external::problem as external_data_problem;
mod generating;
mod generator;
mod glob;
mod gzip;
mod hash;
mod image_ref;
mod image_validating;
mod image_verify;
mod library;
mod math_ext;
mod mutate_existing;
mod mutating;
mod mutating_autogen;
mod regex_ext;
mod time_ext;
mod transform;
mod validating;
mod x509;

use serde_json::Value as Json;

use super::super::evaluation::{EvalInput, FamilyOutcome};
use crate::yaml::Node;

/// A rule result's status, as Kyverno's policy reports name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every validation held.
    Pass,
    /// A validation was false.
    Fail,
    /// A matchCondition was false.
    Skip,
    /// An expression failed.
    Error,
}

impl Status {
    /// The report's word (`openreports` `StatusPass`…).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Skip => "skip",
            Status::Error => "error",
        }
    }
}

/// One policy variant's response to a request.
#[derive(Clone, Debug)]
pub struct Response {
    /// The verdict as the front ends print it.
    pub outcome: FamilyOutcome,
    /// The rule result; `None` when the variant did not match the request.
    pub status: Option<Status>,
    /// `hasSelector` of Kyverno's CLI (`processor/policy_processor.go`): a single resource rule
    /// with no selector, exclusion or names, whose response the CLI drops when it did not match.
    pub has_selector: bool,
    /// The object after a MutatingPolicy's mutations (`None` for the other kinds, and when the
    /// policy did not run to the end).
    pub patched: Option<Json>,
    /// When the result is an error because a lookup had no data (the first such call, worded):
    /// this tool could not evaluate the policy, so the error is not Kyverno's verdict.
    pub unavailable: Option<String>,
}

impl Response {
    /// The response of a policy that did not select the request: `outcome` marked as skipped,
    /// no rule result.
    fn no_match(outcome: FamilyOutcome, has_selector: bool) -> Response {
        Response {
            outcome: FamilyOutcome {
                result: "no match".into(),
                decision: "skip".into(),
                ..outcome
            },
            status: None,
            has_selector,
            patched: None,
            unavailable: None,
        }
    }
}

/// The responses of every variant of the policy at `root` (of `kind`) to `input`, in the order
/// Kyverno's provider lists them, then a mutate-existing policy's responses on the objects of the
/// context it targets; `Err` for a kind this tool does not evaluate yet.
pub fn evaluate(root: &Node, kind: &str, input: &EvalInput) -> Result<Vec<Response>, String> {
    let mut responses = admission(root, kind, input)?;
    if matches!(kind, "MutatingPolicy" | "NamespacedMutatingPolicy") {
        existing_targets(root, kind, input, &mut responses);
    }
    Ok(responses)
}

/// [`evaluate`] without the mutate-existing targets: the responses to the request only (what a
/// suite compares with its trigger rows).
pub fn admission(root: &Node, kind: &str, input: &EvalInput) -> Result<Vec<Response>, String> {
    match kind {
        "ValidatingPolicy" | "NamespacedValidatingPolicy" => {
            Ok(validating::evaluate(root, kind, input))
        }
        "MutatingPolicy" | "NamespacedMutatingPolicy" => Ok(mutating::evaluate(root, kind, input)),
        "GeneratingPolicy" | "NamespacedGeneratingPolicy" => {
            generating::evaluate(root, kind, input)
        }
        "DeletingPolicy" | "NamespacedDeletingPolicy" => Ok(deleting::evaluate(root, kind, input)),
        "ImageValidatingPolicy" | "NamespacedImageValidatingPolicy" => {
            Ok(image_validating::evaluate(root, kind, input))
        }
        _ => Err(format!(
            "evaluating a {kind} is not supported yet (ValidatingPolicy, MutatingPolicy, GeneratingPolicy, DeletingPolicy, ImageValidatingPolicy and their namespaced variants are)"
        )),
    }
}

/// A mutate-existing policy's responses on the existing objects of the context (`--context`)
/// added to `responses`, or a note on the first saying where they come from when none is a
/// target.
fn existing_targets(root: &Node, kind: &str, input: &EvalInput, responses: &mut Vec<Response>) {
    if !mutate_existing::enabled(root) {
        return;
    }
    let targets = context_objects(&input.context);
    match mutate_existing::evaluate(root, kind, input, &targets) {
        Ok(found) if found.is_empty() => {
            if let Some(first) = responses.first_mut() {
                first.outcome.notes.push(
                    "mutateExisting: no object of the context is a target; give the existing objects with --context FILE (objects, or a cli.kyverno.io Context's spec.resources)".into(),
                );
            }
        }
        Ok(found) => responses.extend(found.into_iter().map(|(_, response)| response)),
        Err(e) => {
            let outcome = FamilyOutcome {
                kind: kind.to_string(),
                policy: text_at(root, &["metadata", "name"]).to_string(),
                variant: Some(mutate_existing::TARGET_VARIANT.to_string()),
                result: Status::Error.as_str().into(),
                decision: "error".into(),
                message: Some(e),
                ..FamilyOutcome::default()
            };
            responses.push(Response {
                outcome,
                status: Some(Status::Error),
                has_selector: true,
                patched: None,
                unavailable: None,
            });
        }
    }
}

/// Whether the MutatingPolicy at `root` also mutates existing objects.
pub fn mutates_existing(root: &Node) -> bool {
    mutate_existing::enabled(root)
}

/// The responses of a mutate-existing MutatingPolicy at `root` to the trigger in `input`, on
/// each of `targets` it selects (with the target); none for another policy; `Err` when the
/// target expression fails.
pub fn target_responses(
    root: &Node,
    kind: &str,
    input: &EvalInput,
    targets: &[Json],
) -> Result<Vec<(Json, Response)>, String> {
    if !mutate_existing::enabled(root) {
        return Ok(Vec::new());
    }
    mutate_existing::evaluate(root, kind, input, targets)
}

/// The objects of context documents: a `cli.kyverno.io` Context's `spec.resources`, and any
/// other object as it is.
fn context_objects(documents: &[Json]) -> Vec<Json> {
    let mut out = Vec::new();
    for doc in documents {
        let kind = doc.get("kind").and_then(Json::as_str).unwrap_or("");
        if kind == "Context" {
            if let Some(Json::Array(items)) = doc.pointer("/spec/resources") {
                out.extend(items.iter().cloned());
            }
        } else if doc.is_object() && !library::is_suite_data(doc) {
            out.push(doc.clone());
        }
    }
    out
}

/// The string at `path` under `root`, "" when absent.
fn text_at<'n>(root: &'n Node, path: &[&str]) -> &'n str {
    let mut node = Some(root);
    for key in path {
        node = node.and_then(|n| n.get(key));
    }
    node.and_then(Node::as_str).unwrap_or("")
}

/// The strings of the list at `path` under `root`.
fn texts_at(root: &Node, path: &[&str]) -> Vec<String> {
    let mut node = Some(root);
    for key in path {
        node = node.and_then(|n| n.get(key));
    }
    match node.map(|n| &n.kind) {
        Some(crate::yaml::NodeKind::Sequence(items)) => items
            .iter()
            .filter_map(Node::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// A JSON value of the CEL activation, `null` when absent.
fn value_of(json: Option<&Json>) -> crate::cel::eval::Value {
    json.and_then(|j| crate::cel::eval::Value::from_json(j).ok())
        .unwrap_or(crate::cel::eval::Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_s_recorded_answers_are_not_a_target_object() {
        let lists = serde_json::json!({
            "apiVersion": "cli.kyverno.io/v1alpha1",
            "kind": "Test",
            "apiCallResponses": [],
        });
        let pod = serde_json::json!({"apiVersion": "v1", "kind": "Pod"});
        assert_eq!(context_objects(&[lists, pod.clone()]), vec![pod]);
    }
}
