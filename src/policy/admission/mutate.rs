//! One MutatingAdmissionPolicy invocation (`mutating/dispatcher.go`): mutations in order, each on
//! its own budget and on the object the previous one produced; an apply configuration is merged by
//! the schema, a JSON Patch applied (a failing `test` leaves the object as it was); with
//! `reinvocationPolicy: IfNeeded` the invocations run once more after every invocation ran, each
//! matched again on the changed object. The outcome carries the final object and the RFC 6902
//! patch from the input.

use serde_json::Value as Json;

use super::expr::{Compiled, Failure, POLICY_BUDGET, Scope};
use super::invoke::{Gate, NamespaceView, base, match_conditions, variables};
use super::patch::{self, Operation, PatchError};
use super::status::{Refusal, Status};
use super::view::Mutation;
use super::{Context, Outcome};
use crate::cel::eval::{ObjectValue, Value};
use crate::cel::types::Type;
use crate::schema::Gvk;

/// What one invocation did.
enum Invoked {
    /// Its matchConditions skipped it (or there was no object).
    Skipped,
    /// Its matchConditions failed it, or its kind has no schema: nothing was applied.
    Failed,
    /// Its mutations ran; `applied` when at least one of them was applied.
    Ran { applied: bool },
}

/// Runs every invocation (one per param) as `mutating/dispatcher.go` `dispatchInvocations` does,
/// then reinvokes as `pkg/admission/reinvocation.go` and `reinvocationcontext.go` decide: when a
/// mutation was applied (the versioned object is `Dirty`) and nothing failed the request, the
/// invocations that ran under `reinvocationPolicy: IfNeeded` run once more, in the same order,
/// each after the policy is matched again (`still_matches`: matchConstraints and the binding's
/// matchResources on the changed object) and its matchConditions are evaluated again on the
/// current object. `false` when no invocation ran.
pub(crate) fn run_all(
    context: &Context<'_>,
    params: &[Option<Json>],
    still_matches: &dyn Fn(&Json) -> bool,
    out: &mut Outcome,
) -> bool {
    let mut ran = false;
    let mut applied = false;
    let mut reinvocable = Vec::new();
    for (index, param) in params.iter().enumerate() {
        match invoke(context, param.as_ref(), true, out) {
            Invoked::Skipped => {}
            Invoked::Failed => ran = true,
            Invoked::Ran { applied: changed } => {
                ran = true;
                applied |= changed;
                reinvocable.push(index);
            }
        }
        if unavailable(out) {
            return ran;
        }
    }
    let if_needed = context.policy.reinvocation_policy == "IfNeeded";
    // A policy error under `Fail` rejects the request: the chain is not reinvoked.
    if !if_needed || !applied || out.failed || reinvocable.is_empty() {
        return ran;
    }
    match out.object.as_ref() {
        Some(object) if still_matches(object) => {}
        _ => return ran,
    }
    for (index, param) in params.iter().enumerate() {
        // The matcher runs for every invocation (its errors count); only those invoked before run.
        let again = reinvocable.contains(&index);
        invoke(context, param.as_ref(), again, out);
        if unavailable(out) {
            break;
        }
    }
    ran
}

/// A `503` status ends the dispatch (`dispatchInvocations` returns a status error as it is).
fn unavailable(out: &Outcome) -> bool {
    out.status.as_ref().is_some_and(|s| s.code == 503)
}

/// One invocation on the current object: its matchConditions, then (when `mutate`) its mutations.
fn invoke(context: &Context<'_>, param: Option<&Json>, mutate: bool, out: &mut Outcome) -> Invoked {
    let request = &context.input.request;
    let Some(input) = request.object.clone() else {
        return Invoked::Skipped;
    };
    // Each invocation runs on the object the previous one produced.
    let start = out.object.clone().unwrap_or_else(|| input.clone());
    match match_conditions(context, Some(&start), param, out) {
        Gate::Skip => return Invoked::Skipped,
        // `dispatchInvocations`: a policy error, filtered by failurePolicy like any other.
        Gate::Fail(message) => {
            out.reject(request, &message, Refusal::Failed);
            return Invoked::Failed;
        }
        Gate::Run if !mutate => return Invoked::Skipped,
        Gate::Run => {}
    }
    let gvk = Gvk::new(&request.group, &request.version, &request.kind);
    if !matches!(context.input.schemas.kind_type(&gvk), Some(Type::Object(_))) {
        // `dispatchOne`: no type converter for the kind is a `503 Service Unavailable` returned
        // as it is, before any mutation and whatever the failurePolicy.
        let status = Status {
            code: 503,
            reason: "ServiceUnavailable".into(),
        };
        out.refuse(format!(
            "Resource kind {}/{}, Kind={} not found. There can be a delay between when CustomResourceDefinitions are created and when they are available.",
            gvk.group, gvk.version, gvk.kind
        ), status, true);
        return Invoked::Failed;
    }
    let (object, applied) = pass(context, param, &start, out);
    out.patch = Some(patch::diff(&input, &object));
    out.object = Some(object);
    Invoked::Ran { applied }
}

/// Every mutation once, in order, starting from `object`; `true` when one was applied.
fn pass(
    context: &Context<'_>,
    param: Option<&Json>,
    object: &Json,
    out: &mut Outcome,
) -> (Json, bool) {
    let mut current = object.clone();
    let mut applied = false;
    for (index, mutation) in context.policy.mutations.iter().enumerate() {
        match mutate(context, param, &current, mutation) {
            Ok(next) => {
                let changed = patch::diff(&current, &next);
                out.mutation_patches.push((index, changed));
                current = next;
                applied = true;
            }
            Err(message) if context.fail => {
                out.reject(&context.input.request, &message, Refusal::Failed)
            }
            Err(_) => {}
        }
    }
    (current, applied)
}

fn mutate(
    context: &Context<'_>,
    param: Option<&Json>,
    object: &Json,
    mutation: &Mutation,
) -> Result<Json, String> {
    let scope = Scope::new(
        base(context, Some(object), param, NamespaceView::Full),
        &variables(context.policy),
    );
    let mut budget = POLICY_BUDGET;
    match mutation.patch_type.as_str() {
        "ApplyConfiguration" => {
            let run = || scope.run(&Compiled::new(&mutation.apply_configuration), &mut budget);
            let value = super::explain::labelled(|| "applyConfiguration".to_string(), run)
                .map_err(|f| f.message())?;
            apply_configuration(context, object, &value)
        }
        "JSONPatch" => {
            let run = || scope.run(&Compiled::new(&mutation.json_patch), &mut budget);
            let value = super::explain::labelled(|| "jsonPatch".to_string(), run)
                .map_err(|f| f.message())?;
            let patched = json_patch(object, &value)?;
            strict_decode(context, &patched)?;
            Ok(patched)
        }
        other => Err(Failure::Error(format!("unsupported patchType \"{other}\"")).message()),
    }
}

fn apply_configuration(
    context: &Context<'_>,
    object: &Json,
    value: &Value,
) -> Result<Json, String> {
    let Value::Object(root) = value else {
        return Err(format!(
            "must evaluate to Object but got {}",
            value.type_name()
        ));
    };
    check_type_names(root, "Object")?;
    let patch = value.to_json().map_err(|e| e.message)?;
    let request = &context.input.request;
    let gvk = Gvk::new(&request.group, &request.version, &request.kind);
    let Some(root_type @ Type::Object(_)) = context.input.schemas.kind_type(&gvk) else {
        return Err(format!("no schema for {}", gvk.kind));
    };
    super::merge::apply(&context.input.schemas, &root_type, object, &patch)
}

/// The patched object is decoded strictly: a field its schema lacks is an error (kinds without a
/// bundled or CRD schema are not checked).
fn strict_decode(context: &Context<'_>, object: &Json) -> Result<(), String> {
    let request = &context.input.request;
    let gvk = Gvk::new(&request.group, &request.version, &request.kind);
    let Some(root @ Type::Object(_)) = context.input.schemas.kind_type(&gvk) else {
        return Ok(());
    };
    let unknown = super::merge::unknown_fields(&context.input.schemas, &root, object);
    match unknown.as_slice() {
        [] => Ok(()),
        [one] => Err(format!("strict decoding error: unknown field \"{one}\"")),
        many => {
            let quoted: Vec<String> = many
                .iter()
                .map(|f| format!("unknown field \"{f}\""))
                .collect();
            Err(format!("strict decoding error: {}", quoted.join(", ")))
        }
    }
}

/// Nested `Object.<path>` initializers must be named by their field path from the root.
pub(crate) fn check_type_names(object: &ObjectValue, expected: &str) -> Result<(), String> {
    if &*object.type_name != expected {
        return Err(format!(
            "type mismatch: unexpected type name \"{}\", expected \"{expected}\", which matches field name path from root Object type",
            object.type_name
        ));
    }
    for (field, value) in &object.fields {
        check_nested(value, &format!("{expected}.{field}"))?;
    }
    Ok(())
}

fn check_nested(value: &Value, expected: &str) -> Result<(), String> {
    match value {
        Value::Object(o) => check_type_names(o, expected),
        Value::List(items) => items.iter().try_for_each(|i| check_nested(i, expected)),
        _ => Ok(()),
    }
}

pub(crate) fn json_patch(object: &Json, value: &Value) -> Result<Json, String> {
    let Value::List(list) = value else {
        return Err(format!(
            "must evaluate to list(JSONPatch) but got {}",
            value.type_name()
        ));
    };
    let mut ops = Vec::with_capacity(list.len());
    for item in list.iter() {
        ops.push(operation(item)?);
    }
    match patch::apply(object, &ops) {
        Ok(patched) => Ok(patched),
        Err(PatchError::TestFailed) => Ok(object.clone()),
        Err(PatchError::Failed(e)) => Err(format!("JSON Patch: {e}")),
    }
}

fn operation(item: &Value) -> Result<Operation, String> {
    let Value::Object(o) = item else {
        return Err(format!(
            "must evaluate to list(JSONPatch) but got list({})",
            item.type_name()
        ));
    };
    let mut op = Operation {
        op: String::new(),
        path: String::new(),
        from: String::new(),
        value: None,
    };
    for (field, value) in &o.fields {
        let text = || match value {
            Value::String(s) => s.to_string(),
            _ => String::new(),
        };
        match &**field {
            "op" => op.op = text(),
            "path" => op.path = text(),
            "from" => op.from = text(),
            "value" => {
                let json = value.to_json().map_err(|e| {
                    format!("JSONPath valueExpression evaluated to a type that could not marshal to JSON: {e}")
                })?;
                op.value = Some(json);
            }
            other => return Err(format!("unexpected JSONPatchType field: {other}")),
        }
    }
    Ok(op)
}
