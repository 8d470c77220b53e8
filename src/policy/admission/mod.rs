//! Admission evaluation: what the API server does with one ValidatingAdmissionPolicy or
//! MutatingAdmissionPolicy (and its binding) for one request — matching, params, matchConditions,
//! variables, validations with their actions, audit annotations, mutations (apply configuration
//! merged by the schema, JSON Patch), reinvocation — with the API server's messages.
//!
//! The policy and binding are read through [`view`] from the typed model the checker reads; the
//! objects a request carries stay JSON values (decoded from YAML by [`json`]). The caller hands in
//! every document, and nothing here does I/O.

mod audit;
pub mod explain;
pub(crate) mod expr;
mod invoke;
pub mod json;
pub mod matching;
pub(crate) mod merge;
pub(crate) mod mutate;
mod outcome;
mod params;
pub mod patch;
pub mod request;
mod status;
mod validate;
pub mod view;

use std::sync::Arc;

use serde_json::Value as Json;

pub use audit::FAILURE_KEY;
pub use outcome::{Condition, Decision, Outcome, TriState, ValidationResult};
pub use request::Request;
pub use status::Status;

use crate::cel::eval::{Authorizer, AuthzDecision, AuthzRequest};
use crate::schema::SchemaTypes;
use view::{Binding, Policy};

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

/// Evaluates `policy` (with `binding`, if any) for `input`. Inside an `explain::capture`, the
/// outcome keeps the traces of its own expressions (`Outcome::explained`).
pub fn evaluate(policy: &Policy, binding: Option<&Binding>, input: &Input) -> Outcome {
    if !explain::enabled() {
        return evaluate_once(policy, binding, input);
    }
    let (mut out, traces) = explain::capture(|| evaluate_once(policy, binding, input));
    out.explained = traces;
    out
}

fn evaluate_once(policy: &Policy, binding: Option<&Binding>, input: &Input) -> Outcome {
    let binding_name = binding.map(|b| b.name.clone());
    let mut out = Outcome::new(&policy.name, policy.kind, binding_name.clone());
    if policy.kind.is_mutating() && input.request.operation == "DELETE" {
        // `mutating/plugin.go` `NewPlugin`: the plugin handles CREATE, UPDATE and CONNECT only
        // (there is no object to mutate), so a DELETE never reaches the policy, whatever its
        // rules' operations: no param lookup, no matchConditions, no error.
        out.operation_note = Some(MUTATING_DELETE_NOTE.to_string());
        out.decision = Decision::Skip;
        return out;
    }
    let minor = input.schemas.minor();
    let binding_resources = binding.and_then(|b| b.match_resources.as_ref());
    let matches_request = |request: &Request| {
        if input.ignore_matching {
            return matching::matches(None, request, minor);
        }
        let constraints = policy.match_constraints.as_ref();
        matching::matches(constraints, request, minor)
            .filter(|_| matching::matches(binding_resources, request, minor).is_some())
    };
    let Some(matched) = matches_request(&input.request) else {
        out.decision = Decision::Skip;
        return out;
    };
    let fail = policy.failure_policy != "Ignore";
    let params = match params::resolve(policy, binding, input) {
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
        policy,
        input,
        matched: &matched,
        binding: binding_name.as_deref().unwrap_or(""),
        actions: binding_actions(binding),
        fail,
    };
    let ran = if policy.kind.is_mutating() {
        // The API server matches again on the mutated object before a reinvocation.
        let still_matches = |object: &Json| {
            let mut request = input.request.clone();
            request.object = Some(object.clone());
            matches_request(&request).is_some()
        };
        mutate::run_all(&context, &params, &still_matches, &mut out)
    } else {
        let mut ran = false;
        for param in &params {
            ran |= validate::run(&context, param.as_ref(), &mut out);
        }
        ran
    };
    out.finish(ran);
    out
}

/// Why a MutatingAdmissionPolicy is skipped on DELETE.
pub const MUTATING_DELETE_NOTE: &str = "the API server never sends a DELETE to a MutatingAdmissionPolicy (its admission plugin handles CREATE, UPDATE and CONNECT only), whatever the rules' operations";

/// What each invocation of a policy shares.
pub(crate) struct Context<'a> {
    pub policy: &'a Policy,
    pub input: &'a Input,
    pub matched: &'a matching::Matched,
    pub binding: &'a str,
    pub actions: Vec<String>,
    pub fail: bool,
}

/// The binding's validationActions; `[Deny]` without a binding.
fn binding_actions(binding: Option<&Binding>) -> Vec<String> {
    match binding.map(|b| &b.validation_actions) {
        Some(a) if !a.is_empty() => a.clone(),
        _ => vec!["Deny".to_string()],
    }
}

#[cfg(test)]
mod patch_tests;

#[cfg(test)]
mod tests;
