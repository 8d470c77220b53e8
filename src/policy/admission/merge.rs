//! The server-side-apply merge of an apply configuration into the live object, driven by the
//! schema of the object's kind (structured-merge-diff `Merge`): scalars are replaced, granular
//! structs and maps merged key by key, `listType: map` lists merged item by item on their keys
//! (new items appended), `listType: set` lists united; atomic lists, maps and structs in the patch
//! (items of atomic struct type included, and atomic parts inside atomic parts, all listed as the
//! API server's `findAtomics` does) are rejected with the API server's error, and fields the schema
//! lacks with its conversion error.
//!
//! A `null` in an apply configuration does not remove a field: cel-go hands the API server a CEL
//! `null` as the protobuf enum `structpb.NullValue` (`common/types/null.go` `Value`), which the
//! `Object` value keeps as it is (`apiserver: pkg/cel/mutation/dynamic/objects.go` `convertField`)
//! and which structured-merge-diff's conversion rejects as no value of the field's type
//! (`typed/validate.go` `validateScalar`, `typed/helpers.go` `listValue`/`mapValue`), so the
//! mutation fails. The message names the type as upstream does for numbers; for the other types
//! upstream prints its internal value wrapper where this says `structpb.NullValue`.

use serde_json::{Map, Value as Json};

use crate::cel::types::Type;
use crate::schema::escape::escape;
use crate::schema::{FieldInfo, ListType, SchemaTypes};

/// Merges `patch` into `live`, whose root type is `root`.
pub fn apply(
    schemas: &SchemaTypes,
    root: &Type,
    live: &Json,
    patch: &Json,
) -> Result<Json, String> {
    let mut merger = Merger {
        schemas,
        atomic: Vec::new(),
    };
    let merged = merger
        .value(root, None, "", Some(live), patch)
        .map_err(|e| {
            format!("error applying patch: failed to convert patch object to typed object: {e}")
        })?;
    if !merger.atomic.is_empty() {
        return Err(format!(
            "error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: {}",
            merger.atomic.join(", ")
        ));
    }
    Ok(merged)
}

struct Merger<'a> {
    schemas: &'a SchemaTypes,
    atomic: Vec<String>,
}

impl Merger<'_> {
    fn value(
        &mut self,
        ty: &Type,
        info: Option<&FieldInfo>,
        path: &str,
        live: Option<&Json>,
        patch: &Json,
    ) -> Result<Json, String> {
        if patch.is_null() {
            return Err(null_error(ty, path));
        }
        let atomic_map = info.and_then(|i| i.map_type.as_deref()) == Some("atomic");
        match (ty, patch) {
            (Type::Object(name), Json::Object(fields)) => {
                if atomic_map {
                    self.atomic.push(path.to_string());
                    // Like the API server, keep looking for atomic parts inside it.
                    self.object(name, path, None, fields)?;
                    return Ok(patch.clone());
                }
                self.object(name, path, live, fields)
            }
            (Type::Map(_, value_type), Json::Object(fields)) => {
                if atomic_map {
                    self.atomic.push(path.to_string());
                    for (key, item) in fields {
                        self.value(value_type, None, &format!("{path}.{key}"), None, item)?;
                    }
                    return Ok(patch.clone());
                }
                let mut out = live.and_then(Json::as_object).cloned().unwrap_or_default();
                for (key, item) in fields {
                    let merged = self.value(
                        value_type,
                        None,
                        &format!("{path}.{key}"),
                        out.get(key),
                        item,
                    )?;
                    out.insert(key.clone(), merged);
                }
                Ok(Json::Object(out))
            }
            (Type::List(elem), Json::Array(items)) => {
                let live_items = live.and_then(Json::as_array);
                match info.and_then(|i| i.list_type) {
                    Some(ListType::Map) => {
                        let keys = info.map(|i| i.list_map_keys.clone()).unwrap_or_default();
                        let item = info.map(|i| item_info(i, elem));
                        self.map_list(elem, item.as_ref(), path, live_items, items, &keys)
                    }
                    Some(ListType::Set) => {
                        if let Some(index) = items.iter().position(Json::is_null) {
                            return Err(null_error(elem, &format!("{path}[{index}]")));
                        }
                        Ok(set_union(live_items, items))
                    }
                    _ => {
                        self.atomic.push(path.to_string());
                        let item = info.map(|i| item_info(i, elem));
                        for (index, value) in items.iter().enumerate() {
                            let child = format!("{path}[{index}]");
                            self.value(elem, item.as_ref(), &child, None, value)?;
                        }
                        Ok(patch.clone())
                    }
                }
            }
            _ => Ok(patch.clone()),
        }
    }

    fn object(
        &mut self,
        name: &str,
        path: &str,
        live: Option<&Json>,
        fields: &Map<String, Json>,
    ) -> Result<Json, String> {
        let mut out = live.and_then(Json::as_object).cloned().unwrap_or_default();
        for (key, item) in fields {
            let child = format!("{path}.{key}");
            let info = escape(key).and_then(|escaped| self.schemas.field_info(name, &escaped));
            let Some(info) = info else {
                return Err(format!("{child}: field not declared in schema"));
            };
            let merged = self.value(&info.ty, Some(&info), &child, out.get(key), item)?;
            out.insert(key.clone(), merged);
        }
        Ok(Json::Object(out))
    }

    fn map_list(
        &mut self,
        elem: &Type,
        item: Option<&FieldInfo>,
        path: &str,
        live: Option<&Vec<Json>>,
        items: &[Json],
        keys: &[std::sync::Arc<str>],
    ) -> Result<Json, String> {
        let mut out: Vec<Json> = live.cloned().unwrap_or_default();
        let item_info = item;
        for (index, patch) in items.iter().enumerate() {
            let child = format!("{path}[{index}]");
            let same = |existing: &Json| keys.iter().all(|k| existing.get(&**k) == patch.get(&**k));
            match out.iter().position(same) {
                Some(at) => {
                    let merged = self.value(elem, item_info, &child, Some(&out[at]), patch)?;
                    out[at] = merged;
                }
                None => {
                    let merged = self.value(elem, item_info, &child, None, patch)?;
                    out.push(merged);
                }
            }
        }
        Ok(Json::Array(out))
    }
}

/// structured-merge-diff's conversion error for a `null` (a `structpb.NullValue`) where a value
/// of type `ty` belongs.
fn null_error(ty: &Type, path: &str) -> String {
    let expected = match ty {
        Type::Int | Type::Uint | Type::Double => "numeric (int or float)",
        Type::Bool => "boolean",
        Type::String | Type::Bytes | Type::Timestamp | Type::Duration | Type::Opaque(_) => "string",
        Type::List(_) => "list",
        Type::Map(..) | Type::Object(_) => "map",
        _ => "any scalar",
    };
    format!("{path}: expected {expected}, got structpb.NullValue")
}

/// What the schema says about the items of the list field `list` (of item type `elem`): only the
/// items' own `x-kubernetes-map-type` matters to the merge (atomic items such as
/// `LocalObjectReference` in `imagePullSecrets`).
fn item_info(list: &FieldInfo, elem: &Type) -> FieldInfo {
    FieldInfo {
        ty: elem.clone(),
        map_type: list.item_map_type.clone(),
        item_map_type: None,
        list_type: None,
        list_map_keys: Vec::new(),
        ..list.clone()
    }
}

fn set_union(live: Option<&Vec<Json>>, items: &[Json]) -> Json {
    let mut out: Vec<Json> = live.cloned().unwrap_or_default();
    for item in items {
        if !out.contains(item) {
            out.push(item.clone());
        }
    }
    Json::Array(out)
}

/// Fields of `value` that the schema rooted at `ty` does not declare, as the strict decoder names
/// them (`spec.template.spec.containers[0].foo`); the first few only.
pub fn unknown_fields(schemas: &SchemaTypes, ty: &Type, value: &Json) -> Vec<String> {
    let mut out = Vec::new();
    walk_unknown(schemas, ty, value, "", &mut out);
    out
}

const MAX_UNKNOWN: usize = 10;

fn walk_unknown(schemas: &SchemaTypes, ty: &Type, value: &Json, path: &str, out: &mut Vec<String>) {
    if out.len() >= MAX_UNKNOWN {
        return;
    }
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match (ty, value) {
        (Type::Object(name), Json::Object(fields)) => {
            for (key, item) in fields {
                match escape(key).and_then(|e| schemas.field_info(name, &e)) {
                    Some(info) => walk_unknown(schemas, &info.ty, item, &join(key), out),
                    None => out.push(join(key)),
                }
            }
        }
        (Type::Map(_, item_type), Json::Object(fields)) => {
            for (key, item) in fields {
                walk_unknown(schemas, item_type, item, &join(key), out);
            }
        }
        (Type::List(elem), Json::Array(items)) => {
            for (index, item) in items.iter().enumerate() {
                walk_unknown(schemas, elem, item, &format!("{path}[{index}]"), out);
            }
        }
        _ => {}
    }
}
