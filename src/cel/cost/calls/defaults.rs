//! cel-go's default call estimates (`checker/cost.go` `functionCost`), keyed by overload id:
//! string traversals, conversions, regular expressions, concatenation and comparisons; one unit for
//! every O(1) function.

use super::{Call, Estimate, TRAVERSAL, arg_size, regex, target_size};
use crate::cel::cost::walk::{Entry, Walker};
use crate::cel::cost::{Cost, Size};

/// cel-go's defaults (`checker/cost.go` `functionCost`), without arguments.
pub(super) fn estimate(w: &mut Walker, call: &Call) -> Estimate {
    let unit = Estimate::cost(Cost::fixed(1));
    match call.overload {
        "string_format" if call.target.is_some() => {
            let size = target_size(w, call);
            let result = size.plus(arg_size(w, call, 0));
            Estimate::sized(size.scale(TRAVERSAL), result)
        }
        "string_to_bytes" => {
            let size = arg_size(w, call, 0);
            let result = Size {
                min: size.min,
                max: size.max.saturating_mul(4),
            };
            Estimate::sized(size.scale(TRAVERSAL), result)
        }
        "bytes_to_string" => {
            let size = arg_size(w, call, 0);
            let result = Size {
                min: size.min / 4,
                max: size.max,
            };
            Estimate::sized(size.scale(TRAVERSAL), result)
        }
        "strings_quote" => {
            let size = arg_size(w, call, 0);
            let result = Size {
                min: size.min.saturating_add(2),
                max: size.max.saturating_mul(2).saturating_add(2),
            };
            Estimate::sized(size.scale(TRAVERSAL), result)
        }
        "starts_with_string" | "ends_with_string" if call.target.is_some() => {
            Estimate::cost(arg_size(w, call, 0).scale(TRAVERSAL))
        }
        "in_list" => Estimate::cost(arg_size(w, call, 1).scale(1.0)),
        "matches_string" if call.target.is_some() => {
            let size = target_size(w, call);
            Estimate::cost(regex(size, arg_size(w, call, 0)))
        }
        "contains_string" if call.target.is_some() => {
            let text = target_size(w, call).scale(TRAVERSAL);
            Estimate::cost(text.product(arg_size(w, call, 0).scale(TRAVERSAL)))
        }
        "logical_and" | "logical_or" => {
            let lhs = call.arg_costs.first().copied().unwrap_or_default();
            let rhs = call.arg_costs.get(1).copied().unwrap_or_default();
            Estimate::cost(Cost {
                min: lhs.min,
                max: lhs.max.saturating_add(rhs.max),
            })
        }
        "add_string" | "add_bytes" | "add_list" => concatenation(w, call),
        "equals" | "not_equals" => comparison(w, call),
        overload if is_text_relation(overload) => comparison(w, call),
        _ => unit,
    }
}

fn is_text_relation(overload: &str) -> bool {
    ["less", "less_equals", "greater", "greater_equals"]
        .iter()
        .any(|op| {
            overload
                .strip_prefix(op)
                .is_some_and(|rest| rest == "_string" || rest == "_bytes")
        })
}

fn concatenation(w: &mut Walker, call: &Call) -> Estimate {
    let (Some(&lhs), Some(&rhs)) = (call.args.first(), call.args.get(1)) else {
        return Estimate::cost(Cost::fixed(1));
    };
    let size = w.size_for_cost(lhs).plus(w.size_for_cost(rhs));
    if let (Some(a), Some(b)) = (w.entry(lhs), w.entry(rhs)) {
        let merged = Entry {
            list: a.list,
            key: a.key.union(b.key),
            value: a.value.union(b.value),
        };
        w.set_entry(call.id, Some(merged));
    }
    if call.overload == "add_list" {
        // Concatenation is O(1); the case exists to track the size.
        return Estimate::sized(Cost::fixed(1), size);
    }
    Estimate::sized(size.scale(TRAVERSAL), size)
}

/// Equality and string/bytes ordering: a traversal of the shorter side (1 for scalars).
fn comparison(w: &mut Walker, call: &Call) -> Estimate {
    // Only the shorter side counts, so one unknown side does not make the cost unknown.
    let size = |w: &mut Walker, i: usize| call.args.get(i).and_then(|&id| w.size(id));
    let (lhs, rhs) = (
        size(w, 0).unwrap_or(Size::UNKNOWN),
        size(w, 1).unwrap_or(Size::UNKNOWN),
    );
    if lhs.max.min(rhs.max) == u64::MAX {
        w.used_unknown();
    }
    let smallest = lhs.max.min(rhs.max);
    let range = Size {
        min: u64::from(smallest > 0),
        max: smallest,
    };
    Estimate::cost(range.scale(TRAVERSAL))
}
