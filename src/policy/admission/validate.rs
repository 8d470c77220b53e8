//! One ValidatingAdmissionPolicy invocation, as `validating/validator.go` `Validate` decides it and
//! `validating/dispatcher.go` `Dispatch` acts on it: the matchConditions gate; validations in
//! order against one budget; messageExpressions with the budget left; audit annotations on a
//! fresh budget; then each decision in validation order through the binding's validationActions
//! (Deny rejects, Warn warns, Audit records), and after them the audit annotations (published, or
//! an error that rejects whatever the actions).

use serde_json::Value as Json;

use super::audit::FailureValue;
use super::explain;
use super::expr::{BUDGET_MESSAGE, Compiled, Failure, POLICY_BUDGET, Scope};
use super::invoke::{Gate, NamespaceView, base, match_conditions, variables};
use super::outcome::{TriState, ValidationResult};
use super::status::Refusal;
use super::view::{Policy, Validation};
use super::{Context, Outcome};
use crate::cel::eval::Value;

/// The longest messageExpression result used as the message
/// (`MaxEvaluatedMessageExpressionSizeBytes`).
const MAX_MESSAGE: usize = 5 * 1024;

/// A decision that is not an admit, waiting for the binding's actions.
struct Failed {
    index: usize,
    message: String,
    /// From an error (acted on only under `Fail`), not a false validation.
    error: bool,
    /// The validation's reason (empty: the default).
    reason: String,
}

/// An audit annotation's result (`PolicyAuditAnnotation`).
enum Annotation {
    Publish(String, String),
    Error(String),
}

/// Runs one invocation; `false` when matchConditions skipped it.
pub(crate) fn run(context: &Context<'_>, param: Option<&Json>, out: &mut Outcome) -> bool {
    let object = context.input.request.object.as_ref();
    match match_conditions(context, object, param, out) {
        Gate::Skip => return false,
        // `Validate`: a matchCondition error is the invocation's one decision.
        Gate::Fail(message) => {
            act(context, error_decision(message), out);
            return true;
        }
        Gate::Run => {}
    }
    // The audit annotations see the untrimmed Namespace upstream; they share this scope (and its
    // variables) here, which only matters for metadata such as ownerReferences.
    let bindings = base(context, object, param, NamespaceView::Trimmed);
    let scope = Scope::new(bindings, &variables(context.policy));
    let (decisions, annotations) = match decide(&scope, context.policy, out) {
        Ok(decisions) => match annotate(context, &scope) {
            Ok(annotations) => (decisions, annotations),
            Err(budget) => (vec![error_decision(budget)], Vec::new()),
        },
        Err(budget) => (vec![error_decision(budget)], Vec::new()),
    };
    for decision in decisions {
        act(context, decision, out);
    }
    for annotation in annotations {
        match annotation {
            Annotation::Publish(key, value) => out.annotate(&key, value),
            // Not subject to validationActions (`AuditAnnotationActionError`).
            Annotation::Error(message) => {
                out.reject(&context.input.request, &message, Refusal::Failed)
            }
        }
    }
    true
}

/// When the filter itself fails (an exhausted budget), `Validate` returns that error as the
/// invocation's only decision, in place of every other.
fn error_decision(message: String) -> Failed {
    Failed {
        index: 0,
        message,
        error: true,
        reason: String::new(),
    }
}

/// The validations' decisions (recording each result in `out`); `Err` when the budget ran out.
fn decide(scope: &Scope, policy: &Policy, out: &mut Outcome) -> Result<Vec<Failed>, String> {
    let mut budget = POLICY_BUDGET;
    let validations = &policy.validations;
    let (results, exhausted) = expressions(scope, validations, &mut budget);
    let messages = if exhausted {
        Ok(Vec::new())
    } else {
        message_expressions(scope, validations, &mut budget)
    };
    let mut failed = Vec::new();
    for (index, (validation, result)) in validations.iter().zip(results).enumerate() {
        // An expression's own error comes first, then a messageExpression budget failure.
        let (state, message) = match (result, &messages) {
            (Err(e), _) => (TriState::Error, Some(e)),
            (Ok(_), Err(e)) => (
                TriState::Error,
                Some(format!("failed messageExpression: {e}")),
            ),
            (Ok(true), _) => (TriState::True, None),
            (Ok(false), Ok(m)) => (
                TriState::False,
                Some(message(validation, m.get(index).cloned().flatten())),
            ),
        };
        let reason = (state == TriState::False).then(|| match validation.reason.as_str() {
            "" => "Invalid".to_string(),
            r => r.to_string(),
        });
        out.validations.push(ValidationResult {
            index,
            result: state,
            message: message.clone(),
            reason: reason.clone(),
        });
        if let Some(message) = message {
            failed.push(Failed {
                index,
                message,
                error: state == TriState::Error,
                reason: reason.unwrap_or_default(),
            });
        }
    }
    if exhausted {
        return Err(BUDGET_MESSAGE.to_string());
    }
    Ok(failed)
}

/// Each validation's result (`Err`: the error message), in order, and whether the budget ran
/// out, which ends the list since no further validation runs.
fn expressions(
    scope: &Scope,
    validations: &[Validation],
    budget: &mut u64,
) -> (Vec<Result<bool, String>>, bool) {
    let mut results = Vec::new();
    for (index, validation) in validations.iter().enumerate() {
        let run = || scope.run(&Compiled::new(&validation.expression), budget);
        match explain::labelled(|| format!("validation[{index}]"), run) {
            Ok(value) => results.push(Ok(matches!(value, Value::Bool(true)))),
            Err(Failure::Budget) => {
                results.push(Err(BUDGET_MESSAGE.to_string()));
                return (results, true);
            }
            Err(failure) => results.push(Err(failure.message())),
        }
    }
    (results, false)
}

/// Every messageExpression, evaluated eagerly (passing validations included) with the budget
/// left, as the API server does; an exhausted budget fails them all.
fn message_expressions(
    scope: &Scope,
    validations: &[Validation],
    budget: &mut u64,
) -> Result<Vec<Option<String>>, String> {
    let mut out = Vec::with_capacity(validations.len());
    for (index, validation) in validations.iter().enumerate() {
        let text = validation.message_expression.as_str();
        if text.is_empty() {
            out.push(None);
            continue;
        }
        // Runtime errors of a messageExpression are only logged: the static message is used.
        let run = || scope.run(&Compiled::new(text), budget);
        match explain::labelled(|| format!("messageExpression[{index}]"), run) {
            Ok(Value::String(s)) => out.push(Some(s.trim().to_string())),
            Err(Failure::Budget) => return Err(BUDGET_MESSAGE.to_string()),
            _ => out.push(None),
        }
    }
    Ok(out)
}

/// The message of a failed validation: its messageExpression's result if usable, else `message`,
/// else the expression.
fn message(validation: &Validation, from_expression: Option<String>) -> String {
    if let Some(m) =
        from_expression.filter(|m| !m.is_empty() && m.len() <= MAX_MESSAGE && !m.contains('\n'))
    {
        return m;
    }
    match validation.message.trim() {
        "" => format!("failed expression: {}", validation.expression.trim()),
        m => m.to_string(),
    }
}

/// The audit annotations' results (`Validate`, after the validations): a string is published
/// trimmed (empty: omitted), `null` is omitted, an evaluation error is an error under `Fail` and
/// omitted under `Ignore`, and any other type is an error whatever the failurePolicy. `Err` when
/// the budget ran out.
fn annotate(context: &Context<'_>, scope: &Scope) -> Result<Vec<Annotation>, String> {
    let mut budget = POLICY_BUDGET;
    let mut results = Vec::new();
    for annotation in &context.policy.audit_annotations {
        let key = annotation.key.as_str();
        let expression = annotation.value_expression.as_str();
        let run = || scope.run(&Compiled::new(expression), &mut budget);
        match explain::labelled(|| format!("auditAnnotation {key}"), run) {
            Ok(Value::String(s)) if !s.trim().is_empty() => {
                results.push(Annotation::Publish(key.to_string(), s.trim().to_string()));
            }
            Ok(Value::String(_) | Value::Null) => {}
            Ok(other) => results.push(Annotation::Error(format!(
                "valueExpression '{expression}' resulted in unsupported return type: {}. Return type must be either string or null.",
                other.type_name()
            ))),
            Err(Failure::Budget) => return Err(BUDGET_MESSAGE.to_string()),
            Err(failure) if context.fail => results.push(Annotation::Error(failure.message())),
            Err(_) => {}
        }
    }
    Ok(results)
}

/// The binding's actions for one decision (`Dispatch`); an error under `Ignore` admits.
fn act(context: &Context<'_>, failure: Failed, out: &mut Outcome) {
    if failure.error && !context.fail {
        return;
    }
    for action in &context.actions {
        match action.as_str() {
            "Deny" => {
                let refusal = if failure.error {
                    Refusal::Failed
                } else {
                    Refusal::Denied(&failure.reason)
                };
                out.reject(&context.input.request, &failure.message, refusal);
            }
            "Warn" => out.warn(&failure.message),
            "Audit" => out.audit_failure(FailureValue {
                message: failure.message.clone(),
                policy: out.policy.clone(),
                binding: context.binding.to_string(),
                expression_index: failure.index,
                validation_actions: context.actions.clone(),
            }),
            _ => {}
        }
    }
}
