//! The result of evaluating one policy for one request, and its JSON form (the `eval --format
//! json` shape).

use std::collections::BTreeMap;

use serde_json::{Map, Value as Json, json};

use super::audit;
use super::request::Request;
use super::status::{Refusal, Status};
use crate::policy::PolicyKind;
use crate::policy::report::quote;

/// What the API server decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Admitted (possibly with warnings, audit annotations or mutations).
    Allow,
    /// Rejected by a validation.
    Deny,
    /// The policy did not apply.
    Skip,
    /// Rejected because an expression or the configuration failed (under `failurePolicy: Fail`).
    Error,
}

impl Decision {
    /// `allow`, `deny`, `skip` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Deny => "deny",
            Decision::Skip => "skip",
            Decision::Error => "error",
        }
    }
}

/// `true`, `false` or `"error"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriState {
    /// The expression was true.
    True,
    /// It was false (or not true).
    False,
    /// It failed.
    Error,
}

impl TriState {
    /// `true`, `false` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            TriState::True => "true",
            TriState::False => "false",
            TriState::Error => "error",
        }
    }

    fn to_json(self) -> Json {
        match self {
            TriState::True => Json::Bool(true),
            TriState::False => Json::Bool(false),
            TriState::Error => Json::from("error"),
        }
    }
}

/// One matchCondition's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    /// Its name.
    pub name: String,
    /// Its result.
    pub result: TriState,
    /// The error, when it failed.
    pub error: Option<String>,
}

/// One validation's result.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidationResult {
    /// Index in `spec.validations`.
    pub index: usize,
    /// Its result.
    pub result: TriState,
    /// The message, when it did not pass.
    pub message: Option<String>,
    /// The reason, when it did not pass.
    pub reason: Option<String>,
}

/// Everything one evaluation produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Policy name.
    pub policy: String,
    /// Policy kind.
    pub kind: PolicyKind,
    /// Binding name.
    pub binding: Option<String>,
    /// The decision.
    pub decision: Decision,
    /// matchConditions results.
    pub match_conditions: Vec<Condition>,
    /// Validation results (VAP).
    pub validations: Vec<ValidationResult>,
    /// Warnings returned to the client.
    pub warnings: Vec<String>,
    /// Audit annotations, by their published key.
    pub audit_annotations: BTreeMap<String, String>,
    /// The API server's rejection: a validating policy's one message; a mutating policy's
    /// message first, then the other errors it lists as causes.
    pub messages: Vec<String>,
    /// The mutated object (MAP).
    pub object: Option<Json>,
    /// RFC 6902 operations from the input object to `object` (MAP).
    pub patch: Option<Vec<Json>>,
    /// What each applied mutation changed (MAP), in the order the mutations ran (reinvocations
    /// and several params run a mutation again): its index in `spec.mutations` and the RFC 6902
    /// operations from the object it was given to the object it produced.
    pub mutation_patches: Vec<(usize, Vec<Json>)>,
    /// What the API server filled in before admission: defaults and server-set fields of the
    /// object (`oldObject.`-prefixed for the old object); see `policy::apiserver`.
    pub defaulted: Vec<String>,
    /// Unknown fields of a custom resource that decoding dropped.
    pub pruned: Vec<String>,
    /// Whether a rejection came from a failure rather than a validation.
    pub(crate) failed: bool,
    pub(crate) denied: bool,
    /// The status of the refusal, when the request is refused.
    pub status: Option<Status>,
    /// What the audit annotations are published from.
    pub(crate) audit: audit::Collector,
    /// Set by `eval` when the policy has a `paramKind` and no params were given: params was null.
    pub params_note: Option<String>,
    /// Why the request never reaches the policy at all (a mutating policy on DELETE).
    pub operation_note: Option<String>,
    /// The trace of every expression evaluated, when the evaluation ran inside
    /// `explain::capture` (`eval --explain`, `test -v`); empty otherwise.
    pub explained: Vec<super::explain::Explained>,
}

impl Outcome {
    /// An empty outcome that allows.
    pub fn new(policy: &str, kind: PolicyKind, binding: Option<String>) -> Outcome {
        Outcome {
            policy: policy.to_string(),
            kind,
            binding,
            decision: Decision::Allow,
            explained: Vec::new(),
            match_conditions: Vec::new(),
            validations: Vec::new(),
            warnings: Vec::new(),
            audit_annotations: BTreeMap::new(),
            messages: Vec::new(),
            object: None,
            patch: None,
            mutation_patches: Vec::new(),
            defaulted: Vec::new(),
            pruned: Vec::new(),
            params_note: None,
            operation_note: None,
            failed: false,
            denied: false,
            status: None,
            audit: audit::Collector::default(),
        }
    }

    /// Records a rejection for `refusal`. The API server returns the first
    /// (`validating/dispatcher.go` `Dispatch`: `deniedDecisions[0]`); a mutating policy's further
    /// errors are kept as the status causes (`generic/policy_dispatcher.go` `Dispatch`).
    pub(crate) fn reject(&mut self, request: &Request, message: &str, refusal: Refusal<'_>) {
        let mutating = self.kind.is_mutating();
        if !mutating && !self.messages.is_empty() {
            return;
        }
        let text = match (mutating, &self.binding) {
            // `admission.NewForbidden` around the dispatcher's message.
            (false, Some(binding)) => request.forbidden(&format!(
                "ValidatingAdmissionPolicy '{}' with binding '{binding}' denied request: {message}",
                self.policy
            )),
            (false, None) => request.forbidden(&format!(
                "ValidatingAdmissionPolicy '{}' denied request: {message}",
                self.policy
            )),
            // `generic.PolicyError.Error`.
            (true, Some(binding)) => format!(
                "policy '{}' with binding '{binding}' denied request: {message}",
                self.policy
            ),
            (true, None) => {
                format!("policy {} denied request: {message}", quote(&self.policy))
            }
        };
        let status = if mutating {
            Status::mutating(refusal)
        } else {
            Status::validating(refusal)
        };
        let error = !matches!(refusal, Refusal::Denied(_));
        self.refuse(text, status, error);
    }

    /// Records a rejection whose text is the API server's status as it is (a mutating policy's
    /// `503 Service Unavailable`, which no failurePolicy filters).
    pub(crate) fn refuse(&mut self, text: String, status: Status, error: bool) {
        if !self.failed && !self.denied {
            self.failed = error;
            self.denied = !error;
            self.status = Some(status);
        }
        self.messages.push(text);
    }

    /// Records a warning for a failed validation with `Warn`; the API server's warning recorder
    /// drops a text it already holds (`endpoints/filters/warning.go` `AddWarning`).
    pub(crate) fn warn(&mut self, message: &str) {
        let text = format!(
            "Validation failed for ValidatingAdmissionPolicy '{}' with binding '{}': {message}",
            self.policy,
            self.binding.as_deref().unwrap_or("")
        );
        if !self.warnings.contains(&text) {
            self.warnings.push(text);
        }
    }

    /// Publishes a value of the policy's audit annotation `key`.
    pub(crate) fn annotate(&mut self, key: &str, value: String) {
        let (key, value) = self.audit.add(&self.policy, key, value);
        self.audit_annotations.insert(key, value);
    }

    /// Records a validation failure for the `Audit` action.
    pub(crate) fn audit_failure(&mut self, failure: audit::FailureValue) {
        let (key, value) = self.audit.fail(failure);
        self.audit_annotations.insert(key, value);
    }

    /// A configuration error: rejects under `Fail`, skips under `Ignore`.
    pub(crate) fn config_error(&mut self, request: &Request, fail: bool, message: &str) {
        if fail {
            self.reject(request, message, Refusal::Config);
            self.decision = Decision::Error;
        } else {
            self.decision = Decision::Skip;
        }
    }

    /// Settles the decision once every invocation ran (`ran`: at least one was not skipped).
    pub(crate) fn finish(&mut self, ran: bool) {
        self.decision = if self.failed {
            Decision::Error
        } else if self.denied {
            Decision::Deny
        } else if ran {
            Decision::Allow
        } else {
            Decision::Skip
        };
    }

    /// What a reader must know about the evaluation itself: a policy evaluated without a binding
    /// is one the API server never enforces (it dispatches policies only through their bindings,
    /// `validating/dispatcher.go` `Dispatch`), so the result is what a binding would give.
    pub fn note(&self) -> Option<String> {
        let binding = self.binding.is_none().then(|| {
            let actions = if self.kind.is_mutating() {
                ""
            } else {
                " with validationActions [Deny]"
            };
            format!(
                "no binding: the API server never enforces a policy without one; evaluated as a binding{actions} would"
            )
        });
        let notes: Vec<String> = binding
            .into_iter()
            .chain(self.params_note.clone())
            .chain(self.operation_note.clone())
            .collect();
        (!notes.is_empty()).then(|| notes.join("; "))
    }

    /// The `eval --format json` object.
    pub fn to_json(&self) -> Json {
        let conditions: Vec<Json> = self
            .match_conditions
            .iter()
            .map(|c| json!({"name": c.name, "result": c.result.to_json(), "error": c.error}))
            .collect();
        let validations: Vec<Json> = self
            .validations
            .iter()
            .map(|v| {
                json!({"index": v.index, "result": v.result.to_json(), "message": v.message, "reason": v.reason})
            })
            .collect();
        let mut map = Map::new();
        map.insert("policy".into(), json!(self.policy));
        map.insert("kind".into(), json!(self.kind.name()));
        map.insert("binding".into(), json!(self.binding));
        if let Some(note) = self.note() {
            map.insert("note".into(), json!(note));
        }
        map.insert("decision".into(), json!(self.decision.as_str()));
        map.insert("matchConditions".into(), Json::Array(conditions));
        map.insert("validations".into(), Json::Array(validations));
        map.insert("warnings".into(), json!(self.warnings));
        map.insert("auditAnnotations".into(), json!(self.audit_annotations));
        map.insert("messages".into(), json!(self.messages));
        let status = self.status.as_ref();
        let status = status.map(|s| json!({"code": s.code, "reason": s.reason}));
        map.insert("status".into(), status.unwrap_or(Json::Null));
        map.insert("defaulted".into(), json!(self.defaulted));
        map.insert("pruned".into(), json!(self.pruned));
        if self.kind.is_mutating() {
            map.insert("object".into(), self.object.clone().unwrap_or(Json::Null));
            map.insert(
                "patch".into(),
                json!(self.patch.clone().unwrap_or_default()),
            );
        }
        Json::Object(map)
    }
}
