//! Admission evaluation: what the API server does with one ValidatingAdmissionPolicy or
//! MutatingAdmissionPolicy (and its binding) for one request — matching, params, matchConditions,
//! variables, validations with their actions, audit annotations, mutations (apply configuration
//! merged by the schema, JSON Patch), reinvocation — with the API server's messages.
//!
//! Everything works on JSON values (policies and objects decoded from YAML by [`json`]); the
//! caller hands in every document, and nothing here does I/O.

mod audit;
mod expr;
mod invoke;
pub mod json;
pub mod matching;
mod merge;
mod mutate;
mod outcome;
mod params;
pub mod patch;
pub mod request;
mod status;
mod validate;

use std::sync::Arc;

use serde_json::Value as Json;

pub use audit::FAILURE_KEY;
pub use outcome::{Condition, Decision, Outcome, TriState, ValidationResult};
pub use request::Request;
pub use status::Status;

use crate::cel::eval::{Authorizer, AuthzDecision, AuthzRequest};
use crate::policy::PolicyKind;
use crate::schema::SchemaTypes;
use json::{at, str_at};

/// Everything an evaluation needs besides the policy.
pub struct Input {
    /// The request.
    pub request: Request,
    /// The params to use as they are (`eval --params`, a test's `param`), bypassing `paramRef`.
    pub params: Option<Json>,
    /// Objects `paramRef` may select from (the test's resources).
    pub param_pool: Vec<Json>,
    /// Schemas of the target version (bundled kinds and registered CRDs), for the apply merge.
    pub schemas: Arc<SchemaTypes>,
    /// The authorizer's mocked decisions; `None` denies every check.
    pub authorizer: Option<Arc<dyn Authorizer>>,
    /// Skip matchConstraints and binding selectors (kaptest suites do not evaluate them).
    pub ignore_matching: bool,
}

/// An authorizer that allows nothing (no opinion), the default when a case mocks none.
#[derive(Debug)]
pub struct DenyAll;

impl Authorizer for DenyAll {
    fn authorize(&self, _: &AuthzRequest) -> AuthzDecision {
        AuthzDecision::default()
    }
}

/// The kind of a policy document, if it is a ValidatingAdmissionPolicy or a
/// MutatingAdmissionPolicy.
pub fn policy_kind(policy: &Json) -> Option<PolicyKind> {
    PolicyKind::from_name(str_at(policy, &["kind"])).filter(|k| k.is_policy())
}

/// Evaluates `policy` (with `binding`, if any) for `input`.
pub fn evaluate(policy: &Json, binding: Option<&Json>, input: &Input) -> Outcome {
    let kind = policy_kind(policy).unwrap_or(PolicyKind::ValidatingPolicy);
    let name = str_at(policy, &["metadata", "name"]).to_string();
    let binding_name = binding.map(|b| str_at(b, &["metadata", "name"]).to_string());
    let mut out = Outcome::new(&name, kind, binding_name.clone());
    let minor = input.schemas.minor();
    let spec = at(policy, &["spec"]).cloned().unwrap_or(Json::Null);
    let matched = if input.ignore_matching {
        matching::matches(None, &input.request, minor)
    } else {
        matching::matches(at(&spec, &["matchConstraints"]), &input.request, minor).filter(|_| {
            let resources = binding.and_then(|b| at(b, &["spec", "matchResources"]));
            matching::matches(resources, &input.request, minor).is_some()
        })
    };
    let Some(matched) = matched else {
        out.decision = Decision::Skip;
        return out;
    };
    let fail = str_at(&spec, &["failurePolicy"]) != "Ignore";
    let params = match params::resolve(&spec, binding, input) {
        Ok(params) => params,
        Err(message) => {
            // `validating/dispatcher.go` and `generic/policy_dispatcher.go` `addConfigError`.
            let stage = if binding.is_some() {
                "binding"
            } else {
                "policy"
            };
            out.config_error(
                &input.request,
                fail,
                &format!("failed to configure {stage}: {message}"),
            );
            return out;
        }
    };
    let context = Context {
        spec: &spec,
        input,
        matched: &matched,
        binding: binding_name.as_deref().unwrap_or(""),
        actions: binding_actions(binding),
        fail,
    };
    let mut ran = false;
    for param in &params {
        // A status error (a mutating policy's 503) ends the dispatch (`dispatchInvocations`).
        if out.status.as_ref().is_some_and(|s| s.code == 503) {
            break;
        }
        ran |= if kind.is_mutating() {
            mutate::run(&context, param.as_ref(), &mut out)
        } else {
            validate::run(&context, param.as_ref(), &mut out)
        };
    }
    out.finish(ran);
    out
}

/// What each invocation of a policy shares.
pub(crate) struct Context<'a> {
    pub spec: &'a Json,
    pub input: &'a Input,
    pub matched: &'a matching::Matched,
    pub binding: &'a str,
    pub actions: Vec<String>,
    pub fail: bool,
}

/// The binding's validationActions; `[Deny]` without a binding.
fn binding_actions(binding: Option<&Json>) -> Vec<String> {
    let actions = binding.map(|b| json::strings_at(b, &["spec", "validationActions"]));
    match actions {
        Some(a) if !a.is_empty() => a,
        _ => vec!["Deny".to_string()],
    }
}

#[cfg(test)]
mod patch_tests;

#[cfg(test)]
mod tests;
