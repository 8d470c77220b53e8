//! The largest size a schema allows a value to have, as the API server's `SchemaDeclType` records
//! it for cost estimation: `maxItems`, `maxProperties` or `maxLength` (×4, bytes
//! per code point) when the schema sets them, else what still fits in a maximal request
//! (3 MiB, `MaxRequestSizeBytes`) given the smallest JSON encoding of one element.

use std::sync::Arc;

use serde_json::Value;

use super::bundled;

/// The request size the API server assumes (`apiserver: pkg/apis/cel/config.go`).
pub const MAX_REQUEST_SIZE: u64 = 3 * 1024 * 1024;

/// What is left of a maximal request for one value: the request minus its enclosing braces.
pub const REQUEST_BUDGET: u64 = MAX_REQUEST_SIZE - 2;

/// Levels of list and map nesting (and of required properties) looked into.
const MAX_LEVELS: usize = 8;

/// The largest size of a value as the schema determines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaxSize {
    /// A bound the schema sets (`maxItems`, `maxProperties`, `maxLength` ×4, the longest enum
    /// value).
    Schema(u64),
    /// No bound: as many elements as fit in the request, each taking at least this many bytes
    /// (with its separator); 1 for a string (every byte a character).
    Request(u64),
}

impl MaxSize {
    /// The size for a request budget of `budget` bytes.
    pub fn at(self, budget: u64) -> u64 {
        match self {
            MaxSize::Schema(n) => n,
            MaxSize::Request(per) => budget / per.max(1),
        }
    }
}

/// The largest sizes along a property: the property's own size, then that of its elements, their
/// elements… as long as the value is a list, a map or a string. Empty for objects and scalars.
pub fn max_sizes(minor: u32, prop: &Value) -> Vec<MaxSize> {
    let mut out = Vec::new();
    let mut node = resolve(minor, prop);
    for _ in 0..MAX_LEVELS {
        let Some(current) = node else { break };
        let (size, next) = level(minor, &current);
        let Some(size) = size else { break };
        out.push(size);
        node = next;
    }
    out
}

/// The size of one level and the schema of its elements.
fn level(minor: u32, node: &Value) -> (Option<MaxSize>, Option<Arc<Value>>) {
    let bound = |key: &str| node.get(key).and_then(Value::as_u64).map(MaxSize::Schema);
    if is_int_or_string(node) {
        let size = node.get("maxLength").and_then(Value::as_u64);
        let size = size.map_or(MaxSize::Request(1), |n| {
            MaxSize::Schema(n.saturating_mul(4))
        });
        return (Some(size), None);
    }
    match node.get("type").and_then(Value::as_str) {
        Some("string") => (Some(string_size(node)), None),
        Some("array") => {
            let items = node.get("items").and_then(|i| resolve(minor, i));
            let min = items.as_ref().map_or(1, |i| min_size(minor, i, 0));
            let size = bound("maxItems").unwrap_or(MaxSize::Request(min + 1));
            (Some(size), items)
        }
        Some("object") => {
            let Some(values) = node
                .get("additionalProperties")
                .filter(|v| v.is_object())
                .and_then(|v| resolve(minor, v))
            else {
                return (None, None);
            };
            let min = min_size(minor, &values, 0);
            let size = bound("maxProperties").unwrap_or(MaxSize::Request(min + 6));
            (Some(size), Some(values))
        }
        _ => (None, None),
    }
}

fn string_size(node: &Value) -> MaxSize {
    // Durations, dates and date-times are bounded by their longest encoding, whatever their
    // `maxLength` (`estimateMaxStringLengthPerRequest` in apiserver `pkg/cel/common/schemas.go`,
    // sizes from `pkg/cel/limits.go`).
    match node.get("format").and_then(Value::as_str) {
        Some("duration" | "date-time") => return MaxSize::Schema(32),
        Some("date") => return MaxSize::Schema(12),
        _ => {}
    }
    if let Some(n) = node.get("maxLength").and_then(Value::as_u64) {
        let per_char = if node.get("format").and_then(Value::as_str) == Some("byte") {
            1
        } else {
            4
        };
        return MaxSize::Schema(n.saturating_mul(per_char));
    }
    let longest_enum = node
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|values| {
            values
                .iter()
                .filter_map(Value::as_str)
                .map(|s| s.chars().count() as u64)
                .max()
        });
    longest_enum.map_or(MaxSize::Request(1), MaxSize::Schema)
}

/// The shortest JSON encoding of a value of the schema node `node` (its `MinSerializedSize`).
pub fn min_serialized_size(minor: u32, node: &Value) -> u64 {
    resolve(minor, node).map_or(1, |node| min_size(minor, &node, 0))
}

/// The shortest JSON encoding of a value of `node` (`MinSerializedSize` of apiserver
/// `pkg/cel/common/schemas.go` `SchemaDeclType`, constants from `pkg/cel/limits.go`): `0`, `""`,
/// `[]`, `true`, a duration `"0"`, an RFC 3339 date or date-time, and for objects (not maps)
/// their required properties without a default.
fn min_size(minor: u32, node: &Value, depth: usize) -> u64 {
    if is_int_or_string(node) {
        return 1;
    }
    match node.get("type").and_then(Value::as_str) {
        Some("boolean") => 4,
        Some("number" | "integer") => 1,
        Some("string") => match node.get("format").and_then(Value::as_str) {
            Some("duration") => 3,
            Some("date") => 12,
            Some("date-time") => 21,
            _ => 2,
        },
        Some("array") => 2,
        Some("object") if is_map(node) => 2,
        Some("object") => 2 + required_size(minor, node, depth),
        _ => 1,
    }
}

/// An object schema that CEL sees as a map: one with `additionalProperties` (a schema or `true`).
fn is_map(node: &Value) -> bool {
    node.get("additionalProperties")
        .is_some_and(|extra| extra.is_object() || extra.as_bool() == Some(true))
}

/// The smallest encoding of the required properties of an object: `"name":value,` each.
fn required_size(minor: u32, node: &Value, depth: usize) -> u64 {
    if depth >= MAX_LEVELS {
        return 0;
    }
    let Some(required) = node.get("required").and_then(Value::as_array) else {
        return 0;
    };
    let properties = node.get("properties");
    required
        .iter()
        .filter_map(Value::as_str)
        .filter_map(|name| {
            let prop = resolve(minor, properties?.get(name)?)?;
            // A property with a default is filled in by the server, so the request may omit it.
            if prop.get("default").is_some() {
                return None;
            }
            Some(name.len() as u64 + min_size(minor, &prop, depth + 1) + 4)
        })
        .sum()
}

/// `node` with a `$ref` (directly or as the single `allOf` entry) replaced by its definition.
fn resolve(minor: u32, node: &Value) -> Option<Arc<Value>> {
    let mut current = Arc::new(node.clone());
    for _ in 0..MAX_LEVELS {
        let target = current.get("$ref").and_then(Value::as_str).or_else(|| {
            let all_of = current.get("allOf")?.as_array()?;
            match all_of.as_slice() {
                [only] => only.get("$ref")?.as_str(),
                _ => None,
            }
        });
        let Some(target) = target else {
            return Some(current);
        };
        current = bundled::definition(minor, target)?;
    }
    Some(current)
}

fn is_int_or_string(node: &Value) -> bool {
    node.get("x-kubernetes-int-or-string")
        .and_then(Value::as_bool)
        == Some(true)
        || node.get("format").and_then(Value::as_str) == Some("int-or-string")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schema_limits_win_over_the_request_size_rule() {
        let at = |sizes: Vec<MaxSize>| -> Vec<u64> {
            sizes.into_iter().map(|s| s.at(REQUEST_BUDGET)).collect()
        };
        let bounded =
            json!({"type": "array", "maxItems": 5, "items": {"type": "string", "maxLength": 10}});
        assert_eq!(at(max_sizes(33, &bounded)), vec![5, 40]);
        let open = json!({"type": "array", "items": {"type": "object", "required": ["name"],
            "properties": {"name": {"type": "string"}}}});
        // {"name":""} is 12 bytes: (3 MiB - 2) / 13 items.
        assert_eq!(at(max_sizes(33, &open)), vec![REQUEST_BUDGET / 13]);
        let map = json!({"type": "object", "additionalProperties": {"type": "string"}});
        assert_eq!(
            at(max_sizes(33, &map)),
            vec![REQUEST_BUDGET / 8, REQUEST_BUDGET]
        );
        let choice = json!({"type": "string", "enum": ["Always", "IfNotPresent"]});
        assert_eq!(max_sizes(33, &choice), vec![MaxSize::Schema(12)]);
    }

    #[test]
    fn smallest_encodings_follow_the_api_server_types() {
        let size = |node: serde_json::Value| min_serialized_size(33, &node);
        assert_eq!(size(json!({"type": "string", "format": "date-time"})), 21);
        assert_eq!(size(json!({"type": "string", "format": "date"})), 12);
        assert_eq!(size(json!({"type": "string", "format": "duration"})), 3);
        assert_eq!(size(json!({"x-kubernetes-int-or-string": true})), 1);
        let required = json!({"type": "object", "required": ["kind"],
            "properties": {"kind": {"type": "string"}}});
        assert_eq!(size(required), 2 + 4 + 2 + 4);
        let map = json!({"type": "object", "required": ["kind"],
            "additionalProperties": {"type": "string"}});
        assert_eq!(size(map), 2);
    }
}
