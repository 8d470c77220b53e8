//! Calls and operators: function lookup (qualified names such as `sets.contains` first, as cel-go
//! does), overload resolution with fresh type parameters per call, member versus global call
//! style and the logical operators' own rule. Version diagnostics live in `versions`.

use std::sync::Arc;

use super::env::CustomFunction;
use super::format::call_signature;
use super::{CheckErrorKind, Checker, Reference};
use crate::cel::ast::{BinaryOp, ExprId, Name, UnaryOp};
use crate::cel::library::{FunctionDecl, Overload, functions, lookup};
use crate::cel::types::unify::{could_accept, is_assignable_list};
use crate::cel::types::{Type, substitute};
use crate::text::{TextRange, TextSize};

/// Where a call is reported: the node, the characters to underline and cel-go's offset.
pub(super) struct Site {
    pub id: ExprId,
    pub span: TextRange,
    pub anchor: TextSize,
}

/// The overloads of one function name: the library declarations and custom functions that
/// declare it (kept as declarations, not flattened: operators have dozens of overloads).
pub(super) struct Candidates<'a> {
    pub name: String,
    decls: Vec<&'static FunctionDecl>,
    custom: Vec<&'a CustomFunction>,
}

impl<'a> Candidates<'a> {
    /// Every overload, library ones first, in declaration order.
    pub fn overloads(&self) -> impl Iterator<Item = &'a Overload> + '_ {
        let library = self.decls.iter().flat_map(|decl| decl.overloads.iter());
        library.chain(self.custom.iter().flat_map(|f| f.overloads.iter()))
    }
}

impl<'a> Checker<'a> {
    /// The declarations of `name` in container order (library functions and custom ones).
    pub(super) fn lookup_function(&self, name: &str) -> Option<Candidates<'a>> {
        let env = self.env;
        env.find_candidate(name, |candidate| {
            let decls: Vec<&'static FunctionDecl> = lookup(candidate, &env.libraries)
                .filter(|decl| !decl.overloads.is_empty())
                .collect();
            let custom: Vec<&'a CustomFunction> = env
                .functions
                .iter()
                .filter(|f| f.name == candidate && !f.overloads.is_empty())
                .collect();
            (!decls.is_empty() || !custom.is_empty()).then(|| Candidates {
                name: candidate.to_string(),
                decls,
                custom,
            })
        })
    }

    /// Names of the functions a user can call, for suggestions.
    pub(super) fn function_names(&self) -> Vec<String> {
        let mut names: Vec<String> = functions(&self.env.libraries)
            .filter(|decl| !decl.is_internal())
            .map(|decl| decl.name.to_string())
            .chain(self.env.functions.iter().map(|f| f.name.clone()))
            .collect();
        names.sort();
        names.dedup();
        names
    }

    pub(super) fn check_call(
        &mut self,
        id: ExprId,
        target: Option<ExprId>,
        function: &Name,
        args: &[ExprId],
    ) -> Type {
        let anchor = self.ast.expr(id).anchor;
        if function.is_missing() {
            target.iter().chain(args).for_each(|&e| self.check_expr(e));
            return Type::Error;
        }
        let Some(target) = target else {
            args.iter().for_each(|&arg| self.check_expr(arg));
            let site = Site {
                id,
                span: function.span,
                anchor,
            };
            return self.call_named(&site, &function.text, None, args);
        };
        if let Some(ty) = self.namespaced_call(id, target, function, args) {
            return ty;
        }
        args.iter().for_each(|&arg| self.check_expr(arg));
        self.check_expr(target);
        let site = Site {
            id,
            span: function.span,
            anchor,
        };
        if self.type_of(target).is_error() && self.lookup_function(&function.text).is_none() {
            // The receiver already failed; a missing method on it would only repeat that.
            if self.version_message(&function.text).is_some() {
                return Type::Error;
            }
        }
        self.call_named(&site, &function.text, Some(target), args)
    }

    /// `a.b.f(args)` where `a.b.f` is a declared (or later-version) global function.
    fn namespaced_call(
        &mut self,
        id: ExprId,
        target: ExprId,
        function: &Name,
        args: &[ExprId],
    ) -> Option<Type> {
        let prefix = self.qualified_name(target)?.join(".");
        let qualified = format!("{prefix}.{}", function.text);
        let site = Site {
            id,
            span: cover(self.ast.expr(target).span.start(), function.span.end()),
            anchor: self.ast.expr(id).anchor,
        };
        if let Some(candidates) = self.lookup_function(&qualified) {
            args.iter().for_each(|&arg| self.check_expr(arg));
            return Some(self.resolve_overload(&site, &candidates, None, args));
        }
        // A function of a later version is named whole; anything else is checked as cel-go's
        // `checkCall` does, the target as an expression and the method alone (`authorizer.path`
        // without the library: "undeclared reference to 'authorizer'").
        let message = self.version_message(&qualified)?;
        args.iter().for_each(|&arg| self.check_expr(arg));
        self.error(CheckErrorKind::Version, site.span, site.anchor, message);
        Some(Type::Error)
    }

    /// Resolves a call of `name`, or reports it undeclared (or too new).
    fn call_named(
        &mut self,
        site: &Site,
        name: &str,
        target: Option<ExprId>,
        args: &[ExprId],
    ) -> Type {
        match self.lookup_function(name) {
            Some(candidates) => self.resolve_overload(site, &candidates, target, args),
            None => {
                self.not_found(name, site.span, site.anchor);
                Type::Error
            }
        }
    }

    /// Reports a function that is not declared: `cel-version` when a later version has it.
    pub(super) fn not_found(&mut self, name: &str, span: TextRange, anchor: TextSize) {
        match self.version_message(name) {
            Some(message) => self.error(CheckErrorKind::Version, span, anchor, message),
            None => self.undeclared(name, span, anchor, true),
        }
    }

    /// Calls an operator (by its internal name) on `args`, underlining `span`.
    pub(super) fn call_operator(
        &mut self,
        id: ExprId,
        name: &str,
        len: u32,
        args: &[ExprId],
    ) -> Type {
        let anchor = self.ast.expr(id).anchor;
        let site = Site {
            id,
            span: cover(
                anchor,
                anchor.checked_add(TextSize::new(len)).unwrap_or(anchor),
            ),
            anchor,
        };
        self.call_named(&site, name, None, args)
    }

    pub(super) fn check_unary(&mut self, id: ExprId, op: UnaryOp, operand: ExprId) -> Type {
        self.check_expr(operand);
        let len = op.symbol().len() as u32;
        self.call_operator(id, op.function_name(), len, &[operand])
    }

    pub(super) fn check_binary(
        &mut self,
        id: ExprId,
        op: BinaryOp,
        lhs: ExprId,
        rhs: ExprId,
    ) -> Type {
        self.check_expr(lhs);
        self.check_expr(rhs);
        let len = op.symbol().len() as u32;
        self.call_operator(id, op.function_name(), len, &[lhs, rhs])
    }

    pub(super) fn check_conditional(
        &mut self,
        id: ExprId,
        cond: ExprId,
        then: ExprId,
        otherwise: ExprId,
    ) -> Type {
        [cond, then, otherwise]
            .into_iter()
            .for_each(|e| self.check_expr(e));
        self.call_operator(id, "_?_:_", 1, &[cond, then, otherwise])
    }

    pub(super) fn check_index(
        &mut self,
        id: ExprId,
        operand: ExprId,
        index: ExprId,
        optional: bool,
    ) -> Type {
        self.check_expr(operand);
        self.check_expr(index);
        if optional && !self.optional_enabled() {
            self.optional_syntax_error(id);
            return Type::Error;
        }
        let (name, len) = if optional { ("_[?_]", 2) } else { ("_[_]", 1) };
        self.call_operator(id, name, len, &[operand, index])
    }

    /// cel-go's overload resolution: every overload of the right call style whose parameters
    /// accept the arguments matches; one match gives its result type, several with different
    /// results give `dyn`.
    pub(super) fn resolve_overload(
        &mut self,
        site: &Site,
        candidates: &Candidates<'a>,
        target: Option<ExprId>,
        args: &[ExprId],
    ) -> Type {
        let member = target.is_some();
        let arg_ids: Vec<ExprId> = target.into_iter().chain(args.iter().copied()).collect();
        let arg_types: Vec<Type> = arg_ids.iter().map(|&a| self.type_of(a)).collect();
        let name = candidates.name.as_str();
        if matches!(name, "_&&_" | "_||_") {
            return self.check_logical(site, name, &arg_ids, &arg_types);
        }
        let mut result: Option<Type> = None;
        let mut matched = Vec::new();
        for overload in candidates.overloads().filter(|o| o.member == member) {
            if !could_accept(&overload.params, &arg_types) {
                // Numbered as if instantiated, as cel-go instantiates every overload it tries,
                // so the `_varN` names in messages stay cel-go's.
                let skipped = u32::try_from(overload.type_params.len()).unwrap_or(u32::MAX);
                self.next_var = self.next_var.wrapping_add(skipped);
                continue;
            }
            let (params, ret) = overload.instantiate(&mut self.next_var);
            if !is_assignable_list(&params, &arg_types, &mut self.subst) {
                continue;
            }
            matched.push(overload.id.clone());
            let ret = self.resolved(&ret);
            result = Some(match result {
                None => ret,
                Some(prev) if prev != Type::Dyn && prev != ret => Type::Dyn,
                Some(prev) => prev,
            });
        }
        let Some(ty) = result else {
            self.no_overload(site, name, member, &arg_types);
            return Type::Error;
        };
        let reference = Reference::Function {
            name: name.to_string(),
            overloads: matched,
        };
        self.set_ref(site.id, reference);
        ty
    }

    /// `&&` and `||`: each operand must be a bool; each wrong one is reported on its own.
    fn check_logical(&mut self, site: &Site, name: &str, ids: &[ExprId], types: &[Type]) -> Type {
        let mut ok = true;
        for (&id, ty) in ids.iter().zip(types) {
            if !self.assignable(ty, &Type::Bool) {
                self.type_mismatch(id, &Type::Bool, ty);
                ok = false;
            }
        }
        if !ok {
            return Type::Error;
        }
        let id = if name == "_&&_" {
            "logical_and"
        } else {
            "logical_or"
        };
        let reference = Reference::Function {
            name: name.to_string(),
            overloads: vec![Arc::from(id)],
        };
        self.set_ref(site.id, reference);
        Type::Bool
    }

    fn no_overload(&mut self, site: &Site, name: &str, member: bool, args: &[Type]) {
        if let Some(message) = self.overload_version_message(name, member, args) {
            self.error(CheckErrorKind::Version, site.span, site.anchor, message);
            return;
        }
        let shown: Vec<Type> = args
            .iter()
            .map(|t| substitute(&self.subst, t, true))
            .collect();
        let message = format!(
            "found no matching overload for '{name}' applied to '{}'",
            call_signature(&shown, member)
        );
        self.error(CheckErrorKind::NoOverload, site.span, site.anchor, message);
    }

    /// Reports that `found` is not `expected` at node `id` unless it fits.
    pub(super) fn expect_type(&mut self, id: ExprId, expected: &Type) {
        let found = self.type_of(id);
        if !self.assignable(expected, &found) {
            self.type_mismatch(id, expected, &found);
        }
    }
}

/// The range from `start` to `end`, or the empty range at `start` when a hand-built tree puts them
/// out of order (never panics, unlike `TextRange::new`).
pub(super) fn cover(start: TextSize, end: TextSize) -> TextRange {
    if start <= end {
        TextRange::new(start, end)
    } else {
        TextRange::empty(start)
    }
}
