//! Type conversions with cel-go's range checks and messages (`int(1e20)` is an "integer
//! overflow", `uint(-1)` an "unsigned integer overflow", `string(b'\xff')` an error), strings
//! read with Go's `strconv` syntax, type values and Go's float formatting.

use std::sync::Arc;

use super::strconv;
use crate::cel::eval::time;
use crate::cel::eval::value::{Duration, ErrorKind, Value};

/// The value of a type name used as an identifier (`int`, `list`, `google.protobuf.Timestamp`).
pub fn type_ident(name: &str) -> Option<Value> {
    const NAMES: &[&str] = &[
        "int",
        "uint",
        "double",
        "bool",
        "string",
        "bytes",
        "list",
        "map",
        "null_type",
        "type",
        "optional_type",
        "google.protobuf.Duration",
        "google.protobuf.Timestamp",
        // The Kubernetes library types.
        "kubernetes.Quantity",
        "kubernetes.URL",
        "kubernetes.Semver",
        "kubernetes.NamedFormat",
        "net.IP",
        "net.CIDR",
    ];
    NAMES.contains(&name).then(|| Value::Type(Arc::from(name)))
}

/// cel-go's `errIntOverflow` (`common/types/err.go`), for `int()` of a value out of range.
fn int_overflow() -> Value {
    Value::error(ErrorKind::Overflow, "integer overflow")
}

/// cel-go's `errUintOverflow`, for `uint()` of a negative or too large value.
fn uint_overflow() -> Value {
    Value::error(ErrorKind::Overflow, "unsigned integer overflow")
}

/// What cel-go's `String.ConvertToType` returns for any string Go's parser refuses, syntax and
/// range errors alike (`common/types/string.go`).
pub(crate) fn invalid(target: &str) -> Value {
    Value::error(
        ErrorKind::InvalidArgument,
        format!("type conversion error from 'string' to '{target}'"),
    )
}

/// `int(x)`.
pub fn to_int(v: &Value) -> Value {
    match v {
        Value::Int(_) => v.clone(),
        Value::Uint(u) => i64::try_from(*u)
            .map(Value::Int)
            .unwrap_or_else(|_| int_overflow()),
        Value::Double(d) => {
            if d.is_finite() && *d > -9.223_372_036_854_776e18 && *d < 9.223_372_036_854_776e18 {
                Value::Int(*d as i64)
            } else {
                int_overflow()
            }
        }
        Value::String(s) => strconv::parse_int(s)
            .map(Value::Int)
            .unwrap_or_else(|| invalid("int")),
        Value::Timestamp(t) => Value::Int(t.seconds),
        Value::Duration(d) => Value::Int(d.nanos),
        Value::Error(_) => v.clone(),
        _ => Value::no_overload(),
    }
}

/// `uint(x)`.
pub fn to_uint(v: &Value) -> Value {
    match v {
        Value::Uint(_) => v.clone(),
        Value::Int(i) => u64::try_from(*i)
            .map(Value::Uint)
            .unwrap_or_else(|_| uint_overflow()),
        Value::Double(d) => {
            if d.is_finite() && *d >= 0.0 && *d < 1.844_674_407_370_955_2e19 {
                Value::Uint(*d as u64)
            } else {
                uint_overflow()
            }
        }
        Value::String(s) => strconv::parse_uint(s)
            .map(Value::Uint)
            .unwrap_or_else(|| invalid("uint")),
        Value::Error(_) => v.clone(),
        _ => Value::no_overload(),
    }
}

/// `double(x)`.
pub fn to_double(v: &Value) -> Value {
    match v {
        Value::Double(_) => v.clone(),
        Value::Int(i) => Value::Double(*i as f64),
        Value::Uint(u) => Value::Double(*u as f64),
        Value::String(s) => strconv::parse_float(s)
            .map(Value::Double)
            .unwrap_or_else(|| invalid("double")),
        Value::Error(_) => v.clone(),
        _ => Value::no_overload(),
    }
}

/// `string(x)`.
pub fn to_string(v: &Value) -> Value {
    let s = match v {
        Value::String(_) => return v.clone(),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Double(d) => format_double(*d),
        Value::Bool(b) => b.to_string(),
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => s.to_string(),
            Err(_) => {
                return Value::error(
                    ErrorKind::InvalidArgument,
                    "invalid UTF-8 in bytes, cannot convert to string",
                );
            }
        },
        Value::Timestamp(t) => time::format_timestamp(*t),
        Value::Duration(d) => time::format_duration(*d),
        Value::Type(t) => t.to_string(),
        Value::Error(_) => return v.clone(),
        _ => return Value::no_overload(),
    };
    Value::String(Arc::from(s))
}

/// `bytes(x)`.
pub fn to_bytes(v: &Value) -> Value {
    match v {
        Value::Bytes(_) => v.clone(),
        Value::String(s) => Value::Bytes(Arc::from(s.as_bytes())),
        Value::Error(_) => v.clone(),
        _ => Value::no_overload(),
    }
}

/// `bool(x)`: Go's `strconv.ParseBool` spellings.
pub fn to_bool(v: &Value) -> Value {
    match v {
        Value::Bool(_) => v.clone(),
        Value::String(s) => match &**s {
            "1" | "t" | "T" | "TRUE" | "true" | "True" => Value::Bool(true),
            "0" | "f" | "F" | "FALSE" | "false" | "False" => Value::Bool(false),
            _ => invalid("bool"),
        },
        Value::Error(_) => v.clone(),
        _ => Value::no_overload(),
    }
}

/// `timestamp(x)`.
pub fn to_timestamp(v: &Value) -> Value {
    match v {
        Value::Timestamp(_) => v.clone(),
        Value::String(s) => time::parse_timestamp(s),
        Value::Int(i) => time::from_parts(*i, 0),
        Value::Error(_) => v.clone(),
        _ => Value::no_overload(),
    }
}

/// `duration(x)`.
pub fn to_duration(v: &Value) -> Value {
    match v {
        Value::Duration(_) => v.clone(),
        Value::String(s) => time::parse_duration(s),
        Value::Int(i) => Value::Duration(Duration { nanos: *i }),
        Value::Error(_) => v.clone(),
        _ => Value::no_overload(),
    }
}

/// A double as Go's `strconv.FormatFloat(d, 'g', -1, 64)` prints it (what cel-go's `string()`
/// gives): shortest digits, exponent form below 1e-4 and from 1e6 (Go `%g`).
pub fn format_double(d: f64) -> String {
    if d.is_nan() {
        return "NaN".into();
    }
    if d.is_infinite() {
        return if d > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    if d == 0.0 {
        return if d.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let sci = format!("{d:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exp.abs());
    }
    format!("{d}")
}
