//! The resources of a suite as Kyverno's CLI loads them before any policy sees them
//! (`cmd/cli/kubectl-kyverno/resource/resource.go` `GetUnstructuredResources`,
//! `commands/test/test.go` `ProcessResources`): a namespaced kind without a namespace is put in
//! `default`; `annotations`, `labels`, `matchLabels`, `nodeSelector`, `data` and `stringData`
//! written as null become empty maps (`normalizeNilMaps`); every number becomes a float64
//! (`convertNumericValuesToFloat64`), so CEL sees doubles.

use serde_json::{Map, Value as Json};

use crate::policy::admission::json::str_at;
use crate::policy::admission::request::split_api_version;
use crate::schema::resources::is_namespaced;

/// How deep a resource is rewritten (deeper values are left as they are).
const MAX_DEPTH: usize = 128;

/// The fields `normalizeNilMaps` turns from null into an empty map.
const MAP_FIELDS: &[&str] = &[
    "annotations",
    "labels",
    "matchLabels",
    "nodeSelector",
    "data",
    "stringData",
];

/// `resource` as the CLI hands it to the engines.
pub fn prepare(mut resource: Json) -> Json {
    let (group, _) = split_api_version(str_at(&resource, &["apiVersion"]));
    let kind = str_at(&resource, &["kind"]).to_string();
    let namespace = str_at(&resource, &["metadata", "namespace"]).is_empty();
    if namespace
        && is_namespaced(&group, &kind)
        && let Some(Json::Object(metadata)) = resource.get_mut("metadata")
    {
        metadata.insert("namespace".into(), Json::from("default"));
    }
    normalize(&mut resource, 0);
    resource
}

fn normalize(value: &mut Json, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Json::Object(map) => normalize_map(map, depth),
        Json::Array(items) => items.iter_mut().for_each(|v| normalize(v, depth + 1)),
        Json::Number(n) => {
            if let Some(f) = n.as_f64()
                && let Some(float) = serde_json::Number::from_f64(f)
            {
                *n = float;
            }
        }
        _ => {}
    }
}

fn normalize_map(map: &mut Map<String, Json>, depth: usize) {
    for (key, value) in map.iter_mut() {
        if value.is_null() && MAP_FIELDS.contains(&key.as_str()) {
            *value = Json::Object(Map::new());
        } else {
            normalize(value, depth + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_the_namespace_empties_null_maps_and_makes_numbers_floats() {
        let pod = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "labels": null},
            "spec": {"priority": 3, "containers": [{"name": "c", "ports": [{"containerPort": 80}]}]}});
        let prepared = prepare(pod);
        assert_eq!(prepared["metadata"]["namespace"], "default");
        assert_eq!(prepared["metadata"]["labels"], json!({}));
        assert!(prepared["spec"]["priority"].is_f64());
        assert!(prepared["spec"]["containers"][0]["ports"][0]["containerPort"].is_f64());
        let namespace = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "n"}});
        assert!(prepare(namespace)["metadata"].get("namespace").is_none());
    }
}
