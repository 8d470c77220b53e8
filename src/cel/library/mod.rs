//! Declarations of every CEL function and macro the admission environment can have, as data: the
//! standard library, optional types, the cel-go extensions Kubernetes enables, and the Kubernetes
//! libraries. Each declaration names its [`Library`]; [`libraries_for`] picks the libraries of a
//! Kubernetes version. The checker, hover, completion and signature help all read these tables.
//!
//! Choices where the sources leave room:
//! - Optional types follow the cel-go each binary vendors: version 0 in 1.28 (cel-go v0.16), 1
//!   (`optFlatMap`) from 1.29, 2 (`first`, `last`, `optional.unwrap`, `unwrapOpt`) from 1.33, in
//!   both environments (the option itself is 1.28). Overload ids are cel-go v0.26's.
//! - `jsonpatch.escapeKey` is declared with version 1.0 by MutatingAdmissionPolicy, which exists
//!   from 1.32, so it is available in both environments from 1.32.
//! - Feature gates take their defaults (AuthzSelectors: off in 1.31, on from 1.32).
//! - Releases before 1.28 had no versioned environment: new and stored expressions see the same set.
//! - Deprecated aliases that cel-go hides from the checker (`_in_`, `in`,
//!   `__not_strictly_false__`) and the libraries Kubernetes never enables (`ext.Math`,
//!   `ext.Encoders`, `cel.bind`, strings v3+) are not declared.

mod build;
mod idents;
mod kubernetes;
mod lists;
mod optional;
mod render;
mod sets;
mod standard;
mod strings;
mod versions;

#[cfg(test)]
mod tests;

use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

use crate::cel::types::Type;

pub use idents::TypeIdent;
pub use versions::{Gate, Library, compatibility_version, libraries_for};

/// Oldest Kubernetes minor version with CEL (1.24 shipped the first Kubernetes libraries).
pub const OLDEST_MINOR: u32 = 24;
/// Newest Kubernetes minor version these tables describe.
pub const NEWEST_MINOR: u32 = 37;

/// One overload of a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overload {
    /// cel-go / Kubernetes overload id, unique across all declarations (e.g. `add_int64`).
    pub id: Arc<str>,
    /// Receiver style (`x.f(y)`); cel-go matches a receiver call only against member overloads and a
    /// global call only against global ones.
    pub member: bool,
    /// Parameter types, the receiver first for member overloads.
    pub params: Vec<Type>,
    /// Result type.
    pub result: Type,
    /// Names of the type parameters the signature mentions, in order of appearance.
    pub type_params: Vec<Arc<str>>,
}

/// A function with its overloads from one library and its documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionDecl {
    /// Name as written in CEL (`startsWith`, `sets.contains`), or the operator's internal name
    /// (`_+_`, `@in`, `_[_]`, `_?_:_`).
    pub name: &'static str,
    /// The overloads this library declares.
    pub overloads: Vec<Overload>,
    /// One-paragraph description.
    pub doc: &'static str,
    /// Example expressions, each with its result after `//`.
    pub examples: &'static [&'static str],
    /// The library that declares these overloads.
    pub library: Library,
}

/// A macro: expanded by the parser, checked as its expansion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroDecl {
    /// Name as written in CEL.
    pub name: &'static str,
    /// Receiver style (`list.all(x, p)`) or global (`has(a.b)`).
    pub member: bool,
    /// Accepted argument counts, receiver excluded.
    pub arg_counts: &'static [usize],
    /// One-paragraph description.
    pub doc: &'static str,
    /// Example expressions.
    pub examples: &'static [&'static str],
    /// The library that declares the macro.
    pub library: Library,
}

impl Overload {
    /// Parameter and result types with every type parameter renamed to a fresh `_varN` (numbered
    /// from `next_var`, which is advanced), so that the parameters of different calls never meet in
    /// one substitution — the checker's instantiation step.
    /// An overload without type parameters is returned as it is, without copying (most are).
    pub fn instantiate(&self, next_var: &mut u32) -> (Cow<'_, [Type]>, Cow<'_, Type>) {
        if self.type_params.is_empty() {
            return (Cow::Borrowed(&self.params), Cow::Borrowed(&self.result));
        }
        let fresh: Vec<(Arc<str>, Arc<str>)> = self
            .type_params
            .iter()
            .map(|name| {
                let renamed = crate::cel::types::fresh_var_name(*next_var);
                *next_var = next_var.wrapping_add(1);
                (name.clone(), renamed)
            })
            .collect();
        let mut rename = |name: &str| {
            fresh
                .iter()
                .find(|(old, _)| &**old == name)
                .map_or_else(|| Arc::from(name), |(_, new)| new.clone())
        };
        let params = self
            .params
            .iter()
            .map(|ty| ty.rename_params(&mut rename))
            .collect();
        let result = self.result.rename_params(&mut rename);
        (Cow::Owned(params), Cow::Owned(result))
    }
}

impl FunctionDecl {
    /// Operators and internal helpers (`_+_`, `@in`, `cel.@mapInsert`), which completion hides.
    pub fn is_internal(&self) -> bool {
        self.name.contains('@') || !self.name.starts_with(|c: char| c.is_ascii_alphabetic())
    }
}

struct Registry {
    functions: Vec<FunctionDecl>,
    macros: Vec<MacroDecl>,
    type_idents: Vec<TypeIdent>,
    /// Indexes into `functions` by name, in declaration order: the checker looks a name up for
    /// every call and operator, and a scan of every declaration was a tenth of a check.
    functions_by_name: FxHashMap<&'static str, Vec<usize>>,
    /// Indexes into `type_idents` by name, likewise for every identifier the checker resolves.
    type_idents_by_name: FxHashMap<&'static str, Vec<usize>>,
    /// The first parts of the dotted type identifiers (`net` of `net.IP`).
    type_ident_roots: FxHashSet<&'static str>,
}

/// Positions of the items of `items` under each name, in order.
fn index_by_name<T>(
    items: &[T],
    name: impl Fn(&T) -> &'static str,
) -> FxHashMap<&'static str, Vec<usize>> {
    let mut index: FxHashMap<&'static str, Vec<usize>> = FxHashMap::default();
    for (i, item) in items.iter().enumerate() {
        index.entry(name(item)).or_default().push(i);
    }
    index
}

static REGISTRY: LazyLock<Registry> = LazyLock::new(|| {
    let mut functions = Vec::new();
    functions.extend(standard::functions());
    functions.extend(optional::functions());
    functions.extend(strings::functions());
    functions.extend(sets::functions());
    functions.extend(lists::functions());
    functions.extend(kubernetes::functions());
    let mut macros = standard::macros();
    macros.extend(optional::macros());
    macros.extend(lists::macros());
    let type_idents = idents::type_idents();
    Registry {
        functions_by_name: index_by_name(&functions, |decl| decl.name),
        type_idents_by_name: index_by_name(&type_idents, |ident| ident.name),
        type_ident_roots: type_idents
            .iter()
            .filter_map(|ident| ident.name.split_once('.').map(|(root, _)| root))
            .collect(),
        functions,
        macros,
        type_idents,
    }
});

/// Every function declaration of every library.
pub fn all_functions() -> &'static [FunctionDecl] {
    &REGISTRY.functions
}

/// Every macro declaration of every library.
pub fn all_macros() -> &'static [MacroDecl] {
    &REGISTRY.macros
}

/// The type identifiers (`int`, `net.IP`…) available with `libraries` enabled.
pub fn type_identifiers(libraries: &[Library]) -> impl Iterator<Item = &'static TypeIdent> + '_ {
    REGISTRY
        .type_idents
        .iter()
        .filter(move |ident| is_enabled(ident.library, libraries))
}

/// Whether declarations tagged `tagged` are available with `libraries` enabled.
pub fn is_enabled(tagged: Library, libraries: &[Library]) -> bool {
    libraries.iter().any(|library| library.provides(tagged))
}

/// The type identifier `name` if it is available with `libraries` enabled. Every identifier the
/// checker resolves asks this, so the name is compared before the libraries are scanned.
pub fn type_identifier(name: &str, libraries: &[Library]) -> Option<&'static TypeIdent> {
    let registry: &'static Registry = &REGISTRY;
    registry
        .type_idents_by_name
        .get(name)?
        .iter()
        .filter_map(|&i| registry.type_idents.get(i))
        .find(|ident| is_enabled(ident.library, libraries))
}

/// Whether some type identifier of any library is a dotted name starting with `root` (`net` for
/// `net.IP`).
pub fn is_type_identifier_root(root: &str) -> bool {
    REGISTRY.type_ident_roots.contains(root)
}

/// The function declarations available with `libraries` enabled.
pub fn functions(libraries: &[Library]) -> impl Iterator<Item = &'static FunctionDecl> + '_ {
    all_functions()
        .iter()
        .filter(move |decl| is_enabled(decl.library, libraries))
}

/// The declarations of function `name` available with `libraries` (one per declaring library;
/// together they hold every overload of the name).
pub fn lookup<'a>(
    name: &'a str,
    libraries: &'a [Library],
) -> impl Iterator<Item = &'static FunctionDecl> + 'a {
    let registry: &'static Registry = &REGISTRY;
    let found: &'static [usize] = registry
        .functions_by_name
        .get(name)
        .map_or(&[], Vec::as_slice);
    found
        .iter()
        .filter_map(|&i| registry.functions.get(i))
        .filter(move |decl| is_enabled(decl.library, libraries))
}

/// The macros available with `libraries` enabled.
pub fn macros(libraries: &[Library]) -> impl Iterator<Item = &'static MacroDecl> + '_ {
    all_macros()
        .iter()
        .filter(move |decl| is_enabled(decl.library, libraries))
}

/// The macro a call `name(args…)` (or `x.name(args…)` when `member`) expands, if any.
pub fn lookup_macro(
    name: &str,
    member: bool,
    arg_count: usize,
    libraries: &[Library],
) -> Option<&'static MacroDecl> {
    macros(libraries).find(|decl| {
        decl.name == name && decl.member == member && decl.arg_counts.contains(&arg_count)
    })
}

/// The first Kubernetes minor version whose environment (new or stored) declares function `name`,
/// for "available from 1.NN" diagnostics.
pub fn first_minor_with(name: &str, stored: bool) -> Option<u32> {
    first_minor(stored, |libraries| lookup(name, libraries).next().is_some())
}

/// The first Kubernetes minor version whose environment declares the overload `overload_id`
/// (names such as `isGreaterThan` have overloads from libraries of different versions).
pub fn first_minor_with_overload(overload_id: &str, stored: bool) -> Option<u32> {
    first_minor(stored, |libraries| {
        functions(libraries).any(|decl| decl.overloads.iter().any(|o| *o.id == *overload_id))
    })
}

/// The first Kubernetes minor version whose environment has the macro `name` in this call style
/// and arity.
pub fn first_minor_with_macro(
    name: &str,
    member: bool,
    arg_count: usize,
    stored: bool,
) -> Option<u32> {
    first_minor(stored, |libraries| {
        lookup_macro(name, member, arg_count, libraries).is_some()
    })
}

fn first_minor(stored: bool, declared: impl Fn(&[Library]) -> bool) -> Option<u32> {
    (OLDEST_MINOR..=NEWEST_MINOR).find(|&minor| declared(&libraries_for(minor, stored)))
}
