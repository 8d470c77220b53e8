//! The estimated cost of one call, consulted in cel-go's order: the per-overload estimators of the
//! extension libraries (ext.Sets), then the Kubernetes `EstimateCallCost` (keyed by function name),
//! then cel-go's defaults (keyed by overload id; one unit for every O(1) function). Every answer
//! but `&&` / `||` is the function's own cost plus the cost of its arguments.

use super::walk::Walker;
use super::{Cost, Path, Size, Step};
use crate::cel::ast::{ExprId, ExprKind, Literal};
use crate::cel::types::{self, Type};

/// cel-go's `StringTraversalCostFactor`.
const TRAVERSAL: f64 = 0.1;
/// cel-go's `RegexStringLengthCostFactor`.
const REGEX: f64 = 0.25;
/// Kubernetes' `MaxNameFormatRegexSize`: the longest regular expression of a named format.
const NAMED_FORMAT_REGEX: f64 = 128.0;
/// Kubernetes' `MaxFormatSize`, the size bound of a named format value (inferred from the cost
/// tests: equality of two formats is estimated at most 7).
const FORMAT_SIZE: u64 = 64;
/// The authorization check: a fixed cost that allows about two checks per expression.
const AUTHZ_CHECK: u64 = 350_000;

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
        .or_else(|| kubernetes(w, call))
        .unwrap_or_else(|| cel_default(w, call));
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

/// The Kubernetes estimates (`pkg/cel/library/cost.go` `EstimateCallCost`), without arguments.
fn kubernetes(w: &mut Walker, call: &Call) -> Option<Estimate> {
    let fixed = |n: u64| Some(Estimate::cost(Cost::fixed(n)));
    let member = call.target.is_some();
    match call.name {
        "check" => fixed(AUTHZ_CHECK),
        "serviceAccount" | "path" | "group" | "resource" | "subresource" | "namespace" | "name"
        | "allowed" | "reason" | "error" | "errored" => fixed(1),
        "fieldSelector" | "labelSelector" if call.args.len() == 1 => {
            Some(Estimate::cost(selector(arg_size(w, call, 0))))
        }
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" if member => {
            Some(Estimate::cost(traversal(w, call)))
        }
        "url" | "jsonpatch.escapeKey" if call.args.len() == 1 => {
            let size = arg_size(w, call, 0);
            Some(Estimate::sized(size.scale(TRAVERSAL), size))
        }
        "lowerAscii" | "upperAscii" | "substring" | "trim" if member => {
            let size = target_size(w, call);
            Some(Estimate::sized(size.scale(TRAVERSAL), size))
        }
        "replace" if member && call.args.len() >= 2 => Some(replace(w, call)),
        "split" if member => Some(split(w, call)),
        "join" if member => Some(join(w, call)),
        "find" | "findAll" if member && !call.args.is_empty() => {
            let size = target_size(w, call);
            let cost = regex(size, arg_size(w, call, 0));
            Some(Estimate::sized(cost, Size { min: 0, ..size }))
        }
        "ip" if call.overload == "cidr_ip" || member => fixed(1),
        "cidr" | "isIP" | "isCIDR" | "ip" | "quantity" | "isQuantity" | "semver" | "isSemver"
            if !call.args.is_empty() =>
        {
            Some(Estimate::cost(arg_size(w, call, 0).scale(TRAVERSAL)))
        }
        "ip.isCanonical" if !call.args.is_empty() => {
            Some(Estimate::cost(arg_size(w, call, 0).scale(2.0 * TRAVERSAL)))
        }
        "masked"
        | "prefixLength"
        | "family"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast"
        | "isGlobalUnicast" => fixed(1),
        "containsIP" | "containsCIDR" if member && !call.args.is_empty() => {
            Some(Estimate::cost(contains_address(w, call)))
        }
        "validate" if member => {
            let parse = arg_size(w, call, 0).scale(TRAVERSAL);
            let factor = NAMED_FORMAT_REGEX * REGEX;
            Some(Estimate::cost(Cost {
                min: super::scale(parse.min, factor),
                max: super::scale(parse.max, factor),
            }))
        }
        "format.named" => fixed(1),
        "sign" | "asInteger" | "isInteger" | "asApproximateFloat" | "isGreaterThan"
        | "isLessThan" | "compareTo" | "add" | "sub" | "major" | "minor" | "patch" => fixed(1),
        "getScheme" | "getHostname" | "getHost" | "getPort" | "getEscapedPath" | "getQuery" => {
            fixed(1)
        }
        "_==_" => library_equality(w, call),
        _ => None,
    }
}

/// A selector parse: a list, a traversal, and a requirement (list + struct) per two characters.
fn selector(length: Size) -> Cost {
    let parse = length.scale(TRAVERSAL);
    let requirements = length.scale(0.5);
    let per_requirement = 10.0 + 40.0;
    let build = Cost {
        min: super::scale(requirements.min, per_requirement),
        max: super::scale(requirements.max, per_requirement),
    };
    Cost::fixed(super::walk::LIST_CREATE)
        .plus(parse)
        .plus(build)
}

/// One pass over the receiver: a unit per element, plus a traversal of string or bytes elements;
/// a string receiver (`indexOf`) costs its traversal.
fn traversal(w: &mut Walker, call: &Call) -> Cost {
    let Some(target) = call.target else {
        return Cost::default();
    };
    let target_ty = w.checked.type_of(target).clone();
    let size = w.size_for_cost(target);
    let Type::List(elem) = target_ty else {
        return size.scale(TRAVERSAL);
    };
    let mut per_element = Cost::fixed(1);
    if matches!(*elem, Type::String | Type::Bytes) {
        let elem_size = element_size(w, target, &elem);
        per_element = per_element.plus(elem_size.scale(TRAVERSAL));
    }
    size.times(per_element)
}

/// The estimator's size of an element of the list `list` (its path with `@items`), or the one
/// the expression computed if the estimator prefers it.
fn element_size(w: &mut Walker, list: ExprId, elem: &Type) -> Size {
    if w.sizes.computed_elements()
        && let Some(entry) = w.entry(list).filter(|e| e.value.max != u64::MAX)
    {
        return entry.value;
    }
    let path = w.path(list).map(|mut p: Path| {
        p.steps.push(Step::Items);
        p
    });
    let size = w.sizes.size(path.as_ref(), elem).unwrap_or(Size::UNKNOWN);
    if size.max == u64::MAX {
        w.used_unknown();
    }
    size
}

/// One bound of `replace`: how many replacements happen and how much of the text is kept, for a
/// text of length `size`, a pattern of length `pattern`, and whether the replacement makes the text
/// no longer (then the text itself is the bound).
fn replace_bound(size: u64, pattern: u64, no_longer: bool) -> (u64, u64) {
    if pattern == 0 {
        (size.saturating_add(1), size)
    } else if no_longer {
        (0, size)
    } else {
        ((size as f64 / pattern as f64).ceil() as u64, 0)
    }
}

fn replace(w: &mut Walker, call: &Call) -> Estimate {
    let size = target_size(w, call);
    let from = arg_size(w, call, 0);
    let to = arg_size(w, call, 1);
    // The largest result: as many replacements as the shortest pattern allows, unless replacing
    // can only shrink the text; the smallest result mirrors it with the longest pattern.
    let (count_max, kept_max) = replace_bound(size.max, from.min, to.max <= from.min);
    let (count_min, kept_min) = replace_bound(size.min, from.max, from.max <= to.min);
    let count = Size {
        min: count_min,
        max: count_max,
    };
    let kept = Size {
        min: kept_min,
        max: kept_max,
    };
    let result = count.product(to).plus(kept);
    Estimate::sized(size.scale(2.0 * TRAVERSAL), result)
}

fn split(w: &mut Walker, call: &Call) -> Estimate {
    let size = target_size(w, call);
    let mut max = size.max;
    if let Some(&limit) = call.args.get(1)
        && let ExprKind::Literal(Literal::Int(n)) = w.ast.expr(limit).kind
    {
        max = u64::try_from(n).unwrap_or(max);
    }
    Estimate::sized(size.scale(2.0 * TRAVERSAL), Size { min: 0, max })
}

fn join(w: &mut Walker, call: &Call) -> Estimate {
    let Some(target) = call.target else {
        return Estimate::cost(Cost::default());
    };
    let list = w.size_for_cost(target);
    let mut size = Size::fixed(0);
    if let Type::List(elem) = w.checked.type_of(target).clone() {
        size = list.product(element_size(w, target, &elem));
    }
    if !call.args.is_empty() {
        let separators = Size {
            min: list.min.saturating_sub(1),
            max: list.max.saturating_sub(1),
        };
        size = size.plus(arg_size(w, call, 0).product(separators));
    }
    Estimate::sized(size.scale(TRAVERSAL), size)
}

/// `cidr.containsIP(x)` / `containsCIDR(x)`: comparing 4- or 16-byte addresses, plus a parse of a
/// string argument.
fn contains_address(w: &mut Walker, call: &Call) -> Cost {
    let bytes = Size { min: 4, max: 16 };
    let mut cost = bytes.plus(bytes).scale(TRAVERSAL);
    if call.name == "containsCIDR" {
        cost = cost.plus(bytes.scale(TRAVERSAL)).plus(Cost::fixed(1));
    }
    if call.overload.ends_with("_string") {
        cost = cost.plus(arg_size(w, call, 0).scale(TRAVERSAL));
    }
    cost
}

/// `==` on the Kubernetes library types: one unit, or a traversal for formats and URLs.
fn library_equality(w: &mut Walker, call: &Call) -> Option<Estimate> {
    let (&lhs, &rhs) = (call.args.first()?, call.args.get(1)?);
    let ty = w.checked.type_of(lhs).clone();
    if &ty != w.checked.type_of(rhs) {
        return None;
    }
    let name = match &ty {
        Type::Object(name) | Type::Opaque(name) => name.clone(),
        _ => return None,
    };
    let unit = Some(Estimate::cost(Cost::fixed(1)));
    match &*name {
        types::IP | types::CIDR | types::QUANTITY | types::SEMVER | types::AUTHORIZER => unit,
        types::PATH_CHECK | types::GROUP_CHECK | types::RESOURCE_CHECK | types::DECISION => unit,
        types::NAMED_FORMAT => {
            let size = Size {
                min: 1,
                max: FORMAT_SIZE,
            };
            Some(Estimate::cost(size.scale(TRAVERSAL)))
        }
        types::URL => {
            // Kubernetes reads the right-hand size twice; the left one never counts.
            let size = w.size(rhs).unwrap_or(Size::fixed(1));
            let size = Size { min: 1, ..size };
            Some(Estimate::cost(size.scale(TRAVERSAL)))
        }
        _ => None,
    }
}

/// ⌈0.1 × (size + 1)⌉ × ⌈0.25 × regex⌉: a regular expression run over a string.
fn regex(size: Size, pattern: Size) -> Cost {
    let scan = size.plus(Size::fixed(1)).scale(TRAVERSAL);
    scan.product(pattern.scale(REGEX))
}

/// cel-go's defaults (`checker/cost.go` `functionCost`), without arguments.
fn cel_default(w: &mut Walker, call: &Call) -> Estimate {
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
        let merged = super::walk::Entry {
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
