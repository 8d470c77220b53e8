//! Whether a Constraint applies to an object: `spec.match` as gatekeeper
//! `pkg/mutation/match/match.go` `Matches` decides it (kinds, scope, namespaces and excluded
//! namespaces with their prefix and suffix globs, label and namespace selectors, name, source),
//! before any CEL runs. An object reviewed here is an original (not a generated) resource.

use serde_json::Value as Json;

use crate::policy::admission::json::{at, str_at};
use crate::policy::admission::matching::selector_matches;
use crate::policy::admission::view::{Requirement, Selector};

/// Whether the Constraint's `spec.match` takes `object` (`namespace`: the object's Namespace,
/// when known); `Err` is Gatekeeper's matching error.
pub fn matches(constraint: &Json, object: &Json, namespace: Option<&Json>) -> Result<bool, String> {
    let Some(criteria) = at(constraint, &["spec", "match"]) else {
        return Ok(true);
    };
    let is_namespace = is_namespace(object);
    let object_namespace = str_at(object, &["metadata", "namespace"]);
    // The namespace the globs are matched against (`namespacesMatch`).
    let namespace_name = if is_namespace {
        Some(str_at(object, &["metadata", "name"]))
    } else if let Some(ns) = namespace {
        Some(str_at(ns, &["metadata", "name"]))
    } else {
        Some(object_namespace).filter(|n| !n.is_empty())
    };
    let strings = |key: &str| -> Vec<String> {
        criteria
            .get(key)
            .and_then(Json::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(Json::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    if !kinds(criteria, object) {
        return Ok(false);
    }
    let has_namespace = !object_namespace.is_empty() || namespace.is_some();
    // `scopeMatch`: a Namespace and an object without a namespace are cluster-scoped.
    let cluster_scoped = is_namespace || !has_namespace;
    match str_at(criteria, &["scope"]) {
        "Cluster" if !cluster_scoped => return Ok(false),
        "Namespaced" if cluster_scoped => return Ok(false),
        _ => {}
    }
    let included = strings("namespaces");
    if let Some(name) = namespace_name
        && !included.is_empty()
        && !included.iter().any(|glob| glob_matches(glob, name))
    {
        return Ok(false);
    }
    let excluded = strings("excludedNamespaces");
    if let Some(name) = namespace_name
        && excluded.iter().any(|glob| glob_matches(glob, name))
    {
        return Ok(false);
    }
    if let Some(selector) = criteria.get("labelSelector")
        && !selector_matches(&read_selector(selector), labels(object))
    {
        return Ok(false);
    }
    if let Some(selector) = criteria.get("namespaceSelector") {
        let selector = read_selector(selector);
        if is_namespace {
            if !selector_matches(&selector, labels(object)) {
                return Ok(false);
            }
        } else if let Some(ns) = namespace {
            if !selector_matches(&selector, labels(ns)) {
                return Ok(false);
            }
        } else if !object_namespace.is_empty() {
            return Err(
                "namespace selector for namespace-scoped object but missing Namespace".into(),
            );
        }
    }
    let name = str_at(criteria, &["name"]);
    if !name.is_empty() && !glob_matches(name, str_at(object, &["metadata", "name"])) {
        let generate = str_at(object, &["metadata", "generateName"]);
        let by_generate = name.ends_with('*')
            && !generate.is_empty()
            && generate.starts_with(name.trim_end_matches('*'));
        if !by_generate {
            return Ok(false);
        }
    }
    Ok(str_at(criteria, &["source"]) != "Generated")
}

/// `kindsMatch`: some entry whose kinds and groups take the object's (empty or `*`: any).
fn kinds(criteria: &Json, object: &Json) -> bool {
    let Some(entries) = criteria.get("kinds").and_then(Json::as_array) else {
        return true;
    };
    if entries.is_empty() {
        return true;
    }
    let api_version = str_at(object, &["apiVersion"]);
    let group = api_version.rsplit_once('/').map_or("", |(group, _)| group);
    let kind = str_at(object, &["kind"]);
    let takes = |entry: &Json, key: &str, value: &str| {
        let list: Vec<&str> = entry
            .get(key)
            .and_then(Json::as_array)
            .map(|items| items.iter().filter_map(Json::as_str).collect())
            .unwrap_or_default();
        list.is_empty() || list.contains(&"*") || list.contains(&value)
    };
    entries
        .iter()
        .any(|entry| takes(entry, "kinds", kind) && takes(entry, "apiGroups", group))
}

/// A Gatekeeper wildcard (`pkg/wildcard`): `kube-*` a prefix, `*-system` a suffix, `*system*`
/// a substring, anything else the whole name.
pub fn glob_matches(glob: &str, name: &str) -> bool {
    match (glob.strip_prefix('*'), glob.strip_suffix('*')) {
        (Some(rest), Some(_)) if glob.len() > 1 => name.contains(rest.trim_end_matches('*')),
        (Some(suffix), _) => name.ends_with(suffix),
        (None, Some(prefix)) => name.starts_with(prefix),
        (None, None) => glob == name,
    }
}

fn is_namespace(object: &Json) -> bool {
    str_at(object, &["apiVersion"]) == "v1" && str_at(object, &["kind"]) == "Namespace"
}

fn labels(object: &Json) -> Option<&serde_json::Map<String, Json>> {
    at(object, &["metadata", "labels"]).and_then(Json::as_object)
}

/// A `metav1.LabelSelector` written as JSON.
fn read_selector(selector: &Json) -> Selector {
    let match_labels = selector
        .get("matchLabels")
        .and_then(Json::as_object)
        .map(|labels| {
            labels
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                .collect()
        });
    let match_expressions = selector
        .get("matchExpressions")
        .and_then(Json::as_array)
        .map(|items| {
            items
                .iter()
                .map(|item| Requirement {
                    key: str_at(item, &["key"]).to_string(),
                    operator: str_at(item, &["operator"]).to_string(),
                    values: item
                        .get("values")
                        .and_then(Json::as_array)
                        .map(|v| {
                            v.iter()
                                .filter_map(Json::as_str)
                                .map(str::to_string)
                                .collect()
                        })
                        .unwrap_or_default(),
                })
                .collect()
        });
    Selector {
        match_labels,
        match_expressions,
    }
}
