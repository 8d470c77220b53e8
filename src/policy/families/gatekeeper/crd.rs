//! The CRD a ConstraintTemplate creates for its Constraint kind, as frameworks
//! `constraint/pkg/client/crds/crds.go` `CreateCRD` and `schema.go` `CreateSchema` build it: group
//! `constraints.gatekeeper.sh`, cluster-scoped, served in `v1beta1` (storage) and `v1alpha1`, the
//! template's schema under `spec.parameters` beside `match` (gatekeeper `pkg/target`, the
//! `embeddedMatch` of `matchcrd_constant.go`), `enforcementAction` and `scopedEnforcementActions`.
//! A template whose `legacySchema` holds (the default before `v1`) keeps unknown parameters
//! (frameworks `pkg/schema/transform.go` `AddPreserveUnknownFields`).
//!
//! Also what the workspace keeps of each Constraint: the kinds its `spec.match.kinds` names, which
//! type `object` in its template's CEL.

use serde_json::{Value as Json, json};

use crate::policy::admission::json::yaml_to_json;
use crate::schema::{CrdKind, from_crd_json};
use crate::yaml::Node;

/// The served versions of every constraint kind, storage first.
pub const VERSIONS: &[&str] = &["v1beta1", "v1alpha1"];

/// The CRD kinds the template at `root` creates; none when it names no kind or its CRD cannot
/// be read (the template's own check reports why).
pub fn kinds(root: &Node) -> Vec<CrdKind> {
    let Some(kind) = super::template_kind(root) else {
        return Vec::new();
    };
    let parameters = root
        .get("spec")
        .and_then(|s| s.get("crd"))
        .and_then(|c| c.get("spec"))
        .and_then(|s| s.get("validation"));
    let legacy = legacy_schema(root, parameters);
    let parameters = parameters
        .and_then(|v| v.get("openAPIV3Schema"))
        .and_then(yaml_to_json)
        .filter(Json::is_object)
        .map(|mut schema| {
            if legacy {
                preserve_unknown_fields(&mut schema, 0);
            }
            schema
        });
    from_crd_json(&crd_json(kind, parameters)).unwrap_or_default()
}

/// Whether the template's parameters keep unknown fields: `legacySchema` when written, else
/// `true` for the versions before `v1` (their defaulting, frameworks `apis/templates/*/defaults.go`).
fn legacy_schema(root: &Node, validation: Option<&Node>) -> bool {
    let written = validation
        .and_then(|v| v.get("legacySchema"))
        .and_then(|n| n.as_scalar()?.as_bool());
    written.unwrap_or_else(|| {
        let api_version = root.get("apiVersion").and_then(Node::as_str).unwrap_or("");
        !api_version.ends_with("/v1")
    })
}

/// `x-kubernetes-preserve-unknown-fields: true` on every object schema without properties, as
/// `AddPreserveUnknownFields` marks them (bounded by the schema depth).
fn preserve_unknown_fields(schema: &mut Json, depth: usize) {
    if depth > 64 {
        return;
    }
    let Some(map) = schema.as_object_mut() else {
        return;
    };
    let untyped = map.get("type").is_none_or(|t| t == "object");
    if untyped && map.get("properties").is_none() && map.get("additionalProperties").is_none() {
        map.insert(
            "x-kubernetes-preserve-unknown-fields".into(),
            Json::Bool(true),
        );
    }
    if let Some(Json::Object(properties)) = map.get_mut("properties") {
        for property in properties.values_mut() {
            preserve_unknown_fields(property, depth + 1);
        }
    }
    if let Some(items) = map.get_mut("items") {
        preserve_unknown_fields(items, depth + 1);
    }
}

/// The CRD as the API server would get it, in `apiextensions.k8s.io/v1` form.
fn crd_json(kind: &str, parameters: Option<Json>) -> Json {
    let plural = kind.to_lowercase();
    let mut spec_properties = json!({
        "match": match_schema(),
        "enforcementAction": {"type": "string", "default": "deny"},
        "scopedEnforcementActions": {
            "type": "array",
            "items": {"type": "object", "properties": {
                "action": {"type": "string"},
                "enforcementPoints": {"type": "array", "items": {
                    "type": "object", "properties": {"name": {"type": "string"}}
                }}
            }}
        }
    });
    if let (Some(parameters), Some(map)) = (parameters, spec_properties.as_object_mut()) {
        map.insert("parameters".into(), parameters);
    }
    let schema = json!({
        "type": "object",
        "properties": {
            "metadata": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 63}}},
            "spec": {"type": "object", "properties": spec_properties},
            "status": {"x-kubernetes-preserve-unknown-fields": true}
        }
    });
    let versions: Vec<Json> = VERSIONS
        .iter()
        .enumerate()
        .map(|(i, name)| {
            json!({
                "name": name, "served": true, "storage": i == 0,
                "schema": {"openAPIV3Schema": schema},
                "subresources": {"status": {}}
            })
        })
        .collect();
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{plural}.{}", super::CONSTRAINTS)},
        "spec": {
            "group": super::CONSTRAINTS,
            "names": {"kind": kind, "plural": plural, "singular": plural, "listKind": format!("{kind}List")},
            "scope": "Cluster",
            "versions": versions
        }
    })
}

/// A label selector's schema (`metav1.LabelSelector`).
fn selector_schema() -> Json {
    json!({
        "type": "object",
        "properties": {
            "matchExpressions": {"type": "array", "items": {
                "type": "object",
                "required": ["key", "operator"],
                "properties": {
                    "key": {"type": "string"},
                    "operator": {"type": "string"},
                    "values": {"type": "array", "items": {"type": "string"}}
                }
            }},
            "matchLabels": {"type": "object", "additionalProperties": {"type": "string"}}
        }
    })
}

/// The schema of `spec.match` (gatekeeper `pkg/mutation/match/match_types.go` `Match`).
fn match_schema() -> Json {
    let glob = json!({"type": "string", "pattern": "^\\*?[-:a-z0-9]*\\*?$"});
    json!({
        "type": "object",
        "properties": {
            "source": {"type": "string", "enum": ["All", "Generated", "Original"]},
            "kinds": {"type": "array", "items": {"type": "object", "properties": {
                "apiGroups": {"type": "array", "items": {"type": "string"}},
                "kinds": {"type": "array", "items": {"type": "string"}}
            }}},
            "scope": {"type": "string"},
            "namespaces": {"type": "array", "items": glob},
            "excludedNamespaces": {"type": "array", "items": glob},
            "labelSelector": selector_schema(),
            "namespaceSelector": selector_schema(),
            "name": glob
        }
    })
}

/// The `(group, kind)` pairs the Constraint at `root` matches in `spec.match.kinds`; `*` stays
/// as written (the reader decides what a wildcard types).
pub fn match_kinds(root: &Node) -> Vec<(String, String)> {
    let entries = root
        .get("spec")
        .and_then(|s| s.get("match"))
        .and_then(|m| m.get("kinds"))
        .and_then(Node::as_sequence)
        .unwrap_or(&[]);
    let strings = |node: &Node, key: &str| -> Vec<String> {
        node.get(key)
            .and_then(Node::as_sequence)
            .unwrap_or(&[])
            .iter()
            .filter_map(Node::as_str)
            .map(str::to_string)
            .collect()
    };
    let mut pairs = Vec::new();
    for entry in entries {
        let groups = strings(entry, "apiGroups");
        let groups = if groups.is_empty() {
            vec!["*".to_string()]
        } else {
            groups
        };
        for kind in strings(entry, "kinds") {
            pairs.extend(groups.iter().map(|group| (group.clone(), kind.clone())));
        }
    }
    pairs
}
