//! Macros, checked as cel-go checks their expansions without expanding them: `has` as a presence
//! test, the comprehensions (`all`, `exists`, `exists_one`/`existsOne`, `map`, `filter`, the
//! two-variable forms and `transform*`), `sortBy`, `optMap`/`optFlatMap` and `cel.bind` (only when
//! bindings are enabled). A macro of a library that is not enabled is reported as undeclared, or
//! as `cel-version` when a later Kubernetes version has it.

use super::format::call_signature;
use super::{CheckErrorKind, Checker, Local, Reference, cel_go_type};
use crate::cel::ast::{ExprId, ExprKind};
use crate::cel::library::{first_minor_with_macro, lookup_macro};
use crate::cel::macros::{MacroCall, MacroKind};
use crate::cel::types::Type;

/// The key types `sortBy` accepts (ext.Lists' comparable types).
const COMPARABLE: [Type; 8] = [
    Type::Int,
    Type::Uint,
    Type::Double,
    Type::Bool,
    Type::Duration,
    Type::Timestamp,
    Type::String,
    Type::Bytes,
];

/// The types of a comprehension's variables: (first, second) — element or key, then value.
type VarTypes = (Type, Type);

impl Checker<'_> {
    pub(super) fn check_macro(&mut self, id: ExprId, call: &MacroCall) -> Type {
        self.set_ref(id, Reference::Macro(call.function.text.clone()));
        if !self.macro_available(id, call) {
            self.check_macro_parts(call, (Type::Dyn, Type::Dyn));
            return Type::Error;
        }
        match call.kind {
            MacroKind::Has => self.check_has(call),
            MacroKind::Bind => self.check_bind(call),
            MacroKind::OptMap | MacroKind::OptFlatMap => self.check_opt_map(id, call),
            MacroKind::SortBy => self.check_sort_by(id, call),
            _ => self.check_comprehension(call),
        }
    }

    /// Whether the macro's library is enabled; reports it otherwise.
    fn macro_available(&mut self, id: ExprId, call: &MacroCall) -> bool {
        let name = call.function.text.as_str();
        let member = call.target.is_some();
        let argc = call.vars.len() + call.args.len();
        let available = match call.kind {
            MacroKind::Bind => self.env.bindings,
            _ => lookup_macro(name, member, argc, &self.env.libraries).is_some(),
        };
        if available {
            return true;
        }
        let expr = self.ast.expr(id);
        let anchor = expr.anchor;
        let span = if call.kind == MacroKind::Bind {
            super::calls::cover(expr.span.start(), call.function.span.end())
        } else {
            call.function.span
        };
        let message = self.env.target.and_then(|target| {
            let introduced = first_minor_with_macro(name, member, argc, true)?;
            let accepted = first_minor_with_macro(name, member, argc, false);
            super::versions::version_text(
                &format!("macro '{name}'"),
                target.minor,
                target.stored,
                introduced,
                accepted,
            )
        });
        match message {
            Some(message) => self.error(CheckErrorKind::Version, span, anchor, message),
            None if call.kind == MacroKind::Bind => self.undeclared("cel.bind", span, anchor, true),
            None => self.undeclared(name, span, anchor, true),
        }
        false
    }

    /// Types the target and arguments with the variables bound to `vars` (for hover), without
    /// checking the macro itself.
    fn check_macro_parts(&mut self, call: &MacroCall, vars: VarTypes) {
        if let Some(target) = call.target {
            self.check_expr(target);
        }
        self.with_vars(call, vars, |this| {
            call.args.iter().for_each(|&arg| this.check_expr(arg));
        });
    }

    /// Runs `body` with the macro's variables in scope.
    fn with_vars(
        &mut self,
        call: &MacroCall,
        (first, second): VarTypes,
        body: impl FnOnce(&mut Self),
    ) {
        let before = self.locals.len();
        for (index, var) in call.vars.iter().enumerate() {
            let ty = if index == 0 {
                first.clone()
            } else {
                second.clone()
            };
            self.locals.push(Local {
                name: var.text.clone(),
                ty,
                declared_at: var.span,
            });
        }
        body(self);
        self.locals.truncate(before);
    }

    /// `has(a.f)`: the selection must be on a map, an object with field `f`, or `dyn`.
    fn check_has(&mut self, call: &MacroCall) -> Type {
        let Some(&arg) = call.args.first() else {
            return Type::Bool;
        };
        let ExprKind::Select { operand, field, .. } = &self.ast.expr(arg).kind else {
            self.check_expr(arg);
            return Type::Bool;
        };
        let (operand, field) = (*operand, field.clone());
        self.check_expr(operand);
        let operand_type = self.resolved(&self.type_of(operand));
        let target = match operand_type {
            Type::Optional(inner) => (*inner).clone(),
            other => other,
        };
        let field_type = match &target {
            Type::Map(_, value) => (**value).clone(),
            Type::Object(owner) if !field.is_missing() => self.object_field(arg, owner, &field),
            Type::Param(_) => {
                self.assignable(&Type::Dyn, &target);
                Type::Dyn
            }
            Type::Dyn | Type::Error | Type::Object(_) => Type::Dyn,
            other => {
                let message = format!(
                    "type '{}' does not support field selection",
                    cel_go_type(other)
                );
                let anchor = self.ast.expr(arg).anchor;
                self.error(CheckErrorKind::Type, field.span, anchor, message);
                Type::Dyn
            }
        };
        self.set_type(arg, field_type);
        Type::Bool
    }

    /// The variable types a range gives: list → (element) or (index, element); map → (key) or
    /// (key, value); `dyn` → dyn. Anything else is reported.
    fn range_vars(&mut self, call: &MacroCall) -> VarTypes {
        let Some(target) = call.target else {
            return (Type::Dyn, Type::Dyn);
        };
        self.check_expr(target);
        let range = self.resolved(&self.type_of(target));
        let two = call.vars.len() == 2;
        match &range {
            Type::List(elem) if two => (Type::Int, (**elem).clone()),
            Type::List(elem) => ((**elem).clone(), Type::Dyn),
            Type::Map(key, value) => ((**key).clone(), (**value).clone()),
            Type::Dyn | Type::Error | Type::Param(_) => {
                self.assignable(&Type::Dyn, &range);
                (Type::Dyn, Type::Dyn)
            }
            other => {
                let expr = self.ast.expr(target);
                let message = format!(
                    "expression of type '{}' cannot be range of a comprehension (must be list, map, or dynamic)",
                    cel_go_type(other)
                );
                self.error(CheckErrorKind::Type, expr.span, expr.anchor, message);
                (Type::Error, Type::Error)
            }
        }
    }

    fn check_comprehension(&mut self, call: &MacroCall) -> Type {
        let vars = self.range_vars(call);
        let mut body_type = Type::Error;
        self.with_vars(call, vars.clone(), |this| {
            if let Some(filter) = call.filter() {
                this.check_expr(filter);
                this.expect_type(filter, &Type::Bool);
            }
            if let Some(body) = call.body() {
                this.check_expr(body);
                body_type = this.type_of(body);
            }
        });
        let body = call.body();
        match call.kind {
            MacroKind::All | MacroKind::Exists | MacroKind::ExistsOne => {
                if let Some(body) = body {
                    self.expect_type(body, &Type::Bool);
                }
                Type::Bool
            }
            MacroKind::Filter => {
                if let Some(body) = body {
                    self.expect_type(body, &Type::Bool);
                }
                Type::list(vars.0)
            }
            MacroKind::Map | MacroKind::TransformList => Type::list(body_type),
            MacroKind::TransformMap => Type::map(vars.0, body_type),
            MacroKind::TransformMapEntry => self.map_entry_type(body, body_type),
            _ => Type::Error,
        }
    }

    /// `transformMapEntry`: the body must be a map literal type; the result has its key and
    /// value types.
    fn map_entry_type(&mut self, body: Option<ExprId>, body_type: Type) -> Type {
        match self.resolved(&body_type) {
            Type::Map(key, value) => Type::map((*key).clone(), (*value).clone()),
            Type::Dyn | Type::Error | Type::Param(_) => Type::map(Type::Dyn, Type::Dyn),
            other => {
                if let Some(body) = body {
                    self.type_mismatch(body, &Type::map(Type::Dyn, Type::Dyn), &other);
                }
                Type::Error
            }
        }
    }

    /// `list.sortBy(x, key)`: a list of the same type; the key must be of a comparable type.
    fn check_sort_by(&mut self, id: ExprId, call: &MacroCall) -> Type {
        let target_type = call.target.map(|t| {
            self.check_expr(t);
            self.resolved(&self.type_of(t))
        });
        let elem = match &target_type {
            Some(Type::List(elem)) => (**elem).clone(),
            Some(Type::Dyn | Type::Error | Type::Param(_)) | None => Type::Dyn,
            Some(other) => {
                self.check_macro_parts_args(call, Type::Dyn);
                self.macro_no_overload(id, call, std::slice::from_ref(other));
                return Type::Error;
            }
        };
        let key_type = self.check_macro_parts_args(call, elem.clone());
        let comparable = COMPARABLE.contains(&key_type);
        if !comparable && !key_type.is_dyn_or_error() && !matches!(key_type, Type::Param(_)) {
            self.macro_no_overload(id, call, &[Type::list(elem.clone()), key_type]);
            return Type::Error;
        }
        Type::list(elem)
    }

    /// Checks the arguments with the single variable bound to `var`; the body's type.
    fn check_macro_parts_args(&mut self, call: &MacroCall, var: Type) -> Type {
        let mut body_type = Type::Error;
        self.with_vars(call, (var, Type::Dyn), |this| {
            call.args.iter().for_each(|&arg| this.check_expr(arg));
            if let Some(body) = call.body() {
                body_type = this.resolved(&this.type_of(body));
            }
        });
        body_type
    }

    fn macro_no_overload(&mut self, id: ExprId, call: &MacroCall, args: &[Type]) {
        let message = format!(
            "found no matching overload for '{}' applied to '{}'",
            call.function.text,
            call_signature(args, true)
        );
        let anchor = self.ast.expr(id).anchor;
        self.error(
            CheckErrorKind::NoOverload,
            call.function.span,
            anchor,
            message,
        );
    }

    /// `opt.optMap(x, e)` → `optional(type(e))`; `opt.optFlatMap(x, e)` → `type(e)`, which must
    /// be optional.
    fn check_opt_map(&mut self, id: ExprId, call: &MacroCall) -> Type {
        let target_type = call.target.map(|t| {
            self.check_expr(t);
            self.resolved(&self.type_of(t))
        });
        let inner = match &target_type {
            Some(Type::Optional(inner)) => (**inner).clone(),
            Some(Type::Dyn | Type::Error | Type::Param(_)) | None => Type::Dyn,
            Some(other) => {
                self.check_macro_parts_args(call, Type::Dyn);
                self.macro_no_overload(id, call, std::slice::from_ref(other));
                return Type::Error;
            }
        };
        let body_type = self.check_macro_parts_args(call, inner);
        if call.kind == MacroKind::OptMap {
            return Type::optional(body_type);
        }
        match body_type {
            Type::Optional(_) | Type::Dyn | Type::Error => body_type,
            other => {
                if let Some(body) = call.body() {
                    self.type_mismatch(body, &Type::optional(other.clone()), &other);
                }
                Type::Error
            }
        }
    }

    /// `cel.bind(x, init, body)`: `x` has the type of `init`; the result is the body's type.
    fn check_bind(&mut self, call: &MacroCall) -> Type {
        let (Some(&init), Some(body)) = (call.args.first(), call.body()) else {
            return Type::Error;
        };
        self.check_expr(init);
        let init_type = self.type_of(init);
        let mut result = Type::Error;
        self.with_vars(call, (init_type, Type::Dyn), |this| {
            this.check_expr(body);
            result = this.type_of(body);
        });
        result
    }
}
