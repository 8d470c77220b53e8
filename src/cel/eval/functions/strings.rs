//! String functions: the standard ones (`contains`, `startsWith`, `endsWith`, `matches`), the
//! ext.Strings library (indices in code points, as cel-go counts them), and the Kubernetes
//! regex library (`find`, `findAll`). Regular expressions are Go's (`crate::cel::re2`).

use std::sync::Arc;

use super::format;
use crate::cel::eval::value::{ErrorKind, Value};
use crate::cel::re2::{self, Regex};

fn invalid(message: String) -> Value {
    Value::error(ErrorKind::InvalidArgument, message)
}

/// Go's `regexp.Compile`; a refused pattern is an error with Go's text, as cel-go's `matches`
/// passes it on (`common/types/string.go`).
fn compile(re: &str) -> Result<Arc<Regex>, Value> {
    re2::compile(re).map_err(|e| invalid(e.to_string()))
}

/// `compile` for the Kubernetes regex library, whose `find` and `findAll` say "Illegal regex: …"
/// (apiserver `pkg/cel/library/regex.go`).
fn compile_for_library(re: &str) -> Result<Arc<Regex>, Value> {
    re2::compile(re).map_err(|e| invalid(format!("Illegal regex: {e}")))
}

/// `s.matches(re)`: an unanchored RE2 search.
pub fn matches(s: &str, re: &str) -> Value {
    match compile(re) {
        Ok(r) => Value::Bool(r.is_match(s)),
        Err(e) => e,
    }
}

fn out_of_range(i: i64) -> Value {
    invalid(format!("index out of range: {i}"))
}

/// A member function on a string receiver.
pub fn member(function: &str, s: &Arc<str>, args: &[Value]) -> Value {
    use Value::{Int, String as S};
    match (function, args) {
        ("contains", [S(x)]) => Value::Bool(s.contains(&**x)),
        ("startsWith", [S(x)]) => Value::Bool(s.starts_with(&**x)),
        ("endsWith", [S(x)]) => Value::Bool(s.ends_with(&**x)),
        ("matches", [S(re)]) => matches(s, re),
        ("charAt", [Int(i)]) => char_at(s, *i),
        ("indexOf", [S(x)]) => index_of(s, x, 0),
        ("indexOf", [S(x), Int(o)]) => index_of(s, x, *o),
        ("lastIndexOf", [S(x)]) => last_index_of(s, x, None),
        ("lastIndexOf", [S(x), Int(o)]) => last_index_of(s, x, Some(*o)),
        ("lowerAscii", []) => Value::string(&s.to_ascii_lowercase()),
        ("upperAscii", []) => Value::string(&s.to_ascii_uppercase()),
        ("replace", [S(a), S(b)]) => replace(s, a, b, -1),
        ("replace", [S(a), S(b), Int(n)]) => replace(s, a, b, *n),
        ("split", [S(sep)]) => split(s, sep, -1),
        ("split", [S(sep), Int(n)]) => split(s, sep, *n),
        ("substring", [Int(a)]) => substring(s, *a, None),
        ("substring", [Int(a), Int(b)]) => substring(s, *a, Some(*b)),
        ("trim", []) => Value::string(s.trim()),
        ("reverse", []) => Value::string(&s.chars().rev().collect::<String>()),
        ("format", [Value::List(items)]) => format::format(s, items),
        ("find", [S(re)]) => find(s, re),
        ("findAll", [S(re)]) => find_all(s, re, -1),
        ("findAll", [S(re), Int(n)]) => find_all(s, re, *n),
        _ => Value::error(
            ErrorKind::NoSuchOverload,
            format!("no such overload: string.{function}"),
        ),
    }
}

fn char_at(s: &str, i: i64) -> Value {
    let len = s.chars().count() as i64;
    if i < 0 || i > len {
        return out_of_range(i);
    }
    let c: String = s
        .chars()
        .nth(i as usize)
        .map(String::from)
        .unwrap_or_default();
    Value::string(&c)
}

fn index_of(s: &str, sub: &str, offset: i64) -> Value {
    let chars: Vec<char> = s.chars().collect();
    if offset < 0 || offset as usize > chars.len() {
        return out_of_range(offset);
    }
    let needle: Vec<char> = sub.chars().collect();
    let start = offset as usize;
    if needle.is_empty() {
        return Value::Int(offset);
    }
    let found = (start..chars.len()).find(|&i| {
        chars
            .get(i..i + needle.len())
            .is_some_and(|w| w == needle.as_slice())
    });
    Value::Int(found.map(|i| i as i64).unwrap_or(-1))
}

fn last_index_of(s: &str, sub: &str, offset: Option<i64>) -> Value {
    let chars: Vec<char> = s.chars().collect();
    let needle: Vec<char> = sub.chars().collect();
    let last = offset.unwrap_or(chars.len() as i64);
    if last < 0 || last as usize > chars.len() {
        return out_of_range(last);
    }
    if needle.is_empty() {
        return Value::Int(last);
    }
    let found = (0..=last as usize).rev().find(|&i| {
        chars
            .get(i..i + needle.len())
            .is_some_and(|w| w == needle.as_slice())
    });
    Value::Int(found.map(|i| i as i64).unwrap_or(-1))
}

fn replace(s: &str, from: &str, to: &str, n: i64) -> Value {
    let out = if n < 0 {
        s.replace(from, to)
    } else {
        s.replacen(from, to, n as usize)
    };
    Value::string(&out)
}

fn split(s: &str, sep: &str, n: i64) -> Value {
    if n == 0 {
        return Value::list(Vec::new());
    }
    let parts: Vec<Value> = if sep.is_empty() {
        let chars: Vec<char> = s.chars().collect();
        let limit = if n < 0 {
            chars.len()
        } else {
            (n as usize).min(chars.len())
        };
        let mut parts: Vec<Value> = chars
            .iter()
            .take(limit.saturating_sub(1))
            .map(|c| Value::string(&c.to_string()))
            .collect();
        let rest: String = chars.iter().skip(limit.saturating_sub(1)).collect();
        if !rest.is_empty() {
            parts.push(Value::string(&rest));
        }
        parts
    } else if n < 0 {
        s.split(sep).map(Value::string).collect()
    } else {
        s.splitn(n as usize, sep).map(Value::string).collect()
    };
    Value::list(parts)
}

fn substring(s: &str, start: i64, end: Option<i64>) -> Value {
    let chars: Vec<char> = s.chars().collect();
    let len = chars.len() as i64;
    let end_v = end.unwrap_or(len);
    if start < 0 || start > len {
        return out_of_range(start);
    }
    if end_v < 0 || end_v > len {
        return out_of_range(end_v);
    }
    if start > end_v {
        return invalid(format!(
            "invalid substring range. start: {start}, end: {end_v}"
        ));
    }
    let out: String = chars
        .get(start as usize..end_v as usize)
        .unwrap_or_default()
        .iter()
        .collect();
    Value::string(&out)
}

fn find(s: &str, re: &str) -> Value {
    match compile_for_library(re) {
        Ok(r) => Value::string(r.find(s).map(|m| m.as_str()).unwrap_or("")),
        Err(e) => e,
    }
}

fn find_all(s: &str, re: &str, n: i64) -> Value {
    let r = match compile_for_library(re) {
        Ok(r) => r,
        Err(e) => return e,
    };
    let limit = usize::try_from(n).ok();
    Value::list(
        re2::find_all(&r, s, limit)
            .into_iter()
            .map(Value::string)
            .collect(),
    )
}
