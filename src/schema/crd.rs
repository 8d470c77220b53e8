//! `CustomResourceDefinition` → the kinds it serves, each with its `openAPIV3Schema` prepared as
//! the API server publishes it (string `apiVersion` and `kind`, `metadata` as the full
//! `ObjectMeta`), so that a CRD types `object` and `params` the same way a built-in kind does.
//!
//! The CRD comes in as JSON (the policy layer converts YAML); mistakes are returned as values with
//! the path of the offending field.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::Gvk;
use super::bundled::OBJECT_META;

/// Whether a kind's objects live in a namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// `Namespaced`.
    Namespaced,
    /// `Cluster`.
    Cluster,
}

/// One served version of a CRD.
#[derive(Clone, Debug)]
pub struct CrdKind {
    /// Group, version and kind.
    pub gvk: Gvk,
    /// Plural resource name (`spec.names.plural`).
    pub plural: String,
    /// Scope (`spec.scope`).
    pub scope: Scope,
    /// Whether this version is the storage version.
    pub storage: bool,
    /// The subresources this version enables (`status`, `scale`), sorted.
    pub subresources: Vec<String>,
    /// The version's schema as published, or `None` when the CRD gives none (objects are `dyn`).
    pub schema: Option<Arc<Value>>,
    /// The CRD's `spec.preserveUnknownFields` (legacy `v1beta1`): its objects are not pruned.
    pub preserve_unknown_fields: bool,
}

impl CrdKind {
    /// The root object type name of this kind (see [`Gvk::type_name`]).
    pub fn type_name(&self) -> String {
        self.gvk.type_name()
    }
}

/// A CRD that cannot be read: what is wrong and where (a dotted path such as `spec.names.kind`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrdError {
    /// Dotted path of the offending field.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

fn error(path: &str, message: &str) -> CrdError {
    CrdError {
        path: path.to_string(),
        message: message.to_string(),
    }
}

fn string_at<'a>(value: &'a Value, pointer: &str, path: &str) -> Result<&'a str, CrdError> {
    match value.pointer(pointer) {
        Some(Value::String(text)) if !text.is_empty() => Ok(text),
        Some(_) => Err(error(path, "must be a non-empty string")),
        None => Err(error(path, "required")),
    }
}

/// The served versions of a CRD (`apiextensions.k8s.io/v1`, or the legacy `v1beta1` top-level
/// `spec.validation`), in the order the CRD lists them.
pub fn from_crd_json(crd: &Value) -> Result<Vec<CrdKind>, CrdError> {
    if crd.get("kind").and_then(Value::as_str) != Some("CustomResourceDefinition") {
        return Err(error("kind", "not a CustomResourceDefinition"));
    }
    let group = string_at(crd, "/spec/group", "spec.group")?;
    let kind = string_at(crd, "/spec/names/kind", "spec.names.kind")?;
    let plural = string_at(crd, "/spec/names/plural", "spec.names.plural")?;
    let scope = match crd.pointer("/spec/scope").and_then(Value::as_str) {
        Some("Cluster") => Scope::Cluster,
        Some("Namespaced") => Scope::Namespaced,
        _ => return Err(error("spec.scope", "must be Namespaced or Cluster")),
    };
    let Some(versions) = crd.pointer("/spec/versions").and_then(Value::as_array) else {
        return Err(error("spec.versions", "required"));
    };
    let shared = crd.pointer("/spec/validation/openAPIV3Schema");
    let shared_subresources = crd.pointer("/spec/subresources");
    let preserve_unknown_fields = crd
        .pointer("/spec/preserveUnknownFields")
        .and_then(Value::as_bool)
        == Some(true);
    let mut out = Vec::new();
    for (i, version) in versions.iter().enumerate() {
        let name = string_at(version, "/name", &format!("spec.versions[{i}].name"))?;
        if version.get("served").and_then(Value::as_bool) == Some(false) {
            continue;
        }
        let schema = version
            .pointer("/schema/openAPIV3Schema")
            .or(shared)
            .filter(|s| s.is_object())
            .map(|s| Arc::new(published(s)));
        out.push(CrdKind {
            gvk: Gvk::new(group, name, kind),
            plural: plural.to_string(),
            scope,
            storage: version.get("storage").and_then(Value::as_bool) == Some(true),
            subresources: subresources(version.get("subresources").or(shared_subresources)),
            schema,
            preserve_unknown_fields,
        });
    }
    Ok(out)
}

/// The names of the enabled subresources (keys of `subresources` whose value is an object).
fn subresources(value: Option<&Value>) -> Vec<String> {
    let mut names: Vec<String> = value
        .and_then(Value::as_object)
        .map(|map| {
            map.iter()
                .filter(|(name, v)| v.is_object() && matches!(name.as_str(), "status" | "scale"))
                .map(|(name, _)| name.clone())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The schema as the API server publishes it for a CRD: `apiVersion` and `kind` strings and
/// `metadata` referring to `ObjectMeta`, so that labels, namespace… are typed at the root.
fn published(schema: &Value) -> Value {
    let mut root = schema.clone();
    let Some(object) = root.as_object_mut() else {
        return root;
    };
    if object.get("type").and_then(Value::as_str) != Some("object") {
        return root;
    }
    let properties = object
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(properties) = properties.as_object_mut() {
        let string = |doc: &str| json!({"type": "string", "description": doc});
        properties.insert(
            "apiVersion".into(),
            string("APIVersion defines the versioned schema of this representation of an object."),
        );
        properties.insert(
            "kind".into(),
            string("Kind is a string value representing the REST resource this object represents."),
        );
        properties.insert(
            "metadata".into(),
            json!({"$ref": OBJECT_META, "description": "Standard object's metadata."}),
        );
    }
    root
}
