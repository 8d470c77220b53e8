//! The result of evaluating one policy for one request, and its JSON form (the `eval --format
//! json` shape).

use std::collections::BTreeMap;

use serde_json::{Map, Value as Json, json};

use super::Kind;
use super::request::Request;

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
    pub kind: Kind,
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
    /// The API server's rejection messages (the first is the one returned).
    pub messages: Vec<String>,
    /// The mutated object (MAP).
    pub object: Option<Json>,
    /// RFC 6902 operations from the input object to `object` (MAP).
    pub patch: Option<Vec<Json>>,
    /// What the API server filled in before admission: defaults and server-set fields of the
    /// object (`oldObject.`-prefixed for the old object); see `policy::apiserver`.
    pub defaulted: Vec<String>,
    /// Unknown fields of a custom resource that decoding dropped.
    pub pruned: Vec<String>,
    /// Whether a rejection came from a failure rather than a validation.
    pub(crate) failed: bool,
    pub(crate) denied: bool,
}

impl Outcome {
    /// An empty outcome that allows.
    pub fn new(policy: &str, kind: Kind, binding: Option<String>) -> Outcome {
        Outcome {
            policy: policy.to_string(),
            kind,
            binding,
            decision: Decision::Allow,
            match_conditions: Vec::new(),
            validations: Vec::new(),
            warnings: Vec::new(),
            audit_annotations: BTreeMap::new(),
            messages: Vec::new(),
            object: None,
            patch: None,
            defaulted: Vec::new(),
            pruned: Vec::new(),
            failed: false,
            denied: false,
        }
    }

    fn binding_name(&self) -> &str {
        self.binding.as_deref().unwrap_or("")
    }

    /// Records a rejection; `error` when it comes from a failure, not a validation.
    pub(crate) fn reject(&mut self, request: &Request, message: &str, error: bool) {
        let text = match self.kind {
            Kind::Validating => format!(
                "{} \"{}\" is forbidden: ValidatingAdmissionPolicy '{}' with binding '{}' denied request: {message}",
                request.qualified_resource(),
                request.name,
                self.policy,
                self.binding_name()
            ),
            Kind::Mutating => format!(
                "policy '{}' with binding '{}' denied request: {message}",
                self.policy,
                self.binding_name()
            ),
        };
        if !self.failed && !self.denied {
            self.failed = error;
            self.denied = !error;
        }
        self.messages.push(text);
    }

    /// Records a warning for a failed validation with `Warn`.
    pub(crate) fn warn(&mut self, message: &str) {
        let text = format!(
            "Validation failed for ValidatingAdmissionPolicy '{}' with binding '{}': {message}",
            self.policy,
            self.binding_name()
        );
        self.warnings.push(text);
    }

    /// A configuration error: rejects under `Fail`, skips under `Ignore`.
    pub(crate) fn config_error(&mut self, request: &Request, fail: bool, message: &str) {
        if fail {
            self.reject(request, message, true);
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
        map.insert("decision".into(), json!(self.decision.as_str()));
        map.insert("matchConditions".into(), Json::Array(conditions));
        map.insert("validations".into(), Json::Array(validations));
        map.insert("warnings".into(), json!(self.warnings));
        map.insert("auditAnnotations".into(), json!(self.audit_annotations));
        map.insert("messages".into(), json!(self.messages));
        map.insert("defaulted".into(), json!(self.defaulted));
        map.insert("pruned".into(), json!(self.pruned));
        if self.kind == Kind::Mutating {
            map.insert("object".into(), self.object.clone().unwrap_or(Json::Null));
            map.insert(
                "patch".into(),
                json!(self.patch.clone().unwrap_or_default()),
            );
        }
        Json::Object(map)
    }
}
