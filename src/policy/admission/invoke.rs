//! What every invocation of a policy (one binding, one param) starts with: the plain variables its
//! expressions see, and the matchConditions that decide whether it runs at all.

use std::sync::Arc;

use serde_json::Value as Json;

use super::expr::{Compiled, MATCH_BUDGET, Scope};
use super::json::{at, str_at};
use super::outcome::{Condition, TriState};
use super::{Context, DenyAll, Outcome};
use crate::cel::eval::{AuthzRequest, Value, authorizer_value, request_resource_value};

/// The plain variables for an invocation with `object` as the current object.
pub(crate) fn base(
    context: &Context<'_>,
    object: Option<&Json>,
    param: Option<&Json>,
    with_namespace: bool,
) -> Vec<(&'static str, Value)> {
    let request = &context.input.request;
    let value = |j: Option<&Json>| {
        j.and_then(|j| Value::from_json(j).ok())
            .unwrap_or(Value::Null)
    };
    let request_json = request.to_json(&context.matched.version, &context.matched.resource);
    let namespace = request
        .namespace_object
        .as_ref()
        .filter(|_| with_namespace && !request.namespace.is_empty());
    let authorizer = context
        .input
        .authorizer
        .clone()
        .unwrap_or_else(|| Arc::new(DenyAll));
    let resource = AuthzRequest {
        group: request.group.clone(),
        resource: request.resource.clone(),
        subresource: request.sub_resource.clone(),
        namespace: request.namespace.clone(),
        name: request.name.clone(),
        ..AuthzRequest::default()
    };
    let mut vars = vec![
        ("object", value(object)),
        ("oldObject", value(request.old_object.as_ref())),
        ("request", value(Some(&request_json))),
        ("namespaceObject", value(namespace)),
        ("authorizer", authorizer_value(authorizer.clone())),
        (
            "authorizer.requestResource",
            request_resource_value(authorizer, resource),
        ),
    ];
    if at(context.spec, &["paramKind"]).is_some() {
        vars.push(("params", value(param)));
    }
    vars
}

/// The policy's variables as (name, expression).
pub(crate) fn variables(spec: &Json) -> Vec<(String, String)> {
    items(spec, "variables")
        .iter()
        .map(|v| {
            (
                str_at(v, &["name"]).to_string(),
                str_at(v, &["expression"]).to_string(),
            )
        })
        .collect()
}

/// The items of a list field of the spec.
pub(crate) fn items<'a>(spec: &'a Json, key: &str) -> Vec<&'a Json> {
    at(spec, &[key])
        .and_then(Json::as_array)
        .map(|i| i.iter().collect())
        .unwrap_or_default()
}

/// Runs the matchConditions: `true` when the invocation goes on. A false condition skips it; an
/// error (with none false) rejects under `Fail` and skips under `Ignore`.
pub(crate) fn match_conditions(
    context: &Context<'_>,
    object: Option<&Json>,
    param: Option<&Json>,
    out: &mut Outcome,
) -> bool {
    let conditions = items(context.spec, "matchConditions");
    if conditions.is_empty() {
        return true;
    }
    let request = &context.input.request;
    let scope = Scope::new(base(context, object, param, false), &[]);
    let mut budget = MATCH_BUDGET;
    let mut results = Vec::new();
    for condition in conditions {
        let compiled = Compiled::new(str_at(condition, &["expression"]));
        let (result, error) = match scope.run(&compiled, &mut budget) {
            Ok(Value::Bool(true)) => (TriState::True, None),
            Ok(Value::Bool(false)) => (TriState::False, None),
            Ok(other) => (
                TriState::Error,
                Some(format!(
                    "matchCondition evaluated to {} instead of bool",
                    other.type_name()
                )),
            ),
            Err(f) => (TriState::Error, Some(f.message())),
        };
        let name = str_at(condition, &["name"]).to_string();
        results.push(Condition {
            name,
            result,
            error,
        });
    }
    let any_false = results.iter().any(|c| c.result == TriState::False);
    let first_error = results
        .iter()
        .find(|c| c.result == TriState::Error)
        .cloned();
    out.match_conditions.extend(results);
    if any_false {
        return false;
    }
    match first_error {
        Some(c) if context.fail => {
            let message = format!(
                "failed to evaluate matchCondition '{}': {}",
                c.name,
                c.error.unwrap_or_default()
            );
            out.reject(request, &message, true);
            false
        }
        Some(_) => false,
        None => true,
    }
}
