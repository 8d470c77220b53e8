//! One ValidatingAdmissionPolicy invocation (`validating/validator.go`): validations in order
//! against one budget, messageExpressions, audit annotations on a fresh budget, then the binding's
//! validationActions for each failure (Deny rejects, Warn warns, Audit records).

use serde_json::{Value as Json, json};

use super::expr::{BUDGET_MESSAGE, Compiled, Failure, POLICY_BUDGET, Scope};
use super::invoke::{base, items, match_conditions, variables};
use super::json::str_at;
use super::outcome::{TriState, ValidationResult};
use super::{Context, Outcome};
use crate::cel::eval::Value;

/// The longest messageExpression result used as the message.
const MAX_MESSAGE: usize = 5 * 1024;
/// The longest published audit annotation value; longer values are cut.
const MAX_ANNOTATION: usize = 10 * 1024;
/// The published key of validation failures recorded for `Audit`.
const FAILURE_KEY: &str = "validation.policy.admission.k8s.io/validation_failure";

/// A validation that did not pass, waiting for its actions.
struct Failed {
    index: usize,
    message: String,
    error: bool,
}

/// Runs one invocation; `false` when matchConditions skipped it.
pub(crate) fn run(context: &Context<'_>, param: Option<&Json>, out: &mut Outcome) -> bool {
    if !match_conditions(context, context.input.request.object.as_ref(), param, out) {
        return !out.messages.is_empty();
    }
    let request = &context.input.request;
    let bindings = base(context, request.object.as_ref(), param, true);
    let scope = Scope::new(bindings, &variables(context.spec));
    let mut budget = POLICY_BUDGET;
    let validations = items(context.spec, "validations");
    let results = expressions(&scope, &validations, &mut budget);
    let messages = message_expressions(&scope, &validations[..results.len()], &mut budget);
    let mut failed = Vec::new();
    for (index, (validation, result)) in validations.iter().zip(results).enumerate() {
        let (state, message) = match (&messages, result) {
            (Err(e), _) => (
                TriState::Error,
                Some(format!("failed messageExpression: {e}")),
            ),
            (_, Ok(true)) => (TriState::True, None),
            (Ok(m), Ok(false)) => (
                TriState::False,
                Some(message(validation, m.get(index).cloned().flatten())),
            ),
            (_, Err(e)) => (TriState::Error, Some(e)),
        };
        let reason = (state == TriState::False).then(|| match str_at(validation, &["reason"]) {
            "" => "Invalid".to_string(),
            r => r.to_string(),
        });
        out.validations.push(ValidationResult {
            index,
            result: state,
            message: message.clone(),
            reason,
        });
        if let Some(message) = message {
            failed.push(Failed {
                index,
                message,
                error: state == TriState::Error,
            });
        }
    }
    audit_annotations(context, &scope, out);
    for failure in failed {
        act(context, failure, out);
    }
    true
}

/// Each validation's result (`Err`: the error message), in order; an exhausted budget ends the
/// list, since no further validation runs.
fn expressions(
    scope: &Scope,
    validations: &[&Json],
    budget: &mut u64,
) -> Vec<Result<bool, String>> {
    let mut results = Vec::new();
    for validation in validations {
        let expression = str_at(validation, &["expression"]);
        match scope.run(&Compiled::new(expression), budget) {
            Ok(value) => results.push(Ok(matches!(value, Value::Bool(true)))),
            Err(Failure::Budget) => {
                results.push(Err(BUDGET_MESSAGE.to_string()));
                break;
            }
            Err(failure) => results.push(Err(failure.message())),
        }
    }
    results
}

/// Every messageExpression, evaluated eagerly (passing validations included) with the budget
/// left, as the API server does; an exhausted budget fails them all.
fn message_expressions(
    scope: &Scope,
    validations: &[&Json],
    budget: &mut u64,
) -> Result<Vec<Option<String>>, String> {
    let mut out = Vec::with_capacity(validations.len());
    for validation in validations {
        let text = str_at(validation, &["messageExpression"]);
        if text.is_empty() {
            out.push(None);
            continue;
        }
        // Runtime errors of a messageExpression are only logged: the static message is used.
        match scope.run(&Compiled::new(text), budget) {
            Ok(Value::String(s)) => out.push(Some(s.trim().to_string())),
            Err(Failure::Budget) => return Err(BUDGET_MESSAGE.to_string()),
            _ => out.push(None),
        }
    }
    Ok(out)
}

/// The message of a failed validation: its messageExpression's result if usable, else `message`,
/// else the expression.
fn message(validation: &Json, from_expression: Option<String>) -> String {
    if let Some(m) =
        from_expression.filter(|m| !m.is_empty() && m.len() <= MAX_MESSAGE && !m.contains('\n'))
    {
        return m;
    }
    match str_at(validation, &["message"]).trim() {
        "" => format!(
            "failed expression: {}",
            str_at(validation, &["expression"]).trim()
        ),
        m => m.to_string(),
    }
}

fn audit_annotations(context: &Context<'_>, scope: &Scope, out: &mut Outcome) {
    let mut budget = POLICY_BUDGET;
    for annotation in items(context.spec, "auditAnnotations") {
        let key = str_at(annotation, &["key"]);
        let expression = str_at(annotation, &["valueExpression"]);
        let value = match scope.run(&Compiled::new(expression), &mut budget) {
            Ok(Value::String(s)) => Ok(Some(s.trim().to_string())),
            Ok(Value::Null) => Ok(None),
            Ok(other) => Err(Failure::Error(format!(
                "valueExpression '{expression}' resulted in unsupported return type: {}. Return type must be either string or null.",
                other.type_name()
            ))),
            Err(failure) => Err(failure),
        };
        match value {
            Ok(Some(mut v)) if !v.is_empty() => {
                truncate(&mut v, MAX_ANNOTATION);
                let published = format!("{}/{key}", out.policy);
                let entry = out.audit_annotations.entry(published).or_default();
                if entry.is_empty() {
                    *entry = v;
                } else if !entry.split(", ").any(|x| x == v) {
                    entry.push_str(", ");
                    entry.push_str(&v);
                }
            }
            Ok(_) => {}
            Err(failure) if context.fail => {
                out.reject(&context.input.request, &failure.message(), true);
            }
            Err(_) => {}
        }
    }
}

fn act(context: &Context<'_>, failure: Failed, out: &mut Outcome) {
    if failure.error && !context.fail {
        return;
    }
    for action in &context.actions {
        match action.as_str() {
            "Deny" => out.reject(&context.input.request, &failure.message, failure.error),
            "Warn" => out.warn(&failure.message),
            "Audit" => record_audit(context, &failure, out),
            _ => {}
        }
    }
}

fn record_audit(context: &Context<'_>, failure: &Failed, out: &mut Outcome) {
    let entry = json!({
        "message": failure.message,
        "policy": out.policy,
        "binding": context.binding,
        "expressionIndex": failure.index,
        "validationActions": context.actions,
    });
    let slot = out
        .audit_annotations
        .entry(FAILURE_KEY.to_string())
        .or_default();
    let mut list: Vec<Json> = serde_json::from_str(slot).unwrap_or_default();
    if list.len() < 50 {
        list.push(entry);
    }
    *slot = Json::Array(list).to_string();
}

/// Cuts `text` to at most `max` bytes, at a character boundary.
fn truncate(text: &mut String, max: usize) {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
}
