//! Small read-only helpers over the YAML tree: how a scalar resolves (null, bool, number or string) the
//! way Kubernetes' YAML-to-JSON step resolves it, and mapping look-ups.
//!
//! Kept private to `policy` so that the policy rules do not depend on helper names the `yaml` module may
//! still change.

use crate::yaml::{Entry, Node, NodeKind, Scalar, ScalarStyle};

/// What a scalar becomes after YAML → JSON conversion (sigs.k8s.io/yaml, YAML 1.1 resolution).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Resolved {
    /// `~`, `null`, or nothing at all.
    Null,
    /// `true`, `yes`, `on`… (YAML 1.1 booleans, which Kubernetes still resolves).
    Bool,
    /// An integer or a float.
    Number,
    /// Anything else, and every quoted or block scalar.
    String,
}

/// How `scalar` (held by `node`) resolves.
pub(crate) fn resolve(node: &Node, scalar: &Scalar) -> Resolved {
    if let Some(tag) = &node.tag {
        // An explicit tag decides; only the core tags are worth telling apart.
        return match tag
            .trim_start_matches('!')
            .trim_start_matches("tag:yaml.org,2002:")
        {
            "null" => Resolved::Null,
            "bool" => Resolved::Bool,
            "int" | "float" => Resolved::Number,
            _ => Resolved::String,
        };
    }
    if scalar.style != ScalarStyle::Plain {
        return Resolved::String;
    }
    resolve_plain(&scalar.value)
}

fn resolve_plain(value: &str) -> Resolved {
    match value {
        "" | "~" | "null" | "Null" | "NULL" => Resolved::Null,
        "y" | "Y" | "yes" | "Yes" | "YES" | "n" | "N" | "no" | "No" | "NO" | "true" | "True"
        | "TRUE" | "false" | "False" | "FALSE" | "on" | "On" | "ON" | "off" | "Off" | "OFF" => {
            Resolved::Bool
        }
        _ if is_number(value) => Resolved::Number,
        _ => Resolved::String,
    }
}

/// Integers (decimal, `0x`, `0o`, `0b`), floats with an optional exponent, `.inf` and `.nan`.
fn is_number(value: &str) -> bool {
    let unsigned = value.strip_prefix(['-', '+']).unwrap_or(value);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") || matches!(value, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = unsigned.strip_prefix(prefix) {
            return !digits.is_empty() && digits.chars().all(|c| c == '_' || c.is_digit(radix));
        }
    }
    is_decimal(unsigned)
}

fn is_decimal(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let mut digits = 0;
    let mut dots = 0;
    for c in mantissa.chars() {
        match c {
            '0'..='9' => digits += 1,
            '.' => dots += 1,
            '_' => {}
            _ => return false,
        }
    }
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
    });
    digits > 0 && dots <= 1 && exponent_ok
}

/// The scalar of a node, if it is one.
pub(crate) fn scalar(node: &Node) -> Option<&Scalar> {
    match &node.kind {
        NodeKind::Scalar(scalar) => Some(scalar),
        _ => None,
    }
}

/// Whether the node is a null scalar (absent in JSON terms).
pub(crate) fn is_null(node: &Node) -> bool {
    scalar(node).is_some_and(|s| resolve(node, s) == Resolved::Null)
}

/// The entries of a mapping node.
pub(crate) fn entries(node: &Node) -> Option<&[Entry]> {
    match &node.kind {
        NodeKind::Mapping(entries) => Some(entries),
        _ => None,
    }
}

/// The text of a scalar key.
pub(crate) fn key_text(entry: &Entry) -> Option<&str> {
    scalar(&entry.key).map(|s| s.value.as_str())
}

/// The entry for `key`; the last one wins when a key is repeated, as in JSON decoding.
pub(crate) fn lookup<'a>(node: &'a Node, key: &str) -> Option<&'a Entry> {
    entries(node)?
        .iter()
        .rev()
        .find(|e| key_text(e) == Some(key))
}

/// The string value of `key` when it is a non-null scalar.
pub(crate) fn lookup_str<'a>(node: &'a Node, key: &str) -> Option<&'a str> {
    let entry = lookup(node, key)?;
    let scalar = scalar(&entry.value)?;
    (resolve(&entry.value, scalar) != Resolved::Null).then_some(scalar.value.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_scalars_resolve_like_kubernetes_yaml() {
        assert_eq!(resolve_plain("~"), Resolved::Null);
        assert_eq!(resolve_plain("yes"), Resolved::Bool);
        assert_eq!(resolve_plain("12"), Resolved::Number);
        assert_eq!(resolve_plain("-1.5e+3"), Resolved::Number);
        assert_eq!(resolve_plain("0x1F"), Resolved::Number);
        assert_eq!(resolve_plain("1.2.3"), Resolved::String);
        assert_eq!(resolve_plain("v1"), Resolved::String);
        assert_eq!(resolve_plain("."), Resolved::String);
        assert_eq!(resolve_plain("e5"), Resolved::String);
    }
}
