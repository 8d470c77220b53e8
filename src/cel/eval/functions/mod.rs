//! Function dispatch on runtime values: the standard library, the string, list and set
//! extensions, optionals, and the Kubernetes lists and regex libraries. Dispatch is by name,
//! call style and runtime argument types, so `dyn` values work without a checker; an overload
//! chosen by the checker could later select the same implementations directly.

pub mod convert;
pub mod format;
pub mod kube;
pub mod kube_types;
pub mod lists;
pub mod strconv;
pub mod strings;

use std::sync::Arc;

use super::authz::{self, AuthzValue};
use super::ops;
use super::time;
use super::value::{ErrorKind, Timestamp, Value};

/// Qualified global functions written as `ns.f(…)`.
pub fn is_qualified_function(name: &str) -> bool {
    kube::is_qualified_function(name)
        || matches!(
            name,
            "optional.of"
                | "optional.none"
                | "optional.ofNonZeroValue"
                | "optional.unwrap"
                | "strings.quote"
                | "lists.range"
                | "sets.contains"
                | "sets.equivalent"
                | "sets.intersects"
                | "jsonpatch.escapeKey"
        )
}

/// Calls `function` (with `target` for member calls) on evaluated, error-free arguments.
pub fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Value {
    match target {
        None => global(function, args),
        Some(t) => member(function, t, args),
    }
}

fn global(function: &str, args: &[Value]) -> Value {
    match (function, args) {
        ("size", [x]) => size(x),
        ("int", [x]) => convert::to_int(x),
        ("uint", [x]) => convert::to_uint(x),
        ("double", [x]) => convert::to_double(x),
        ("string", [x]) if !matches!(x, Value::Opaque(_)) => convert::to_string(x),
        ("bytes", [x]) => convert::to_bytes(x),
        ("bool", [x]) => convert::to_bool(x),
        ("timestamp", [x]) => convert::to_timestamp(x),
        ("duration", [x]) => convert::to_duration(x),
        ("dyn", [x]) => x.clone(),
        ("type", [x]) => Value::Type(x.type_name()),
        ("matches", [Value::String(s), Value::String(re)]) => strings::matches(s, re),
        ("optional.of", [x]) => Value::Optional(Some(Arc::new(x.clone()))),
        ("optional.none", []) => Value::Optional(None),
        ("optional.ofNonZeroValue", [x]) => of_non_zero(x),
        ("optional.unwrap", [Value::List(l)]) => lists::unwrap_optionals(l),
        ("strings.quote", [Value::String(s)]) => Value::string(&format::quote(s)),
        ("jsonpatch.escapeKey", [Value::String(s)]) => {
            Value::string(&s.replace('~', "~0").replace('/', "~1"))
        }
        ("lists.range", [Value::Int(n)]) => lists::range(*n),
        ("sets.contains", [Value::List(a), Value::List(b)]) => lists::sets_contains(a, b),
        ("sets.equivalent", [Value::List(a), Value::List(b)]) => {
            Value::Bool(lists::sets_contains_all(a, b) && lists::sets_contains_all(b, a))
        }
        ("sets.intersects", [Value::List(a), Value::List(b)]) => lists::sets_intersects(a, b),
        _ => kube::global(function, args).unwrap_or_else(|| unknown(function)),
    }
}

fn member(function: &str, t: &Value, args: &[Value]) -> Value {
    match (t, function, args) {
        (_, "size", []) => size(t),
        // Kubernetes lists v1 (1.37): membership for lists, equality for any other receiver.
        (Value::List(l), "includes", [x]) => {
            Value::Bool(l.iter().any(|v| ops::compare::equals(v, x)))
        }
        (_, "includes", [x]) => Value::Bool(ops::compare::equals(t, x)),
        (Value::Timestamp(ts), _, []) if function.starts_with("get") => {
            time::timestamp_accessor(function, *ts, None)
        }
        (Value::Timestamp(ts), _, [Value::String(tz)]) if function.starts_with("get") => {
            time::timestamp_accessor(function, *ts, Some(tz))
        }
        (Value::Duration(d), _, []) if function.starts_with("get") => {
            time::duration_accessor(function, *d)
        }
        (Value::Optional(o), _, _) => optional_member(function, o, args),
        (Value::Opaque(o), _, _) => match o.as_any().downcast_ref::<AuthzValue>() {
            Some(a) => authz::member(function, a, args).unwrap_or_else(|| unknown(function)),
            None => kube::member(function, &**o, args),
        },
        (Value::String(s), _, _) => strings::member(function, s, args),
        (Value::List(l), _, _) => lists::member(function, l, args),
        (Value::Bytes(b), "reverse", []) => Value::Bytes(b.iter().rev().copied().collect()),
        _ => unknown(function),
    }
}

fn unknown(function: &str) -> Value {
    Value::error(
        ErrorKind::NoSuchOverload,
        format!("no such overload: {function}"),
    )
}

/// `size(x)` / `x.size()`: code points of strings, bytes, entries.
pub fn size(x: &Value) -> Value {
    match x {
        Value::String(s) => Value::Int(s.chars().count() as i64),
        Value::Bytes(b) => Value::Int(b.len() as i64),
        Value::List(l) => Value::Int(l.len() as i64),
        Value::Map(m) => Value::Int(m.len() as i64),
        _ => Value::no_overload(),
    }
}

fn of_non_zero(x: &Value) -> Value {
    let zero = match x {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Int(i) => *i == 0,
        Value::Uint(u) => *u == 0,
        Value::Double(d) => *d == 0.0,
        Value::String(s) => s.is_empty(),
        Value::Bytes(b) => b.is_empty(),
        Value::List(l) => l.is_empty(),
        Value::Map(m) => m.is_empty(),
        Value::Duration(d) => d.nanos == 0,
        // Go's zero time, 0001-01-01T00:00:00Z, not the Unix epoch.
        Value::Timestamp(t) => t.seconds == Timestamp::MIN_SECONDS && t.nanos == 0,
        Value::Object(o) => o.fields.is_empty(),
        _ => false,
    };
    if zero {
        Value::Optional(None)
    } else {
        Value::Optional(Some(Arc::new(x.clone())))
    }
}

fn optional_member(function: &str, o: &Option<Arc<Value>>, args: &[Value]) -> Value {
    match (function, o, args) {
        ("hasValue", _, []) => Value::Bool(o.is_some()),
        ("value", Some(v), []) => (**v).clone(),
        ("value", None, []) => {
            Value::error(ErrorKind::InvalidArgument, "optional.none() dereference")
        }
        ("or", Some(_), [Value::Optional(_)]) => Value::Optional(o.clone()),
        ("or", None, [other @ Value::Optional(_)]) => other.clone(),
        ("orValue", Some(v), [_]) => (**v).clone(),
        ("orValue", None, [other]) => other.clone(),
        _ => unknown(function),
    }
}
