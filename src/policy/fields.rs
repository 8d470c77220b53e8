//! The field sets of the API types, read from the bundled OpenAPI schemas (the published
//! definitions of `admissionregistration.k8s.io` and of `ObjectMeta`): which keys each object type
//! has and what shape each value must have. The decoder (`decode.rs`) walks a document against
//! them to report unknown fields, repeated keys and values of the wrong kind.

use rustc_hash::FxHashMap as HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use serde_json::Value;

use super::PolicyKind;
use super::model::ApiVersion;
use crate::schema::bundled;

/// The shape a field's value must have.
#[derive(Clone, Debug)]
pub enum Shape {
    /// A string scalar.
    String,
    /// An integer scalar.
    Integer,
    /// An object of the given type.
    Object(TypeDef),
    /// A list of objects of the given type.
    ObjectList(TypeDef),
    /// A list of strings.
    StringList,
    /// A map of strings to strings.
    StringMap,
    /// Anything this decoder does not model (booleans, numbers, int-or-string, free-form objects).
    Any,
}

/// An object type: its name (for messages) and its schema.
#[derive(Clone, Debug)]
pub struct TypeDef {
    /// The API type's name, e.g. `Validation`.
    pub name: String,
    schema: Arc<Value>,
    minor: u32,
    /// The shape of each field asked for, worked out on the first question and shared by the
    /// clones (every item of a list, every document of a kind through [`TypeDef::named`]):
    /// reading the shapes from the schema again for every key of every document was most of the
    /// decoding. Filled a field at a time, so that the definitions of fields no document has are
    /// not decoded from the bundle; an unknown key is not kept, so the table stays as small as the
    /// schema however many keys are written.
    fields: Arc<RwLock<HashMap<String, Shape>>>,
}

/// The named bundled definitions found so far, by minor and name, shared by every document: the
/// schemas of a minor never change. A name the bundle lacks is not kept (a `$ref` written in a
/// custom schema could be anything).
type NamedDefs = RwLock<HashMap<(u32, String), TypeDef>>;

fn named_defs() -> &'static NamedDefs {
    static NAMED: OnceLock<NamedDefs> = OnceLock::new();
    NAMED.get_or_init(NamedDefs::default)
}

impl TypeDef {
    /// The root type of a document of `kind` written in `version`, from the schemas of `minor`
    /// (or, when that release does not serve it, of the closest bundled release that does: the
    /// field sets are the same in every release that has the type).
    pub fn root(kind: PolicyKind, version: ApiVersion, minor: u32) -> Option<TypeDef> {
        type Roots = RwLock<HashMap<(PolicyKind, ApiVersion, u32), Option<TypeDef>>>;
        static ROOTS: OnceLock<Roots> = OnceLock::new();
        let roots = ROOTS.get_or_init(Roots::default);
        // Any target past the newest bundled release (or before the oldest) finds the same
        // definition, so those share an entry and the table stays as small as the bundle.
        let minor = match (bundled::versions().first(), bundled::versions().last()) {
            (Some(&oldest), Some(&newest)) if oldest <= newest => minor.clamp(oldest, newest),
            _ => minor,
        };
        let key = (kind, version, minor);
        if let Some(found) = roots.read().ok().and_then(|r| r.get(&key).cloned()) {
            return found;
        }
        let root = TypeDef::find_root(kind, version, minor);
        if let Ok(mut roots) = roots.write() {
            roots.entry(key).or_insert_with(|| root.clone());
        }
        root
    }

    fn find_root(kind: PolicyKind, version: ApiVersion, minor: u32) -> Option<TypeDef> {
        let name = format!(
            "io.k8s.api.admissionregistration.{}.{}",
            version.as_str(),
            kind.name()
        );
        let mut minors: Vec<u32> = bundled::versions().to_vec();
        minors.sort_by_key(|m| m.abs_diff(minor));
        minors.into_iter().find_map(|m| TypeDef::named(&name, m))
    }

    /// An object type read from an inline schema (a CRD version's `openAPIV3Schema`), named `name`
    /// in messages; such schemas hold no `$ref`.
    pub(crate) fn inline(name: &str, schema: Arc<Value>) -> TypeDef {
        TypeDef::new(name.to_string(), schema, 0)
    }

    fn new(name: String, schema: Arc<Value>, minor: u32) -> TypeDef {
        TypeDef {
            name,
            schema,
            minor,
            fields: Arc::default(),
        }
    }

    /// The bundled definition `name` of `minor`, read from the bundle once per process.
    fn named(name: &str, minor: u32) -> Option<TypeDef> {
        let key = (minor, name.to_string());
        if let Some(found) = named_defs()
            .read()
            .ok()
            .and_then(|defs| defs.get(&key).cloned())
        {
            return Some(found);
        }
        let def = TypeDef::read_named(name, minor)?;
        if let Ok(mut defs) = named_defs().write() {
            defs.entry(key).or_insert_with(|| def.clone());
        }
        Some(def)
    }

    fn read_named(name: &str, minor: u32) -> Option<TypeDef> {
        let schema = bundled::definition(minor, name)?;
        let short = name.rsplit('.').next().unwrap_or(name).to_string();
        Some(TypeDef::new(short, schema, minor))
    }

    /// The shape of `key`, if the type has that field.
    pub fn field(&self, key: &str) -> Option<Shape> {
        if let Some(known) = self.fields.read().ok().and_then(|f| f.get(key).cloned()) {
            return Some(known);
        }
        let shape = self.read_field(key)?;
        if let Ok(mut fields) = self.fields.write() {
            fields
                .entry(key.to_string())
                .or_insert_with(|| shape.clone());
        }
        Some(shape)
    }

    /// The shape of `key` read from the schema.
    fn read_field(&self, key: &str) -> Option<Shape> {
        let property = self.schema.get("properties")?.get(key)?;
        Some(self.shape(property))
    }

    /// Every field the type has.
    pub fn field_names(&self) -> Vec<&str> {
        self.schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    fn shape(&self, schema: &Value) -> Shape {
        if let Some(name) = schema.get("$ref").and_then(Value::as_str) {
            return match TypeDef::named(name, self.minor) {
                Some(def) if def.schema.get("properties").is_some() => Shape::Object(def),
                Some(def) => self.shape(&def.schema.clone()),
                None => Shape::Any,
            };
        }
        match schema.get("type").and_then(Value::as_str) {
            Some("string") => Shape::String,
            Some("integer") => Shape::Integer,
            Some("array") => match schema.get("items").map(|i| self.shape(i)) {
                Some(Shape::Object(def)) => Shape::ObjectList(def),
                Some(Shape::String) => Shape::StringList,
                _ => Shape::Any,
            },
            Some("object") if schema.get("properties").is_some() => Shape::Object(TypeDef::new(
                self.name.clone(),
                Arc::new(schema.clone()),
                self.minor,
            )),
            Some("object") => match schema.get("additionalProperties").map(|v| self.shape(v)) {
                Some(Shape::String) => Shape::StringMap,
                _ => Shape::Any,
            },
            _ => Shape::Any,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_name(shape: Option<Shape>) -> String {
        match shape {
            Some(Shape::Object(d)) => format!("object {}", d.name),
            Some(Shape::ObjectList(d)) => format!("list of {}", d.name),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn a_policy_s_fields_come_from_the_bundled_schema() {
        let newest = bundled::newest();
        let root = TypeDef::root(PolicyKind::ValidatingPolicy, ApiVersion::V1, newest);
        let root = root.expect("the v1 ValidatingAdmissionPolicy schema is bundled");
        let spec = match root.field("spec") {
            Some(Shape::Object(spec)) => spec,
            other => panic!("spec: {other:?}"),
        };
        let actual: Vec<String> = [
            shape_name(root.field("metadata")),
            shape_name(spec.field("validations")),
            shape_name(spec.field("failurePolicy")),
            shape_name(spec.field("nope")),
        ]
        .into();
        assert_eq!(
            actual,
            [
                "object ObjectMeta",
                "list of Validation",
                "Some(String)",
                "None"
            ]
        );
    }

    #[test]
    fn a_version_a_release_no_longer_serves_is_read_from_one_that_does() {
        // v1alpha1 ValidatingAdmissionPolicy was removed in 1.32.
        let root = TypeDef::root(PolicyKind::ValidatingPolicy, ApiVersion::V1alpha1, 37);
        assert!(root.is_some_and(|r| r.field("spec").is_some()));
    }
}
