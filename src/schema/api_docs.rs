//! The documentation of a bundled kind's fields, for the editor: walks a key path (`spec`,
//! `validations`, `messageExpression`) through the kind's OpenAPI definitions of one Kubernetes
//! version and answers with each field's type, whether it is required, its enum values and its
//! description — all as the published schema states them.

use std::sync::Arc;

use serde_json::Value;

use super::bundled;

/// How many `$ref` / `items` hops resolving one property may take; published schemas need two.
const MAX_HOPS: usize = 8;

/// What the schema says about one field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDoc {
    /// The key.
    pub name: String,
    /// Its type in the API's spelling: `string`, `integer`, `[]Validation`, `map[string]string`.
    pub type_label: String,
    /// The value's shape, for placeholders.
    pub shape: ValueShape,
    /// Whether the type requires it (listed in `required`, or documented as `Required.`).
    pub required: bool,
    /// The values the schema enumerates (`apiVersion`, `kind`…); usually empty.
    pub enum_values: Vec<String>,
    /// The description, if the schema has one.
    pub description: Option<String>,
}

/// The shape of a field's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueShape {
    /// A string (or anything scalar the schema does not type).
    Scalar,
    /// An integer or number.
    Number,
    /// A boolean.
    Boolean,
    /// A list.
    List,
    /// An object or a map.
    Object,
}

/// The documentation of the field at `keys` of the bundled kind whose root definition is
/// `definition` in `minor`; `None` when the schema has no such field.
pub fn field(minor: u32, definition: &str, keys: &[&str]) -> Option<FieldDoc> {
    let (last, parents) = keys.split_last()?;
    let owner = object_at(minor, definition, parents)?;
    let property = owner.get("properties")?.get(*last)?;
    Some(describe(minor, &owner, last, property))
}

/// The fields of the object at `keys` (the root object when empty), in schema order; `None` when
/// the path does not lead to an object with properties.
pub fn fields(minor: u32, definition: &str, keys: &[&str]) -> Option<Vec<FieldDoc>> {
    let owner = object_at(minor, definition, keys)?;
    let properties = owner.get("properties")?.as_object()?;
    Some(
        properties
            .iter()
            .map(|(name, property)| describe(minor, &owner, name, property))
            .collect(),
    )
}

/// The object schema reached by `keys` from the root definition.
fn object_at(minor: u32, definition: &str, keys: &[&str]) -> Option<Arc<Value>> {
    let mut current = bundled::definition(minor, definition)?;
    for key in keys {
        let property = current.get("properties")?.get(*key)?.clone();
        current = object_of(minor, Arc::new(property))?;
    }
    Some(current)
}

/// The object a property holds: through `$ref` and list `items`, bounded.
fn object_of(minor: u32, mut schema: Arc<Value>) -> Option<Arc<Value>> {
    for _ in 0..MAX_HOPS {
        if let Some(name) = schema.get("$ref").and_then(Value::as_str) {
            schema = bundled::definition(minor, name)?;
        } else if let Some(items) = schema.get("items") {
            schema = Arc::new(items.clone());
        } else {
            return schema.get("properties").is_some().then_some(schema);
        }
    }
    None
}

fn describe(minor: u32, owner: &Value, name: &str, property: &Value) -> FieldDoc {
    let target = property
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|name| bundled::definition(minor, name));
    let description = property
        .get("description")
        .or_else(|| target.as_deref().and_then(|t| t.get("description")))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let listed = owner
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|list| list.iter().any(|k| k.as_str() == Some(name)));
    // The API's Go comments mark required fields with `+required`, published as "Required.".
    let documented = description
        .as_deref()
        .is_some_and(|d| d.trim_end().ends_with("Required."));
    let enum_values = property
        .get("enum")
        .or_else(|| property.get("items").and_then(|items| items.get("enum")))
        .and_then(Value::as_array)
        .map(|values| {
            values
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    FieldDoc {
        name: name.to_owned(),
        type_label: type_label(minor, property, target.as_deref(), 0),
        shape: shape(property, target.as_deref()),
        required: listed || documented,
        enum_values,
        description,
    }
}

/// `string`, `integer`, `boolean`, `[]T`, `map[string]T`, or the referenced definition's name.
fn type_label(minor: u32, schema: &Value, target: Option<&Value>, depth: usize) -> String {
    if depth > MAX_HOPS {
        return "object".to_owned();
    }
    if let Some(name) = schema.get("$ref").and_then(Value::as_str) {
        let resolved = bundled::definition(minor, name);
        return match target.or(resolved.as_deref()) {
            Some(t) if t.get("properties").is_none() => type_label(minor, t, None, depth + 1),
            _ => short_name(name).to_owned(),
        };
    }
    if schema.get("x-kubernetes-int-or-string").is_some() {
        return "integer-or-string".to_owned();
    }
    let inner = |key: &str| match schema.get(key) {
        Some(child) => type_label(minor, child, None, depth + 1),
        _ => "object".to_owned(),
    };
    match schema.get("type").and_then(Value::as_str) {
        Some("array") => format!("[]{}", inner("items")),
        Some("object") if schema.get("additionalProperties").is_some() => {
            format!("map[string]{}", inner("additionalProperties"))
        }
        Some(ty) => ty.to_owned(),
        None => "object".to_owned(),
    }
}

fn shape(property: &Value, target: Option<&Value>) -> ValueShape {
    let ty = property
        .get("type")
        .or_else(|| target.and_then(|t| t.get("type")))
        .and_then(Value::as_str);
    match ty {
        Some("array") => ValueShape::List,
        Some("object") => ValueShape::Object,
        Some("integer" | "number") => ValueShape::Number,
        Some("boolean") => ValueShape::Boolean,
        _ if target.is_some_and(|t| t.get("properties").is_some()) => ValueShape::Object,
        _ => ValueShape::Scalar,
    }
}

/// `io.k8s.api.admissionregistration.v1.Validation` → `Validation`.
fn short_name(definition: &str) -> &str {
    definition.rsplit('.').next().unwrap_or(definition)
}
