//! The environment an expression is checked in: declared variables (with docs for hover), the
//! enabled libraries, extra function declarations, the object type providers (several may be
//! composed; the first that knows a type wins), the container for name resolution, the literal
//! rules, and the Kubernetes version that decides `cel-version` diagnostics.
//!
//! Switches that cel-go keeps as options are library membership here: cross-type numeric
//! comparisons are [`Library::CrossTypeNumericComparisons`], optional syntax needs
//! [`Library::Optional`].

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::cel::library::{Library, Overload, compatibility_version, libraries_for};
use crate::cel::types::{BuiltinProvider, FieldType, Type, TypeProvider};

/// A type provider that can be shared between environments and threads.
pub type SharedProvider = Arc<dyn TypeProvider + Send + Sync>;

/// A declared variable.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// Its type.
    pub ty: Type,
    /// Documentation for hover.
    pub doc: Option<Arc<str>>,
}

/// A function declared by the caller rather than by a library (tests, custom environments).
#[derive(Clone, Debug, PartialEq)]
pub struct CustomFunction {
    /// Name as written, possibly dotted (`base64.encode`).
    pub name: String,
    /// Its overloads.
    pub overloads: Vec<Overload>,
    /// Documentation for hover.
    pub doc: Option<Arc<str>>,
}

/// The Kubernetes version an expression must be valid for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VersionTarget {
    /// Kubernetes minor version (1.`minor`).
    pub minor: u32,
    /// StoredExpressions (runtime, unchanged expressions) rather than NewExpressions.
    pub stored: bool,
}

/// How many (version, stored) library sets each thread keeps for [`Env::kubernetes`].
const LIBRARY_SETS_KEPT: usize = 8;

/// A library set made for a (version, stored) pair.
type LibrarySet = ((u32, bool), Vec<Library>);

thread_local! {
    /// The library sets [`Env::kubernetes`] made on this thread: every pass over a policy's sites
    /// builds that environment, and deciding each library's gate showed in the check's profile.
    static LIBRARY_SETS: RefCell<Vec<LibrarySet>> = const { RefCell::new(Vec::new()) };
}

/// The libraries of the admission environment of 1.`minor`, without the mutation-only ones.
fn kubernetes_libraries(minor: u32, stored: bool) -> Vec<Library> {
    let key = (minor, stored);
    let kept = LIBRARY_SETS.with(|sets| {
        let sets = sets.borrow();
        sets.iter()
            .find(|(k, _)| *k == key)
            .map(|(_, libraries)| libraries.clone())
    });
    if let Some(libraries) = kept {
        return libraries;
    }
    let libraries: Vec<Library> = libraries_for(minor, stored)
        .into_iter()
        .filter(|library| !library.mutation_only())
        .collect();
    LIBRARY_SETS.with(|sets| {
        let mut sets = sets.borrow_mut();
        if sets.len() < LIBRARY_SETS_KEPT {
            sets.push((key, libraries.clone()));
        }
    });
    libraries
}

/// Several providers asked in order; the first that knows a type answers.
#[derive(Clone, Default)]
pub struct ChainProvider {
    /// The providers, most specific first.
    pub providers: Vec<SharedProvider>,
}

impl TypeProvider for ChainProvider {
    fn field(&self, type_name: &str, field: &str) -> Option<FieldType> {
        self.providers
            .iter()
            .find_map(|p| p.field(type_name, field))
    }

    fn fields(&self, type_name: &str) -> Vec<(Arc<str>, FieldType)> {
        self.providers
            .iter()
            .map(|p| p.fields(type_name))
            .find(|fields| !fields.is_empty())
            .unwrap_or_default()
    }

    fn find_type(&self, type_name: &str) -> Option<Type> {
        self.providers.iter().find_map(|p| p.find_type(type_name))
    }

    fn may_name_type(&self, parts: &[&str]) -> bool {
        self.providers.iter().any(|p| p.may_name_type(parts))
    }
}

/// Everything the checker needs to know besides the expression. Plain data: build it, clone it,
/// keep it per expression site.
#[derive(Clone)]
pub struct Env {
    /// Declared variables by name (dotted names such as `authorizer.requestResource` allowed).
    pub variables: BTreeMap<String, Variable>,
    /// Enabled libraries.
    pub libraries: Vec<Library>,
    /// Extra functions.
    pub functions: Vec<CustomFunction>,
    /// Object type providers, asked in order.
    pub providers: ChainProvider,
    /// Container (namespace) for name resolution, `""` for none.
    pub container: String,
    /// Mixed list and map literals are errors (`HomogeneousAggregateLiterals`).
    pub homogeneous_literals: bool,
    /// Literal arguments of `duration(…)` and `timestamp(…)` must parse (Kubernetes from 1.29).
    pub literal_validators: bool,
    /// `cel.bind` (ext.Bindings) is enabled; never in the Kubernetes environment.
    pub bindings: bool,
    /// The version that decides `cel-version` errors; `None` reports unknown names as undeclared.
    pub target: Option<VersionTarget>,
}

impl Env {
    /// An environment with `libraries`, no variables, the builtin provider, no version target and
    /// cel-go's default literal rule (mixed literals become `dyn`).
    pub fn new(libraries: Vec<Library>) -> Env {
        Env {
            variables: BTreeMap::new(),
            libraries,
            functions: Vec::new(),
            providers: ChainProvider {
                providers: vec![Arc::new(BuiltinProvider)],
            },
            container: String::new(),
            homogeneous_literals: false,
            literal_validators: false,
            bindings: false,
            target: None,
        }
    }

    /// The admission environment of Kubernetes 1.`minor` (new or stored expressions), without
    /// variables and without the mutation-only libraries (add [`Library::JsonPatch`] for MAP
    /// mutations), with homogeneous literals and a version target.
    pub fn kubernetes(minor: u32, stored: bool) -> Env {
        let mut env = Env::new(kubernetes_libraries(minor, stored));
        env.homogeneous_literals = true;
        let version = if stored {
            minor
        } else {
            compatibility_version(minor)
        };
        env.literal_validators = version >= 29;
        env.target = Some(VersionTarget { minor, stored });
        env
    }

    /// Declares (or redeclares) variable `name`.
    pub fn declare(&mut self, name: &str, ty: Type, doc: Option<&str>) {
        let variable = Variable {
            ty,
            doc: doc.map(Arc::from),
        };
        self.variables.insert(name.to_string(), variable);
    }

    /// [`Env::declare`], builder style.
    pub fn with_variable(mut self, name: &str, ty: Type) -> Env {
        self.declare(name, ty, None);
        self
    }

    /// Adds a provider asked before the ones already present (so callers can layer a schema
    /// provider and a `variables`/`params` provider over the builtin one).
    pub fn push_provider(&mut self, provider: SharedProvider) {
        self.providers.providers.insert(0, provider);
    }

    /// Declares an extra function.
    pub fn add_function(&mut self, function: CustomFunction) {
        self.functions.push(function);
    }

    /// The type under which a policy variable of checked type `ty` is seen through `variables`
    /// (`composition.go` `convertCelTypeToDeclType`): scalars, timestamps and durations keep their
    /// type, lists and maps convert element-wise, object types the providers know are kept, and
    /// everything else (Kubernetes library types such as `kubernetes.Quantity`, optionals, type
    /// values, a variable that failed to check) becomes `dyn`.
    pub fn variable_type(&self, ty: &Type) -> Type {
        match ty {
            Type::Int
            | Type::Uint
            | Type::Double
            | Type::Bool
            | Type::String
            | Type::Bytes
            | Type::Duration
            | Type::Timestamp => ty.clone(),
            Type::List(elem) => Type::list(self.variable_type(elem)),
            Type::Map(key, value) => Type::map(self.variable_type(key), self.variable_type(value)),
            Type::Object(name) if self.providers.find_type(name).is_some() => ty.clone(),
            _ => Type::Dyn,
        }
    }

    /// The type a policy variable gets from its checked expression: `dyn` when the expression has
    /// errors (the API server treats a variable that fails to compile as `dyn`), else
    /// [`Env::variable_type`] of its result.
    pub fn variable_type_of(&self, checked: &super::Checked) -> Type {
        if checked.errors.is_empty() {
            self.variable_type(&checked.result)
        } else {
            Type::Dyn
        }
    }

    /// The first of `name`'s candidates ([`Env::candidates`]) that `found` accepts, with what it
    /// gave. Without a container the name is its only candidate, tried without a copy: every
    /// identifier, selection and call asks this.
    pub(super) fn find_candidate<T>(
        &self,
        name: &str,
        mut found: impl FnMut(&str) -> Option<T>,
    ) -> Option<T> {
        if self.container.is_empty() {
            return found(name.strip_prefix('.').unwrap_or(name));
        }
        self.candidates(name).iter().find_map(|c| found(c))
    }

    /// The names a reference `name` may denote, most qualified first (cel-go's container rule).
    pub(super) fn candidates(&self, name: &str) -> Vec<String> {
        if let Some(rooted) = name.strip_prefix('.') {
            return vec![rooted.to_string()];
        }
        let mut out = Vec::new();
        let mut prefix = self.container.as_str();
        while !prefix.is_empty() {
            out.push(format!("{prefix}.{name}"));
            prefix = prefix
                .rfind('.')
                .map_or("", |i| prefix.get(..i).unwrap_or(""));
        }
        out.push(name.to_string());
        out
    }
}
