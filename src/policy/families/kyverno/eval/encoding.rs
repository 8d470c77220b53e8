//! Kyverno's `json` and `yaml` libraries (kyverno/sdk `extensions/cel/libs/json`, `libs/yaml`):
//! `json.unmarshal(text)`, `json.marshal(value)` and `yaml.parse(text)`. Kyverno decodes into
//! Go's `any` (`encoding/json`, `sigs.k8s.io/yaml`), so every number comes back a double; it
//! encodes with `encoding/json`, which writes integral doubles without a fraction and escapes
//! `<`, `>`, `&` in strings.

use serde_json::{Number, Value as Json};

use crate::cel::eval::{ErrorKind, Value};
use crate::policy::admission::json::documents;

/// How deep a decoded value may nest (the JSON parser stops at 128 itself).
const MAX_DEPTH: usize = 256;

/// The function `name` of the two libraries, `None` for another one.
pub fn call(name: &str, args: &[Value]) -> Option<Value> {
    Some(match (name, args) {
        ("json.unmarshal", [Value::String(text)]) => unmarshal(text),
        ("json.marshal", [value]) => marshal(value),
        ("yaml.parse", [Value::String(text)]) => parse_yaml(text),
        ("json.unmarshal" | "json.marshal" | "yaml.parse", _) => Value::no_overload(),
        _ => return None,
    })
}

/// Whether `name` is one of these functions (`json` and `yaml` are not variables at evaluation).
pub fn is_function(name: &str) -> bool {
    matches!(name, "json.unmarshal" | "json.marshal" | "yaml.parse")
}

fn unmarshal(text: &str) -> Value {
    match serde_json::from_str::<Json>(text) {
        Ok(json) => decoded(&json),
        Err(e) => Value::error(ErrorKind::InvalidArgument, format!("json.unmarshal: {e}")),
    }
}

/// `sigs.k8s.io/yaml.Unmarshal`: the first document, `null` for none.
fn parse_yaml(text: &str) -> Value {
    match documents(text) {
        Ok(docs) => decoded(docs.first().unwrap_or(&Json::Null)),
        Err(e) => Value::error(ErrorKind::InvalidArgument, format!("yaml.parse: {e}")),
    }
}

/// A decoded value as CEL sees Go's `any`: numbers as doubles.
fn decoded(json: &Json) -> Value {
    match as_go_any(json, 0).map(|j| Value::from_json(&j)) {
        Some(Ok(value)) => value,
        Some(Err(e)) => Value::Error(std::sync::Arc::new(e)),
        None => Value::error(ErrorKind::InvalidArgument, "value nested too deeply"),
    }
}

fn as_go_any(json: &Json, depth: usize) -> Option<Json> {
    if depth > MAX_DEPTH {
        return None;
    }
    Some(match json {
        Json::Number(n) => n
            .as_f64()
            .and_then(Number::from_f64)
            .map_or(Json::Null, Json::Number),
        Json::Array(items) => Json::Array(
            items
                .iter()
                .map(|i| as_go_any(i, depth + 1))
                .collect::<Option<_>>()?,
        ),
        Json::Object(fields) => Json::Object(
            fields
                .iter()
                .map(|(k, v)| Some((k.clone(), as_go_any(v, depth + 1)?)))
                .collect::<Option<_>>()?,
        ),
        other => other.clone(),
    })
}

fn marshal(value: &Value) -> Value {
    let json = match value.to_json() {
        Ok(json) => json,
        Err(e) => return Value::Error(std::sync::Arc::new(e)),
    };
    let Some(json) = integral_doubles(&json, 0) else {
        return Value::error(ErrorKind::InvalidArgument, "value nested too deeply");
    };
    match serde_json::to_string(&json) {
        Ok(text) => Value::string(&go_escaped(&text)),
        Err(e) => Value::error(ErrorKind::InvalidArgument, format!("json.marshal: {e}")),
    }
}

/// Doubles with no fraction as integers, as `encoding/json` prints them (`1`, not `1.0`), while
/// Go keeps plain notation (below 1e21).
fn integral_doubles(json: &Json, depth: usize) -> Option<Json> {
    if depth > MAX_DEPTH {
        return None;
    }
    Some(match json {
        Json::Number(n) if n.is_f64() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e18 => Json::from(f as i64),
            _ => json.clone(),
        },
        Json::Array(items) => Json::Array(
            items
                .iter()
                .map(|i| integral_doubles(i, depth + 1))
                .collect::<Option<_>>()?,
        ),
        Json::Object(fields) => Json::Object(
            fields
                .iter()
                .map(|(k, v)| Some((k.clone(), integral_doubles(v, depth + 1)?)))
                .collect::<Option<_>>()?,
        ),
        other => other.clone(),
    })
}

/// `encoding/json`'s HTML-safe escapes; these characters only occur inside strings in JSON text.
fn go_escaped(text: &str) -> String {
    text.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marshalled(value: serde_json::Value) -> String {
        let value = Value::from_json(&value).unwrap_or(Value::Null);
        call("json.marshal", &[value])
            .map(|v| match v {
                Value::String(s) => s.to_string(),
                other => other.to_string(),
            })
            .unwrap_or_default()
    }

    /// kyverno/sdk `extensions/cel/libs/json/impl_test.go` `TestMarshal`.
    #[test]
    fn marshal_writes_what_encoding_json_writes() {
        use serde_json::json;
        assert_eq!(marshalled(json!({"key": "value"})), r#"{"key":"value"}"#);
        assert_eq!(marshalled(json!([1, 2, 3])), "[1,2,3]");
        assert_eq!(marshalled(json!("hello")), r#""hello""#);
        assert_eq!(marshalled(json!(42)), "42");
        assert_eq!(marshalled(json!(2.5)), "2.5");
        assert_eq!(marshalled(json!(true)), "true");
        assert_eq!(marshalled(json!({})), "{}");
        assert_eq!(
            marshalled(json!({"outer": {"inner": "value"}})),
            r#"{"outer":{"inner":"value"}}"#
        );
        assert_eq!(marshalled(json!(2.0)), "2");
        assert_eq!(marshalled(json!("<a&b>")), r#""\u003ca\u0026b\u003e""#);
    }

    #[test]
    fn unmarshal_and_parse_give_numbers_as_doubles() {
        let json = call("json.unmarshal", &[Value::string(r#"{"foo":"bar","n":1}"#)]);
        let json = json.and_then(|v| v.to_json().ok());
        assert_eq!(json, Some(serde_json::json!({"foo": "bar", "n": 1.0})));
        let yaml = call("yaml.parse", &[Value::string("foo: bar\ncount: 2\n")]);
        let yaml = yaml.and_then(|v| v.to_json().ok());
        assert_eq!(yaml, Some(serde_json::json!({"foo": "bar", "count": 2.0})));
        let round_trip = call("json.unmarshal", &[Value::string(r#"{"a":"b"}"#)])
            .and_then(|v| call("json.marshal", &[v]));
        let text = match round_trip {
            Some(Value::String(s)) => s.to_string(),
            other => format!("{other:?}"),
        };
        assert_eq!(text, r#"{"a":"b"}"#);
    }

    #[test]
    fn bad_text_is_an_error_naming_the_function() {
        let bad = call("json.unmarshal", &[Value::string("{")]).map(|v| v.to_string());
        assert!(bad.unwrap_or_default().contains("json.unmarshal:"));
        let bad = call("yaml.parse", &[Value::string("a: [")]).map(|v| v.to_string());
        assert!(bad.unwrap_or_default().contains("yaml.parse:"));
        assert!(call("json.unmarshal", &[Value::Int(1)]).is_some_and(|v| v.is_error()));
        assert!(call("size", &[]).is_none());
    }
}
