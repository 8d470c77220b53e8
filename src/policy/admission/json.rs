//! YAML documents as JSON values, the shape the API server hands to CEL (`object`, `params`, …) and
//! the shape the evaluator reads policies in. Scalars and keys are what kubectl makes of them
//! (`go_scalar`: go-yaml v2's YAML 1.1 resolution, then sigs.k8s.io/yaml's JSON conversion).

mod go_scalar;

use serde_json::{Map, Value as Json};

use crate::yaml::{self, Node, NodeKind, Scalar, ScalarStyle};

/// Every document of a YAML text as JSON, in order; `Err` carries the first syntax error.
pub fn documents(text: &str) -> Result<Vec<Json>, String> {
    let file = yaml::parse(text);
    if let Some(error) = file.errors.first() {
        return Err(format!("YAML syntax error: {}", error.message));
    }
    Ok(file
        .documents
        .iter()
        .filter_map(|d| d.root.as_ref())
        .map(node_to_json)
        .filter(|j| !j.is_null())
        .collect())
}

/// How deep a document may nest; deeper ones are not converted (the recursion stays bounded).
const MAX_DEPTH: usize = 256;

/// One node as JSON; `null` for a node nested deeper than the limit.
pub fn node_to_json(node: &Node) -> Json {
    yaml_to_json(node).unwrap_or(Json::Null)
}

/// The JSON value of a YAML node (core schema scalars: null, booleans, integers, floats, strings;
/// a `!!str` tag keeps the text), `None` when nested deeper than 256 levels. The one conversion
/// from YAML to JSON: of policies, bindings, CRDs and every object evaluation sees.
pub fn yaml_to_json(node: &Node) -> Option<Json> {
    convert(node, 0)
}

fn convert(node: &Node, depth: usize) -> Option<Json> {
    if depth > MAX_DEPTH {
        return None;
    }
    Some(match &node.kind {
        NodeKind::Scalar(s) => scalar(node, s),
        NodeKind::Sequence(items) => Json::Array(
            items
                .iter()
                .map(|item| convert(item, depth + 1))
                .collect::<Option<Vec<_>>>()?,
        ),
        NodeKind::Mapping(entries) => {
            let mut map = Map::new();
            for entry in entries {
                // A key go-yaml or sigs.k8s.io/yaml refuses (a collection, a null) is left out.
                let NodeKind::Scalar(s) = &entry.key.kind else {
                    continue;
                };
                let Some(key) = go_scalar::to_key(resolved(&entry.key, s), &s.value) else {
                    continue;
                };
                map.insert(key, convert(&entry.value, depth + 1)?);
            }
            Json::Object(map)
        }
    })
}

fn scalar(node: &Node, s: &Scalar) -> Json {
    go_scalar::to_json(resolved(node, s), &s.value)
}

/// How go-yaml resolves the scalar `s` of `node`.
fn resolved(node: &Node, s: &Scalar) -> go_scalar::Resolved {
    let plain = s.style == ScalarStyle::Plain;
    go_scalar::resolve(&s.value, node.tag.as_deref(), plain)
}

/// `a.b.c` of a JSON value as a string, or "".
pub fn str_at<'a>(value: &'a Json, path: &[&str]) -> &'a str {
    at(value, path).and_then(Json::as_str).unwrap_or("")
}

/// `a.b.c` of a JSON value.
pub fn at<'a>(value: &'a Json, path: &[&str]) -> Option<&'a Json> {
    path.iter().try_fold(value, |v, key| v.get(key))
}

/// The strings of a JSON list at `path` (non-strings skipped).
pub fn strings_at(value: &Json, path: &[&str]) -> Vec<String> {
    at(value, path)
        .and_then(Json::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
