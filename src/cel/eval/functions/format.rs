//! `string.format(list)` (ext.Strings) and `strings.quote`, with cel-go's clauses: `%s`, `%d`,
//! `%f`/`%.Nf`, `%e`, `%b`, `%o`, `%x`, `%X`, `%%`.

use super::convert::format_double;
use crate::cel::eval::time;
use crate::cel::eval::value::{ErrorKind, Value};

fn fail(message: &str) -> Value {
    Value::error(
        ErrorKind::InvalidArgument,
        format!("error during formatting: {message}"),
    )
}

/// `fmt.format(args)`.
pub fn format(fmt: &str, args: &[Value]) -> Value {
    let mut out = String::new();
    let mut chars = fmt.chars().peekable();
    let mut next_arg = args.iter();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        let mut precision = None;
        if chars.peek() == Some(&'.') {
            chars.next();
            let mut digits = String::new();
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                digits.push(*d);
                chars.next();
            }
            precision = digits.parse::<usize>().ok();
        }
        let Some(verb) = chars.next() else {
            return fail("unexpected end of format string");
        };
        let Some(arg) = next_arg.next() else {
            return fail(&format!("index {} out of range", args.len()));
        };
        match clause(verb, precision, arg) {
            Ok(s) => out.push_str(&s),
            Err(e) => return e,
        }
    }
    Value::string(&out)
}

fn clause(verb: char, precision: Option<usize>, arg: &Value) -> Result<String, Value> {
    match verb {
        's' => as_string(arg).ok_or_else(|| fail("string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps")),
        'd' => match arg {
            Value::Int(i) => Ok(i.to_string()),
            Value::Uint(u) => Ok(u.to_string()),
            Value::Double(d) if !d.is_finite() => Ok(special(*d)),
            _ => Err(fail("decimal clause can only be used on integers")),
        },
        'f' => fixed(arg, precision.unwrap_or(6)),
        'e' => scientific(arg, precision.unwrap_or(6)),
        'b' => radix(arg, 2, false),
        'o' => radix(arg, 8, false),
        'x' => radix(arg, 16, false),
        'X' => radix(arg, 16, true),
        other => Err(fail(&format!("unrecognized formatting clause \"{other}\""))),
    }
}

fn special(d: f64) -> String {
    if d.is_nan() {
        "NaN".into()
    } else if d > 0.0 {
        "Infinity".into()
    } else {
        "-Infinity".into()
    }
}

fn number(arg: &Value) -> Option<f64> {
    match arg {
        Value::Double(d) => Some(*d),
        Value::Int(i) => Some(*i as f64),
        Value::Uint(u) => Some(*u as f64),
        _ => None,
    }
}

fn fixed(arg: &Value, p: usize) -> Result<String, Value> {
    let d = number(arg).ok_or_else(|| fail("fixed-point clause can only be used on doubles"))?;
    if !d.is_finite() {
        return Ok(special(d));
    }
    Ok(format!("{d:.p$}"))
}

/// `%e`. Kubernetes enables ext.Strings version 2, whose formatter prints through Go's
/// `x/text` message printer: `3.140000×10⁰⁰` (superscript exponent, at least two digits), not
/// the `e+00` form of cel-go's version 4 formatter that cel-spec's tests expect.
fn scientific(arg: &Value, p: usize) -> Result<String, Value> {
    let d = number(arg).ok_or_else(|| fail("scientific clause can only be used on doubles"))?;
    if !d.is_finite() {
        return Ok(special(d));
    }
    let s = format!("{d:.p$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { "⁻" } else { "" };
    let digits: String = format!("{:02}", exp.unsigned_abs())
        .chars()
        .map(superscript)
        .collect();
    Ok(format!("{mantissa}×10{sign}{digits}"))
}

fn superscript(c: char) -> char {
    match c {
        '0' => '⁰',
        '1' => '¹',
        '2' => '²',
        '3' => '³',
        '4' => '⁴',
        '5' => '⁵',
        '6' => '⁶',
        '7' => '⁷',
        '8' => '⁸',
        '9' => '⁹',
        other => other,
    }
}

fn radix(arg: &Value, base: u32, upper: bool) -> Result<String, Value> {
    let s = match (arg, base) {
        (Value::Int(i), 2) => signed(*i, |u| format!("{u:b}")),
        (Value::Int(i), 8) => signed(*i, |u| format!("{u:o}")),
        (Value::Int(i), _) => signed(*i, |u| format!("{u:x}")),
        (Value::Uint(u), 2) => format!("{u:b}"),
        (Value::Uint(u), 8) => format!("{u:o}"),
        (Value::Uint(u), _) => format!("{u:x}"),
        (Value::Bool(b), 2) => u8::from(*b).to_string(),
        (Value::String(s), 16) => hex(s.as_bytes()),
        (Value::Bytes(b), 16) => hex(b),
        _ => {
            let what = match base {
                2 => "binary clause can only be used on integers and bools",
                8 => "octal clause can only be used on integers",
                _ => "only integers, byte buffers, and strings can be formatted as hex",
            };
            return Err(fail(what));
        }
    };
    Ok(if upper { s.to_uppercase() } else { s })
}

fn signed(i: i64, f: impl Fn(u64) -> String) -> String {
    if i < 0 {
        format!("-{}", f(i.unsigned_abs()))
    } else {
        f(i as u64)
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The `%s` rendering of a value (nested strings unquoted, map entries sorted, as cel-go).
fn as_string(arg: &Value) -> Option<String> {
    Some(match arg {
        Value::String(s) => s.to_string(),
        Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        Value::Double(d) if !d.is_finite() => special(*d),
        Value::Double(d) => format_double(*d),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".into(),
        Value::Type(t) => t.to_string(),
        Value::Timestamp(t) => time::format_timestamp(*t),
        Value::Duration(d) => time::format_duration(*d),
        Value::List(items) => {
            let parts: Option<Vec<String>> = items.iter().map(nested).collect();
            format!("[{}]", parts?.join(", "))
        }
        Value::Map(m) => {
            let mut parts: Vec<String> = Vec::new();
            for (k, v) in m.entries() {
                parts.push(format!("{}: {}", nested(k)?, nested(v)?));
            }
            parts.sort();
            format!("{{{}}}", parts.join(", "))
        }
        _ => return None,
    })
}

fn nested(v: &Value) -> Option<String> {
    as_string(v)
}

/// `strings.quote(s)`: a double-quoted CEL string literal.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
