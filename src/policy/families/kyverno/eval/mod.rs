//! Kyverno's evaluation of its CEL policies, as kyverno/kyverno's engines decide it: the policy as
//! written and its autogen variants (`pkg/cel/policies/vpol/engine/provider.go` compiles both),
//! each matched and evaluated on its own (`engine.go` `handlePolicy`), with one rule result each
//! (pass, fail with the message, skip, error) or none when the policy does not match.
//!
//! ValidatingPolicy and NamespacedValidatingPolicy are evaluated (`validating.rs`), and so are
//! MutatingPolicy and NamespacedMutatingPolicy (`mutating.rs`, the mutated object as the result),
//! and ImageValidatingPolicy and its namespaced variant (`image_validating.rs`, signature checks
//! read from the context by `image_verify.rs`); the other kinds are refused with a message saying
//! so.

mod encoding;
mod exceptions;
mod glob;
mod gzip;
mod hash;
mod image_ref;
mod image_validating;
mod image_verify;
mod library;
mod math_ext;
mod mutating;
mod mutating_autogen;
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
}

/// The responses of every variant of the policy at `root` (of `kind`) to `input`, in the order
/// Kyverno's provider lists them; `Err` for a kind this tool does not evaluate yet.
pub fn evaluate(root: &Node, kind: &str, input: &EvalInput) -> Result<Vec<Response>, String> {
    match kind {
        "ValidatingPolicy" | "NamespacedValidatingPolicy" => {
            Ok(validating::evaluate(root, kind, input))
        }
        "MutatingPolicy" | "NamespacedMutatingPolicy" => Ok(mutating::evaluate(root, kind, input)),
        "ImageValidatingPolicy" | "NamespacedImageValidatingPolicy" => {
            Ok(image_validating::evaluate(root, kind, input))
        }
        _ => Err(format!(
            "evaluating a {kind} is not supported yet (ValidatingPolicy, MutatingPolicy, ImageValidatingPolicy and their namespaced variants are)"
        )),
    }
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
