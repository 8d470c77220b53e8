//! The typed `Object` of a MutatingAdmissionPolicy: `Object`, `Object.spec`, … answered from the
//! schema of the matched kind, so `Object{spec: Object.spec{replica: 1}}` is an undefined field.
//!
//! The schema's type names (`apps.v1.Deployment.spec`) and the mutation's (`Object.spec`) follow the
//! same path scheme, so the provider maps one onto the other by prefix. In a typed mutating policy
//! `object` and `oldObject` are typed `Object` too, so that `Object.spec{template:
//! object.spec.template}` assigns a type to itself. An `Object` type the schema does not describe
//! (a free-form part) stays dynamic, as it is in the API server. An `Object` type named after a
//! map-typed field (`Object.metadata.labels`) is that map type: the API server applies
//! `Object.metadata.labels{foo: "bar"}` as the map `{foo: "bar"}` (its compiler types every
//! `Object` field `dyn`), so the checker checks the literal's values against the map's values.

use std::sync::Arc;

use crate::cel::types::provider::is_dynamic_object;
use crate::cel::types::{BuiltinProvider, FieldType, OBJECT, Type, TypeProvider};
use crate::schema::SchemaTypes;

/// `rest` of an `Object<rest>` type name (`""`, `.spec`…), `None` for other types: the schema type
/// it stands for is the kind's root type name followed by `rest`.
pub(super) fn object_path(name: &str) -> Option<&str> {
    let rest = name.strip_prefix(OBJECT)?;
    (rest.is_empty() || rest.starts_with('.')).then_some(rest)
}

/// `Object…` types backed by the schema of one kind; every other type is the builtin provider's.
pub struct MutationTypes {
    /// The kind's root type name (`apps.v1.Deployment`).
    pub root: String,
    /// The registry that knows the kind.
    pub schema: Arc<SchemaTypes>,
}

impl MutationTypes {
    fn real(&self, type_name: &str) -> Option<String> {
        if !is_dynamic_object(type_name) {
            return None;
        }
        Some(format!("{}{}", self.root, &type_name[OBJECT.len()..]))
    }

    /// `apps.v1.Deployment.spec` → `Object.spec`, inside lists, maps and optionals too.
    fn rename(&self, ty: Type) -> Type {
        match ty {
            Type::Object(name) => match name.strip_prefix(self.root.as_str()) {
                Some(rest) if rest.is_empty() || rest.starts_with('.') => {
                    Type::object(&format!("{OBJECT}{rest}"))
                }
                _ => Type::Object(name),
            },
            Type::List(elem) => Type::list(self.rename((*elem).clone())),
            Type::Map(k, v) => Type::map((*k).clone(), self.rename((*v).clone())),
            Type::Optional(inner) => Type::optional(self.rename((*inner).clone())),
            other => other,
        }
    }

    fn schema_fields(&self, real: &str) -> Vec<(Arc<str>, FieldType)> {
        self.schema.fields(real)
    }

    /// The map type of the field `type_name` is named after, when it is a map whose values are not
    /// themselves that named object type (a map of objects names its value type by the path).
    fn map_named(&self, type_name: &str) -> Option<Type> {
        let real = self.real(type_name)?;
        let (parent, field) = real.rsplit_once('.')?;
        let declared = self.schema.field(parent, field)?.ty;
        let Type::Map(_, value) = &declared else {
            return None;
        };
        let names_values = matches!(&**value, Type::Object(name) if **name == *real);
        (!names_values).then(|| self.rename(declared))
    }
}

impl TypeProvider for MutationTypes {
    fn field(&self, type_name: &str, field: &str) -> Option<FieldType> {
        let Some(real) = self.real(type_name) else {
            return BuiltinProvider.field(type_name, field);
        };
        if self.schema_fields(&real).is_empty() {
            // Not described by the schema: dynamic, as the API server types it.
            return BuiltinProvider.field(type_name, field);
        }
        let found = self.schema.field(&real, field)?;
        Some(FieldType {
            ty: self.rename(found.ty),
            doc: found.doc,
        })
    }

    fn fields(&self, type_name: &str) -> Vec<(Arc<str>, FieldType)> {
        let Some(real) = self.real(type_name) else {
            return BuiltinProvider.fields(type_name);
        };
        self.schema_fields(&real)
            .into_iter()
            .map(|(name, f)| {
                let ty = self.rename(f.ty);
                (name, FieldType { ty, doc: f.doc })
            })
            .collect()
    }

    fn find_type(&self, type_name: &str) -> Option<Type> {
        if is_dynamic_object(type_name) {
            return Some(
                self.map_named(type_name)
                    .unwrap_or_else(|| Type::object(type_name)),
            );
        }
        BuiltinProvider.find_type(type_name)
    }

    fn may_name_type(&self, parts: &[&str]) -> bool {
        BuiltinProvider.may_name_type(parts)
    }
}
