//! Arithmetic with cel-go semantics: checked int/uint arithmetic ("return error for overflow"),
//! IEEE doubles, string/bytes/list concatenation, and timestamp/duration arithmetic.

use std::sync::Arc;

use crate::cel::eval::time;
use crate::cel::eval::value::{Duration, ErrorKind, Value};

fn int_result(r: Option<i64>) -> Value {
    r.map(Value::Int).unwrap_or_else(Value::overflow)
}

fn uint_result(r: Option<u64>) -> Value {
    r.map(Value::Uint).unwrap_or_else(Value::overflow)
}

fn dur_result(r: Option<i64>) -> Value {
    r.map(|nanos| Value::Duration(Duration { nanos }))
        .unwrap_or_else(Value::overflow)
}

/// `a + b`.
pub fn add(a: &Value, b: &Value) -> Value {
    use Value::*;
    match (a, b) {
        (Int(x), Int(y)) => int_result(x.checked_add(*y)),
        (Uint(x), Uint(y)) => uint_result(x.checked_add(*y)),
        (Double(x), Double(y)) => Double(x + y),
        (String(x), String(y)) => {
            let mut s = std::string::String::with_capacity(x.len() + y.len());
            s.push_str(x);
            s.push_str(y);
            String(Arc::from(s))
        }
        (Bytes(x), Bytes(y)) => Bytes(x.iter().chain(y.iter()).copied().collect()),
        (List(x), List(y)) => crate::cel::eval::list::concat(x, y),
        (Duration(x), Duration(y)) => dur_result(x.nanos.checked_add(y.nanos)),
        (Timestamp(t), Duration(d)) | (Duration(d), Timestamp(t)) => time::add(*t, d.nanos),
        _ => Value::no_overload(),
    }
}

/// `a - b`.
pub fn sub(a: &Value, b: &Value) -> Value {
    use Value::*;
    match (a, b) {
        (Int(x), Int(y)) => int_result(x.checked_sub(*y)),
        (Uint(x), Uint(y)) => uint_result(x.checked_sub(*y)),
        (Double(x), Double(y)) => Double(x - y),
        (Duration(x), Duration(y)) => dur_result(x.nanos.checked_sub(y.nanos)),
        (Timestamp(t), Duration(d)) => match d.nanos.checked_neg() {
            Some(n) => time::add(*t, n),
            None => Value::overflow(),
        },
        (Timestamp(x), Timestamp(y)) => time::difference(*x, *y),
        _ => Value::no_overload(),
    }
}

/// `a * b`.
pub fn mul(a: &Value, b: &Value) -> Value {
    use Value::*;
    match (a, b) {
        (Int(x), Int(y)) => int_result(x.checked_mul(*y)),
        (Uint(x), Uint(y)) => uint_result(x.checked_mul(*y)),
        (Double(x), Double(y)) => Double(x * y),
        _ => Value::no_overload(),
    }
}

fn div_zero() -> Value {
    Value::error(ErrorKind::DivisionByZero, "division by zero")
}

fn mod_zero() -> Value {
    Value::error(ErrorKind::DivisionByZero, "modulus by zero")
}

/// `a / b`.
pub fn div(a: &Value, b: &Value) -> Value {
    use Value::*;
    match (a, b) {
        (Int(_), Int(0)) | (Uint(_), Uint(0)) => div_zero(),
        (Int(x), Int(y)) => int_result(x.checked_div(*y)),
        (Uint(x), Uint(y)) => uint_result(x.checked_div(*y)),
        (Double(x), Double(y)) => Double(x / y),
        _ => Value::no_overload(),
    }
}

/// `a % b`.
pub fn rem(a: &Value, b: &Value) -> Value {
    use Value::*;
    match (a, b) {
        (Int(_), Int(0)) | (Uint(_), Uint(0)) => mod_zero(),
        (Int(x), Int(y)) => int_result(x.checked_rem(*y)),
        (Uint(x), Uint(y)) => uint_result(x.checked_rem(*y)),
        _ => Value::no_overload(),
    }
}

/// `-a`.
pub fn neg(a: &Value) -> Value {
    match a {
        Value::Int(x) => int_result(x.checked_neg()),
        Value::Double(x) => Value::Double(-x),
        Value::Duration(d) => dur_result(d.nanos.checked_neg()),
        Value::Error(_) => a.clone(),
        _ => Value::no_overload(),
    }
}

/// `!a`.
pub fn not(a: &Value) -> Value {
    match a {
        Value::Bool(b) => Value::Bool(!b),
        Value::Error(_) => a.clone(),
        _ => Value::no_overload(),
    }
}
