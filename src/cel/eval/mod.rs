//! The CEL evaluator: evaluates a parsed expression the way cel-go does in the Kubernetes API
//! server, with runtime cost tracking and bounded time and memory.
//!
//! - [`evaluate`]`(ast, &activation, &options)` → [`Evaluation`] `{ result, cost }`;
//! - [`Value`] is every runtime value (errors included, as values, until they decide a result);
//!   [`Value::from_json`] / [`Value::to_json`] convert Kubernetes objects in and out;
//! - [`Activation`] binds variables, plainly or lazily ([`Activation::bind_lazy`], evaluated once
//!   on first use and charged to the expression that forces it);
//! - dispatch is dynamic (on runtime types), so it needs no checker; `dyn` works by construction.
//!   Standard functions are tried before the Kubernetes library (`functions::kube`), so a library
//!   overload never changes a standard one. A checker's overload choice (`check::Reference`) can
//!   later be passed in to skip the runtime type switch; results would be the same.
//! - limits: [`EvalOptions::cost_limit`] is the per-call limit (1,000,000, cel-go's text when
//!   exceeded); a policy's running budget (10,000,000) is the caller's: pass
//!   `min(per-call, budget left)` and subtract [`Evaluation::cost`]. Memory and comparison work
//!   are bounded too (`cost::DEFAULT_ALLOCATION_LIMIT`, `work`), with the same error text.
//!
//! Kubernetes library types plug in through [`Opaque`]; the authorizer is a mock whose decisions
//! come from the caller ([`Authorizer`], [`authorizer_value`]).

mod access;
mod activation;
pub mod authz;
mod call_cost;
mod calls;
mod civil;
pub mod cost;
mod display;
pub mod functions;
mod interp;
mod json;
mod list;
mod macros;
mod map;
pub mod ops;
pub mod time;
pub mod trace;
pub mod trace_view;
mod value;
mod work;

#[cfg(test)]
mod tests;

pub use activation::{Activation, Computed, ExternalFunctions, LazyFn};
pub use authz::{
    Authorizer, AuthzDecision, AuthzRequest, authorizer_value, request_resource_value,
};
pub use cost::{COST_LIMIT_MESSAGE, CostTracker, DEFAULT_ALLOCATION_LIMIT, DEFAULT_COST_LIMIT};
pub use list::{ListKind, ListValue};
pub use map::{Key, MapValue};
pub use value::{Duration, ErrorKind, EvalError, ObjectValue, Opaque, Timestamp, Value};

use super::ast::Ast;

/// Limits for one evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalOptions {
    /// The cost limit (`None`: no cost limit); the API server's per-call limit by default.
    pub cost_limit: Option<u64>,
    /// The allocation limit (see [`DEFAULT_ALLOCATION_LIMIT`]); always enforced.
    pub allocation_limit: u64,
}

impl Default for EvalOptions {
    fn default() -> Self {
        EvalOptions {
            cost_limit: Some(DEFAULT_COST_LIMIT),
            allocation_limit: DEFAULT_ALLOCATION_LIMIT,
        }
    }
}

/// The outcome of an evaluation.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// The value, or the error that decided the result (a cost-limit error stops evaluation).
    pub result: Result<Value, EvalError>,
    /// The runtime cost, as cel-go's tracker counts it.
    pub cost: u64,
}

/// Evaluates `ast` with the variables of `activation`.
pub fn evaluate(ast: &Ast, activation: &Activation<'_>, options: &EvalOptions) -> Evaluation {
    evaluate_with(ast, None, activation, options, &mut None)
}

/// [`evaluate`] with the checker's type of each node (`Checked::types`), for the few results
/// cel-go takes from the overload the checker chose rather than from the values (the zero of
/// `sum()` on an empty list).
pub fn evaluate_checked(
    ast: &Ast,
    types: &[super::types::Type],
    activation: &Activation<'_>,
    options: &EvalOptions,
) -> Evaluation {
    evaluate_with(ast, Some(types), activation, options, &mut None)
}

/// [`evaluate`] that also records the value of every subexpression (see [`trace`]).
pub fn evaluate_traced(
    ast: &Ast,
    activation: &Activation<'_>,
    options: &EvalOptions,
) -> (Evaluation, trace::Trace) {
    let mut record = Some(Box::new(trace::Trace::new(ast.len())));
    let evaluation = evaluate_with(ast, None, activation, options, &mut record);
    (evaluation, record.map(|t| *t).unwrap_or_default())
}

/// [`evaluate_checked`] that also records the value of every subexpression (see [`trace`]).
pub fn evaluate_checked_traced(
    ast: &Ast,
    types: &[super::types::Type],
    activation: &Activation<'_>,
    options: &EvalOptions,
) -> (Evaluation, trace::Trace) {
    let mut record = Some(Box::new(trace::Trace::new(ast.len())));
    let evaluation = evaluate_with(ast, Some(types), activation, options, &mut record);
    (evaluation, record.map(|t| *t).unwrap_or_default())
}

fn evaluate_with(
    ast: &Ast,
    types: Option<&[super::types::Type]>,
    activation: &Activation<'_>,
    options: &EvalOptions,
    record: &mut Option<Box<trace::Trace>>,
) -> Evaluation {
    let _work = work::Scope::enter(work::DEFAULT_WORK_LIMIT);
    let tracker = CostTracker::new(options.cost_limit, options.allocation_limit);
    let mut interp = interp::Interp::new(ast, activation, tracker);
    interp.types = types;
    interp.trace = record.take();
    let result = match interp.eval(ast.root) {
        Ok(Value::Error(e)) => Err((*e).clone()),
        Ok(v) => Ok(v),
        Err(abort) => Err(abort),
    };
    *record = interp.trace.take();
    Evaluation {
        result,
        cost: interp.cost.cost,
    }
}
