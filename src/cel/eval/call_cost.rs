//! The runtime cost of a function call, consulted in cel-go's order: per-overload trackers of the
//! extension libraries (ext.Lists v3, ext.Sets), then the Kubernetes estimator
//! (`apiserver/pkg/cel/library/cost.go`, keyed by function name), then cel-go's defaults
//! (`interpreter/runtimecost.go`). Sizes are `size()`: code points of strings, entries of lists.

use super::cost::{consts, scaled};
use super::value::Value;

const TRAVERSAL: f64 = consts::STRING_TRAVERSAL_FACTOR;

fn size_of(v: Option<&Value>) -> u64 {
    v.map(Value::cost_size).unwrap_or(1)
}

fn is_text(v: Option<&Value>) -> bool {
    matches!(v, Some(Value::String(_) | Value::Bytes(_)))
}

/// The Kubernetes `traversalCost`: ⌊0.1 × bytes⌋ per string, summed over lists and maps, 1 for
/// any other value.
fn traversal(v: &Value) -> u64 {
    match v {
        Value::String(s) => (s.len() as f64 * TRAVERSAL) as u64,
        Value::Bytes(b) => (b.len() as f64 * TRAVERSAL) as u64,
        Value::List(l) => l.iter().map(traversal).sum(),
        Value::Map(m) => m
            .entries()
            .iter()
            .map(|(k, v)| traversal(k) + traversal(v))
            .sum(),
        _ => 1,
    }
}

/// ext.Lists: ⌊factor × size⌋ + 1 (call) + 10 (list creation).
fn allocating(factor: f64, size: u64) -> u64 {
    (size as f64 * factor) as u64 + 1 + consts::LIST_CREATE
}

/// ext.Lists sort/distinct: O(n²) self-comparison, 2 per pair (+0.1 for strings and bytes).
fn self_compare(list: Option<&Value>) -> u64 {
    let (n, first) = match list {
        Some(Value::List(l)) => (l.len() as u64, l.first()),
        _ => (0, None),
    };
    let factor = if is_text(first) { 2.0 + TRAVERSAL } else { 2.0 };
    allocating(factor, n.saturating_mul(n))
}

/// Whether the cost of `name` depends on its result (so it can only be charged afterwards).
/// Every other call is charged before it runs, so an O(n²) call over a huge list is refused
/// before it spends the time.
pub(crate) fn depends_on_result(name: &str, target: Option<&Value>) -> bool {
    match name {
        "slice" | "lists.range" | "join" => true,
        "reverse" => matches!(target, Some(Value::List(_))),
        _ => false,
    }
}

/// The cost of calling `name` on `target` and `args` (member calls: the receiver is `target`);
/// `result` is only read by the calls of [`depends_on_result`].
pub(crate) fn call_cost(name: &str, target: Option<&Value>, args: &[Value], result: &Value) -> u64 {
    let first = target.or(args.first());
    let arg = |i: usize| args.get(i);
    let recv = size_of(first);
    if let Some(cost) = super::functions::kube::call_cost(name, target, args) {
        return cost;
    }
    match name {
        // ext.Lists v3 and ext.Sets trackers.
        "slice" | "lists.range" => allocating(1.0, result.cost_size()),
        "reverse" if matches!(first, Some(Value::List(_))) => allocating(1.0, result.cost_size()),
        "flatten" => {
            let depth = match arg(0) {
                Some(Value::Int(d)) => *d as f64,
                _ => 1.0,
            };
            allocating(depth, recv)
        }
        "distinct" | "sort" => self_compare(first),
        "@sortByAssociatedKeys" => self_compare(arg(0)),
        "sets.contains" | "sets.intersects" => 1 + size_of(arg(0)) * size_of(arg(1)),
        "sets.equivalent" => 1 + 2 * size_of(arg(0)) * size_of(arg(1)),
        // The Kubernetes estimator.
        "check" if super::authz::is_authz(target) => 350_000,
        // AuthzSelectors: list creation, a traversal, and about one requirement (list + struct)
        // per two characters.
        "fieldSelector" | "labelSelector" => {
            let n = size_of(arg(0));
            consts::LIST_CREATE
                + scaled(n, TRAVERSAL)
                + scaled(n, 0.5) * (consts::LIST_CREATE + consts::STRUCT_CREATE)
        }
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" | "includes" => {
            first.map(traversal).unwrap_or(0)
        }
        "url"
        | "lowerAscii"
        | "upperAscii"
        | "substring"
        | "trim"
        | "quantity"
        | "isQuantity"
        | "cidr"
        | "isIP"
        | "isCIDR"
        | "jsonpatch.escapeKey" => scaled(recv, TRAVERSAL),
        "replace" | "split" => scaled(recv, 2.0 * TRAVERSAL),
        "join" => scaled(result.cost_size(), 2.0 * TRAVERSAL),
        "find" | "findAll" => {
            scaled(1 + recv, TRAVERSAL) * scaled(size_of(arg(0)), consts::REGEX_LENGTH_FACTOR)
        }
        // cel-go's defaults.
        "startsWith" | "endsWith" => scaled(recv, TRAVERSAL),
        "string" if matches!(first, Some(Value::Bytes(_))) => scaled(recv, TRAVERSAL),
        "bytes" if matches!(first, Some(Value::String(_))) => scaled(recv, TRAVERSAL),
        "matches" => {
            let (s, re) = if target.is_some() {
                (recv, size_of(arg(0)))
            } else {
                (size_of(arg(0)), size_of(arg(1)))
            };
            scaled(1 + s, TRAVERSAL) * scaled(re, consts::REGEX_LENGTH_FACTOR)
        }
        "contains" if is_text(target) => {
            scaled(recv, TRAVERSAL) * scaled(size_of(arg(0)), TRAVERSAL)
        }
        _ => 1,
    }
}
