//! The Kubernetes call estimates (`pkg/cel/library/cost.go` `EstimateCallCost`), keyed by function
//! name: the authorizer, selectors, and the lists, strings, regex, URL, IP/CIDR, format, quantity
//! and semver libraries, with equality of the library types.

use super::{Call, Estimate, REGEX, TRAVERSAL, arg_size, regex, target_size};
use crate::cel::ast::{ExprId, ExprKind, Literal};
use crate::cel::cost::walk::{LIST_CREATE, Walker};
use crate::cel::cost::{Cost, Path, Size, Step, scale};
use crate::cel::types::{self, Type};

/// Kubernetes' `MaxNameFormatRegexSize`: the longest regular expression of a named format.
const NAMED_FORMAT_REGEX: f64 = 128.0;
/// Kubernetes' `MaxFormatSize`, the size bound of a named format value (inferred from the cost
/// tests: equality of two formats is estimated at most 7).
const FORMAT_SIZE: u64 = 64;
/// The authorization check: a fixed cost that allows about two checks per expression.
const AUTHZ_CHECK: u64 = 350_000;

/// The Kubernetes estimates (`pkg/cel/library/cost.go` `EstimateCallCost`), without arguments.
pub(super) fn estimate(w: &mut Walker, call: &Call) -> Option<Estimate> {
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
                min: scale(parse.min, factor),
                max: scale(parse.max, factor),
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
        min: scale(requirements.min, per_requirement),
        max: scale(requirements.max, per_requirement),
    };
    Cost::fixed(LIST_CREATE).plus(parse).plus(build)
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
