//! Macro calls kept in the syntax tree unexpanded: which calls are macros (by name, call style and
//! argument count, as cel-go keys them), and how their arguments are laid out.

use super::ast::{ExprId, Name};

/// Which macro a call is. Each kind keeps cel-go's meaning; the checker and evaluator handle every
/// kind directly instead of through a generic comprehension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MacroKind {
    /// `has(a.f)`: presence test. `args` = [the select expression].
    Has,
    /// `r.all(x, p)` / `r.all(k, v, p)`.
    All,
    /// `r.exists(x, p)` / `r.exists(k, v, p)`.
    Exists,
    /// `r.exists_one(x, p)`, `r.existsOne(x, p)` / `r.existsOne(k, v, p)`.
    ExistsOne,
    /// `r.map(x, t)` / `r.map(x, filter, t)`.
    Map,
    /// `r.filter(x, p)`.
    Filter,
    /// `r.transformList(i, v, t)` / `r.transformList(i, v, filter, t)`.
    TransformList,
    /// `r.transformMap(k, v, t)` / `r.transformMap(k, v, filter, t)`.
    TransformMap,
    /// `r.transformMapEntry(k, v, t)` / `r.transformMapEntry(k, v, filter, t)`.
    TransformMapEntry,
    /// `r.sortBy(x, key)` (ext.Lists).
    SortBy,
    /// `opt.optMap(x, e)` (optional library).
    OptMap,
    /// `opt.optFlatMap(x, e)` (optional library).
    OptFlatMap,
    /// `cel.bind(x, init, body)`: `target` is `None`, `args` = [init, body].
    Bind,
}

/// A macro call as written. `vars` are the bound variable names (the leading simple-name
/// arguments); `args` are the remaining arguments in source order: the last one is the result
/// expression (predicate, transform, key or body), and a filter, when present, comes before it.
#[derive(Clone, Debug, PartialEq)]
pub struct MacroCall {
    /// Which macro.
    pub kind: MacroKind,
    /// The function name as written (`existsOne` vs `exists_one`, `bind` for `cel.bind`).
    pub function: Name,
    /// The receiver (`None` for `has` and `cel.bind`).
    pub target: Option<ExprId>,
    /// Bound variable names.
    pub vars: Vec<Name>,
    /// The other arguments.
    pub args: Vec<ExprId>,
}

impl MacroCall {
    /// The result expression (the last argument): predicate, transform, sort key or bind body.
    pub fn body(&self) -> Option<ExprId> {
        self.args.last().copied()
    }

    /// The filter of `map(x, filter, t)` and the four-argument `transform*` forms.
    pub fn filter(&self) -> Option<ExprId> {
        let with_filter = matches!(
            self.kind,
            MacroKind::Map
                | MacroKind::TransformList
                | MacroKind::TransformMap
                | MacroKind::TransformMapEntry
        );
        if with_filter && self.args.len() == 2 {
            self.args.first().copied()
        } else {
            None
        }
    }
}

/// How a call looks, to decide whether it is a macro.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallStyle {
    /// `f(…)`
    Global,
    /// `target.f(…)`
    Member,
    /// `cel.f(…)`: a member call whose target is the plain identifier `cel`.
    CelNamespace,
}

impl MacroKind {
    /// The macro for a call, if any, with the number of leading variable arguments.
    pub fn lookup(function: &str, style: CallStyle, argc: usize) -> Option<(MacroKind, usize)> {
        use MacroKind::*;
        let member = style != CallStyle::Global;
        let found = match (function, argc) {
            ("has", 1) if !member => (Has, 0),
            ("bind", 3) if style == CallStyle::CelNamespace => (Bind, 1),
            _ if !member => return None,
            ("all", 2) => (All, 1),
            ("all", 3) => (All, 2),
            ("exists", 2) => (Exists, 1),
            ("exists", 3) => (Exists, 2),
            ("exists_one", 2) | ("existsOne", 2) => (ExistsOne, 1),
            ("existsOne", 3) => (ExistsOne, 2),
            ("map", 2 | 3) => (Map, 1),
            ("filter", 2) => (Filter, 1),
            ("transformList", 3 | 4) => (TransformList, 2),
            ("transformMap", 3 | 4) => (TransformMap, 2),
            ("transformMapEntry", 3 | 4) => (TransformMapEntry, 2),
            ("sortBy", 2) => (SortBy, 1),
            ("optMap", 2) => (OptMap, 1),
            ("optFlatMap", 2) => (OptFlatMap, 1),
            _ => return None,
        };
        Some(found)
    }

    /// Whether the macro is a comprehension with cel-go's accumulator (its variables may not be
    /// named `__result__`).
    pub fn uses_accumulator(self) -> bool {
        use MacroKind::*;
        matches!(
            self,
            All | Exists
                | ExistsOne
                | Map
                | Filter
                | TransformList
                | TransformMap
                | TransformMapEntry
        )
    }

    /// cel-go's message when a variable argument is not a simple name.
    pub fn bad_var_message(self) -> &'static str {
        use MacroKind::*;
        match self {
            Map | Filter => "argument is not an identifier",
            Bind => "cel.bind() variable name must be a simple identifier",
            OptMap => "optMap() variable name must be a simple identifier",
            OptFlatMap => "optFlatMap() variable name must be a simple identifier",
            SortBy => "sortBy(var, ...) variable name must be a simple identifier",
            _ => "argument must be a simple name",
        }
    }
}
