//! The bad value a failed `x-kubernetes-validations` rule shows in its field error, as the API
//! server of each version prints it (apiextensions-apiserver `pkg/apiserver/schema/cel/
//! validation.go` `validateExpressions`, rendered by apimachinery `field.Error.ErrorBody`).
//!
//! Up to 1.34 the value is the schema node's type name, quoted (`Invalid value: "string": …`).
//! From 1.35 (upstream "Show simple values in validation rule errors" and "Omit value type from
//! validation rule failures") a scalar shows itself — a string Go-quoted (`%q`), a number or a
//! boolean as Go's `%v` prints it, `null` for null — and an object or array shows nothing
//! (`Invalid value: …`, `field.OmitValueType`).

use serde_json::Value as Json;

use crate::cel::eval::functions::convert::format_double;
use crate::cel::kube::go::quote as go_quote;

/// The first minor whose rule failures show values instead of type names.
const VALUES_FROM: u32 = 35;

/// The bad value after `Invalid value` (or `Duplicate value`) for a rule on a node of type
/// `node_type` with `value`: `None` when the error shows none.
pub(crate) fn shown(node_type: &str, value: &Json, minor: u32) -> Option<String> {
    if minor < VALUES_FROM {
        return Some(go_quote(node_type));
    }
    if matches!(node_type, "object" | "array") {
        return None;
    }
    Some(scalar(value))
}

/// A decoded JSON scalar as `%v` (numbers, booleans) or `%q` (strings) prints it; an integer is
/// an `int64` in the unstructured object, any other number a `float64`.
fn scalar(value: &Json) -> String {
    match value {
        Json::Null => "null".to_string(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => match n.as_i64() {
            Some(i) => i.to_string(),
            None => format_double(n.as_f64().unwrap_or(0.0)),
        },
        Json::String(s) => go_quote(s),
        // Not reached for a scalar node; what `json.Marshal` would give.
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn type_names_up_to_1_34() {
        assert_eq!(
            shown("string", &json!("x"), 34).as_deref(),
            Some("\"string\"")
        );
        assert_eq!(
            shown("object", &json!({}), 34).as_deref(),
            Some("\"object\"")
        );
    }

    #[test]
    fn scalars_from_1_35_and_nothing_for_objects_and_arrays() {
        assert_eq!(
            shown("string", &json!("a\"b\\c\n"), 35).as_deref(),
            Some(r#""a\"b\\c\n""#)
        );
        assert_eq!(shown("integer", &json!(7), 35).as_deref(), Some("7"));
        assert_eq!(shown("number", &json!(0.75), 35).as_deref(), Some("0.75"));
        assert_eq!(shown("number", &json!(2.0), 35).as_deref(), Some("2"));
        assert_eq!(shown("boolean", &json!(true), 35).as_deref(), Some("true"));
        assert_eq!(shown("string", &json!(null), 35).as_deref(), Some("null"));
        assert_eq!(shown("object", &json!({"a": 1}), 35), None);
        assert_eq!(shown("array", &json!([1]), 37), None);
        assert_eq!(go_quote("café\u{7f}\u{200b}"), r#""café\x7f\u200b""#);
    }
}
