//! What every invocation of a policy (one binding, one param) starts with: the plain variables its
//! expressions see, and the matchConditions that decide whether it runs at all.

use std::sync::Arc;

use serde_json::Value as Json;

use super::expr::{BUDGET_MESSAGE, Compiled, Failure, MATCH_BUDGET, Scope};
use super::outcome::{Condition, TriState};
use super::view::Policy;
use super::{Context, DenyAll, Outcome};
use crate::cel::eval::{AuthzRequest, Value, authorizer_value, request_resource_value};

/// Which `namespaceObject` an expression sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NamespaceView {
    /// `null`: matchConditions are matched without a namespace (`matchconditions/matcher.go`
    /// `Match` passes `nil`).
    Absent,
    /// The copy `cel.CreateNamespaceObject` makes for a validating policy's validations
    /// (`cel/condition.go`): spec, status and only these metadata fields.
    Trimmed,
    /// The stored Namespace as it is (a mutating policy's mutations).
    Full,
}

/// The metadata fields `CreateNamespaceObject` copies.
const NAMESPACE_METADATA: &[&str] = &[
    "name",
    "generateName",
    "namespace",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "finalizers",
];

/// The Namespace as CEL sees it: a typed object from the API server's cache carries no
/// `apiVersion` or `kind` (empty TypeMeta, omitted when converted), and `Trimmed` keeps only the
/// fields `CreateNamespaceObject` copies.
fn namespace_value(namespace: &Json, view: NamespaceView) -> Json {
    let mut namespace = namespace.clone();
    if let Json::Object(map) = &mut namespace {
        map.retain(|k, _| !matches!(k.as_str(), "apiVersion" | "kind"));
        if view == NamespaceView::Trimmed {
            map.retain(|k, _| matches!(k.as_str(), "metadata" | "spec" | "status"));
            if let Some(Json::Object(meta)) = map.get_mut("metadata") {
                meta.retain(|k, _| NAMESPACE_METADATA.contains(&k.as_str()));
            }
        }
    }
    namespace
}

/// The plain variables for an invocation with `object` as the current object.
pub(crate) fn base(
    context: &Context<'_>,
    object: Option<&Json>,
    param: Option<&Json>,
    view: NamespaceView,
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
        .filter(|_| view != NamespaceView::Absent && !request.namespace.is_empty())
        .map(|n| namespace_value(n, view));
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
        ("namespaceObject", value(namespace.as_ref())),
        ("authorizer", authorizer_value(authorizer.clone())),
        (
            "authorizer.requestResource",
            request_resource_value(authorizer, resource),
        ),
    ];
    if context.policy.param_kind.is_some() {
        vars.push(("params", value(param)));
    }
    vars
}

/// The policy's variables as (name, expression).
pub(crate) fn variables(policy: &Policy) -> Vec<(String, String)> {
    let variables = policy.variables.iter();
    variables
        .map(|v| (v.name.clone(), v.expression.clone()))
        .collect()
}

/// What the matchConditions decide about an invocation.
#[derive(Debug, PartialEq)]
pub(crate) enum Gate {
    /// None was false and none failed: the invocation runs.
    Run,
    /// One was false, or one failed under `Ignore`: the invocation is skipped.
    Skip,
    /// One failed (none false) under `Fail`: the invocation fails with this message.
    Fail(String),
}

/// Runs the matchConditions (`webhook/matchconditions/matcher.go` `Match`): every condition is
/// evaluated; one that is `false` skips the invocation; otherwise an error fails it under `Fail`
/// (the errors aggregated as apimachinery's `NewAggregate` words them) and skips it under
/// `Ignore`. A result that is not `false` (a non-bool included, which only a `dyn` expression can
/// give) counts as true, since the matcher only tests for `false`.
pub(crate) fn match_conditions(
    context: &Context<'_>,
    object: Option<&Json>,
    param: Option<&Json>,
    out: &mut Outcome,
) -> Gate {
    let conditions = &context.policy.match_conditions;
    if conditions.is_empty() {
        return Gate::Run;
    }
    let scope = Scope::new(base(context, object, param, NamespaceView::Absent), &[]);
    let mut budget = MATCH_BUDGET;
    let mut results = Vec::new();
    for condition in conditions {
        let compiled = Compiled::new(&condition.expression);
        let run = || scope.run(&compiled, &mut budget);
        let label = || format!("matchCondition {}", condition.name);
        let (result, error) = match super::explain::labelled(label, run) {
            Ok(Value::Bool(false)) => (TriState::False, None),
            Ok(_) => (TriState::True, None),
            Err(Failure::Budget) => {
                // The filter itself fails (`ForInput`): no result for any condition.
                return if context.fail {
                    Gate::Fail(BUDGET_MESSAGE.to_string())
                } else {
                    Gate::Skip
                };
            }
            Err(f) => (TriState::Error, Some(f.message())),
        };
        let name = condition.name.clone();
        results.push(Condition {
            name,
            result,
            error,
        });
    }
    let any_false = results.iter().any(|c| c.result == TriState::False);
    let errors: Vec<String> = results.iter().filter_map(|c| c.error.clone()).collect();
    out.match_conditions.extend(results);
    match () {
        _ if any_false => Gate::Skip,
        _ if errors.is_empty() => Gate::Run,
        _ if context.fail => Gate::Fail(aggregate(&errors)),
        _ => Gate::Skip,
    }
}

/// Several errors as `utilerrors.NewAggregate(...).Error()` writes them: one alone as it is,
/// else the distinct messages in order, comma-separated in brackets.
fn aggregate(errors: &[String]) -> String {
    let mut distinct: Vec<&str> = Vec::new();
    for e in errors {
        if !distinct.contains(&e.as_str()) {
            distinct.push(e);
        }
    }
    match distinct.as_slice() {
        [one] => one.to_string(),
        many => format!("[{}]", many.join(", ")),
    }
}
