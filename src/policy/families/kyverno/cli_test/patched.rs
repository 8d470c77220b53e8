//! A result's `patchedResources` and `generatedResource` compared as Kyverno's CLI compares them
//! (`cmd/cli/kubectl-kyverno/commands/test/compare.go` `getAndCompareResource`): the expected
//! document is the one of the file with the actual resource's apiVersion, kind, namespace and
//! name (`resource/resource.go` `GetResourceFromPath`, read as resources are); both get the
//! labels fixup (`resource/labels.go`: `app.kubernetes.io/managed-by: kyverno` added, the
//! `generate.kyverno.io/` labels dropped) and are tidied (`resource/tidy.go`: nulls, empty maps
//! and empty lists removed); they are equal when the JSON merge patch between them is empty
//! (`resource/compare.go`), so numbers compare by value.

use serde_json::{Map, Value as Json};

use crate::policy::admission::json::str_at;
use crate::policy::admission::patch;

/// How deep a resource is compared (deeper values compare as they are).
const MAX_DEPTH: usize = 128;

/// The label every compared resource gets.
const MANAGED_BY: &str = "app.kubernetes.io/managed-by";

/// Which result field names the expected file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// `patchedResources`: the resource after the mutations.
    Patched,
    /// `generatedResource` (or one of `generatedResources`): a generated resource.
    Generated,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Patched => "patchedResources",
            Field::Generated => "generatedResource",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Field::Patched => "patched",
            Field::Generated => "generated",
        }
    }
}

/// Compares `actual` with its document among `expected` (the file `file` of `field`, prepared
/// as resources are): `Ok(None)` when equal, `Ok(Some(diff))` when not, `Err` when the file has
/// no document for it.
pub fn compare(
    actual: &Json,
    expected: &[Json],
    file: &str,
    field: Field,
) -> Result<Option<String>, String> {
    let key = |r: &Json| {
        [
            str_at(r, &["apiVersion"]).to_string(),
            str_at(r, &["kind"]).to_string(),
            str_at(r, &["metadata", "namespace"]).to_string(),
            str_at(r, &["metadata", "name"]).to_string(),
        ]
    };
    let wanted = key(actual);
    let Some(expected) = expected.iter().find(|e| key(e) == wanted) else {
        return Err(format!(
            "{}: resource with name {} not found in manifest {file}",
            field.name(),
            wanted[3]
        ));
    };
    let (actual, expected) = (normalized(actual), normalized(expected));
    if actual == expected {
        return Ok(None);
    }
    let ops = patch::diff(&expected, &actual);
    let lines: Vec<String> = ops.iter().map(Json::to_string).collect();
    Ok(Some(format!(
        "the {} resource differs from {file} (patch from expected to actual: {})",
        field.noun(),
        lines.join(", ")
    )))
}

/// The resource with the labels fixup, tidied, numbers as floats.
fn normalized(resource: &Json) -> Json {
    let mut out = resource.clone();
    fix_labels(&mut out);
    tidy(&out, 0).unwrap_or(Json::Null)
}

/// `FixupGenerateLabels`.
fn fix_labels(resource: &mut Json) {
    let mut labels = Map::new();
    labels.insert(MANAGED_BY.into(), Json::from("kyverno"));
    if let Some(Json::Object(old)) = resource.pointer("/metadata/labels") {
        for (k, v) in old {
            if !k.starts_with("generate.kyverno.io/") {
                labels.insert(k.clone(), v.clone());
            }
        }
    }
    let Json::Object(root) = resource else { return };
    let metadata = root
        .entry("metadata")
        .or_insert_with(|| Json::Object(Map::new()));
    if let Json::Object(metadata) = metadata {
        metadata.insert("labels".into(), Json::Object(labels));
    }
}

/// `tidy`: `None` for null and for maps and lists left empty.
fn tidy(value: &Json, depth: usize) -> Option<Json> {
    if depth > MAX_DEPTH {
        return Some(value.clone());
    }
    match value {
        Json::Null => None,
        Json::Object(map) => {
            let out: Map<String, Json> = map
                .iter()
                .filter_map(|(k, v)| Some((k.clone(), tidy(v, depth + 1)?)))
                .collect();
            (!out.is_empty()).then_some(Json::Object(out))
        }
        Json::Array(items) => {
            let out: Vec<Json> = items.iter().filter_map(|v| tidy(v, depth + 1)).collect();
            (!out.is_empty()).then_some(Json::Array(out))
        }
        Json::Number(n) => Some(
            n.as_f64()
                .and_then(serde_json::Number::from_f64)
                .map_or_else(|| value.clone(), Json::Number),
        ),
        other => Some(other.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equal_after_the_labels_fixup_tidy_and_numbers_by_value() {
        let actual = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "default", "annotations": {},
                "labels": {"generate.kyverno.io/x": "y"}},
            "spec": {"priority": 3, "volumes": []}});
        let expected = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "default"},
            "spec": {"priority": 3.0}});
        assert_eq!(
            compare(&actual, &[expected], "e.yaml", Field::Patched),
            Ok(None)
        );
    }

    #[test]
    fn a_different_value_or_a_missing_document_is_reported() {
        let actual = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "default"}, "spec": {"priority": 3}});
        let other = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "default"}, "spec": {"priority": 4}});
        let diff = compare(
            &actual,
            std::slice::from_ref(&other),
            "e.yaml",
            Field::Generated,
        );
        assert!(
            matches!(diff, Ok(Some(d)) if d.contains("/spec/priority") && d.contains("generated"))
        );
        let elsewhere = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "other"}});
        assert!(compare(&actual, &[elsewhere], "e.yaml", Field::Patched).is_err());
    }
}
