//! The image verification functions of an ImageValidatingPolicy (kyverno/kyverno
//! `pkg/cel/libs/imageverify/impl.go`): `verifyImageSignatures(image, attestors)` and
//! `verifyAttestationSignatures(image, attestation, attestors)` count the attestors that verify
//! the image (0 for an image no `matchImageReferences` entry selects, an error for an
//! attestation the policy does not declare), `extractPayload(image, attestation)` gives an
//! attestation's payload and `getImageData(image)` the image's data. Signatures cannot be
//! checked offline, so their outcome is read from the context file's `spec.verifications`, a
//! field of admission-ls (Kyverno's CLI Context has none): per image, the attestors whose
//! signature check passes (`signatures`), per attestation the attestors that verify it
//! (`attestations`) and its payload (`payloads`). An image without an entry is an error naming
//! the call and where its data comes from. Every verification is recorded, as
//! `ImageVerificationResults` records it, for the policy's `required` check.

use std::sync::{Arc, Mutex};

use serde_json::Value as Json;

use super::glob::Glob;
use super::library::{ContextData, Library};
use super::validating::evaluate_bool;
use super::value_of;
use crate::cel::eval::{ErrorKind, ExternalFunctions, Value};
use crate::policy::admission::explain;
use crate::policy::admission::expr::Scope;

/// One `matchImageReferences` entry.
pub enum Reference {
    /// `glob`.
    Glob(Glob),
    /// `expression`, over `ref`.
    Expression(String),
}

/// The verification functions over the context's data, in front of Kyverno's other functions.
pub struct Verifier {
    base: Library,
    data: Arc<ContextData>,
    references: Vec<Reference>,
    /// The names of the policy's `attestations`.
    attestations: Vec<String>,
    /// Each image a verification was attempted on, and whether one succeeded.
    record: Mutex<Vec<(String, bool)>>,
}

impl Verifier {
    pub fn new(
        data: Arc<ContextData>,
        references: Vec<Reference>,
        attestations: Vec<String>,
    ) -> Verifier {
        Verifier {
            base: Library::new(data.clone()),
            data,
            references,
            attestations,
            record: Mutex::new(Vec::new()),
        }
    }

    /// `matching.MatchImage`: whether a `matchImageReferences` entry selects `image` (no
    /// entries select every image).
    pub fn selects(&self, image: &str) -> Result<bool, String> {
        if self.references.is_empty() {
            return Ok(true);
        }
        for (index, reference) in self.references.iter().enumerate() {
            let matched = match reference {
                Reference::Glob(glob) => glob.matches(image),
                Reference::Expression(text) => {
                    let functions = Library::shared(self.data.clone());
                    let scope = Scope::kyverno(vec![("ref", Value::string(image))], &[], functions);
                    // Run once per image: the label names the image the trace is for.
                    let label = || format!("matchImageReferences[{index}] {image}");
                    explain::labelled(label, || evaluate_bool(&scope, text))?
                }
            };
            if matched {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// `ImageVerificationResults.Status`: (verified, attempted).
    pub fn status(&self, image: &str) -> (bool, bool) {
        let record = self.record.lock().map(|r| r.clone()).unwrap_or_default();
        let mine: Vec<bool> = record
            .iter()
            .filter(|(i, _)| i == image)
            .map(|(_, ok)| *ok)
            .collect();
        (mine.iter().any(|ok| *ok), !mine.is_empty())
    }

    fn remember(&self, image: &str, verified: bool) {
        if let Ok(mut record) = self.record.lock() {
            record.push((image.to_string(), verified));
        }
    }

    fn signatures(&self, args: &[Value]) -> Value {
        let [Value::String(image), Value::List(attestors)] = args else {
            return Value::no_overload();
        };
        let call = format!("verifyImageSignatures('{image}', …)");
        self.count(image, attestors, &call, |entry| entry.get("signatures"))
    }

    fn attestation_signatures(&self, args: &[Value]) -> Value {
        let [
            Value::String(image),
            Value::String(attestation),
            Value::List(attestors),
        ] = args
        else {
            return Value::no_overload();
        };
        if !self.attestations.iter().any(|a| **a == **attestation) {
            return not_in_policy(attestation);
        }
        let call = format!("verifyAttestationSignatures('{image}', '{attestation}', …)");
        self.count(image, attestors, &call, |entry| {
            entry
                .get("attestations")
                .and_then(|a| a.get(&**attestation))
        })
    }

    /// The number of `attestors` (by name) the entry's list names; 0 for an image the policy
    /// does not select.
    fn count(
        &self,
        image: &str,
        attestors: &[Value],
        call: &str,
        verified_by: impl Fn(&Json) -> Option<&Json>,
    ) -> Value {
        match self.selects(image) {
            Err(e) => return Value::error(ErrorKind::InvalidArgument, e),
            Ok(false) => return Value::Int(0),
            Ok(true) => {}
        }
        let Some(entry) = self.data.verification(image) else {
            return self.data.missing_verification(call);
        };
        let names: Vec<&str> = match verified_by(entry) {
            Some(Json::Array(names)) => names.iter().filter_map(Json::as_str).collect(),
            _ => Vec::new(),
        };
        let count = attestors
            .iter()
            .filter(|attestor| attestor_name(attestor).is_some_and(|n| names.contains(&n)))
            .count();
        if !attestors.is_empty() {
            self.remember(image, count > 0);
        }
        Value::Int(count as i64)
    }

    fn payload(&self, args: &[Value]) -> Value {
        let [Value::String(image), Value::String(attestation)] = args else {
            return Value::no_overload();
        };
        if !self.attestations.iter().any(|a| **a == **attestation) {
            return not_in_policy(attestation);
        }
        let call = format!("extractPayload('{image}', '{attestation}')");
        let Some(entry) = self.data.verification(image) else {
            return self.data.missing_verification(&call);
        };
        match entry.get("payloads").and_then(|p| p.get(&**attestation)) {
            Some(payload) => value_of(Some(payload)),
            None => Value::error(
                ErrorKind::InvalidArgument,
                format!(
                    "failed to get payload: {call}: the image's entry in spec.verifications has no payloads.{attestation}"
                ),
            ),
        }
    }
}

fn not_in_policy(attestation: &str) -> Value {
    Value::error(
        ErrorKind::InvalidArgument,
        format!("attestation not found in policy: {attestation}"),
    )
}

fn attestor_name(attestor: &Value) -> Option<&str> {
    match attestor {
        Value::Map(map) => match map.get_str("name") {
            Some(Value::String(name)) => Some(name),
            _ => None,
        },
        _ => None,
    }
}

impl ExternalFunctions for Verifier {
    fn call(&self, name: &str, target: Option<&Value>, args: &[Value]) -> Option<Value> {
        if target.is_none() {
            match name {
                "verifyImageSignatures" => return Some(self.signatures(args)),
                "verifyAttestationSignatures" => return Some(self.attestation_signatures(args)),
                "extractPayload" => return Some(self.payload(args)),
                "getImageData" => return self.base.call("image.GetMetadata", None, args),
                _ => {}
            }
        }
        self.base.call(name, target, args)
    }

    fn is_qualified(&self, name: &str) -> bool {
        self.base.is_qualified(name)
    }
}
