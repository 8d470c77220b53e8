//! The estimated cost of one call, consulted in cel-go's order: the per-overload estimators of the
//! extension libraries (ext.Sets, ext.Lists, here), then the Kubernetes `EstimateCallCost` (keyed by
//! function name, in [`kubernetes`]), then cel-go's defaults (keyed by overload id; one unit for
//! every O(1) function, in [`defaults`]). Every answer but `&&` / `||` is the function's own cost
//! plus the cost of its arguments.

mod defaults;
mod kubernetes;

use super::walk::Walker;
use super::{Cost, Size};
use crate::cel::ast::ExprId;
use crate::cel::types::Type;

/// cel-go's `StringTraversalCostFactor`.
const TRAVERSAL: f64 = 0.1;
/// cel-go's `RegexStringLengthCostFactor`.
const REGEX: f64 = 0.25;

/// One resolved overload of a call, with its parts.
pub(super) struct Call<'c> {
    pub id: ExprId,
    pub name: &'c str,
    pub overload: &'c str,
    pub target: Option<ExprId>,
    pub args: &'c [ExprId],
    pub arg_costs: &'c [Cost],
}

/// A call's cost and, for strings, bytes, lists and maps, the size of its result.
pub(super) struct Estimate {
    pub cost: Cost,
    pub size: Option<Size>,
}

impl Estimate {
    fn cost(cost: Cost) -> Estimate {
        Estimate { cost, size: None }
    }

    fn sized(cost: Cost, size: Size) -> Estimate {
        Estimate {
            cost,
            size: Some(size),
        }
    }
}

/// The estimate of `call`, arguments included (its receiver is costed by the caller).
pub(super) fn estimate(w: &mut Walker, call: &Call) -> Estimate {
    let args = call
        .arg_costs
        .iter()
        .fold(Cost::default(), |acc, &c| acc.plus(c));
    let own = sets(w, call)
        .or_else(|| lists(w, call))
        .or_else(|| kubernetes::estimate(w, call))
        .unwrap_or_else(|| defaults::estimate(w, call));
    if matches!(call.overload, "logical_and" | "logical_or") {
        return own;
    }
    let size = own
        .size
        .or_else(|| conversion_size(w, call))
        .or_else(|| optional_size(w, call));
    Estimate {
        cost: own.cost.plus(args),
        size,
    }
}

/// The size of `string(x)`, which cel-go leaves to the estimator: the size of a string or `dyn`
/// argument, at most 32 characters for a number, bool, timestamp or duration. (Not in cel-go; it
/// keeps a value read from the request sized by the request when it is converted.)
fn conversion_size(w: &mut Walker, call: &Call) -> Option<Size> {
    let (&arg, None) = (call.args.first()?, call.target) else {
        return None;
    };
    if call.name != "string" || call.args.len() != 1 {
        return None;
    }
    match w.checked.type_of(arg) {
        Type::String | Type::Dyn => w.size(arg),
        Type::Int | Type::Uint | Type::Double | Type::Bool | Type::Timestamp | Type::Duration => {
            Some(Size { min: 1, max: 32 })
        }
        _ => None,
    }
}

/// The size of `o.value()` and `o.orValue(x)`: the size of the optional's value, or of `x` when
/// that is larger. (Not in cel-go, which leaves the result unsized, so a policy variable
/// `object.?rules.orValue([])` looked as large as the whole request while `object.rules` keeps
/// its schema's bound, and the same loop over it was estimated several times dearer.)
fn optional_size(w: &mut Walker, call: &Call) -> Option<Size> {
    let target = w.size(call.target?)?;
    match (call.overload, call.args) {
        ("optional_value", []) => Some(target),
        ("optional_orValue_value", &[fallback]) => Some(target.union(w.size(fallback)?)),
        _ => None,
    }
}

fn arg_size(w: &mut Walker, call: &Call, i: usize) -> Size {
    match call.args.get(i) {
        Some(&id) => w.size_for_cost(id),
        None => {
            w.used_unknown();
            Size::UNKNOWN
        }
    }
}

fn target_size(w: &mut Walker, call: &Call) -> Size {
    match call.target {
        Some(id) => w.size_for_cost(id),
        None => {
            w.used_unknown();
            Size::UNKNOWN
        }
    }
}

/// ext.Sets: one unit plus a comparison per pair of elements (twice for `equivalent`).
fn sets(w: &mut Walker, call: &Call) -> Option<Estimate> {
    let pairs = match call.name {
        "sets.contains" | "sets.intersects" => 1,
        "sets.equivalent" => 2,
        _ => return None,
    };
    let product = arg_size(w, call, 0).product(arg_size(w, call, 1));
    let cost = Cost::fixed(1).plus(product.times(Cost::fixed(pairs)));
    Some(Estimate::cost(cost))
}

/// ext.Lists, as the runtime tracker charges them (`cel::eval` `call_cost`): a new list costs
/// 1 + 10 plus its elements (times the depth for `flatten`); `distinct` and `sort` compare every
/// pair (2 per pair, 2.1 for strings and bytes).
fn lists(w: &mut Walker, call: &Call) -> Option<Estimate> {
    let receiver = call.target.or(call.args.first().copied())?;
    let allocating = |size: Size, factor: f64| {
        Cost::fixed(1 + super::walk::LIST_CREATE).plus(size.scale(factor))
    };
    match call.name {
        "slice" | "reverse" | "flatten" if matches!(w.checked.type_of(receiver), Type::List(_)) => {
            let size = w.size_for_cost(receiver);
            Some(Estimate::sized(allocating(size, 1.0), size))
        }
        "distinct" | "sort" => {
            let text = matches!(
                w.checked.type_of(receiver),
                Type::List(elem) if matches!(**elem, Type::String | Type::Bytes)
            );
            let size = w.size_for_cost(receiver);
            let factor = if text { 2.0 + TRAVERSAL } else { 2.0 };
            Some(Estimate::sized(
                allocating(size.product(size), factor),
                size,
            ))
        }
        _ => None,
    }
}

/// ⌈0.1 × (size + 1)⌉ × ⌈0.25 × regex⌉: a regular expression run over a string.
fn regex(size: Size, pattern: Size) -> Cost {
    let scan = size.plus(Size::fixed(1)).scale(TRAVERSAL);
    scan.product(pattern.scale(REGEX))
}
