//! Assignability and type-parameter unification, following the rules of cel-go's checker
//! (`checker/types.go`):
//!
//! - a type parameter on either side binds to the other type, or, when already bound, must agree
//!   with its binding, which is then widened to the more general of the two;
//! - `dyn` and `error` are assignable to and from everything;
//! - `null` is assignable to `null_type`, objects, opaque and optional types, durations and
//!   timestamps (the legacy nullability the API server's checker keeps);
//! - primitives, objects and opaque types must agree by name; lists, maps and optionals agree
//!   parameter by parameter; any `type(...)` is assignable to any other.
//!
//! A binding never refers to its own parameter (an occurs check), so substitution terminates.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::Type;

/// Bindings of type parameters found while unifying. Deterministic (ordered by parameter name).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Substitution {
    bindings: BTreeMap<Arc<str>, Type>,
}

impl Substitution {
    /// An empty substitution.
    pub fn new() -> Self {
        Self::default()
    }

    /// The type bound to parameter `name`, if any.
    pub fn get(&self, name: &str) -> Option<&Type> {
        self.bindings.get(name)
    }

    /// Every binding, ordered by parameter name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Type)> {
        self.bindings.iter().map(|(name, ty)| (&**name, ty))
    }

    /// Number of bound parameters.
    pub fn len(&self) -> usize {
        self.bindings.len()
    }

    /// Whether no parameter is bound.
    pub fn is_empty(&self) -> bool {
        self.bindings.is_empty()
    }

    fn find(&self, ty: &Type) -> Option<&Type> {
        match ty {
            Type::Param(name) => self.bindings.get(name),
            _ => None,
        }
    }

    fn bind(&mut self, param: &Type, ty: Type) {
        if let Type::Param(name) = param {
            self.bindings.insert(name.clone(), ty);
        }
    }
}

/// Whether a value of type `from` may be used where `to` is expected, binding type parameters of
/// either side in `subst`. On failure `subst` is left unchanged.
///
/// For overload resolution pass the parameter type as `to` and the argument type as `from`.
pub fn is_assignable(to: &Type, from: &Type, subst: &mut Substitution) -> bool {
    let mut trial = subst.clone();
    if assignable(&mut trial, from, to) {
        *subst = trial;
        true
    } else {
        false
    }
}

/// [`is_assignable`] for parameter lists of equal length (an arity mismatch is not assignable).
pub fn is_assignable_list(to: &[Type], from: &[Type], subst: &mut Substitution) -> bool {
    if to.len() != from.len() {
        return false;
    }
    let mut trial = subst.clone();
    if from
        .iter()
        .zip(to)
        .all(|(from, to)| assignable(&mut trial, from, to))
    {
        *subst = trial;
        true
    } else {
        false
    }
}

/// Whether arguments of types `from` might be assignable to parameters `to` under some binding:
/// [`is_assignable_list`] with every type parameter taken as a wildcard, without binding or
/// copying anything. `false` means `is_assignable_list` is `false` too, so overload resolution
/// skips the overload before instantiating its type parameters.
pub fn could_accept(to: &[Type], from: &[Type]) -> bool {
    to.len() == from.len() && to.iter().zip(from).all(|(to, from)| may_assign(to, from))
}

fn may_assign(to: &Type, from: &Type) -> bool {
    let wildcard = |t: &Type| matches!(t, Type::Param(_) | Type::Dyn | Type::Error);
    if wildcard(to) || wildcard(from) {
        return true;
    }
    match (from, to) {
        (Type::Null, _) => to.is_nullable(),
        (_, Type::Null) => from.is_nullable(),
        (Type::TypeOf(_), other) => matches!(other, Type::TypeOf(_)),
        (Type::List(a), Type::List(b)) | (Type::Optional(a), Type::Optional(b)) => may_assign(b, a),
        (Type::Map(k1, v1), Type::Map(k2, v2)) => may_assign(k2, k1) && may_assign(v2, v1),
        (Type::Object(a), Type::Object(b)) | (Type::Opaque(a), Type::Opaque(b)) => a == b,
        _ => from == to && is_simple(from),
    }
}

fn assignable(subst: &mut Substitution, t1: &Type, t2: &Type) -> bool {
    if matches!(t2, Type::Param(_)) {
        let (valid, has_binding) = valid_substitution(subst, t1, t2);
        if valid {
            return true;
        }
        if has_binding {
            return false;
        }
    }
    if matches!(t1, Type::Param(_)) {
        return valid_substitution(subst, t2, t1).0;
    }
    if t1.is_dyn_or_error() || t2.is_dyn_or_error() {
        return true;
    }
    if matches!(t1, Type::Null) {
        return t2.is_nullable();
    }
    if matches!(t2, Type::Null) {
        return t1.is_nullable();
    }
    match (t1, t2) {
        (Type::TypeOf(_), other) => matches!(other, Type::TypeOf(_)),
        (Type::List(a), Type::List(b)) | (Type::Optional(a), Type::Optional(b)) => {
            assignable(subst, a, b)
        }
        (Type::Map(k1, v1), Type::Map(k2, v2)) => {
            assignable(subst, k1, k2) && assignable(subst, v1, v2)
        }
        (Type::Object(a), Type::Object(b)) | (Type::Opaque(a), Type::Opaque(b)) => a == b,
        _ => t1 == t2 && is_simple(t1),
    }
}

fn is_simple(ty: &Type) -> bool {
    matches!(
        ty,
        Type::Int
            | Type::Uint
            | Type::Double
            | Type::Bool
            | Type::String
            | Type::Bytes
            | Type::Duration
            | Type::Timestamp
    )
}

/// Whether `ty` may stand for `param`; binds it if so. Returns (valid, param was already bound).
fn valid_substitution(subst: &mut Substitution, ty: &Type, param: &Type) -> (bool, bool) {
    if ty == param {
        return (true, true);
    }
    if let Some(bound) = subst.find(param).cloned() {
        if *ty == bound {
            return (true, true);
        }
        if assignable(subst, ty, &bound) {
            let widened = most_general(ty, &bound).clone();
            if not_referenced_in(subst, param, &widened) {
                subst.bind(param, widened);
            }
            return (true, true);
        }
        return (false, true);
    }
    if not_referenced_in(subst, param, ty) {
        subst.bind(param, ty.clone());
        return (true, false);
    }
    (false, false)
}

/// The more general of two types that unify: `dyn` and type parameters are the most general.
pub fn most_general<'a>(t1: &'a Type, t2: &'a Type) -> &'a Type {
    if equal_or_less_specific(t1, t2) {
        t1
    } else {
        t2
    }
}

fn equal_or_less_specific(t1: &Type, t2: &Type) -> bool {
    if matches!(t1, Type::Dyn | Type::Param(_)) {
        return true;
    }
    if matches!(t2, Type::Dyn | Type::Param(_)) {
        return false;
    }
    match (t1, t2) {
        (Type::List(a), Type::List(b)) | (Type::Optional(a), Type::Optional(b)) => {
            equal_or_less_specific(a, b)
        }
        (Type::Map(k1, v1), Type::Map(k2, v2)) => {
            equal_or_less_specific(k1, k2) && equal_or_less_specific(v1, v2)
        }
        (Type::TypeOf(_), Type::TypeOf(_)) => true,
        _ => t1 == t2,
    }
}

fn not_referenced_in(subst: &Substitution, param: &Type, within: &Type) -> bool {
    if param == within {
        return false;
    }
    match within {
        Type::Param(_) => match subst.find(within) {
            Some(bound) => not_referenced_in(subst, param, bound),
            None => true,
        },
        Type::List(inner) | Type::Optional(inner) => not_referenced_in(subst, param, inner),
        Type::Map(key, value) => {
            not_referenced_in(subst, param, key) && not_referenced_in(subst, param, value)
        }
        Type::TypeOf(Some(inner)) => not_referenced_in(subst, param, inner),
        _ => true,
    }
}

/// `ty` with every bound parameter replaced by its binding; unbound parameters become `dyn` when
/// `params_to_dyn` is set (as the checker does for the final type of an expression).
pub fn substitute(subst: &Substitution, ty: &Type, params_to_dyn: bool) -> Type {
    // Most types mention no parameter: shared as they are instead of rebuilt (every node's type
    // goes through here when a check finishes).
    if !ty.has_params() {
        return ty.clone();
    }
    // The occurs check keeps bindings acyclic; the budget is a second guard against a hostile chain.
    substitute_bounded(subst, ty, params_to_dyn, subst.len() + 64)
}

fn substitute_bounded(subst: &Substitution, ty: &Type, to_dyn: bool, budget: usize) -> Type {
    if let Some(bound) = subst.find(ty) {
        // Only following a binding spends the budget; nesting depth is bounded by the type itself.
        return match budget.checked_sub(1) {
            Some(rest) => substitute_bounded(subst, bound, to_dyn, rest),
            None => Type::Dyn,
        };
    }
    let recurse = |inner: &Type| substitute_bounded(subst, inner, to_dyn, budget);
    match ty {
        Type::Param(_) if to_dyn => Type::Dyn,
        Type::List(elem) => Type::list(recurse(elem)),
        Type::Optional(elem) => Type::optional(recurse(elem)),
        Type::Map(key, value) => Type::map(recurse(key), recurse(value)),
        Type::TypeOf(Some(inner)) => Type::type_of(recurse(inner)),
        other => other.clone(),
    }
}
