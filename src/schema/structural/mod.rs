//! What the API server does to a custom resource when it decodes it, by the structural schema of
//! its CRD version (apiextensions-apiserver `pkg/apiserver/customresource_handler.go`,
//! `unstructuredSchemaCoercer.apply` then `unstructuredDefaulter.Default`):
//!
//! 1. [`prune`]: unknown fields are dropped (`pkg/apiserver/schema/pruning/algorithm.go`) unless a
//!    node has `x-kubernetes-preserve-unknown-fields` or the CRD `spec.preserveUnknownFields`;
//!    `apiVersion`, `kind` and `metadata` of the root and of every
//!    `x-kubernetes-embedded-resource` are kept.
//! 2. `null`s of non-nullable fields without a default are dropped
//!    (`pkg/apiserver/schema/defaulting/prunenulls.go`).
//! 3. [`meta`]: `metadata` is coerced to `ObjectMeta`, at the root and in embedded resources
//!    (`pkg/apiserver/schema/objectmeta/coerce.go`, `algorithm.go`): unknown fields and empty
//!    values are dropped, timestamps re-written, a field of the wrong type is an error.
//! 4. [`default`]: `default`s are applied (`pkg/apiserver/schema/defaulting/algorithm.go`): a
//!    property's default when it is absent (or `null` and not nullable), a list item's and a map
//!    value's default when it is a non-nullable `null`, nested defaults only inside objects that
//!    exist (or were just defaulted).
//!
//! The schema is a CRD version's `openAPIV3Schema` as JSON, either as written or as
//! [`crate::schema::CrdKind::schema`] publishes it (its `metadata` is a `$ref` to `ObjectMeta`, which
//! changes nothing here: the root's `metadata` is always coerced to `ObjectMeta`). Paths are written
//! as the pruning algorithm writes unknown fields: keys joined with `.`, list indexes as `[i]`.

pub mod default;
pub mod meta;
pub mod prune;
pub mod validate;

use serde_json::{Map, Value as Json};

use super::CrdKind;

/// Nesting followed; deeper parts of an object are left as they are (objects from YAML stop at
/// 256 levels already).
pub(crate) const MAX_DEPTH: usize = 300;

/// What decoding did to a custom resource.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decoded {
    /// Fields set from a schema `default`, in the order they were set.
    pub defaulted: Vec<String>,
    /// Unknown fields dropped, sorted as upstream reports them.
    pub pruned: Vec<String>,
    /// `null`s of non-nullable fields without a default, dropped.
    pub dropped_nulls: Vec<String>,
    /// What makes the API server refuse the object (a `metadata` field of the wrong type, a
    /// non-string `apiVersion` in an embedded resource), with its path.
    pub errors: Vec<String>,
}

/// Options of [`decode_custom`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The CRD's `spec.preserveUnknownFields` (legacy `apiextensions.k8s.io/v1beta1`): nothing is
    /// pruned and no `null` dropped.
    pub preserve_unknown_fields: bool,
}

/// Prunes, coerces and defaults `object` as the API server decodes a custom resource whose CRD
/// version has `schema` (see the module documentation for the steps).
pub fn decode_custom(schema: &Json, object: &mut Json, options: Options) -> Decoded {
    let mut out = Decoded::default();
    let schema = Schema(schema);
    if !options.preserve_unknown_fields {
        out.pruned = prune::prune(object, Some(schema), true);
        out.dropped_nulls = default::prune_non_nullable_nulls(object, Some(schema));
    }
    // The root's metadata is coerced whatever the schema says; embedded resources by the schema.
    if let Json::Object(map) = object {
        match meta::coerce_root(map) {
            Ok(mut unknown) => {
                unknown.append(&mut out.pruned);
                out.pruned = unknown;
            }
            Err(error) => out.errors.push(error),
        }
    }
    match meta::coerce_embedded(object, schema) {
        Ok(unknown) => out.pruned.extend(unknown),
        Err(error) => out.errors.push(error),
    }
    if !out.errors.is_empty() {
        // The decode fails: the API server answers with the error and defaults nothing.
        return out;
    }
    out.defaulted = default::apply_defaults(object, Some(schema));
    out
}

/// [`decode_custom`] for an object of `crd`'s version (a version without a schema prunes
/// everything but `apiVersion`, `kind` and `metadata`, as upstream's nil structural schema does,
/// unless the CRD preserves unknown fields).
pub fn decode_crd_object(crd: &CrdKind, object: &mut Json) -> Decoded {
    let empty = Json::Object(Map::new());
    let schema = crd.schema.as_deref().unwrap_or(&empty);
    let options = Options {
        preserve_unknown_fields: crd.preserve_unknown_fields,
    };
    decode_custom(schema, object, options)
}

/// Applies only the schema's defaults (what the API server does after each mutating admission
/// policy and to objects read from storage): the last step of [`decode_custom`].
pub fn default_custom(schema: &Json, object: &mut Json) -> Vec<String> {
    default::apply_defaults(object, Some(Schema(schema)))
}

/// A node of a structural schema, read in place.
#[derive(Clone, Copy, Debug)]
pub struct Schema<'a>(pub &'a Json);

impl<'a> Schema<'a> {
    fn flag(self, key: &str) -> bool {
        self.0.get(key).and_then(Json::as_bool) == Some(true)
    }

    /// The schema of property `name`, if declared.
    pub fn property(self, name: &str) -> Option<Schema<'a>> {
        self.0
            .get("properties")
            .and_then(Json::as_object)
            .and_then(|p| p.get(name))
            .filter(|s| s.is_object())
            .map(Schema)
    }

    /// The declared properties.
    pub fn properties(self) -> Option<&'a Map<String, Json>> {
        self.0.get("properties").and_then(Json::as_object)
    }

    /// `additionalProperties`: `None` when absent; `Some(None)` for a boolean (no schema for the
    /// values, as upstream's `StructuralOrBool` without `Structural`); `Some(Some(schema))`.
    pub fn additional_properties(self) -> Option<Option<Schema<'a>>> {
        match self.0.get("additionalProperties")? {
            Json::Object(_) => Some(Some(Schema(&self.0["additionalProperties"]))),
            Json::Bool(_) => Some(None),
            _ => None,
        }
    }

    /// The schema of list items, if declared.
    pub fn items(self) -> Option<Schema<'a>> {
        self.0.get("items").filter(|s| s.is_object()).map(Schema)
    }

    /// The `default`, if there is one (`default: null` counts as none, as upstream's
    /// `Default.Object == nil`).
    pub fn default(self) -> Option<&'a Json> {
        self.0.get("default").filter(|d| !d.is_null())
    }

    /// `nullable`.
    pub fn nullable(self) -> bool {
        self.flag("nullable")
    }

    /// `x-kubernetes-preserve-unknown-fields`.
    pub fn preserves_unknown_fields(self) -> bool {
        self.flag("x-kubernetes-preserve-unknown-fields")
    }

    /// `x-kubernetes-embedded-resource`.
    pub fn embedded_resource(self) -> bool {
        self.flag("x-kubernetes-embedded-resource")
    }
}

/// Builds upstream's unknown-field paths: keys joined with `.`, indexes as `[i]`.
#[derive(Clone, Debug, Default)]
pub(crate) struct PathBuf {
    parts: Vec<String>,
}

impl PathBuf {
    pub(crate) fn push_key(&mut self, key: &str) {
        if !self.parts.is_empty() {
            self.parts.push(".".to_string());
        }
        self.parts.push(key.to_string());
    }

    pub(crate) fn push_index(&mut self, index: usize) {
        self.parts.push(format!("[{index}]"));
    }

    pub(crate) fn len(&self) -> usize {
        self.parts.len()
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        self.parts.truncate(len);
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The path with `key` appended.
    pub(crate) fn with_key(&self, key: &str) -> String {
        let mut s = self.parts.concat();
        if !s.is_empty() {
            s.push('.');
        }
        s.push_str(key);
        s
    }

    pub(crate) fn render(&self) -> String {
        self.parts.concat()
    }
}

#[cfg(test)]
mod tests;
