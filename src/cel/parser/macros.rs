//! Calls and macros: argument lists, and turning a call into a `Macro` node when its name, call
//! style and argument count make it one. A macro with a malformed variable argument gives cel-go's
//! error and an `Error` node that keeps the target and arguments.

use super::Parser;
use crate::cel::ast::{ExprId, ExprKind, Literal, Name};
use crate::cel::macros::{CallStyle, MacroCall, MacroKind};
use crate::cel::token::TokenKind;
use crate::text::{TextRange, TextSize};

/// A call being built: who is called, how, and with what.
struct CallParts {
    target: Option<ExprId>,
    function: Name,
    args: Vec<ExprId>,
    span: TextRange,
    /// Start of `(`, cel-go's position for the call.
    open: TextSize,
    style: CallStyle,
}

impl Parser<'_> {
    /// `f(args)` after the name.
    pub(super) fn global_call(&mut self, function: Name) -> ExprId {
        let (open, args, close) = self.call_args();
        let span = function.span.cover(close);
        self.call_or_macro(CallParts {
            target: None,
            function,
            args,
            span,
            open,
            style: CallStyle::Global,
        })
    }

    /// `target.f(args)` after the name.
    pub(super) fn member_call(&mut self, target: ExprId, function: Name) -> ExprId {
        let (open, args, close) = self.call_args();
        let span = self.span(target).cover(close);
        let is_cel = matches!(
            self.exprs.get(target.index()).map(|e| &e.kind),
            Some(ExprKind::Ident(name)) if name.text == "cel"
        );
        let style = if is_cel {
            CallStyle::CelNamespace
        } else {
            CallStyle::Member
        };
        self.call_or_macro(CallParts {
            target: Some(target),
            function,
            args,
            span,
            open,
            style,
        })
    }

    /// `(a, b)`; returns where `(` starts, the arguments and the range of `)`.
    fn call_args(&mut self) -> (TextSize, Vec<ExprId>, TextRange) {
        let open = self.bump().range.start();
        let mut args = Vec::new();
        let close = self.comma_list(TokenKind::RParen, false, |p| args.push(p.expr()));
        (open, args, close)
    }

    fn call_or_macro(&mut self, call: CallParts) -> ExprId {
        let found = MacroKind::lookup(&call.function.text, call.style, call.args.len());
        match found {
            Some((kind, n_vars)) if self.options.macros => self.make_macro(kind, n_vars, call),
            _ => {
                let CallParts {
                    target,
                    function,
                    args,
                    span,
                    open,
                    ..
                } = call;
                self.alloc_at(
                    span,
                    open,
                    ExprKind::Call {
                        target,
                        function,
                        args,
                    },
                )
            }
        }
    }

    fn make_macro(&mut self, kind: MacroKind, n_vars: usize, call: CallParts) -> ExprId {
        let valid = if kind == MacroKind::Has {
            self.check_has(&call.args)
        } else {
            true
        };
        let vars = if valid {
            self.macro_vars(kind, call.args.get(..n_vars).unwrap_or_default())
        } else {
            None
        };
        let Some(vars) = vars else {
            let parts = call.target.into_iter().chain(call.args).collect();
            return self.alloc_at(call.span, call.open, ExprKind::Error { parts });
        };
        let target = if kind == MacroKind::Bind {
            None
        } else {
            call.target
        };
        let args = call.args.get(n_vars..).unwrap_or_default().to_vec();
        let macro_call = MacroCall {
            kind,
            function: call.function,
            target,
            vars,
            args,
        };
        self.alloc_at(call.span, call.open, ExprKind::Macro(macro_call))
    }

    /// `has` takes one plain field selection.
    fn check_has(&mut self, args: &[ExprId]) -> bool {
        let Some(&arg) = args.first() else {
            return false;
        };
        let ok = matches!(
            self.exprs.get(arg.index()).map(|e| &e.kind),
            Some(ExprKind::Select {
                optional: false,
                ..
            })
        );
        if !ok {
            self.error(self.anchored_span(arg), "invalid argument to has() macro");
        }
        ok
    }

    /// The bound variable names, or `None` (with an error) if one is not a simple name.
    fn macro_vars(&mut self, kind: MacroKind, args: &[ExprId]) -> Option<Vec<Name>> {
        let mut vars: Vec<Name> = Vec::new();
        for &arg in args {
            let ident = match self.exprs.get(arg.index()).map(|e| &e.kind) {
                Some(ExprKind::Ident(name)) if !name.text.starts_with('.') => Some(name.clone()),
                _ => None,
            };
            let Some(name) = ident.or_else(|| self.block_var_name(arg)) else {
                self.error(self.anchored_span(arg), kind.bad_var_message());
                return None;
            };
            if kind.uses_accumulator() && name.text == "__result__" {
                self.error(
                    name.span,
                    "iteration variable overwrites accumulator variable",
                );
                return None;
            }
            if vars.iter().any(|v| v.text == name.text) {
                self.error(name.span, format!("duplicate variable name: {}", name.text));
                return None;
            }
            vars.push(name);
        }
        Some(vars)
    }
}

impl Parser<'_> {
    /// `cel.iterVar(i, j)` / `cel.accuVar(i, j)`: the names cel.block (ext.Bindings) gives to
    /// comprehension variables in optimised expressions, as `@it:i:j` / `@ac:i:j`, as cel-go's
    /// block macros do.
    fn block_var_name(&self, arg: ExprId) -> Option<Name> {
        let expr = self.exprs.get(arg.index())?;
        let ExprKind::Call {
            target: Some(target),
            function,
            args,
        } = &expr.kind
        else {
            return None;
        };
        let prefix = match function.text.as_str() {
            "iterVar" => "@it",
            "accuVar" => "@ac",
            _ => return None,
        };
        let is_cel =
            matches!(&self.exprs.get(target.index())?.kind, ExprKind::Ident(n) if n.text == "cel");
        let ints: Vec<i64> = args
            .iter()
            .filter_map(|a| match &self.exprs.get(a.index())?.kind {
                ExprKind::Literal(Literal::Int(i)) => Some(*i),
                _ => None,
            })
            .collect();
        let [i, j] = ints.as_slice() else { return None };
        is_cel.then(|| Name {
            text: format!("{prefix}:{i}:{j}"),
            span: expr.span,
        })
    }
}
