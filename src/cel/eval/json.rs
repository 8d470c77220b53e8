//! JSON-shaped values in and out, the way the API server builds `object`, `oldObject` and
//! `params` from unstructured objects: integral numbers become `int`, other numbers `double`,
//! strings stay strings (no timestamp conversion for untyped objects). Deep inputs are bounded.

use std::sync::Arc;

use serde_json::Value as Json;

use super::map::MapValue;
use super::time;
use super::value::{ErrorKind, EvalError, Value};

/// The deepest JSON nesting accepted (deeper input is an error, never a stack overflow).
pub const MAX_JSON_DEPTH: usize = 256;

impl Value {
    /// Converts a JSON document to a CEL value.
    pub fn from_json(json: &Json) -> Result<Value, EvalError> {
        convert(json, 0)
    }

    /// Converts a CEL value back to JSON (for mutation output): objects become JSON objects,
    /// timestamps and durations their string forms, bytes base64-free strings are not produced
    /// (bytes are an error). Errors, optionals and type values are errors.
    pub fn to_json(&self) -> Result<Json, EvalError> {
        to_json(self, 0)
    }
}

fn too_deep() -> EvalError {
    EvalError::new(ErrorKind::InvalidArgument, "value nested too deeply")
}

fn convert(json: &Json, depth: usize) -> Result<Value, EvalError> {
    if depth > MAX_JSON_DEPTH {
        return Err(too_deep());
    }
    Ok(match json {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        // Like the API server's JSON decoding: int64 when integral and in range, else float64.
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Double(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => Value::string(s),
        Json::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                out.push(convert(item, depth + 1)?);
            }
            Value::list(out)
        }
        Json::Object(fields) => {
            let mut out = MapValue::with_capacity(fields.len());
            for (k, v) in fields {
                out.insert_str(k, convert(v, depth + 1)?);
            }
            Value::Map(Arc::new(out))
        }
    })
}

fn unsupported(v: &Value) -> EvalError {
    EvalError::new(
        ErrorKind::InvalidArgument,
        format!("cannot convert {} to JSON", v.type_name()),
    )
}

fn to_json(v: &Value, depth: usize) -> Result<Json, EvalError> {
    if depth > MAX_JSON_DEPTH {
        return Err(too_deep());
    }
    Ok(match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::from(*i),
        Value::Uint(u) => Json::from(*u),
        Value::Double(d) => serde_json::Number::from_f64(*d)
            .map(Json::Number)
            .ok_or_else(|| unsupported(v))?,
        Value::String(s) => Json::String(s.to_string()),
        Value::Timestamp(t) => Json::String(time::format_timestamp(*t)),
        Value::Duration(d) => Json::String(time::format_duration(*d)),
        Value::List(items) => Json::Array(
            items
                .iter()
                .map(|i| to_json(i, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Value::Map(m) => {
            let mut out = serde_json::Map::new();
            for (k, val) in m.entries() {
                let Value::String(key) = k else {
                    return Err(unsupported(k));
                };
                out.insert(key.to_string(), to_json(val, depth + 1)?);
            }
            Json::Object(out)
        }
        Value::Object(o) => {
            let mut out = serde_json::Map::new();
            for (k, val) in &o.fields {
                out.insert(k.to_string(), to_json(val, depth + 1)?);
            }
            Json::Object(out)
        }
        Value::Error(e) => return Err((**e).clone()),
        _ => return Err(unsupported(v)),
    })
}
