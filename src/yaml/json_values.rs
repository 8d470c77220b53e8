//! What sigs.k8s.io/yaml's conversion of a decoded document to JSON refuses.
//!
//! kubectl decodes each document with go-yaml v2 into Go values, then writes them as JSON with
//! `encoding/json` (sigs.k8s.io/yaml `yaml.go` `yamlToJSONTarget`, into a `RawExtension`, so no
//! value is turned into a string on the way). go-yaml v2 resolves the plain scalars `.inf`,
//! `-.inf`, `.nan` and their other spellings (go.yaml.in/yaml/v2 `resolve.go`, the table of
//! `resolve_table`) to floats that `encoding/json` cannot write: the document is refused with
//! "json: unsupported value: +Inf" (`-Inf`, `NaN`). As a mapping key such a float becomes the
//! text `.inf` (`convertToJSONableObject`), which is fine.
//!
//! go-yaml itself refuses a `!!binary` scalar that is not base64 (`decode.go` `scalar`, see
//! `binary`), even as a value a later one of the same key replaces: it decodes them all.

use std::collections::HashMap;

use super::{Entry, Node, NodeKind, ScalarStyle, SyntaxError, binary};

/// The first value of `root` that `encoding/json` refuses, as the error kubectl reports, in
/// document order. A value whose key is written again later in its mapping is not looked at:
/// go-yaml keeps the last value of a key.
pub(crate) fn refusal(root: &Node) -> Option<SyntaxError> {
    // Almost no document has such a value: one plain walk looks for both, the careful walk for a
    // float only runs after it found one.
    let mut walk = nodes(root, false);
    let first = walk.find(|node| is_invalid_binary(node) || unsupported_float(node).is_some())?;
    // A bad binary anywhere is reported before a float, as go-yaml fails on it while decoding.
    let binary = Some(first)
        .filter(|node| is_invalid_binary(node))
        .or_else(|| walk.find(|node| is_invalid_binary(node)));
    if let Some(node) = binary {
        return Some(SyntaxError {
            range: node.range,
            message: binary::INVALID.to_owned(),
        });
    }
    let node = nodes(root, true).find(|node| unsupported_float(node).is_some())?;
    let written = unsupported_float(node)?;
    Some(SyntaxError {
        range: node.range,
        message: format!("json: unsupported value: {written}"),
    })
}

/// The nodes under `root` (itself included) in document order, keys left out; with
/// `kept_only`, without the values whose key is written again later in their mapping.
fn nodes(root: &Node, kept_only: bool) -> impl Iterator<Item = &Node> {
    let mut pending = vec![root];
    std::iter::from_fn(move || {
        let node = pending.pop()?;
        match &node.kind {
            NodeKind::Scalar(_) => {}
            NodeKind::Sequence(items) => pending.extend(items.iter().rev()),
            NodeKind::Mapping(entries) if kept_only => {
                let last = last_of_each_key(entries);
                let kept = entries.iter().enumerate().filter(|(at, entry)| {
                    key_text(entry).is_none_or(|key| last.get(key) == Some(at))
                });
                let values: Vec<&Node> = kept.map(|(_, entry)| &entry.value).collect();
                pending.extend(values.into_iter().rev());
            }
            NodeKind::Mapping(entries) => {
                pending.extend(entries.iter().rev().map(|entry| &entry.value));
            }
        }
        Some(node)
    })
}

/// The index of the last entry of each scalar key (compared as written: duplicated keys are
/// written the same way).
fn last_of_each_key(entries: &[Entry]) -> HashMap<&str, usize> {
    let mut last = HashMap::new();
    for (at, entry) in entries.iter().enumerate() {
        if let Some(key) = key_text(entry) {
            last.insert(key, at);
        }
    }
    last
}

fn key_text(entry: &Entry) -> Option<&str> {
    entry.key.as_scalar().map(|scalar| scalar.value.as_str())
}

/// Whether `node` is a `!!binary` scalar go-yaml cannot decode.
fn is_invalid_binary(node: &Node) -> bool {
    match (&node.kind, node.tag.as_deref()) {
        (NodeKind::Scalar(scalar), Some(tag)) => {
            binary::is_binary_tag(tag) && binary::decoded(&scalar.value).is_none()
        }
        _ => false,
    }
}

/// How `encoding/json` names the float a scalar resolves to, when it cannot write it.
fn unsupported_float(node: &Node) -> Option<&'static str> {
    let NodeKind::Scalar(scalar) = &node.kind else {
        return None;
    };
    let resolved_as_float = match node.tag.as_deref().map(short_tag) {
        None => scalar.style == ScalarStyle::Plain,
        Some(tag) => tag == "float",
    };
    if !resolved_as_float {
        return None;
    }
    match scalar.value.as_str() {
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Some("+Inf"),
        "-.inf" | "-.Inf" | "-.INF" => Some("-Inf"),
        ".nan" | ".NaN" | ".NAN" => Some("NaN"),
        _ => None,
    }
}

/// `!!float`, `tag:yaml.org,2002:float` → `float`.
fn short_tag(tag: &str) -> &str {
    tag.trim_start_matches("tag:yaml.org,2002:")
        .trim_start_matches('!')
}
