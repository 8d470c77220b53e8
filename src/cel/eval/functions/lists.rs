//! List functions: ext.Lists (`slice`, `flatten`, `sort`, `reverse`, `distinct`, `lists.range`),
//! ext.Strings `join`, ext.Sets, and the Kubernetes lists library (`isSorted`, `sum`, `min`,
//! `max`, `indexOf`, `lastIndexOf`), and the optional library's `first`, `last`, `unwrapOpt`.

use std::cmp::Ordering;
use std::sync::Arc;

use crate::cel::eval::list::ListValue;
use crate::cel::eval::ops::{arith, compare};
use crate::cel::eval::value::{ErrorKind, Value};

fn invalid(message: &str) -> Value {
    Value::error(ErrorKind::InvalidArgument, message.to_string())
}

/// A member function on a list receiver.
pub fn member(function: &str, l: &Arc<ListValue>, args: &[Value]) -> Value {
    match (function, args) {
        ("join", []) => join(l, ""),
        ("join", [Value::String(sep)]) => join(l, sep),
        ("slice", [Value::Int(a), Value::Int(b)]) => slice(l, *a, *b),
        ("flatten", []) => flatten(l, 1),
        ("flatten", [Value::Int(d)]) => flatten(l, *d),
        ("sort", []) => sort(l),
        ("reverse", []) => Value::list(l.iter().rev().cloned().collect()),
        ("distinct", []) => distinct(l),
        ("isSorted", []) => is_sorted(l),
        ("sum", []) => sum(l),
        ("min", []) => extreme(l, Ordering::Less),
        ("max", []) => extreme(l, Ordering::Greater),
        ("indexOf", [x]) => position(l.iter().position(|v| compare::equals(v, x))),
        ("lastIndexOf", [x]) => position(l.iter().rposition(|v| compare::equals(v, x))),
        ("@sortByAssociatedKeys", [Value::List(keys)]) => sort_by_keys(l, keys),
        ("first", []) => Value::Optional(l.first().cloned().map(Arc::new)),
        ("last", []) => Value::Optional(l.last().cloned().map(Arc::new)),
        ("unwrapOpt", []) => unwrap_optionals(l),
        _ => Value::error(
            ErrorKind::NoSuchOverload,
            format!("no such overload: list.{function}"),
        ),
    }
}

fn position(p: Option<usize>) -> Value {
    Value::Int(p.map(|i| i as i64).unwrap_or(-1))
}

fn join(l: &[Value], sep: &str) -> Value {
    let mut parts = Vec::with_capacity(l.len());
    for v in l {
        match v {
            Value::String(s) => parts.push(&**s),
            _ => return Value::no_overload(),
        }
    }
    Value::string(&parts.join(sep))
}

fn slice(l: &[Value], a: i64, b: i64) -> Value {
    let len = l.len() as i64;
    if a < 0 || b < 0 {
        return invalid(&format!(
            "cannot slice({a}, {b}), negative indexes not supported"
        ));
    }
    if a > b {
        return invalid(&format!(
            "cannot slice({a}, {b}), start index must be less than or equal to end index"
        ));
    }
    if b > len {
        return invalid(&format!("cannot slice({a}, {b}), list is length {len}"));
    }
    Value::list(l.get(a as usize..b as usize).unwrap_or_default().to_vec())
}

fn flatten(l: &[Value], depth: i64) -> Value {
    if depth < 0 {
        return invalid("level must be non-negative");
    }
    let mut out = Vec::new();
    flatten_into(l, depth, &mut out);
    Value::list(out)
}

fn flatten_into(l: &[Value], depth: i64, out: &mut Vec<Value>) {
    for v in l {
        match v {
            Value::List(inner) if depth > 0 => flatten_into(inner, depth - 1, out),
            other => out.push(other.clone()),
        }
    }
}

/// Orders two elements of one comparable type; `None` when mixed or not comparable.
fn order(a: &Value, b: &Value) -> Option<Ordering> {
    if std::mem::discriminant(a) != std::mem::discriminant(b) {
        return None;
    }
    compare::compare(a, b).ok().flatten()
}

fn sorted(l: &[Value]) -> Result<Vec<Value>, Value> {
    if let Some(first) = l.first()
        && l.iter().any(|v| order(first, v).is_none())
    {
        return Err(invalid(
            "list elements must have the same type and be comparable",
        ));
    }
    let mut out = l.to_vec();
    out.sort_by(|a, b| order(a, b).unwrap_or(Ordering::Equal));
    Ok(out)
}

fn sort(l: &[Value]) -> Value {
    sorted(l).map(Value::list).unwrap_or_else(|e| e)
}

fn sort_by_keys(l: &[Value], keys: &[Value]) -> Value {
    if keys.len() != l.len() {
        return invalid("sortBy: keys and values differ in length");
    }
    if let Some(first) = keys.first()
        && keys.iter().any(|k| order(first, k).is_none())
    {
        return invalid("sortBy: keys must have the same comparable type");
    }
    let mut pairs: Vec<(&Value, &Value)> = keys.iter().zip(l.iter()).collect();
    pairs.sort_by(|a, b| order(a.0, b.0).unwrap_or(Ordering::Equal));
    Value::list(pairs.into_iter().map(|(_, v)| v.clone()).collect())
}

fn distinct(l: &[Value]) -> Value {
    let mut out: Vec<Value> = Vec::new();
    for v in l {
        if !out.iter().any(|w| compare::equals(v, w)) {
            out.push(v.clone());
        }
    }
    Value::list(out)
}

fn is_sorted(l: &[Value]) -> Value {
    for pair in l.windows(2) {
        if let [a, b] = pair {
            match compare::compare(a, b) {
                Ok(Some(Ordering::Greater)) => return Value::Bool(false),
                Ok(_) => {}
                Err(()) => return Value::no_overload(),
            }
        }
    }
    Value::Bool(true)
}

/// `sum()` of an empty list whose type the checker knows: the zero of its element type, as the
/// overload it chose returns it (apiserver `pkg/cel/library/lists.go`: `sum_list_double` gives
/// `0.0`, `sum_list_duration` `duration('0')`, `sum_list_uint` `0u`). `None`: not such a call.
pub fn typed_sum(target: Option<&Value>, result: &crate::cel::types::Type) -> Option<Value> {
    use crate::cel::types::Type;
    let Some(Value::List(items)) = target else {
        return None;
    };
    if !items.is_empty() {
        return None;
    }
    match result {
        Type::Double => Some(Value::Double(0.0)),
        Type::Uint => Some(Value::Uint(0)),
        Type::Duration => Some(Value::Duration(crate::cel::eval::value::Duration {
            nanos: 0,
        })),
        _ => None,
    }
}

fn sum(l: &[Value]) -> Value {
    let mut iter = l.iter();
    let Some(first) = iter.next() else {
        return Value::Int(0);
    };
    let mut acc = first.clone();
    for v in iter {
        acc = arith::add(&acc, v);
        if acc.is_error() {
            return acc;
        }
    }
    acc
}

fn extreme(l: &[Value], want: Ordering) -> Value {
    let mut iter = l.iter();
    let Some(mut best) = iter.next() else {
        // Kubernetes' lists library (apiserver pkg/cel/library/lists.go) names the function.
        let name = if want == Ordering::Less { "min" } else { "max" };
        return invalid(&format!("{name} called on empty list"));
    };
    for v in iter {
        match compare::compare(v, best) {
            Ok(Some(o)) if o == want => best = v,
            Ok(_) => {}
            Err(()) => return Value::no_overload(),
        }
    }
    best.clone()
}

/// `optional.unwrap(l)` / `l.unwrapOpt()`: the values of the present optionals.
pub fn unwrap_optionals(l: &[Value]) -> Value {
    let mut out = Vec::with_capacity(l.len());
    for v in l {
        match v {
            Value::Optional(Some(inner)) => out.push((**inner).clone()),
            Value::Optional(None) => {}
            _ => return Value::no_overload(),
        }
    }
    Value::list(out)
}

/// `lists.range(n)`: `[0, 1, …, n-1]`.
pub fn range(n: i64) -> Value {
    Value::list((0..n.max(0)).map(Value::Int).collect())
}

/// Whether every element of `b` is in `a`.
pub fn sets_contains_all(a: &[Value], b: &[Value]) -> bool {
    b.iter().all(|x| a.iter().any(|y| compare::equals(x, y)))
}

/// `sets.contains(a, b)`.
pub fn sets_contains(a: &[Value], b: &[Value]) -> Value {
    Value::Bool(sets_contains_all(a, b))
}

/// `sets.intersects(a, b)`.
pub fn sets_intersects(a: &[Value], b: &[Value]) -> Value {
    Value::Bool(b.iter().any(|x| a.iter().any(|y| compare::equals(x, y))))
}
