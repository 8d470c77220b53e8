//! Schema → CEL type conversion as the API server's `SchemaDeclType` does it,
//! one object level at a time: converting an object type yields its fields, and each nested object
//! becomes a named [`Pending`] type converted only when the checker asks for its fields.
//!
//! Two deliberate choices for runtime shapes (issue 4): int-or-string (`format: int-or-string` on
//! built-ins, `x-kubernetes-int-or-string` on CRDs) is `dyn`, as the API server types it; a
//! built-in Quantity is `string` (the bundle writes it `type: string, format: quantity`): the
//! admission object always carries it as a string, whereas the API server's own static checker
//! resolves a typeless v3 `oneOf` and drops such fields (see `scripts/gen-schemas.py`).
//!
//! `$ref`s are resolved against the bundled definitions of one minor version. A `$ref` already on
//! the path from the root (a cycle) becomes an object with no fields, as the API server's resolver
//! turns it into `{type: object}`; nesting beyond [`MAX_DEPTH`] ends the same way.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::bundled;
use super::escape::escape;
use super::registry::{FieldInfo, ListType};
use crate::cel::types::Type;

/// Deepest nesting of schema levels (objects, lists, maps) converted; deeper levels are objects
/// without fields, so a hostile schema cannot exhaust the stack or the cache.
pub const MAX_DEPTH: usize = 64;

/// Longest chain of `$ref`s followed from one node.
const MAX_REF_CHAIN: usize = 32;

/// A node of a schema: a shared document and the object keys leading to the node.
#[derive(Clone, Debug)]
pub struct Loc {
    root: Arc<Value>,
    path: Vec<Arc<str>>,
}

impl Loc {
    /// The root of `doc`.
    pub fn root(doc: Arc<Value>) -> Self {
        Self {
            root: doc,
            path: Vec::new(),
        }
    }

    fn child(&self, key: &str) -> Self {
        let mut path = self.path.clone();
        path.push(Arc::from(key));
        Self {
            root: self.root.clone(),
            path,
        }
    }

    fn get(&self) -> Option<&Value> {
        self.path
            .iter()
            .try_fold(&*self.root, |node, key| node.get(&**key))
    }
}

/// An object type whose fields are not converted yet.
#[derive(Clone, Debug)]
pub struct Pending {
    /// The object's schema (refs already followed).
    pub loc: Loc,
    /// Definitions on the path from the root, for cycle detection.
    pub ancestors: Arc<Vec<Arc<str>>>,
    /// Nesting level of the object.
    pub depth: usize,
    /// Whether the resource-root metadata rule applies (roots and embedded resources).
    pub resource_root: bool,
}

/// A converted object type: its fields by escaped name.
#[derive(Clone, Debug, Default)]
pub struct ObjectType {
    /// Fields by escaped name.
    pub fields: BTreeMap<Arc<str>, FieldInfo>,
}

/// Conversion state of one call: the bundled version and the object types it discovered.
pub struct Ctx {
    /// Minor version whose definitions resolve `$ref`s.
    pub minor: u32,
    /// Object types found: `None` for cycles or depth cuts (no fields), else pending.
    pub found: Vec<(Arc<str>, Option<Pending>)>,
}

/// Where following `$ref`s ends.
enum Followed {
    /// A schema node without `$ref`.
    Node(Loc),
    /// A reference to no bundled definition: the property is dropped.
    Unknown,
    /// A reference back to a definition on the path (or a chain too long).
    Cycle,
}

fn str_at<'a>(node: &'a Value, key: &str) -> Option<&'a str> {
    node.get(key).and_then(Value::as_str)
}

fn is_true(node: &Value, key: &str) -> bool {
    node.get(key).and_then(Value::as_bool).unwrap_or(false)
}

impl Ctx {
    fn empty_object(&mut self, name: &str) -> Type {
        self.found.push((Arc::from(name), None));
        Type::object(name)
    }

    /// Follows `$ref`s from `loc`, pushing each definition onto `ancestors`.
    fn follow_refs(&self, mut loc: Loc, ancestors: &mut Vec<Arc<str>>) -> Followed {
        for _ in 0..MAX_REF_CHAIN {
            let Some(target) = loc.get().and_then(|n| str_at(n, "$ref")) else {
                return Followed::Node(loc);
            };
            if ancestors.iter().any(|a| &**a == target) {
                return Followed::Cycle;
            }
            let Some(def) = bundled::definition(self.minor, target) else {
                return Followed::Unknown;
            };
            ancestors.push(Arc::from(target));
            loc = Loc::root(def);
        }
        Followed::Cycle
    }

    /// The CEL type of the node at `loc`, named `name` if it is an object; `None` when the API
    /// server drops it (no type, array without items, map of dropped values, unknown `$ref`).
    pub fn convert(
        &mut self,
        loc: Loc,
        name: &str,
        ancestors: &[Arc<str>],
        depth: usize,
        resource_root: bool,
    ) -> Option<Type> {
        if depth > MAX_DEPTH {
            return Some(self.empty_object(name));
        }
        let embedded = resource_root || loc.get().is_some_and(is_embedded);
        let mut ancestors = ancestors.to_vec();
        let loc = match self.follow_refs(loc, &mut ancestors) {
            Followed::Node(loc) => loc,
            Followed::Unknown => return None,
            // The API server's resolver turns a circular reference into `{type: object}`.
            Followed::Cycle => return Some(self.empty_object(name)),
        };
        let node = loc.get()?;
        let embedded = embedded || is_embedded(node);
        if is_true(node, "x-kubernetes-int-or-string")
            || str_at(node, "format") == Some("int-or-string")
        {
            return Some(Type::Dyn);
        }
        match str_at(node, "type")? {
            "object" => {
                if node
                    .get("additionalProperties")
                    .is_some_and(Value::is_object)
                {
                    let child = loc.child("additionalProperties");
                    let elem = self.convert(child, name, &ancestors, depth + 1, false)?;
                    return Some(Type::map(Type::String, elem));
                }
                let pending = Pending {
                    loc,
                    ancestors: Arc::new(ancestors),
                    depth,
                    resource_root: embedded,
                };
                self.found.push((Arc::from(name), Some(pending)));
                Some(Type::object(name))
            }
            "array" => {
                node.get("items").filter(|i| i.is_object())?;
                let elem = self.convert(loc.child("items"), name, &ancestors, depth + 1, false)?;
                Some(Type::list(elem))
            }
            "string" => Some(match str_at(node, "format") {
                Some("byte") => Type::Bytes,
                Some("duration") => Type::Duration,
                Some("date") | Some("date-time") => Type::Timestamp,
                _ => Type::String,
            }),
            "boolean" => Some(Type::Bool),
            "number" => Some(Type::Double),
            "integer" => Some(Type::Int),
            _ => None,
        }
    }

    /// Converts the fields of a pending object type named `name`.
    pub fn build_object(&mut self, name: &str, pending: &Pending) -> ObjectType {
        let Some(node) = pending.loc.get() else {
            return ObjectType::default();
        };
        let required: BTreeSet<&str> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut properties: Vec<(String, Loc)> = node
            .get("properties")
            .and_then(Value::as_object)
            .map(|props| {
                let base = pending.loc.child("properties");
                props.keys().map(|k| (k.clone(), base.child(k))).collect()
            })
            .unwrap_or_default();
        if pending.resource_root && !has_type_and_object_meta(self.minor, node) {
            let metadata = node.get("properties").and_then(|p| p.get("metadata"));
            apply_type_and_object_meta(&mut properties, metadata, self.minor);
        }
        let mut object = ObjectType::default();
        for (raw, loc) in properties {
            let Some(escaped) = escape(&raw) else {
                continue;
            };
            let child_name = format!("{name}.{escaped}");
            let prop = loc.get().cloned().unwrap_or(Value::Null);
            let Some(ty) = self.convert(
                loc,
                &child_name,
                &pending.ancestors,
                pending.depth + 1,
                false,
            ) else {
                continue;
            };
            let doc = self.doc(&prop, &pending.ancestors);
            let resolved = str_at(&prop, "$ref").and_then(|r| bundled::definition(self.minor, r));
            let is_required = required.contains(raw.as_str());
            let mut info = FieldInfo::new(ty, doc, is_required, &raw, &prop, resolved.as_deref());
            info.item_map_type = self.item_map_type(&prop, resolved.as_deref());
            info.max_sizes = super::sizes::max_sizes(self.minor, &prop);
            object.fields.insert(Arc::from(escaped), info);
        }
        object
    }

    /// The `x-kubernetes-map-type` of a list property's items, following one `$ref` on the items
    /// (built-in item types carry it on their definition).
    fn item_map_type(&self, prop: &Value, resolved: Option<&Value>) -> Option<Arc<str>> {
        let items = prop.get("items").or_else(|| resolved?.get("items"))?;
        let key = "x-kubernetes-map-type";
        string_ext(items, key).or_else(|| {
            let def = bundled::definition(self.minor, str_at(items, "$ref")?)?;
            string_ext(&def, key)
        })
    }

    /// The property's description, else the description of the definition it refers to.
    fn doc(&self, prop: &Value, ancestors: &[Arc<str>]) -> Option<Arc<str>> {
        if let Some(text) = str_at(prop, "description") {
            return Some(Arc::from(text));
        }
        let target = str_at(prop, "$ref")?;
        if ancestors.iter().any(|a| &**a == target) {
            return None;
        }
        let def = bundled::definition(self.minor, target)?;
        str_at(&def, "description").map(Arc::from)
    }
}

fn is_embedded(node: &Value) -> bool {
    is_true(node, "x-kubernetes-embedded-resource")
}

/// Whether `node` already declares string `kind` and `apiVersion` and a `metadata` object with
/// string `name` and `generateName` (following a `$ref` on `metadata`), as built-in kinds do.
fn has_type_and_object_meta(minor: u32, node: &Value) -> bool {
    let is_string = |n: Option<&Value>| n.and_then(|n| str_at(n, "type")) == Some("string");
    let props = node.get("properties");
    let prop = |key: &str| props.and_then(|p| p.get(key));
    if !is_string(prop("kind")) || !is_string(prop("apiVersion")) {
        return false;
    }
    let Some(meta) = prop("metadata") else {
        return false;
    };
    let resolved;
    let meta = match str_at(meta, "$ref") {
        Some(target) => match bundled::definition(minor, target) {
            Some(def) => {
                resolved = def;
                &*resolved
            }
            None => return false,
        },
        None => meta,
    };
    let meta_prop = |key: &str| meta.get("properties").and_then(|p| p.get(key));
    str_at(meta, "type") == Some("object")
        && is_string(meta_prop("name"))
        && is_string(meta_prop("generateName"))
}

/// The resource-root rule: string `kind` and `apiVersion`, and a `metadata` holding only `name` and
/// `generateName` (`metadata` is the schema's own, for the lengths it declares).
fn apply_type_and_object_meta(
    properties: &mut Vec<(String, Loc)>,
    metadata: Option<&Value>,
    minor: u32,
) {
    properties.retain(|(name, _)| !matches!(name.as_str(), "kind" | "apiVersion" | "metadata"));
    let string = || Loc::root(Arc::new(json!({"type": "string"})));
    let mut meta_props = Map::new();
    for (key, cap) in [
        ("name", NAME_MAX_LENGTH),
        ("generateName", NAME_MAX_LENGTH - 1),
    ] {
        let declared = metadata
            .and_then(|m| m.get("properties"))
            .and_then(|p| p.get(key))
            .and_then(|p| p.get("maxLength"))
            .and_then(Value::as_u64);
        let mut prop = json!({"type": "string"});
        if minor >= NAME_MAX_LENGTH_FROM {
            prop["maxLength"] = json!(declared.map_or(cap, |d| d.min(cap)));
        }
        meta_props.insert(key.to_string(), prop);
    }
    let meta = json!({"type": "object", "properties": meta_props});
    properties.push(("kind".to_string(), string()));
    properties.push(("apiVersion".to_string(), string()));
    properties.push(("metadata".to_string(), Loc::root(Arc::new(meta))));
}

/// The `maxLength` the resource root's `metadata.name` gets (a DNS subdomain's 253;
/// `generateName` one less, as the generated suffix is at least one byte), from 1.37 on:
/// apiextensions-apiserver `pkg/apiserver/schema/cel/model/schemas.go` `WithTypeAndObjectMeta`,
/// `cappedLengthStringType` (a shorter declared `maxLength` is kept).
const NAME_MAX_LENGTH: u64 = 253;
const NAME_MAX_LENGTH_FROM: u32 = 37;

/// Reads the list and map extensions of a property for [`FieldInfo`].
pub fn list_type(prop: &Value) -> Option<ListType> {
    match str_at(prop, "x-kubernetes-list-type")? {
        "atomic" => Some(ListType::Atomic),
        "set" => Some(ListType::Set),
        "map" => Some(ListType::Map),
        _ => None,
    }
}

/// The `x-kubernetes-list-map-keys` of a property.
pub fn list_map_keys(prop: &Value) -> Vec<Arc<str>> {
    prop.get("x-kubernetes-list-map-keys")
        .and_then(Value::as_array)
        .map(|keys| {
            keys.iter()
                .filter_map(Value::as_str)
                .map(Arc::from)
                .collect()
        })
        .unwrap_or_default()
}

/// A string extension of a property (`x-kubernetes-map-type`, `x-kubernetes-patch-strategy`…).
pub fn string_ext(prop: &Value, key: &str) -> Option<Arc<str>> {
    str_at(prop, key).map(Arc::from)
}
