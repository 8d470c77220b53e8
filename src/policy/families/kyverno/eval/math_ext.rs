//! The cel-go extensions Kyverno enables and Kubernetes does not (kyverno/kyverno
//! `pkg/cel/compiler/env.go`: `ext.Math`, `ext.Encoders`), as cel-go `ext/math.go` and
//! `ext/encoders.go` define them, plus Kyverno's `math.round(double, int)` (kyverno/sdk
//! `extensions/cel/libs/math/impl.go`: rounded half away from zero at that many decimals).

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};

use crate::cel::eval::{ErrorKind, Value};

/// The function `name` of these extensions, `None` for another one.
pub fn call(name: &str, args: &[Value]) -> Option<Value> {
    let member = name.strip_prefix("math.");
    Some(match (member, args) {
        (Some("greatest"), _) => extreme(args, std::cmp::Ordering::Greater),
        (Some("least"), _) => extreme(args, std::cmp::Ordering::Less),
        (Some("round"), [Value::Double(x), Value::Int(places)]) => round_at(*x, *places),
        (Some(f), [Value::Double(x)]) if double_function(f).is_some() => {
            double_function(f).map_or_else(Value::no_overload, |g| g(*x))
        }
        (Some("abs"), [x]) => abs(x),
        (Some("sign"), [x]) => sign(x),
        (Some("sqrt"), [x]) => {
            number(x).map_or_else(Value::no_overload, |f| Value::Double(f.sqrt()))
        }
        (Some(op), _) if op.starts_with("bit") && is_function(name) => bits(op, args),
        (Some(_), _) => return None,
        (None, _) => match (name, args) {
            ("base64.encode", [Value::Bytes(b)]) => Value::string(&STANDARD.encode(b)),
            ("base64.decode", [Value::String(s)]) => decode(s),
            ("base64.encode" | "base64.decode", _) => Value::no_overload(),
            _ => return None,
        },
    })
}

/// Whether `name` is one of these functions (`math` and `base64` are namespaces).
pub fn is_function(name: &str) -> bool {
    const MATH: &[&str] = &[
        "greatest",
        "least",
        "ceil",
        "floor",
        "round",
        "trunc",
        "isInf",
        "isNaN",
        "isFinite",
        "abs",
        "sign",
        "sqrt",
        "bitAnd",
        "bitOr",
        "bitXor",
        "bitNot",
        "bitShiftLeft",
        "bitShiftRight",
    ];
    match name.strip_prefix("math.") {
        Some(member) => MATH.contains(&member),
        None => matches!(name, "base64.encode" | "base64.decode"),
    }
}

/// `base64.decode`: padded, else unpadded (cel-go tries both).
fn decode(text: &str) -> Value {
    match STANDARD
        .decode(text)
        .or_else(|_| STANDARD_NO_PAD.decode(text))
    {
        Ok(bytes) => Value::Bytes(bytes.into()),
        Err(e) => Value::error(ErrorKind::InvalidArgument, format!("base64.decode: {e}")),
    }
}

fn double_function(name: &str) -> Option<fn(f64) -> Value> {
    Some(match name {
        "ceil" => |x: f64| Value::Double(x.ceil()),
        "floor" => |x: f64| Value::Double(x.floor()),
        "round" => |x: f64| Value::Double(x.round()),
        "trunc" => |x: f64| Value::Double(x.trunc()),
        "isInf" => |x: f64| Value::Bool(x.is_infinite()),
        "isNaN" => |x: f64| Value::Bool(x.is_nan()),
        "isFinite" => |x: f64| Value::Bool(x.is_finite()),
        _ => return None,
    })
}

/// Kyverno's `math.round(x, places)`: Go's `math.Round(x * 10^p) / 10^p`.
fn round_at(x: f64, places: i64) -> Value {
    let shift = 10f64.powf(places as f64);
    Value::Double((x * shift).round() / shift)
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Uint(u) => Some(*u as f64),
        Value::Double(d) => Some(*d),
        _ => None,
    }
}

/// `math.greatest`/`math.least` over the arguments or one list: the first extreme value, kept
/// in its own type; anything but numbers is an error as cel-go's runtime gives it.
fn extreme(args: &[Value], wanted: std::cmp::Ordering) -> Value {
    let items: Vec<Value> = match args {
        [Value::List(list)] => list.iter().cloned().collect(),
        _ => args.to_vec(),
    };
    let mut best: Option<(f64, &Value)> = None;
    for item in &items {
        let Some(x) = number(item) else {
            return Value::no_overload();
        };
        let better = best.is_none_or(|(b, _)| x.partial_cmp(&b) == Some(wanted));
        if better {
            best = Some((x, item));
        }
    }
    match best {
        Some((_, value)) => value.clone(),
        None => Value::error(
            ErrorKind::InvalidArgument,
            "math.@max(list) argument must not be empty",
        ),
    }
}

fn abs(x: &Value) -> Value {
    match x {
        Value::Int(i) => i.checked_abs().map_or_else(
            || Value::error(ErrorKind::Overflow, "integer overflow"),
            Value::Int,
        ),
        Value::Uint(u) => Value::Uint(*u),
        Value::Double(d) => Value::Double(d.abs()),
        _ => Value::no_overload(),
    }
}

fn sign(x: &Value) -> Value {
    match x {
        Value::Int(i) => Value::Int(i.signum()),
        Value::Uint(u) => Value::Uint(u64::from(*u > 0)),
        Value::Double(d) if d.is_nan() || *d == 0.0 => Value::Double(*d),
        Value::Double(d) => Value::Double(d.signum()),
        _ => Value::no_overload(),
    }
}

/// The bitwise functions; right shifts of ints are logical (cel-go shifts them as uint64).
fn bits(op: &str, args: &[Value]) -> Value {
    match (op, args) {
        ("bitAnd", [Value::Int(a), Value::Int(b)]) => Value::Int(a & b),
        ("bitAnd", [Value::Uint(a), Value::Uint(b)]) => Value::Uint(a & b),
        ("bitOr", [Value::Int(a), Value::Int(b)]) => Value::Int(a | b),
        ("bitOr", [Value::Uint(a), Value::Uint(b)]) => Value::Uint(a | b),
        ("bitXor", [Value::Int(a), Value::Int(b)]) => Value::Int(a ^ b),
        ("bitXor", [Value::Uint(a), Value::Uint(b)]) => Value::Uint(a ^ b),
        ("bitNot", [Value::Int(a)]) => Value::Int(!a),
        ("bitNot", [Value::Uint(a)]) => Value::Uint(!a),
        ("bitShiftLeft" | "bitShiftRight", [_, Value::Int(n)]) if *n < 0 => Value::error(
            ErrorKind::InvalidArgument,
            format!("math.{op}() negative offset: {n}"),
        ),
        ("bitShiftLeft", [x, Value::Int(n)]) => shifted(x, *n, u64::checked_shl),
        ("bitShiftRight", [x, Value::Int(n)]) => shifted(x, *n, u64::checked_shr),
        _ => Value::no_overload(),
    }
}

/// `x` shifted by `n` bits as a uint64 (0 once every bit is shifted out), in `x`'s type.
fn shifted(x: &Value, n: i64, shift: fn(u64, u32) -> Option<u64>) -> Value {
    let by = u32::try_from(n).unwrap_or(u32::MAX);
    match x {
        Value::Int(i) => Value::Int(shift(*i as u64, by).unwrap_or(0) as i64),
        Value::Uint(u) => Value::Uint(shift(*u, by).unwrap_or(0)),
        _ => Value::no_overload(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(name: &str, args: &[Value]) -> String {
        call(name, args).map_or("none".to_string(), |v| v.to_string())
    }

    /// Examples of cel-go `ext/math.go`'s documentation and `ext/math_test.go`.
    #[test]
    fn math_functions_give_cel_go_s_results() {
        let (i, u, d) = (Value::Int, Value::Uint, Value::Double);
        let cases: Vec<(&str, Vec<Value>, Value)> = vec![
            ("math.greatest", vec![i(1), d(3.5), u(2)], d(3.5)),
            ("math.least", vec![i(-1), d(3.5), u(2)], i(-1)),
            ("math.greatest", vec![Value::list(vec![i(5), i(7)])], i(7)),
            ("math.ceil", vec![d(1.2)], d(2.0)),
            ("math.floor", vec![d(-1.2)], d(-2.0)),
            ("math.round", vec![d(1.5)], d(2.0)),
            ("math.round", vec![d(-1.5)], d(-2.0)),
            ("math.trunc", vec![d(-1.7)], d(-1.0)),
            ("math.isNaN", vec![d(f64::NAN)], Value::Bool(true)),
            ("math.isInf", vec![d(f64::INFINITY)], Value::Bool(true)),
            ("math.isFinite", vec![d(1.0)], Value::Bool(true)),
            ("math.abs", vec![i(-1)], i(1)),
            ("math.sign", vec![i(-42)], i(-1)),
            ("math.sign", vec![d(0.0)], d(0.0)),
            ("math.sqrt", vec![i(81)], d(9.0)),
            ("math.bitAnd", vec![i(3), i(5)], i(1)),
            ("math.bitOr", vec![u(1), u(2)], u(3)),
            ("math.bitXor", vec![i(3), i(5)], i(6)),
            ("math.bitNot", vec![i(1)], i(-2)),
            ("math.bitShiftLeft", vec![i(1), i(2)], i(4)),
            ("math.bitShiftLeft", vec![i(1), i(200)], i(0)),
            (
                "math.bitShiftRight",
                vec![i(-1024), i(3)],
                i(2305843009213693824),
            ),
            ("math.round", vec![d(1.23456), i(2)], d(1.23)),
        ];
        for (name, args, want) in cases {
            assert_eq!(shown(name, &args), want.to_string(), "{name}({args:?})");
        }
        let overflow = shown("math.abs", &[i(i64::MIN)]);
        assert!(overflow.contains("integer overflow"), "{overflow}");
        let negative = shown("math.bitShiftLeft", &[i(1), i(-1)]);
        assert!(negative.contains("negative offset: -1"), "{negative}");
        assert!(call("math.unknown", &[i(1)]).is_none());
        assert!(is_function("math.ceil") && is_function("base64.decode"));
        assert!(!is_function("math.unknown"));
    }

    /// cel-go `ext/encoders.go`: standard alphabet, decoding with or without padding.
    #[test]
    fn base64_encodes_and_decodes_with_or_without_padding() {
        let encoded = shown("base64.encode", &[Value::Bytes(b"hello".to_vec().into())]);
        assert_eq!(encoded, Value::string("aGVsbG8=").to_string());
        for text in ["aGVsbG8=", "aGVsbG8"] {
            let decoded = call("base64.decode", &[Value::string(text)]);
            assert_eq!(
                decoded.map(|v| v.to_string()),
                Some(Value::Bytes(b"hello".to_vec().into()).to_string())
            );
        }
        assert!(call("base64.decode", &[Value::string("!!")]).is_some_and(|v| v.is_error()));
    }
}
