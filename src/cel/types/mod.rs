//! The CEL type system as the checker sees it: primitive types, parameterised aggregates, type
//! parameters, `dyn`, the absorbing `error` type, optional and type-of types, object types whose
//! fields come from a [`TypeProvider`], and the opaque and object types of the Kubernetes libraries.
//!
//! Assignability and type-parameter unification live in [`unify`]; field lookup in [`provider`].

mod display;
pub mod provider;
pub mod unify;

#[cfg(test)]
mod tests;

use std::sync::Arc;

pub use display::Short;
pub use provider::{BuiltinProvider, FieldType, TypeProvider};
pub use unify::{Substitution, is_assignable, most_general, substitute};

/// A CEL type. Cheap to clone: every nested part sits behind an [`Arc`].
///
/// Ordering and hashing are structural, so types can key a `BTreeMap`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `int`, a signed 64-bit integer.
    Int,
    /// `uint`, an unsigned 64-bit integer.
    Uint,
    /// `double`, an IEEE-754 binary64 number.
    Double,
    /// `bool`.
    Bool,
    /// `string`, a sequence of Unicode code points.
    String,
    /// `bytes`, a sequence of octets.
    Bytes,
    /// `null_type`, the type of `null`.
    Null,
    /// `google.protobuf.Duration` (written `duration` in conversions).
    Duration,
    /// `google.protobuf.Timestamp` (written `timestamp` in conversions).
    Timestamp,
    /// `dyn`: any value; assignable to and from every type.
    Dyn,
    /// The type of an expression that already failed to check. Assignable to and from everything, so
    /// one mistake yields one diagnostic.
    Error,
    /// `list(T)`.
    List(Arc<Type>),
    /// `map(K, V)`.
    Map(Arc<Type>, Arc<Type>),
    /// A type parameter of a generic overload, such as `A` in `list(A).indexOf(A)`.
    Param(Arc<str>),
    /// `optional_type(T)`.
    Optional(Arc<Type>),
    /// `type(T)`, the type of a type value; `None` is the bare `type`.
    TypeOf(Option<Arc<Type>>),
    /// An object (message) type by its fully qualified name; fields come from a [`TypeProvider`].
    Object(Arc<str>),
    /// An opaque named type without fields, such as `net.IP`.
    Opaque(Arc<str>),
}

/// How many fresh type-variable names are made once and shared: an expression uses a few dozen,
/// and formatting a new name for every generic overload tried showed in the checker's profile.
const SHARED_VAR_NAMES: u32 = 512;

/// The name of the `n`th fresh type variable, `_varN`.
pub fn fresh_var_name(n: u32) -> Arc<str> {
    static NAMES: std::sync::LazyLock<Vec<Arc<str>>> = std::sync::LazyLock::new(|| {
        (0..SHARED_VAR_NAMES)
            .map(|n| Arc::from(format!("_var{n}")))
            .collect()
    });
    match NAMES.get(n as usize) {
        Some(name) => name.clone(),
        None => Arc::from(format!("_var{n}")),
    }
}

/// Name of the Kubernetes `quantity(...)` object type.
pub const QUANTITY: &str = "kubernetes.Quantity";
/// Name of the Kubernetes `url(...)` object type.
pub const URL: &str = "kubernetes.URL";
/// Name of the opaque IP address type.
pub const IP: &str = "net.IP";
/// Name of the opaque CIDR type.
pub const CIDR: &str = "net.CIDR";
/// Name of the semantic version object type.
pub const SEMVER: &str = "kubernetes.Semver";
/// Name of the named-format object type returned by `format.<name>()`.
pub const NAMED_FORMAT: &str = "kubernetes.NamedFormat";
/// Name of the `authorizer` variable's type.
pub const AUTHORIZER: &str = "kubernetes.authorization.Authorizer";
/// Name of the type returned by `authorizer.path(...)`.
pub const PATH_CHECK: &str = "kubernetes.authorization.PathCheck";
/// Name of the type returned by `authorizer.group(...)`.
pub const GROUP_CHECK: &str = "kubernetes.authorization.GroupCheck";
/// Name of the type returned by `group(...).resource(...)` and of `authorizer.requestResource`.
pub const RESOURCE_CHECK: &str = "kubernetes.authorization.ResourceCheck";
/// Name of the type returned by `check(...)`.
pub const DECISION: &str = "kubernetes.authorization.Decision";
/// Root of the dynamic apply-configuration types of MutatingAdmissionPolicy (`Object`, `Object.spec`…).
pub const OBJECT: &str = "Object";
/// Name of the JSON Patch operation type of MutatingAdmissionPolicy.
pub const JSON_PATCH: &str = "JSONPatch";

impl Type {
    /// `list(elem)`.
    pub fn list(elem: Type) -> Type {
        Type::List(Arc::new(elem))
    }

    /// `map(key, value)`.
    pub fn map(key: Type, value: Type) -> Type {
        Type::Map(Arc::new(key), Arc::new(value))
    }

    /// `optional_type(inner)`.
    pub fn optional(inner: Type) -> Type {
        Type::Optional(Arc::new(inner))
    }

    /// `type(inner)`.
    pub fn type_of(inner: Type) -> Type {
        Type::TypeOf(Some(Arc::new(inner)))
    }

    /// A type parameter named `name`.
    pub fn param(name: &str) -> Type {
        Type::Param(Arc::from(name))
    }

    /// The checker's `n`th fresh type variable, named as cel-go names it (`_var0`, `_var1`, …).
    pub fn fresh_var(n: u32) -> Type {
        Type::Param(fresh_var_name(n))
    }

    /// An object type named `name`.
    pub fn object(name: &str) -> Type {
        Type::Object(Arc::from(name))
    }

    /// An opaque type named `name`.
    pub fn opaque(name: &str) -> Type {
        Type::Opaque(Arc::from(name))
    }

    /// `kubernetes.Quantity`.
    pub fn quantity() -> Type {
        Type::object(QUANTITY)
    }

    /// `kubernetes.URL`.
    pub fn url() -> Type {
        Type::object(URL)
    }

    /// `net.IP` (opaque).
    pub fn ip() -> Type {
        Type::opaque(IP)
    }

    /// `net.CIDR` (opaque).
    pub fn cidr() -> Type {
        Type::opaque(CIDR)
    }

    /// `kubernetes.Semver`.
    pub fn semver() -> Type {
        Type::object(SEMVER)
    }

    /// `kubernetes.NamedFormat`.
    pub fn named_format() -> Type {
        Type::object(NAMED_FORMAT)
    }

    /// `JSONPatch`.
    pub fn json_patch() -> Type {
        Type::object(JSON_PATCH)
    }

    /// Whether a value of type `from` may be used where `self` is expected; see [`is_assignable`].
    pub fn is_assignable_from(&self, from: &Type, subst: &mut Substitution) -> bool {
        is_assignable(self, from, subst)
    }

    /// `dyn` or `error`: the wildcard types.
    pub fn is_dyn_or_error(&self) -> bool {
        matches!(self, Type::Dyn | Type::Error)
    }

    /// Whether this is the absorbing `error` type.
    pub fn is_error(&self) -> bool {
        matches!(self, Type::Error)
    }

    /// Whether the type mentions a type parameter anywhere.
    pub fn has_params(&self) -> bool {
        match self {
            Type::Param(_) => true,
            Type::List(elem) | Type::Optional(elem) => elem.has_params(),
            Type::Map(key, value) => key.has_params() || value.has_params(),
            Type::TypeOf(Some(inner)) => inner.has_params(),
            _ => false,
        }
    }

    /// Appends the names of the type parameters this type mentions, each once, in order of appearance.
    pub fn collect_params(&self, out: &mut Vec<Arc<str>>) {
        match self {
            Type::Param(name) if !out.contains(name) => out.push(name.clone()),
            Type::List(elem) | Type::Optional(elem) => elem.collect_params(out),
            Type::Map(key, value) => {
                key.collect_params(out);
                value.collect_params(out);
            }
            Type::TypeOf(Some(inner)) => inner.collect_params(out),
            _ => {}
        }
    }

    /// The same type with every type parameter renamed by `rename` (used to give each overload use
    /// fresh parameters).
    pub fn rename_params(&self, rename: &mut impl FnMut(&str) -> Arc<str>) -> Type {
        match self {
            Type::Param(name) => Type::Param(rename(name)),
            Type::List(elem) => Type::list(elem.rename_params(rename)),
            Type::Optional(elem) => Type::optional(elem.rename_params(rename)),
            Type::Map(key, value) => {
                Type::map(key.rename_params(rename), value.rename_params(rename))
            }
            Type::TypeOf(Some(inner)) => Type::type_of(inner.rename_params(rename)),
            other => other.clone(),
        }
    }

    /// Whether `null` may be assigned to this type (cel-go keeps the legacy rule: objects, opaque and
    /// optional types, durations and timestamps are nullable, besides `null_type` and `dyn`).
    pub fn is_nullable(&self) -> bool {
        matches!(
            self,
            Type::Null
                | Type::Dyn
                | Type::Error
                | Type::Object(_)
                | Type::Opaque(_)
                | Type::Optional(_)
                | Type::Duration
                | Type::Timestamp
        )
    }

    /// A view that prints with the short names `duration` and `timestamp`, as signatures in hover and
    /// completion do; [`std::fmt::Display`] uses cel-go's spelling for diagnostics.
    pub fn short(&self) -> Short<'_> {
        display::Short(self)
    }
}
