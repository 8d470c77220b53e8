//! A compact way to write declaration tables: short type constructors and a builder that collects
//! the overloads of one function.

use std::sync::Arc;

use super::{FunctionDecl, Library, MacroDecl, Overload};
use crate::cel::types::Type;

pub(super) const INT: Type = Type::Int;
pub(super) const UINT: Type = Type::Uint;
pub(super) const DOUBLE: Type = Type::Double;
pub(super) const BOOL: Type = Type::Bool;
pub(super) const STRING: Type = Type::String;
pub(super) const BYTES: Type = Type::Bytes;
pub(super) const DURATION: Type = Type::Duration;
pub(super) const TIMESTAMP: Type = Type::Timestamp;
pub(super) const DYN: Type = Type::Dyn;

/// `list(elem)`.
pub(super) fn list(elem: Type) -> Type {
    Type::list(elem)
}

/// `map(key, value)`.
pub(super) fn map(key: Type, value: Type) -> Type {
    Type::map(key, value)
}

/// `optional_type(inner)`.
pub(super) fn opt(inner: Type) -> Type {
    Type::optional(inner)
}

/// Type parameter `name`.
pub(super) fn tp(name: &str) -> Type {
    Type::param(name)
}

/// The comparable element types of the list libraries, with the names used in overload ids by the
/// Kubernetes lists library.
pub(super) fn comparable_types() -> [(&'static str, Type); 8] {
    [
        ("int", INT),
        ("uint", UINT),
        ("double", DOUBLE),
        ("bool", BOOL),
        ("duration", DURATION),
        ("timestamp", TIMESTAMP),
        ("string", STRING),
        ("bytes", BYTES),
    ]
}

/// Collects the overloads of one function.
pub(super) struct FnBuilder {
    decl: FunctionDecl,
}

/// Starts the declaration of `name` in `library`.
pub(super) fn func(
    library: Library,
    name: &'static str,
    doc: &'static str,
    examples: &'static [&'static str],
) -> FnBuilder {
    FnBuilder {
        decl: FunctionDecl {
            name,
            overloads: Vec::new(),
            doc,
            examples,
            library,
        },
    }
}

impl FnBuilder {
    fn overload(mut self, id: &str, member: bool, params: Vec<Type>, result: Type) -> Self {
        let mut type_params: Vec<Arc<str>> = Vec::new();
        for ty in params.iter().chain(std::iter::once(&result)) {
            ty.collect_params(&mut type_params);
        }
        self.decl.overloads.push(Overload {
            id: Arc::from(id),
            member,
            params,
            result,
            type_params,
        });
        self
    }

    /// A global overload `name(params…) -> result`.
    pub(super) fn global<const N: usize>(self, id: &str, params: [Type; N], result: Type) -> Self {
        self.overload(id, false, params.into(), result)
    }

    /// A member overload `params[0].name(params[1..]…) -> result`.
    pub(super) fn member<const N: usize>(self, id: &str, params: [Type; N], result: Type) -> Self {
        self.overload(id, true, params.into(), result)
    }

    /// The finished declaration.
    pub(super) fn done(self) -> FunctionDecl {
        self.decl
    }
}

/// A macro declaration.
pub(super) fn macro_decl(
    library: Library,
    name: &'static str,
    member: bool,
    arg_counts: &'static [usize],
    doc: &'static str,
    examples: &'static [&'static str],
) -> MacroDecl {
    MacroDecl {
        name,
        member,
        arg_counts,
        doc,
        examples,
        library,
    }
}
