//! Field selection and indexing, plain and optional (`.?f`, `[?k]`), including selection through
//! an optional value (`a.?b.c` stays optional).

use super::value::{ErrorKind, Value};
use std::sync::Arc;

/// What a lookup found.
enum Found {
    Value(Value),
    Missing(Value),
}

/// `base.field` / `base.?field`.
pub(crate) fn select(base: &Value, field: &str, optional: bool) -> Value {
    through_optional(base, optional, |v| select_in(v, field))
}

/// `base[key]` / `base[?key]`.
pub(crate) fn index(base: &Value, key: &Value, optional: bool) -> Value {
    if key.is_error() && !base.is_error() {
        return key.clone();
    }
    through_optional(base, optional, |v| index_in(v, key))
}

fn through_optional(base: &Value, optional: bool, f: impl Fn(&Value) -> Found) -> Value {
    match base {
        Value::Error(_) => base.clone(),
        Value::Optional(None) => Value::Optional(None),
        Value::Optional(Some(inner)) => wrap(f(inner), true),
        other => wrap(f(other), optional),
    }
}

fn wrap(found: Found, optional: bool) -> Value {
    match (found, optional) {
        (Found::Value(v @ Value::Error(_)), _) => v,
        (Found::Value(v), true) => Value::Optional(Some(Arc::new(v))),
        (Found::Value(v), false) => v,
        (Found::Missing(_), true) => Value::Optional(None),
        (Found::Missing(e), false) => e,
    }
}

fn no_such_key(key: impl std::fmt::Display) -> Found {
    Found::Missing(Value::error(
        ErrorKind::NoSuchKey,
        format!("no such key: {key}"),
    ))
}

fn select_in(base: &Value, field: &str) -> Found {
    match base {
        Value::Map(m) => match m.get_str(field) {
            Some(v) => Found::Value(v.clone()),
            None => no_such_key(field),
        },
        Value::Object(o) => match o.field(field) {
            Some(v) => Found::Value(v.clone()),
            None => no_such_key(field),
        },
        _ => Found::Value(Value::error(
            ErrorKind::NoSuchOverload,
            format!("no such overload: field selection on {}", base.type_name()),
        )),
    }
}

/// A missing map key as cel-go's `no such key: %v` prints it (`common/types/map.go`): a string
/// without quotes, a uint without its `u`.
fn key_text(key: &Value) -> String {
    match key {
        Value::String(s) => s.to_string(),
        Value::Uint(u) => u.to_string(),
        other => other.to_string(),
    }
}

/// A list position from an index value: ints, uints and integral doubles.
pub(crate) fn list_position(key: &Value) -> Option<i128> {
    match key {
        Value::Int(i) => Some(i128::from(*i)),
        Value::Uint(u) => Some(i128::from(*u)),
        Value::Double(d) if d.fract() == 0.0 && d.is_finite() => Some(*d as i128),
        _ => None,
    }
}

fn index_in(base: &Value, key: &Value) -> Found {
    match base {
        Value::List(items) => {
            let Some(pos) = list_position(key) else {
                return Found::Value(Value::error(
                    ErrorKind::NoSuchOverload,
                    format!("unsupported index type '{}' in list", key.type_name()),
                ));
            };
            match usize::try_from(pos).ok().and_then(|p| items.get(p)) {
                Some(v) => Found::Value(v.clone()),
                None => Found::Missing(Value::error(
                    ErrorKind::IndexOutOfBounds,
                    format!("index out of bounds: {pos}"),
                )),
            }
        }
        Value::Map(m) => match m.get(key) {
            Some(v) => Found::Value(v.clone()),
            None => no_such_key(key_text(key)),
        },
        Value::Object(o) => match key {
            Value::String(s) => match o.field(s) {
                Some(v) => Found::Value(v.clone()),
                None => no_such_key(s),
            },
            _ => Found::Value(Value::no_overload()),
        },
        _ => Found::Value(Value::no_overload()),
    }
}
