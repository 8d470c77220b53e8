//! YAML documents as JSON values, the shape the API server hands to CEL (`object`, `params`, …) and
//! the shape the evaluator reads policies in. Tags are ignored except `!!str`, which keeps text.

use serde_json::{Map, Number, Value as Json};

use crate::yaml::{self, Node, NodeKind};

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

/// One node as JSON.
pub fn node_to_json(node: &Node) -> Json {
    match &node.kind {
        NodeKind::Scalar(s) => {
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
        NodeKind::Sequence(items) => Json::Array(items.iter().map(node_to_json).collect()),
        NodeKind::Mapping(entries) => {
            let mut map = Map::new();
            for entry in entries {
                let key = match &entry.key.kind {
                    NodeKind::Scalar(s) => s.value.clone(),
                    _ => continue,
                };
                map.insert(key, node_to_json(&entry.value));
            }
            Json::Object(map)
        }
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
