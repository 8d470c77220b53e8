//! `metadata` coerced to `ObjectMeta`, as `pkg/apiserver/schema/objectmeta/coerce.go`
//! (`GetObjectMetaWithOptions`, then `SetObjectMeta`) does it: the JSON is decoded into
//! `metav1.ObjectMeta` and written back with the unstructured converter, so unknown fields are
//! dropped, empty values (`""`, `0`, `{}`, `[]`) are omitted, timestamps are re-written in RFC 3339
//! UTC seconds, and the root keeps `creationTimestamp: null` when it has none (`metav1.Time`
//! writes its zero value as `null`; `algorithm.go` removes it from embedded resources only). A
//! field of the wrong type fails the decode, which the API server answers with an error.

use serde_json::{Map, Value as Json};

use super::{MAX_DEPTH, Schema};

/// How one `ObjectMeta` field decodes and is written back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    /// `string`, `omitempty`.
    Str,
    /// `int64`, `omitempty`.
    Int,
    /// `metav1.Time` (not a pointer): `null` when zero.
    Time,
    /// `*metav1.Time`, `omitempty`.
    OptTime,
    /// `*int64`, `omitempty`.
    OptInt,
    /// `map[string]string`, `omitempty`.
    StrMap,
    /// `[]string`, `omitempty`.
    StrList,
    /// `[]OwnerReference`, `omitempty`.
    OwnerReferences,
    /// `[]ManagedFieldsEntry`, `omitempty`.
    ManagedFields,
}

/// The fields of `k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta`.
const OBJECT_META: &[(&str, Field)] = &[
    ("name", Field::Str),
    ("generateName", Field::Str),
    ("namespace", Field::Str),
    ("selfLink", Field::Str),
    ("uid", Field::Str),
    ("resourceVersion", Field::Str),
    ("generation", Field::Int),
    ("creationTimestamp", Field::Time),
    ("deletionTimestamp", Field::OptTime),
    ("deletionGracePeriodSeconds", Field::OptInt),
    ("labels", Field::StrMap),
    ("annotations", Field::StrMap),
    ("ownerReferences", Field::OwnerReferences),
    ("finalizers", Field::StrList),
    ("managedFields", Field::ManagedFields),
];

/// Whether `name` is a field of `ObjectMeta` (the decoder drops any other).
pub fn is_object_meta_field(name: &str) -> bool {
    OBJECT_META.iter().any(|(field, _)| *field == name)
}

/// `OwnerReference`: the four strings are required (no `omitempty`), the flags are `*bool`.
const OWNER_REFERENCE_STRINGS: &[&str] = &["apiVersion", "kind", "name", "uid"];
const OWNER_REFERENCE_FLAGS: &[&str] = &["controller", "blockOwnerDeletion"];

/// `ManagedFieldsEntry`: `omitempty` strings, `*Time` and the raw `fieldsV1`.
const MANAGED_FIELDS_STRINGS: &[&str] = &[
    "manager",
    "operation",
    "apiVersion",
    "fieldsType",
    "subresource",
];

/// A decode failure, with the path of the field.
fn wrong_type(path: &str, expected: &str, value: &Json) -> String {
    let got = match value {
        Json::Null => "null",
        Json::Bool(_) => "bool",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    };
    format!("{path}: cannot decode {got} as {expected}")
}

/// `metav1.Time`: RFC 3339 in, RFC 3339 UTC seconds out; `None` for the zero time.
fn time(path: &str, value: &Json) -> Result<Option<String>, String> {
    let Json::String(text) = value else {
        return Err(wrong_type(path, "an RFC 3339 time", value));
    };
    let instant: jiff::Timestamp = text
        .parse()
        .map_err(|_| format!("{path}: {text:?} is not an RFC 3339 time"))?;
    let written = instant.strftime("%Y-%m-%dT%H:%M:%SZ").to_string();
    Ok((written != "0001-01-01T00:00:00Z").then_some(written))
}

fn string(path: &str, value: &Json) -> Result<String, String> {
    match value {
        Json::Null => Ok(String::new()),
        Json::String(s) => Ok(s.clone()),
        other => Err(wrong_type(path, "a string", other)),
    }
}

fn integer(path: &str, value: &Json) -> Result<Option<i64>, String> {
    match value {
        Json::Null => Ok(None),
        Json::Number(n) => n
            .as_i64()
            .map(Some)
            .ok_or_else(|| wrong_type(path, "an int64", value)),
        other => Err(wrong_type(path, "an int64", other)),
    }
}

fn string_map(path: &str, value: &Json) -> Result<Map<String, Json>, String> {
    match value {
        Json::Null => Ok(Map::new()),
        Json::Object(map) => map
            .iter()
            .map(|(k, v)| Ok((k.clone(), Json::from(string(&format!("{path}.{k}"), v)?))))
            .collect(),
        other => Err(wrong_type(path, "a map of strings", other)),
    }
}

fn string_list(path: &str, value: &Json) -> Result<Vec<Json>, String> {
    match value {
        Json::Null => Ok(Vec::new()),
        Json::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| Ok(Json::from(string(&format!("{path}[{i}]"), v)?)))
            .collect(),
        other => Err(wrong_type(path, "a list of strings", other)),
    }
}

/// The decoded and re-written `ObjectMeta`, with the unknown fields it dropped. `prefix` is the
/// path of the `metadata` field.
pub fn object_meta(prefix: &str, value: &Json) -> Result<(Map<String, Json>, Vec<String>), String> {
    let mut out = Map::new();
    let mut unknown = Vec::new();
    let fields = match value {
        Json::Null => Map::new(),
        Json::Object(map) => map.clone(),
        other => return Err(wrong_type(prefix, "ObjectMeta", other)),
    };
    for (key, value) in &fields {
        let path = format!("{prefix}.{key}");
        let Some((_, field)) = OBJECT_META.iter().find(|(name, _)| name == key) else {
            unknown.push(path);
            continue;
        };
        if let Some(written) = decode_field(&path, *field, value, &mut unknown)? {
            out.insert(key.clone(), written);
        }
    }
    if !out.contains_key("creationTimestamp") {
        out.insert("creationTimestamp".into(), Json::Null);
    }
    unknown.sort();
    Ok((out, unknown))
}

/// One field decoded and written back; `None` when `omitempty` leaves it out.
fn decode_field(
    path: &str,
    field: Field,
    value: &Json,
    unknown: &mut Vec<String>,
) -> Result<Option<Json>, String> {
    let non_empty = |v: Json| match &v {
        Json::String(s) if s.is_empty() => None,
        Json::Object(m) if m.is_empty() => None,
        Json::Array(a) if a.is_empty() => None,
        _ => Some(v),
    };
    Ok(match field {
        Field::Str => non_empty(Json::from(string(path, value)?)),
        Field::Int => integer(path, value)?.filter(|n| *n != 0).map(Json::from),
        Field::OptInt => integer(path, value)?.map(Json::from),
        Field::Time => match value {
            Json::Null => None,
            v => time(path, v)?.map(Json::from),
        },
        Field::OptTime => match value {
            Json::Null => None,
            v => Some(time(path, v)?.map_or(Json::Null, Json::from)),
        },
        Field::StrMap => non_empty(Json::Object(string_map(path, value)?)),
        Field::StrList => non_empty(Json::Array(string_list(path, value)?)),
        Field::OwnerReferences => {
            non_empty(Json::Array(list_of(path, value, unknown, owner_reference)?))
        }
        Field::ManagedFields => non_empty(Json::Array(list_of(
            path,
            value,
            unknown,
            managed_fields_entry,
        )?)),
    })
}

type Entry = fn(&str, &Map<String, Json>, &mut Vec<String>) -> Result<Json, String>;

fn list_of(
    path: &str,
    value: &Json,
    unknown: &mut Vec<String>,
    entry: Entry,
) -> Result<Vec<Json>, String> {
    match value {
        Json::Null => Ok(Vec::new()),
        Json::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let at = format!("{path}[{i}]");
                match item {
                    Json::Null => entry(&at, &Map::new(), unknown),
                    Json::Object(map) => entry(&at, map, unknown),
                    other => Err(wrong_type(&at, "an object", other)),
                }
            })
            .collect(),
        other => Err(wrong_type(path, "a list", other)),
    }
}

fn owner_reference(
    path: &str,
    map: &Map<String, Json>,
    unknown: &mut Vec<String>,
) -> Result<Json, String> {
    let mut out = Map::new();
    for name in OWNER_REFERENCE_STRINGS {
        let value = map.get(*name).unwrap_or(&Json::Null);
        out.insert(
            (*name).to_string(),
            Json::from(string(&format!("{path}.{name}"), value)?),
        );
    }
    for name in OWNER_REFERENCE_FLAGS {
        match map.get(*name) {
            None | Some(Json::Null) => {}
            Some(Json::Bool(b)) => {
                out.insert((*name).to_string(), Json::Bool(*b));
            }
            Some(other) => return Err(wrong_type(&format!("{path}.{name}"), "a bool", other)),
        }
    }
    unknown_keys(
        path,
        map,
        &[OWNER_REFERENCE_STRINGS, OWNER_REFERENCE_FLAGS],
        unknown,
    );
    Ok(Json::Object(out))
}

fn managed_fields_entry(
    path: &str,
    map: &Map<String, Json>,
    unknown: &mut Vec<String>,
) -> Result<Json, String> {
    let mut out = Map::new();
    for name in MANAGED_FIELDS_STRINGS {
        let value = string(
            &format!("{path}.{name}"),
            map.get(*name).unwrap_or(&Json::Null),
        )?;
        if !value.is_empty() {
            out.insert((*name).to_string(), Json::from(value));
        }
    }
    if let Some(value) = map.get("time").filter(|v| !v.is_null()) {
        let written = time(&format!("{path}.time"), value)?;
        out.insert("time".into(), written.map_or(Json::Null, Json::from));
    }
    if let Some(value) = map.get("fieldsV1").filter(|v| !v.is_null()) {
        out.insert("fieldsV1".into(), value.clone());
    }
    unknown_keys(
        path,
        map,
        &[MANAGED_FIELDS_STRINGS, &["time", "fieldsV1"]],
        unknown,
    );
    Ok(Json::Object(out))
}

fn unknown_keys(path: &str, map: &Map<String, Json>, known: &[&[&str]], unknown: &mut Vec<String>) {
    for key in map.keys() {
        if !known.iter().any(|names| names.contains(&key.as_str())) {
            unknown.push(format!("{path}.{key}"));
        }
    }
}

/// Coerces the root's `metadata` (`GetObjectMetaWithOptions` + `SetObjectMeta` in
/// `unstructuredSchemaCoercer.apply`); returns the unknown fields it dropped.
pub fn coerce_root(object: &mut Map<String, Json>) -> Result<Vec<String>, String> {
    let Some(value) = object.get("metadata") else {
        return Ok(Vec::new());
    };
    let (meta, unknown) = object_meta("metadata", value)?;
    object.insert("metadata".into(), Json::Object(meta));
    Ok(unknown)
}

/// Coerces the embedded resources below the root (`CoerceWithOptions` with `isResourceRoot`
/// false): `apiVersion` and `kind` must be strings, `metadata` becomes `ObjectMeta` without a zero
/// `creationTimestamp`. Returns the unknown metadata fields it dropped, sorted.
pub fn coerce_embedded(object: &mut Json, schema: Schema<'_>) -> Result<Vec<String>, String> {
    let mut unknown = Vec::new();
    coerce(object, schema, "", &mut unknown, 0)?;
    unknown.sort();
    Ok(unknown)
}

fn child_path(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn coerce(
    x: &mut Json,
    s: Schema<'_>,
    path: &str,
    unknown: &mut Vec<String>,
    depth: usize,
) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    match x {
        Json::Object(map) => {
            if s.embedded_resource() {
                for key in ["apiVersion", "kind"] {
                    if let Some(value) = map.get(key)
                        && !value.is_string()
                    {
                        let at = child_path(path, key);
                        return Err(format!("{at}: Invalid value: {value}: must be a string"));
                    }
                }
                if let Some(value) = map.get("metadata") {
                    let (mut meta, dropped) = object_meta(&child_path(path, "metadata"), value)?;
                    if meta.get("creationTimestamp") == Some(&Json::Null) {
                        meta.remove("creationTimestamp");
                    }
                    unknown.extend(dropped);
                    map.insert("metadata".into(), Json::Object(meta));
                }
            }
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                let child = match (s.property(&key), s.additional_properties()) {
                    (Some(property), _) => property,
                    (None, Some(Some(values))) => values,
                    _ => continue,
                };
                if let Some(value) = map.get_mut(&key) {
                    coerce(value, child, &child_path(path, &key), unknown, depth + 1)?;
                }
            }
        }
        Json::Array(items) => {
            if let Some(item_schema) = s.items() {
                for (i, item) in items.iter_mut().enumerate() {
                    coerce(
                        item,
                        item_schema,
                        &format!("{path}[{i}]"),
                        unknown,
                        depth + 1,
                    )?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}
