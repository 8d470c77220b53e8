//! [`ObjectTypes`]: a small provider of object types built by hand, for the types the policy
//! layer declares itself (`kubernetes.variables` with one field per policy variable, a `params`
//! type without a schema) and for tests. Compose it with the others through
//! [`Env::push_provider`](super::Env::push_provider).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::cel::types::{FieldType, Type, TypeProvider};

/// Object types and their fields, in name order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectTypes {
    types: BTreeMap<String, BTreeMap<String, FieldType>>,
}

impl ObjectTypes {
    /// No types.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares object type `type_name` (possibly without fields: any selection on it is then
    /// an undefined field).
    pub fn add_type(&mut self, type_name: &str) {
        self.types.entry(type_name.to_string()).or_default();
    }

    /// Adds (or replaces) field `field` of `type_name`, declaring the type if needed.
    pub fn add_field(&mut self, type_name: &str, field: &str, ty: Type, doc: Option<&str>) {
        let field_type = FieldType {
            ty,
            doc: doc.map(Arc::from),
        };
        self.types
            .entry(type_name.to_string())
            .or_default()
            .insert(field.to_string(), field_type);
    }
}

impl TypeProvider for ObjectTypes {
    fn field(&self, type_name: &str, field: &str) -> Option<FieldType> {
        self.types.get(type_name)?.get(field).cloned()
    }

    fn fields(&self, type_name: &str) -> Vec<(Arc<str>, FieldType)> {
        self.types
            .get(type_name)
            .map(|fields| {
                fields
                    .iter()
                    .map(|(name, ty)| (Arc::from(name.as_str()), ty.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn find_type(&self, type_name: &str) -> Option<Type> {
        self.types
            .contains_key(type_name)
            .then(|| Type::object(type_name))
    }

    fn may_name_type(&self, parts: &[&str]) -> bool {
        let root = crate::cel::types::provider::root_part(parts);
        self.types
            .keys()
            .any(|name| name.split('.').next() == Some(root))
    }
}
