//! A custom resource's values checked against its CRD version's structural schema, as the API
//! server's schema validator reports them (kube-openapi `pkg/validation/validate` through
//! apiextensions-apiserver `pkg/apiserver/validation/validation.go` `ValidateCustomResource`,
//! errors converted by `ConvertToFieldErrors`): types, `required`, `enum`, `pattern`, the
//! numeric formats, bounds, sizes and `nullable`, and the uniqueness of `set` and `map` list items
//! (`pkg/apiserver/schema/listtype/validation.go`).
//!
//! On update, errors in values that did not change are dropped (`CRDValidationRatcheting`,
//! on by default since Kubernetes 1.30): an object's properties and map values correlate by key, a
//! `map` list's items by their keys; anything unchanged is not validated again.

use serde_json::Value as Json;

use super::{MAX_DEPTH, Schema};
use crate::cel::eval::Value;
use crate::cel::eval::time::parse_timestamp;

/// One field error: the path (`spec.replicas`, `spec.ports[1]`), its type and the API server's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// Field path.
    pub field: String,
    /// `FieldValueInvalid`, `FieldValueTypeInvalid` (a value of the wrong JSON type),
    /// `FieldValueRequired`, `FieldValueNotSupported`, `FieldValueDuplicate`,
    /// `FieldValueTooLong`, `FieldValueTooMany`, `FieldValueForbidden`.
    pub kind: &'static str,
    /// The whole message (`spec.replicas: Invalid value: …`).
    pub message: String,
}

impl FieldError {
    /// An error of `kind` at `field` with the rest of its message.
    pub fn new(field: &str, kind: &'static str, rest: String) -> Self {
        Self {
            field: field.to_string(),
            kind,
            message: format!("{field}: {rest}"),
        }
    }
}

/// The schema errors of `object` (the root's `apiVersion`, `kind` and `metadata` are the API
/// server's own and not validated here), with `old` for ratcheting on update.
pub fn validate_custom(schema: &Json, object: &Json, old: Option<&Json>) -> Vec<FieldError> {
    let mut out = Vec::new();
    let schema = Schema(schema);
    let Json::Object(fields) = object else {
        return out;
    };
    for (key, value) in fields {
        if matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
            continue;
        }
        if let Some(property) = schema.property(key) {
            let old = old.and_then(|o| o.get(key));
            node(property, value, old, key, 0, &mut out);
        }
    }
    required(schema, fields, "", &mut out);
    out
}

/// `json` as the API server shows a value in `Invalid value: …` (strings quoted).
pub fn shown(json: &Json) -> String {
    match json {
        Json::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn type_name(json: &Json) -> &'static str {
    match json {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

fn node(
    schema: Schema,
    value: &Json,
    old: Option<&Json>,
    path: &str,
    depth: usize,
    out: &mut Vec<FieldError>,
) {
    if depth > MAX_DEPTH || old == Some(value) {
        return; // ratcheting: an unchanged value is not validated again
    }
    if value.is_null() {
        if !schema.nullable() && !int_or_string(schema) && schema.0.get("type").is_some() {
            out.push(FieldError::new(
                path,
                "FieldValueTypeInvalid",
                format!(
                    "Invalid value: \"null\": {path} in body must be of type {}: \"null\"",
                    declared(schema)
                ),
            ));
        }
        return;
    }
    if !type_matches(schema, value, path, out) {
        return;
    }
    enumeration(schema, value, path, out);
    match value {
        Json::String(text) => string(schema, text, path, out),
        Json::Number(_) => number(schema, value, path, out),
        Json::Array(items) => array(schema, items, old, path, depth, out),
        Json::Object(fields) => object(schema, fields, old, path, depth, out),
        Json::Bool(_) | Json::Null => {}
    }
}

fn int_or_string(schema: Schema) -> bool {
    schema
        .0
        .get("x-kubernetes-int-or-string")
        .and_then(Json::as_bool)
        == Some(true)
}

fn declared<'a>(schema: Schema<'a>) -> &'a str {
    schema.0.get("type").and_then(Json::as_str).unwrap_or("")
}

/// The value's JSON type against `type` (`number` accepts integers; int-or-string either).
fn type_matches(schema: Schema, value: &Json, path: &str, out: &mut Vec<FieldError>) -> bool {
    let actual = type_name(value);
    let ok = if int_or_string(schema) {
        matches!(actual, "integer" | "string")
    } else {
        match declared(schema) {
            "" => true,
            "number" => matches!(actual, "integer" | "number"),
            wanted => wanted == actual,
        }
    };
    if !ok {
        let wanted = if int_or_string(schema) {
            "integer,string"
        } else {
            declared(schema)
        };
        out.push(FieldError::new(
            path,
            "FieldValueTypeInvalid",
            format!(
                "Invalid value: \"{actual}\": {path} in body must be of type {wanted}: \"{actual}\""
            ),
        ));
    }
    ok
}

fn enumeration(schema: Schema, value: &Json, path: &str, out: &mut Vec<FieldError>) {
    let Some(allowed) = schema.0.get("enum").and_then(Json::as_array) else {
        return;
    };
    if allowed.contains(value) {
        return;
    }
    let listed: Vec<String> = allowed.iter().map(shown).collect();
    out.push(FieldError::new(
        path,
        "FieldValueNotSupported",
        format!(
            "Unsupported value: {}: supported values: {}",
            shown(value),
            listed.join(", ")
        ),
    ));
}

fn bound(schema: Schema, key: &str) -> Option<u64> {
    schema.0.get(key).and_then(Json::as_u64)
}

/// The `max…`/`min…` bounds on how many items a list or properties an object holds; `counted`
/// names the two keys and what is counted. Both maxima are worded "… items", as the API server
/// words every TooMany.
fn count_bounds(
    schema: Schema,
    count: usize,
    counted: (&str, &str, &str),
    path: &str,
    out: &mut Vec<FieldError>,
) {
    let (max_key, min_key, noun) = counted;
    let count = count as u64;
    if let Some(max) = bound(schema, max_key).filter(|&m| count > m) {
        out.push(FieldError::new(
            path,
            "FieldValueTooMany",
            format!("Too many: {count}: must have at most {max} items"),
        ));
    }
    if let Some(min) = bound(schema, min_key).filter(|&m| count < m) {
        out.push(FieldError::new(
            path,
            "FieldValueInvalid",
            format!("Invalid value: {count}: {path} in body should have at least {min} {noun}"),
        ));
    }
}

fn string(schema: Schema, text: &str, path: &str, out: &mut Vec<FieldError>) {
    let length = text.chars().count() as u64;
    if let Some(max) = bound(schema, "maxLength").filter(|&m| length > m) {
        out.push(FieldError::new(
            path,
            "FieldValueTooLong",
            format!("Too long: may not be more than {max} bytes"),
        ));
    }
    if let Some(min) = bound(schema, "minLength").filter(|&m| length < m) {
        out.push(FieldError::new(
            path,
            "FieldValueInvalid",
            format!("Invalid value: {text:?}: {path} in body should be at least {min} chars long"),
        ));
    }
    if let Some(pattern) = schema.0.get("pattern").and_then(Json::as_str)
        // Go's `regexp`, as kube-openapi compiles the pattern (ASCII `\w`, `\d`, `\s`, `\b`).
        && crate::cel::re2::compile(pattern).is_ok_and(|re| !re.is_match(text))
    {
        out.push(FieldError::new(
            path,
            "FieldValueInvalid",
            format!("Invalid value: {text:?}: {path} in body should match '{pattern}'"),
        ));
    }
    if let Some(format) = schema.0.get("format").and_then(Json::as_str)
        && !format_ok(format, text)
    {
        out.push(FieldError::new(
            path,
            "FieldValueInvalid",
            format!("Invalid value: {text:?}: {path} in body must be of type {format}: {text:?}"),
        ));
    }
}

/// The string formats the validator checks (others are accepted, as unknown formats are).
fn format_ok(format: &str, text: &str) -> bool {
    match format {
        "date-time" => is_timestamp(text),
        "date" => is_timestamp(&format!("{text}T00:00:00Z")),
        "ipv4" => text.parse::<std::net::Ipv4Addr>().is_ok(),
        "ipv6" => text.parse::<std::net::Ipv6Addr>().is_ok(),
        "uuid" => is_uuid(text),
        _ => true,
    }
}

fn is_timestamp(text: &str) -> bool {
    matches!(parse_timestamp(text), Value::Timestamp(_))
}

fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    let lengths = [8, 4, 4, 4, 12];
    groups.len() == 5
        && groups
            .iter()
            .zip(lengths)
            .all(|(g, n)| g.len() == n && g.chars().all(|c| c.is_ascii_hexdigit()))
}

fn number(schema: Schema, value: &Json, path: &str, out: &mut Vec<FieldError>) {
    let Some(n) = value.as_f64() else { return };
    let limit = |key: &str| schema.0.get(key).and_then(Json::as_f64);
    let exclusive = |key: &str| schema.0.get(key).and_then(Json::as_bool) == Some(true);
    let mut fail = |detail: String| {
        out.push(FieldError::new(
            path,
            "FieldValueInvalid",
            format!("Invalid value: {value}: {path} in body {detail}"),
        ));
    };
    if let Some(max) = limit("maximum") {
        if exclusive("exclusiveMaximum") && n >= max {
            fail(format!("should be less than {max}"));
        } else if n > max {
            fail(format!("should be less than or equal to {max}"));
        }
    }
    if let Some(min) = limit("minimum") {
        if exclusive("exclusiveMinimum") && n <= min {
            fail(format!("should be greater than {min}"));
        } else if n < min {
            fail(format!("should be greater than or equal to {min}"));
        }
    }
    if let Some(of) = limit("multipleOf").filter(|m| *m > 0.0)
        && (n / of).fract() != 0.0
    {
        fail(format!("should be a multiple of {of}"));
    }
    let int32 = declared(schema) == "integer"
        && schema.0.get("format").and_then(Json::as_str) == Some("int32");
    if int32 && (n < f64::from(i32::MIN) || n > f64::from(i32::MAX)) {
        fail("must be of type int32".to_string());
    }
}

fn array(
    schema: Schema,
    items: &[Json],
    old: Option<&Json>,
    path: &str,
    depth: usize,
    out: &mut Vec<FieldError>,
) {
    count_bounds(
        schema,
        items.len(),
        ("maxItems", "minItems", "items"),
        path,
        out,
    );
    let list_type = schema
        .0
        .get("x-kubernetes-list-type")
        .and_then(Json::as_str);
    let keys: Vec<&str> = schema
        .0
        .get("x-kubernetes-list-map-keys")
        .and_then(Json::as_array)
        .map(|k| k.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default();
    let key_of = |item: &Json| -> Vec<Json> {
        keys.iter()
            .map(|k| item.get(*k).cloned().unwrap_or(Json::Null))
            .collect()
    };
    let mut seen: Vec<Json> = Vec::new();
    let old_items = old.and_then(Json::as_array);
    for (i, item) in items.iter().enumerate() {
        let item_path = format!("{path}[{i}]");
        let identity = match list_type {
            Some("set") => Some(item.clone()),
            Some("map") => Some(Json::Array(key_of(item))),
            _ => None,
        };
        if let Some(identity) = identity {
            if seen.contains(&identity) {
                let shown_value = if list_type == Some("map") {
                    map_keys_shown(&keys, item)
                } else {
                    shown(item)
                };
                out.push(FieldError::new(
                    &item_path,
                    "FieldValueDuplicate",
                    format!("Duplicate value: {shown_value}"),
                ));
            }
            seen.push(identity);
        }
        // Only a map list's items correlate with the old list's (by their keys).
        let old_item = (list_type == Some("map"))
            .then(|| old_items?.iter().find(|o| key_of(o) == key_of(item)))
            .flatten();
        if let Some(items_schema) = schema.items() {
            node(items_schema, item, old_item, &item_path, depth + 1, out);
        }
    }
}

/// A map list item's keys as the API server prints them (`map[string]interface {}{"name":"a"}`).
fn map_keys_shown(keys: &[&str], item: &Json) -> String {
    let pairs: Vec<String> = keys
        .iter()
        .map(|k| {
            format!(
                "{k:?}:{}",
                item.get(*k).map_or("interface {}(nil)".to_string(), shown)
            )
        })
        .collect();
    format!("map[string]interface {{}}{{{}}}", pairs.join(", "))
}

fn object(
    schema: Schema,
    fields: &serde_json::Map<String, Json>,
    old: Option<&Json>,
    path: &str,
    depth: usize,
    out: &mut Vec<FieldError>,
) {
    let counted = ("maxProperties", "minProperties", "properties");
    count_bounds(schema, fields.len(), counted, path, out);
    let values = schema.additional_properties().flatten();
    for (key, value) in fields {
        let child = schema.property(key).or(values);
        let Some(child) = child else { continue };
        let old_value = old.and_then(|o| o.get(key));
        node(child, value, old_value, &join(path, key), depth + 1, out);
    }
    if !schema.embedded_resource() {
        required(schema, fields, path, out);
    }
}

fn required(
    schema: Schema,
    fields: &serde_json::Map<String, Json>,
    path: &str,
    out: &mut Vec<FieldError>,
) {
    let Some(required) = schema.0.get("required").and_then(Json::as_array) else {
        return;
    };
    for name in required.iter().filter_map(Json::as_str) {
        if !fields.contains_key(name) {
            out.push(FieldError::new(
                &join(path, name),
                "FieldValueRequired",
                "Required value".to_string(),
            ));
        }
    }
}
