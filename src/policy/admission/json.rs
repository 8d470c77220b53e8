//! YAML documents as JSON values, the shape the API server hands to CEL (`object`, `params`, …) and
//! the shape the evaluator reads policies in. Tags are ignored except `!!str`, which keeps text.

use serde_json::{Map, Number, Value as Json};

use crate::yaml::{self, Node, NodeKind, Scalar};

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
                let key = match &entry.key.kind {
                    NodeKind::Scalar(s) => s.value.clone(),
                    _ => continue,
                };
                map.insert(key, convert(&entry.value, depth + 1)?);
            }
            Json::Object(map)
        }
    })
}

fn scalar(node: &Node, s: &Scalar) -> Json {
    if node.tag.as_deref().is_some_and(|t| t.ends_with("str")) {
        return Json::String(s.value.clone());
    }
    if s.is_null() {
        Json::Null
    } else if let Some(b) = s.as_bool() {
        Json::Bool(b)
    } else if let Some(i) = s.as_i64() {
        Json::from(i)
    } else if s.is_float() {
        s.value
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map_or_else(|| Json::String(s.value.clone()), Json::Number)
    } else {
        Json::String(s.value.clone())
    }
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
