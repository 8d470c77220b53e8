//! Gatekeeper's verdict on an object for a Constraint and its template: the Constraint's
//! `spec.match` first ([`super::matching`]), then the template's CEL as the driver runs it
//! (gatekeeper `pkg/drivers/k8scel/driver.go` `Query`): the policy the template generates
//! ([`super::vap`]) evaluated with the Constraint as `params`; each validation that denies (false,
//! or an error under `failurePolicy: Fail`) is one violation with its message.

use std::sync::Arc;

use serde_json::Value as Json;

use crate::policy::admission::view::{self, Document};
use crate::policy::admission::{Input, Request, TriState, evaluate};
use crate::schema::SchemaTypes;
use crate::yaml::Node;

/// The violations of a request (its `object`, `old_object` and `operation`) for `constraint` of
/// the template at `template`, by message; `Err` when the template has no CEL code or the match
/// fails. On DELETE the driver unsets the object: `variables.anyObject` is the old object.
pub fn violations(
    template: &Node,
    constraint: &Json,
    object: Option<&Json>,
    old_object: Option<&Json>,
    operation: &str,
    schemas: Arc<SchemaTypes>,
) -> Result<Vec<String>, String> {
    if super::cel_code(template).next().is_none() {
        return Err(format!(
            "the template has no {} code (its Rego is not evaluated here)",
            super::ENGINE
        ));
    }
    let object = if operation == "DELETE" { None } else { object };
    let Some(reviewed) = object.or(old_object) else {
        return Err("the request has neither object nor oldObject".into());
    };
    if !super::matching::matches(constraint, reviewed, None)? {
        return Ok(Vec::new());
    }
    let policy = generated_policy(template)?;
    let fail = policy.failure_policy != "Ignore";
    let operation = Some(operation).filter(|op| !op.is_empty());
    let request = Request::new(object.cloned(), old_object.cloned(), operation);
    let input = Input {
        request,
        params: Some(constraint.clone()),
        param_pool: Vec::new(),
        schemas,
        authorizer: None,
        ignore_matching: true,
    };
    match conditions(&policy, &input) {
        Gate::Skip => return Ok(Vec::new()),
        Gate::Fail(message) => return Ok(if fail { vec![message] } else { Vec::new() }),
        Gate::Run => {}
    }
    let policy = view::Policy {
        match_conditions: Vec::new(),
        ..policy
    };
    let outcome = evaluate(&policy, None, &input);
    let mut messages: Vec<String> = outcome
        .validations
        .iter()
        .filter(|v| v.result == TriState::False || (fail && v.result == TriState::Error))
        .filter_map(|v| v.message.clone())
        .collect();
    // A matchCondition or budget error is the invocation's one decision.
    if messages.is_empty() && fail && outcome.decision == crate::policy::admission::Decision::Error
    {
        messages = outcome.messages.clone();
    }
    Ok(messages)
}

/// What the template's match conditions decide.
enum Gate {
    Run,
    Skip,
    Fail(String),
}

/// The template's match conditions, which the driver compiles with the template's variables
/// (`AddTemplate`: `filterCompiler.CompileCondition` on the composited compiler), unlike a
/// policy's: each is evaluated as a validation of the policy without match conditions. One that
/// is false skips the policy; otherwise an error fails it (`matchconditions/matcher.go`).
fn conditions(policy: &view::Policy, input: &Input) -> Gate {
    if policy.match_conditions.is_empty() {
        return Gate::Run;
    }
    let validations = policy
        .match_conditions
        .iter()
        .map(|condition| view::Validation {
            expression: condition.expression.clone(),
            ..view::Validation::default()
        })
        .collect();
    let gate = view::Policy {
        match_conditions: Vec::new(),
        validations,
        ..policy.clone()
    };
    let outcome = evaluate(&gate, None, input);
    if outcome
        .validations
        .iter()
        .any(|v| v.result == TriState::False)
    {
        return Gate::Skip;
    }
    let error = outcome
        .validations
        .iter()
        .find(|v| v.result == TriState::Error)
        .and_then(|v| v.message.clone());
    match error {
        Some(message) => Gate::Fail(message),
        None => Gate::Run,
    }
}

/// The generated policy as evaluation reads it.
fn generated_policy(template: &Node) -> Result<view::Policy, String> {
    let generated = super::vap::generate(template, &[])
        .ok_or("the template names no CRD kind or has no source")?;
    let file = crate::yaml::parse(&generated.text);
    let root = file
        .documents
        .first()
        .and_then(|d| d.root.as_ref())
        .ok_or("the generated policy could not be read")?;
    match view::read(root) {
        Some(Document::Policy(policy)) => Ok(policy),
        _ => Err("the generated policy could not be read".into()),
    }
}
