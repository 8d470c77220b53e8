//! Type identifiers: names that denote a type in an expression (`type(x) == int`,
//! `type(q) == kubernetes.Quantity`). Their value has type `type(T)`. The standard ones are
//! cel-go's standard type variables; the Kubernetes ones are the types each library registers.

use super::Library;
use super::build::*;
use crate::cel::types::{
    AUTHORIZER, CIDR, DECISION, GROUP_CHECK, IP, NAMED_FORMAT, PATH_CHECK, QUANTITY,
    RESOURCE_CHECK, SEMVER, Type, URL,
};

/// A name that denotes a type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeIdent {
    /// The identifier as written (`int`, `google.protobuf.Timestamp`, `net.IP`).
    pub name: &'static str,
    /// The type it denotes; the identifier's own type is `type(denotes)`.
    pub denotes: Type,
    /// The library that declares it.
    pub library: Library,
}

fn ident(library: Library, name: &'static str, denotes: Type) -> TypeIdent {
    TypeIdent {
        name,
        denotes,
        library,
    }
}

/// Every type identifier of every library.
pub(super) fn type_idents() -> Vec<TypeIdent> {
    let std = Library::Standard;
    vec![
        ident(std, "bool", BOOL),
        ident(std, "bytes", BYTES),
        ident(std, "double", DOUBLE),
        ident(std, "google.protobuf.Duration", DURATION),
        ident(std, "int", INT),
        ident(std, "list", list(DYN)),
        ident(std, "map", map(DYN, DYN)),
        ident(std, "null_type", Type::Null),
        ident(std, "string", STRING),
        ident(std, "google.protobuf.Timestamp", TIMESTAMP),
        ident(std, "type", Type::TypeOf(None)),
        ident(std, "uint", UINT),
        ident(Library::Optional, "optional_type", opt(DYN)),
        ident(Library::Urls, URL, Type::url()),
        ident(Library::Quantity, QUANTITY, Type::quantity()),
        ident(Library::Ip, IP, Type::ip()),
        ident(Library::Cidr, CIDR, Type::cidr()),
        ident(Library::Format, NAMED_FORMAT, Type::named_format()),
        ident(Library::SemverV1, SEMVER, Type::semver()),
        ident(Library::Authz, AUTHORIZER, Type::object(AUTHORIZER)),
        ident(Library::Authz, PATH_CHECK, Type::object(PATH_CHECK)),
        ident(Library::Authz, GROUP_CHECK, Type::object(GROUP_CHECK)),
        ident(Library::Authz, RESOURCE_CHECK, Type::object(RESOURCE_CHECK)),
        ident(Library::Authz, DECISION, Type::object(DECISION)),
    ]
}
