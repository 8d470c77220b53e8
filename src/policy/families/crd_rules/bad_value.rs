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

/// Go's `strconv.Quote`: `"` and `\` escaped, the usual control escapes, other non-printable
/// characters as `\x`, `\u` or `\U` escapes.
pub(crate) fn go_quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x80 && c.is_ascii_control() => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() || is_unprintable(c) => {
                let code = c as u32;
                if code <= 0xffff {
                    out.push_str(&format!("\\u{code:04x}"));
                } else {
                    out.push_str(&format!("\\U{code:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Characters Go's `unicode.IsPrint` refuses besides controls: format characters and
/// separators other than the ASCII space.
fn is_unprintable(c: char) -> bool {
    matches!(c,
        '\u{a0}' | '\u{ad}' | '\u{2000}'..='\u{200f}' | '\u{2028}'..='\u{202f}' | '\u{205f}'..='\u{206f}'
        | '\u{3000}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}')
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
