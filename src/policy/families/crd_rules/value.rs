//! A custom resource's JSON as the CEL value a rule sees, typed by the structural schema as the
//! API server's `UnstructuredToVal` does (apiextensions-apiserver `pkg/apiserver/schema/cel/model`
//! and apiserver `pkg/cel/common/values.go`): `format: byte` strings are bytes, `date` and
//! `date-time` timestamps, `duration` durations, `number` values doubles even when integral; a
//! property set to `null` is absent from its object; int-or-string, embedded and
//! preserve-unknown-fields values without a schema of their own are converted untyped; `set`
//! and `map` lists keep their list type (see [`crate::cel::eval::ListKind`]).

use std::sync::Arc;

use base64::Engine;
use serde_json::Value as Json;

use crate::cel::eval::time::{parse_duration, parse_timestamp};
use crate::cel::eval::{ErrorKind, ListKind, MapValue, Value};
use crate::schema::escape::escape;

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
            Value::typed_list(items, list_kind(schema))
        }
        (Json::Object(fields), Some("object")) => object(fields, schema, depth),
        (Json::Null, Some(_)) if !nullable(schema) => {
            invalid("got null for schema with nullable=false")
        }
        (_, Some("object")) if !json.is_null() => {
            invalid("expected a map for the provided schema with type=object")
        }
        (_, Some("array")) if !json.is_null() => {
            invalid("expected an array for the provided schema with type=array")
        }
        (Json::Bool(_) | Json::Array(_) | Json::Object(_), None) if int_or_string(schema) => {
            invalid("expected XIntOrString value to be either a string or integer")
        }
        _ => Value::from_json(json)
            .unwrap_or_else(|e| Value::error(ErrorKind::InvalidArgument, e.to_string())),
    }
}

/// A value that does not match its schema: an error when a rule reads it (`UnstructuredToVal`).
fn invalid(detail: &str) -> Value {
    Value::error(
        ErrorKind::InvalidArgument,
        format!("invalid data, {detail}"),
    )
}

/// How a list under `schema` compares and concatenates: by its `x-kubernetes-list-type`, a map
/// list by its `x-kubernetes-list-map-keys` escaped as rules name them (`escapeKeyProps`).
fn list_kind(schema: &Json) -> ListKind {
    match schema.get("x-kubernetes-list-type").and_then(Json::as_str) {
        Some("set") => ListKind::Set,
        Some("map") => {
            let keys = schema
                .get("x-kubernetes-list-map-keys")
                .and_then(Json::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let escaped = keys
                .iter()
                .filter_map(Json::as_str)
                .map(|key| Arc::from(escape(key).unwrap_or_else(|| key.to_string())))
                .collect();
            ListKind::Map(escaped)
        }
        _ => ListKind::Atomic,
    }
}

fn nullable(schema: &Json) -> bool {
    schema.get("nullable").and_then(Json::as_bool) == Some(true)
}

fn int_or_string(schema: &Json) -> bool {
    schema
        .get("x-kubernetes-int-or-string")
        .and_then(Json::as_bool)
        == Some(true)
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
        if let Some(property) = properties.and_then(|p| p.get(key)) {
            // An object's null property is absent.
            if !value.is_null() {
                insert_property(&mut out, key, convert(value, property, depth + 1));
            }
            continue;
        }
        // A map's values (a null one is kept), or a field no schema describes.
        let schema = values.unwrap_or(&Json::Null);
        out.insert_str(key, convert(value, schema, depth + 1));
    }
    Value::Map(Arc::new(out))
}

/// A property under the name rules select it by: escaped (`dot.dot` → `dot__dot__dot`, `true` →
/// `__true__`); a reserved word also under its own name, which the API server accepts from 1.31
/// (`self.namespace`). A name that cannot be escaped keeps its spelling (rules cannot reach it).
fn insert_property(out: &mut MapValue, key: &str, value: Value) {
    match escape(key) {
        Some(escaped) if escaped != key => {
            if escaped == format!("__{key}__") {
                out.insert_str(key, value.clone());
            }
            out.insert_str(&escaped, value);
        }
        _ => out.insert_str(key, value),
    }
}
