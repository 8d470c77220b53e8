//! Field lookup for object types. The checker asks a [`TypeProvider`] for the fields of a named
//! object type; the schema module implements it for OpenAPI/CRD types, and [`BuiltinProvider`]
//! knows the types the admission environment declares itself: `kubernetes.AdmissionRequest` and
//! `kubernetes.Namespace` with their parts, `JSONPatch` and the dynamic
//! `Object`/`Object.x.y` apply-configuration types of MutatingAdmissionPolicy (its `mutations` build them).

use std::sync::Arc;

use super::{JSON_PATCH, OBJECT, Type};

/// The declared type of one field of an object type, with its documentation for hover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldType {
    /// The field's CEL type.
    pub ty: Type,
    /// One-paragraph description, if the source has one.
    pub doc: Option<Arc<str>>,
}

impl FieldType {
    /// A field of type `ty` described by `doc`.
    pub fn new(ty: Type, doc: &str) -> Self {
        Self {
            ty,
            doc: Some(Arc::from(doc)),
        }
    }
}

/// Source of object types and their fields.
pub trait TypeProvider {
    /// The field `field` of the object type `type_name`, or `None` when the type has no such field
    /// (or the type is unknown).
    fn field(&self, type_name: &str, field: &str) -> Option<FieldType>;

    /// Every field of `type_name`, ordered by name, for completion. Dynamic types return none.
    fn fields(&self, type_name: &str) -> Vec<(Arc<str>, FieldType)>;

    /// The type a name denotes in a type position (message construction `T{...}`), if known.
    fn find_type(&self, type_name: &str) -> Option<Type> {
        (!self.fields(type_name).is_empty()).then(|| Type::object(type_name))
    }

    /// Whether [`find_type`](Self::find_type) may know the dotted name `parts` (at least two
    /// parts); `false` only when it surely does not. The checker tries every dotted prefix of a
    /// field selection as a name (`object.spec.template` …), as cel-go does, and this answers most
    /// of them without building the name.
    fn may_name_type(&self, parts: &[&str]) -> bool {
        let _ = parts;
        true
    }
}

/// The first part of a dotted name given as parts, without the leading dot of a rooted name.
pub fn root_part<'a>(parts: &[&'a str]) -> &'a str {
    parts
        .first()
        .map_or("", |p| p.strip_prefix('.').unwrap_or(p))
}

/// The object types that the admission environment declares itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuiltinProvider;

const GVK: &str = "kubernetes.GroupVersionKind";
const GVR: &str = "kubernetes.GroupVersionResource";
const USER_INFO: &str = "kubernetes.UserInfo";
const NS_METADATA: &str = "kubernetes.NamespaceMetadata";
const NS_SPEC: &str = "kubernetes.NamespaceSpec";
const NS_STATUS: &str = "kubernetes.NamespaceStatus";
const NS_CONDITION: &str = "kubernetes.NamespaceCondition";

/// Name of the `request` variable's type.
pub const ADMISSION_REQUEST: &str = "kubernetes.AdmissionRequest";
/// Name of the `namespaceObject` variable's type.
pub const NAMESPACE: &str = "kubernetes.Namespace";

fn string_map() -> Type {
    Type::map(Type::String, Type::String)
}

/// The static field tables: (type name, field name, type, doc), sorted by type then field.
fn table(type_name: &str) -> Vec<(&'static str, Type, &'static str)> {
    let s = || Type::String;
    let strings = || Type::list(Type::String);
    match type_name {
        ADMISSION_REQUEST => vec![
            ("dryRun", Type::Bool, "Whether the request is a dry run."),
            (
                "kind",
                Type::object(GVK),
                "Kind the policy matched (after equivalent-version conversion).",
            ),
            (
                "name",
                s(),
                "Name of the object; may be empty on create with generateName.",
            ),
            (
                "namespace",
                s(),
                "Namespace of the object; empty for cluster-scoped objects.",
            ),
            ("operation", s(), "CREATE, UPDATE, DELETE or CONNECT."),
            (
                "options",
                Type::Dyn,
                "Create, update, delete or connect options, as a map.",
            ),
            (
                "requestKind",
                Type::object(GVK),
                "Kind of the original request.",
            ),
            (
                "requestResource",
                Type::object(GVR),
                "Resource of the original request.",
            ),
            (
                "requestSubResource",
                s(),
                "Subresource of the original request.",
            ),
            (
                "resource",
                Type::object(GVR),
                "Resource the policy matched.",
            ),
            ("subResource", s(), "Subresource being requested, if any."),
            (
                "userInfo",
                Type::object(USER_INFO),
                "The user making the request.",
            ),
        ],
        GVK => vec![
            ("group", s(), "API group."),
            ("kind", s(), "Kind."),
            ("version", s(), "API version."),
        ],
        GVR => vec![
            ("group", s(), "API group."),
            ("resource", s(), "Resource (plural name)."),
            ("version", s(), "API version."),
        ],
        USER_INFO => vec![
            (
                "extra",
                Type::map(Type::String, strings()),
                "Extra attributes from the authenticator.",
            ),
            ("groups", strings(), "Groups the user belongs to."),
            ("uid", s(), "Unique identifier of the user."),
            ("username", s(), "Name of the user."),
        ],
        NAMESPACE => vec![
            (
                "metadata",
                Type::object(NS_METADATA),
                "Metadata of the namespace.",
            ),
            ("spec", Type::object(NS_SPEC), "Spec of the namespace."),
            (
                "status",
                Type::object(NS_STATUS),
                "Status of the namespace.",
            ),
        ],
        NS_METADATA => vec![
            (
                "UID",
                s(),
                "Declared as UID; the runtime value has the key uid instead.",
            ),
            ("annotations", string_map(), "Annotations of the namespace."),
            (
                "creationTimestamp",
                Type::Timestamp,
                "Creation time (a string at runtime).",
            ),
            (
                "deletionGracePeriodSeconds",
                Type::Int,
                "Grace period before deletion.",
            ),
            (
                "deletionTimestamp",
                Type::Timestamp,
                "Time the deletion was requested.",
            ),
            (
                "finalizers",
                strings(),
                "Finalizers of the namespace object.",
            ),
            ("generateName", s(), "Prefix used to generate the name."),
            ("generation", Type::Int, "Generation of the desired state."),
            ("labels", string_map(), "Labels of the namespace."),
            ("name", s(), "Name of the namespace."),
            ("namespace", s(), "Always empty for a namespace."),
            ("resourceVersion", s(), "Resource version."),
        ],
        NS_SPEC => vec![(
            "finalizers",
            strings(),
            "Finalizers that must run before removal.",
        )],
        NS_STATUS => vec![
            (
                "conditions",
                Type::list(Type::object(NS_CONDITION)),
                "Conditions of the namespace.",
            ),
            ("phase", s(), "Active or Terminating."),
        ],
        NS_CONDITION => vec![
            (
                "lastTransitionTime",
                Type::Timestamp,
                "Last time the condition changed.",
            ),
            ("message", s(), "Human-readable detail."),
            ("reason", s(), "Machine-readable reason."),
            ("status", s(), "True, False or Unknown."),
            ("type", s(), "Type of the condition."),
        ],
        JSON_PATCH => vec![
            (
                "from",
                s(),
                "Source path of a move or copy operation (JSON Pointer).",
            ),
            ("op", s(), "add, remove, replace, move, copy or test."),
            ("path", s(), "Target location (JSON Pointer)."),
            ("value", Type::Dyn, "Value to add, replace or test."),
        ],
        _ => Vec::new(),
    }
}

/// Whether `type_name` is `Object` or one of its dotted descendants (`Object.spec.template`).
pub fn is_dynamic_object(type_name: &str) -> bool {
    type_name == OBJECT
        || type_name
            .strip_prefix(OBJECT)
            .is_some_and(|rest| rest.starts_with('.') && rest.len() > 1)
}

impl TypeProvider for BuiltinProvider {
    fn field(&self, type_name: &str, field: &str) -> Option<FieldType> {
        if is_dynamic_object(type_name) {
            return Some(FieldType {
                ty: Type::Dyn,
                doc: None,
            });
        }
        table(type_name)
            .into_iter()
            .find(|(name, _, _)| *name == field)
            .map(|(_, ty, doc)| FieldType::new(ty, doc))
    }

    fn fields(&self, type_name: &str) -> Vec<(Arc<str>, FieldType)> {
        table(type_name)
            .into_iter()
            .map(|(name, ty, doc)| (Arc::from(name), FieldType::new(ty, doc)))
            .collect()
    }

    fn find_type(&self, type_name: &str) -> Option<Type> {
        if is_dynamic_object(type_name) || !table(type_name).is_empty() {
            return Some(Type::object(type_name));
        }
        None
    }

    fn may_name_type(&self, parts: &[&str]) -> bool {
        matches!(root_part(parts), "kubernetes" | OBJECT)
    }
}
