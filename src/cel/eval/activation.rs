//! Variables for an evaluation: plain values by name, and lazily computed ones (the policy
//! layer's `variables.x`) that are evaluated once, on first use, and charged to the expression
//! that forces them (as the API server does).

use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::Arc;

use super::value::{EvalError, Value};

/// The result of computing a lazy variable: its value (or error) and what it cost.
#[derive(Clone, Debug)]
pub struct Computed {
    /// The value, or the error that stopped its evaluation.
    pub result: Result<Value, EvalError>,
    /// The cost spent computing it.
    pub cost: u64,
}

/// Computes a lazy variable; the argument is the cost budget left for it.
pub type LazyFn<'a> = Box<dyn Fn(Option<u64>) -> Computed + 'a>;

enum Slot<'a> {
    Value(Value),
    Lazy(LazyFn<'a>, OnceCell<Computed>),
}

/// Variables by name. Dotted names (`variables.foo`) are allowed: `variables.foo` in an
/// expression resolves to them, as cel-go resolves qualified identifiers.
#[derive(Default)]
pub struct Activation<'a> {
    slots: HashMap<String, Slot<'a>>,
    has_dotted: bool,
    /// `x.orValue(y)` as Kyverno's engines run it (see [`Activation::with_or_value_compat`]).
    pub(crate) or_value_compat: bool,
    /// Presence tests on a scalar are errors (see [`Activation::with_strict_presence`]).
    pub(crate) strict_presence: bool,
    /// Functions the caller supplies (see [`Activation::with_functions`]).
    pub(crate) functions: Option<Arc<dyn ExternalFunctions>>,
}

/// Functions of a library the evaluator does not have, supplied by the caller (an engine's own
/// library, such as Kyverno's): asked first for every call.
pub trait ExternalFunctions {
    /// The result of `name` (qualified, such as `resource.Get`) on `target` with `args`, or
    /// `None` when the library has no such function (the evaluator's own then runs).
    fn call(&self, name: &str, target: Option<&Value>, args: &[Value]) -> Option<Value>;
    /// Whether `ns.f` is one of the library's qualified functions (`resource.Get`), called with
    /// no receiver when `ns` is not a variable.
    fn is_qualified(&self, name: &str) -> bool;
}

/// What looking a name up gives.
pub(crate) enum Resolved<'b> {
    /// A value, nothing to charge.
    Value(&'b Value),
    /// A lazy variable forced now: charge its cost (only the first time).
    Computed(&'b Computed, bool),
}

impl<'a> Activation<'a> {
    /// An empty activation.
    pub fn new() -> Self {
        Activation::default()
    }

    /// Runs `x.orValue(y)` as kyverno/kyverno `pkg/cel/compiler/env.go`
    /// `OrValueCompatEnvOptions` does (a parse-time macro to `__orValueCompat__`): an optional
    /// gives its value or `y`, an error gives `y`, any other value is returned as it is (cel-go
    /// before v0.28), where plain CEL has no overload for a receiver that is not optional.
    pub fn with_or_value_compat(&mut self) -> &mut Self {
        self.or_value_compat = true;
        self
    }

    /// A presence test on a value that is not a map or an object (`has(x.f)`, `x.?f`, `x[?k]`
    /// with `x` a scalar or null) is an error, as in cel-go with `EnableErrorOnBadPresenceTest`,
    /// which only cel-go's conformance run enables (`conformance/conformance_test.go`). Without
    /// it, the default of every engine we follow (Kubernetes' `pkg/cel/environment`, Gatekeeper's
    /// driver, Kyverno's `pkg/cel/compiler/env.go`, none of which enables it), such a test is
    /// false (`interpreter/attributes.go` `refQualify`, opt-out since cel-go v0.21).
    pub fn with_strict_presence(&mut self) -> &mut Self {
        self.strict_presence = true;
        self
    }

    /// Asks `functions` first for every call (see [`ExternalFunctions`]).
    pub fn with_functions(&mut self, functions: Arc<dyn ExternalFunctions>) -> &mut Self {
        self.functions = Some(functions);
        self
    }

    /// Binds `name` to a value (replacing any binding).
    pub fn bind(&mut self, name: &str, value: Value) -> &mut Self {
        self.note(name);
        self.slots.insert(name.to_string(), Slot::Value(value));
        self
    }

    /// Binds `name` to a value computed on first use.
    pub fn bind_lazy(&mut self, name: &str, compute: LazyFn<'a>) -> &mut Self {
        self.note(name);
        self.slots
            .insert(name.to_string(), Slot::Lazy(compute, OnceCell::new()));
        self
    }

    fn note(&mut self, name: &str) {
        self.has_dotted |= name.contains('.');
    }

    /// Whether any bound name is dotted (so qualified resolution is worth trying).
    pub(crate) fn has_dotted(&self) -> bool {
        self.has_dotted
    }

    /// Whether `name` is bound.
    pub fn contains(&self, name: &str) -> bool {
        self.slots.contains_key(name)
    }

    /// Resolves `name`, forcing a lazy variable with the budget left.
    pub(crate) fn resolve(&self, name: &str, budget: Option<u64>) -> Option<Resolved<'_>> {
        match self.slots.get(name)? {
            Slot::Value(v) => Some(Resolved::Value(v)),
            Slot::Lazy(compute, cell) => {
                let first = cell.get().is_none();
                let computed = cell.get_or_init(|| compute(budget));
                Some(Resolved::Computed(computed, first))
            }
        }
    }
}
