//! A custom resource's JSON as the CEL value a rule sees, typed by the structural schema as the
//! API server's `UnstructuredToVal` does (apiextensions-apiserver `pkg/apiserver/schema/cel/model`
//! and apiserver `pkg/cel/common/values.go`): `format: byte` strings are bytes, `date` and
//! `date-time` timestamps, `duration` durations, `number` values doubles even when integral; a
//! property set to `null` is absent from its object; int-or-string, embedded and
//! preserve-unknown-fields values without a schema of their own are converted untyped.

use std::sync::Arc;

use base64::Engine;
use serde_json::Value as Json;

use crate::cel::eval::time::{parse_duration, parse_timestamp};
use crate::cel::eval::{ErrorKind, MapValue, Value};

/// Deeper values are an error, never a stack overflow.
const MAX_DEPTH: usize = 256;

/// The CEL value of `json` under `schema`.
pub fn typed_value(json: &Json, schema: &Json) -> Value {
    convert(json, schema, 0)
}

fn convert(json: &Json, schema: &Json, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return Value::error(ErrorKind::InvalidArgument, "value nested too deeply");
    }
    let ty = schema.get("type").and_then(Json::as_str);
    let format = schema.get("format").and_then(Json::as_str);
    match (json, ty) {
        (Json::String(text), Some("string")) => string(text, format),
        (Json::Number(n), Some("number")) => Value::Double(n.as_f64().unwrap_or(f64::NAN)),
        (Json::Array(items), Some("array")) => {
            let item_schema = schema.get("items").unwrap_or(&Json::Null);
            let items = items
                .iter()
                .map(|i| convert(i, item_schema, depth + 1))
                .collect();
            Value::list(items)
        }
        (Json::Object(fields), Some("object")) => object(fields, schema, depth),
        _ => Value::from_json(json)
            .unwrap_or_else(|e| Value::error(ErrorKind::InvalidArgument, e.to_string())),
    }
}

fn string(text: &str, format: Option<&str>) -> Value {
    match format {
        Some("byte") => match base64::engine::general_purpose::STANDARD.decode(text) {
            Ok(bytes) => Value::Bytes(Arc::from(bytes)),
            Err(_) => Value::string(text),
        },
        Some("date") => parse_timestamp(&format!("{text}T00:00:00Z")),
        Some("date-time") => parse_timestamp(text),
        Some("duration") => parse_duration(text),
        _ => Value::string(text),
    }
}

fn object(fields: &serde_json::Map<String, Json>, schema: &Json, depth: usize) -> Value {
    let properties = schema.get("properties").and_then(Json::as_object);
    let values = schema.get("additionalProperties").filter(|v| v.is_object());
    let mut out = MapValue::with_capacity(fields.len());
    for (key, value) in fields {
        let field_schema = properties.and_then(|p| p.get(key)).or(values);
        match field_schema {
            // An object's null property is absent; a map's null value is kept.
            Some(_) if value.is_null() && properties.is_some_and(|p| p.contains_key(key)) => {}
            Some(field_schema) => out.insert_str(key, convert(value, field_schema, depth + 1)),
            None => out.insert_str(key, convert(value, &Json::Null, depth + 1)),
        }
    }
    Value::Map(Arc::new(out))
}
