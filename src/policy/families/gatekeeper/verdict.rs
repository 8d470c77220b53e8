//! Gatekeeper's verdict on a request for a Constraint and its template: the Constraint's
//! `spec.match` first ([`super::matching`]), then the template's CEL as the driver runs it
//! (gatekeeper `pkg/drivers/k8scel/driver.go` `Query`): the policy the template generates
//! ([`super::vap`]) evaluated with the Constraint as `params`; each validation that denies (false,
//! or an error under `failurePolicy: Fail`) is one violation with its message. [`evaluate_texts`]
//! is `eval`'s entry: the template's file, the Constraint (`--params` or the same file) and the
//! objects.

use std::sync::Arc;

use serde_json::Value as Json;

use crate::policy::PolicyKind;
use crate::policy::admission::explain::Explained;
use crate::policy::admission::json::documents;
use crate::policy::admission::view::{self, Document};
use crate::policy::admission::{Decision, Input, Outcome, Request, TriState, evaluate};
use crate::schema::SchemaTypes;
use crate::yaml::Node;

/// A request as Gatekeeper reviews it.
pub struct Review<'r> {
    /// `object` (absent on DELETE).
    pub object: Option<&'r Json>,
    /// `oldObject`.
    pub old_object: Option<&'r Json>,
    /// The operation (`""`: inferred from the objects).
    pub operation: &'r str,
}

/// The violations by message, and the evaluation they come from.
pub struct Verdict {
    /// One message per violation, in validation order.
    pub violations: Vec<String>,
    /// The evaluation: `deny` with the violations as messages, `allow`, or `skip` when the
    /// Constraint or a match condition does not take the request.
    pub outcome: Outcome,
}

/// The violations of `review` for `constraint` of the template at `template`.
pub fn violations(
    template: &Node,
    constraint: &Json,
    review: &Review<'_>,
    schemas: Arc<SchemaTypes>,
) -> Result<Vec<String>, String> {
    judge(template, constraint, review, schemas).map(|verdict| verdict.violations)
}

/// Gatekeeper's verdict; `Err` when the template has no CEL code. On DELETE the
/// driver unsets the object: `variables.anyObject` is the old object.
pub fn judge(
    template: &Node,
    constraint: &Json,
    review: &Review<'_>,
    schemas: Arc<SchemaTypes>,
) -> Result<Verdict, String> {
    if super::cel_code(template).next().is_none() {
        return Err(format!(
            "the template has no {} code (its Rego is not evaluated here)",
            super::ENGINE
        ));
    }
    let policy = generated_policy(template)?;
    let delete = review.operation == "DELETE";
    let object = if delete { None } else { review.object };
    let Some(reviewed) = object.or(review.old_object) else {
        return Err("the request has neither object nor oldObject".into());
    };
    let skipped = || Verdict {
        violations: Vec::new(),
        outcome: Outcome {
            decision: Decision::Skip,
            ..Outcome::new(&policy.name, PolicyKind::ValidatingPolicy, None)
        },
    };
    match super::matching::matches(constraint, reviewed, None) {
        Ok(true) => {}
        Ok(false) => return Ok(skipped()),
        // A Constraint that cannot be matched rejects the request (frameworks
        // `constraint_client.go` `matches`: an autorejection, `ErrAutoreject`).
        Err(e) => {
            let message = format!("unable to match constraints: {e}");
            return Ok(denied(&policy, vec![message], Decision::Deny));
        }
    }
    let fail = policy.failure_policy != "Ignore";
    let operation = Some(review.operation).filter(|op| !op.is_empty());
    let request = Request::new(object.cloned(), review.old_object.cloned(), operation);
    let input = Input {
        request,
        params: Some(constraint.clone()),
        param_pool: Vec::new(),
        schemas,
        authorizer: None,
        ignore_matching: true,
    };
    let (gate, gate_traces) = conditions(&policy, &input);
    let with_gate = |mut verdict: Verdict| {
        verdict.outcome.explained.splice(0..0, gate_traces.clone());
        verdict
    };
    match gate {
        Gate::Skip => return Ok(with_gate(skipped())),
        Gate::Fail(message) if fail => {
            return Ok(with_gate(denied(&policy, vec![message], Decision::Error)));
        }
        Gate::Fail(_) => return Ok(with_gate(skipped())),
        Gate::Run => {}
    }
    let policy = view::Policy {
        match_conditions: Vec::new(),
        ..policy
    };
    let outcome = evaluate(&policy, None, &input);
    let mut violations: Vec<String> = outcome
        .validations
        .iter()
        .filter(|v| v.result == TriState::False || (fail && v.result == TriState::Error))
        .filter_map(|v| v.message.clone())
        .collect();
    // A budget error is the invocation's one decision.
    if violations.is_empty() && fail && outcome.decision == Decision::Error {
        violations = outcome.messages.clone();
    }
    let decision = if violations.is_empty() {
        Decision::Allow
    } else {
        Decision::Deny
    };
    Ok(with_gate(Verdict {
        outcome: Outcome {
            decision,
            messages: violations.clone(),
            ..outcome
        },
        violations,
    }))
}

fn denied(policy: &view::Policy, violations: Vec<String>, decision: Decision) -> Verdict {
    Verdict {
        outcome: Outcome {
            decision,
            messages: violations.clone(),
            ..Outcome::new(&policy.name, PolicyKind::ValidatingPolicy, None)
        },
        violations,
    }
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
/// is false skips the policy; otherwise an error fails it (`matchconditions/matcher.go`). Under
/// `eval --explain` the conditions' traces come back labelled with their names.
fn conditions(policy: &view::Policy, input: &Input) -> (Gate, Vec<Explained>) {
    if policy.match_conditions.is_empty() {
        return (Gate::Run, Vec::new());
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
    let traces = condition_traces(outcome.explained, &policy.match_conditions);
    if outcome
        .validations
        .iter()
        .any(|v| v.result == TriState::False)
    {
        return (Gate::Skip, traces);
    }
    let error = outcome
        .validations
        .iter()
        .find(|v| v.result == TriState::Error)
        .and_then(|v| v.message.clone());
    match error {
        Some(message) => (Gate::Fail(message), traces),
        None => (Gate::Run, traces),
    }
}

/// The traces of the conditions run as validations, `validation[i]` renamed after condition `i`.
fn condition_traces(mut traces: Vec<Explained>, conditions: &[view::Named]) -> Vec<Explained> {
    for trace in &mut traces {
        let index = trace
            .label
            .strip_prefix("validation[")
            .and_then(|rest| rest.strip_suffix(']'))
            .and_then(|i| i.parse::<usize>().ok());
        if let Some(condition) = index.and_then(|i| conditions.get(i)) {
            trace.label = format!("matchCondition {}", condition.name);
        }
    }
    traces
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

/// The texts `eval` was given.
pub struct EvalTexts<'t> {
    /// The policy file (a ConstraintTemplate, perhaps with its Constraint).
    pub policy: &'t str,
    /// `--params`: the Constraint.
    pub params: Option<&'t str>,
    /// `--object`.
    pub object: Option<Json>,
    /// `--old-object`.
    pub old_object: Option<Json>,
    /// `--operation`.
    pub operation: Option<&'t str>,
    /// Kubernetes 1.`minor`.
    pub minor: u32,
}

/// Whether a text holds a ConstraintTemplate (then `eval` is Gatekeeper's).
pub fn holds_template(text: &str) -> bool {
    text.contains(super::TEMPLATES)
        && crate::yaml::parse(text)
            .documents
            .iter()
            .filter_map(|d| d.root.as_ref())
            .any(super::is_template)
}

/// `eval` of a file holding a ConstraintTemplate: `None` when it holds none (not this family's).
pub fn evaluate_texts(texts: &EvalTexts<'_>) -> Option<Result<Outcome, String>> {
    let file = crate::yaml::parse(texts.policy);
    let template = file
        .documents
        .iter()
        .filter_map(|d| d.root.as_ref())
        .find(|root| super::is_template(root))?;
    Some(evaluate_template(template, texts))
}

fn evaluate_template(template: &Node, texts: &EvalTexts<'_>) -> Result<Outcome, String> {
    let kind = super::template_kind(template).unwrap_or("");
    let mut candidates = documents(texts.policy)?;
    if let Some(params) = texts.params {
        candidates = documents(params).map_err(|e| format!("--params: {e}"))?;
    }
    let constraint = candidates
        .into_iter()
        .find(|doc| {
            let group = doc["apiVersion"].as_str().unwrap_or("").split('/').next();
            group == Some(super::CONSTRAINTS) && doc["kind"] == kind
        })
        .ok_or_else(|| {
            format!("no {kind} Constraint: give the Constraint of the template with --params FILE (or put it in the template's file)")
        })?;
    if texts.object.is_none() && texts.old_object.is_none() {
        return Err("give --object or --old-object".into());
    }
    let review = Review {
        object: texts.object.as_ref(),
        old_object: texts.old_object.as_ref(),
        operation: texts.operation.unwrap_or(""),
    };
    let schemas = Arc::new(SchemaTypes::new(texts.minor));
    let verdict = judge(template, &constraint, &review, schemas)?;
    // The Constraint is the generated policy's binding (`ConstraintToBinding`, named by
    // `GetVAPBindingName`).
    let name = constraint["metadata"]["name"].as_str().unwrap_or("");
    let binding = format!("gatekeeper-{}-{name}", kind.to_lowercase());
    Ok(Outcome {
        binding: Some(binding),
        ..verdict.outcome
    })
}
