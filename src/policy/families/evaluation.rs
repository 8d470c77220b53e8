//! What a family's evaluation takes and gives, shared by every family that evaluates its documents
//! ([`super::Family::evaluate`]): the request (object, old object, operation, user, namespace
//! object) and the family's verdicts, one per policy variant it ran, as plain data the front ends
//! print in their formats.

use serde_json::{Value as Json, json};

use crate::policy::admission::Request;

/// Everything a family's evaluation is given besides the document.
#[derive(Clone, Debug, Default)]
pub struct EvalInput {
    /// The admission request (the object of a JSON-mode policy is its `object`).
    pub request: Request,
    /// The documents lookups read (resources, image data: see the family's format).
    pub context: Vec<Json>,
    /// Where `context` comes from, for messages (`--context FILE`…); `None`: no context given.
    pub context_source: Option<String>,
    /// The wall-clock time a library's `now` returns (the front end's clock); `None`: no clock.
    pub now: Option<crate::cel::eval::Timestamp>,
}

/// A family's verdict on one policy (or one variant of it, such as Kyverno's autogen rules).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FamilyOutcome {
    /// The document's kind (`ValidatingPolicy`…).
    pub kind: String,
    /// The policy's name.
    pub policy: String,
    /// The variant that ran, when not the policy as written (`autogen-defaults`…).
    pub variant: Option<String>,
    /// The engine's result in its own words (`pass`, `fail`, `skip`, `error`), or `no match`
    /// when the policy does not apply to the request.
    pub result: String,
    /// What the request gets: `allow`, `deny`, `skip` or `error`.
    pub decision: String,
    /// The result's message (the failure message, the error, why it was skipped).
    pub message: Option<String>,
    /// The policy's validation actions (`Deny`, `Audit`, `Warn`).
    pub actions: Vec<String>,
    /// Warnings returned to the client.
    pub warnings: Vec<String>,
    /// Audit annotations published.
    pub audit_annotations: Vec<(String, String)>,
    /// Notes for the reader (what an action does with the result…).
    pub notes: Vec<String>,
    /// The object after a mutating policy's mutations, when they ran.
    pub object: Option<Json>,
    /// The RFC 6902 patch from the request's object to [`FamilyOutcome::object`].
    pub patch: Option<Vec<Json>>,
    /// What each mutation that ran changed, in order: its index in `spec.mutations` and the
    /// RFC 6902 operations from the object it was given to the one it produced; kept when the
    /// evaluation runs traced (the editor's per-mutation live verdicts read them).
    pub mutation_patches: Vec<(usize, Vec<Json>)>,
    /// The resources a generating policy generated, when it ran to the end.
    pub generated: Option<Vec<Json>>,
    /// The trace of every expression evaluated, when the evaluation ran inside
    /// `admission::explain::capture` (`eval --explain`, `test -v`); empty otherwise.
    pub explained: Vec<crate::policy::admission::explain::Explained>,
}

impl FamilyOutcome {
    /// The outcome as JSON.
    pub fn to_json(&self) -> Json {
        let annotations: serde_json::Map<String, Json> = self
            .audit_annotations
            .iter()
            .map(|(k, v)| (k.clone(), Json::from(v.as_str())))
            .collect();
        let mut out = json!({
            "kind": self.kind,
            "policy": self.policy,
            "result": self.result,
            "decision": self.decision,
        });
        let mut put = |key: &str, value: Json| {
            if let Json::Object(map) = &mut out {
                map.insert(key.to_string(), value);
            }
        };
        // A mutating policy has no validationActions.
        if !self.actions.is_empty() {
            put("validationActions", json!(self.actions));
        }
        if let Some(variant) = &self.variant {
            put("variant", json!(variant));
        }
        if let Some(message) = &self.message {
            put("message", json!(message));
        }
        if !self.warnings.is_empty() {
            put("warnings", json!(self.warnings));
        }
        if !annotations.is_empty() {
            put("auditAnnotations", Json::Object(annotations));
        }
        if !self.notes.is_empty() {
            put("notes", json!(self.notes));
        }
        if let Some(patch) = &self.patch {
            put("patch", json!(patch));
        }
        if let Some(object) = &self.object {
            put("object", object.clone());
        }
        if let Some(generated) = &self.generated {
            put("generated", json!(generated));
        }
        out
    }
}

/// Evaluates the family document of `text` named `name` (the only one when `name` is `None`) for
/// `input`: `None` when no family claims a document of the text (it is for the built-in paths),
/// `Err` when the choice is ambiguous, the name unknown, or the family cannot evaluate the kind.
pub fn evaluate_text(
    text: &str,
    path: &str,
    name: Option<&str>,
    input: &EvalInput,
) -> Option<Result<Vec<FamilyOutcome>, String>> {
    let file = crate::yaml::parse(text);
    let claimed: Vec<_> = file
        .documents
        .iter()
        .filter_map(crate::policy::checked_root)
        .filter_map(|root| Some((super::claiming(root)?, root)))
        .filter(|(family, _)| family.evaluates())
        .filter(|(_, root)| {
            crate::policy::node::lookup_str(root, "kind") != Some("PolicyException")
        })
        .collect();
    if claimed.is_empty() {
        return None;
    }
    let name_of = |root: &crate::yaml::Node| {
        root.get("metadata")
            .and_then(|m| m.get("name"))
            .and_then(crate::yaml::Node::as_str)
            .unwrap_or("")
            .to_string()
    };
    let names: Vec<String> = claimed.iter().map(|(_, root)| name_of(root)).collect();
    let chosen = match name {
        Some(n) => claimed.iter().find(|(_, root)| name_of(root) == n),
        None if claimed.len() == 1 => claimed.first(),
        None => {
            return Some(Err(format!(
                "{path} defines several policies ({}): choose one with --policy",
                names.join(", ")
            )));
        }
    };
    let Some((family, root)) = chosen else {
        return Some(Err(format!(
            "policy '{}' not found in {path} (it defines: {})",
            name.unwrap_or(""),
            names.join(", ")
        )));
    };
    family.evaluate(root, input)
}
