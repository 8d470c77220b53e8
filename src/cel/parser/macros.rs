//! Calls and macros: argument lists, and turning a call into a `Macro` node when its name, call
//! style and argument count make it one. A macro with a malformed variable argument gives cel-go's
//! error and an `Error` node that keeps the target and arguments.

use super::Parser;
use crate::cel::ast::{ExprId, ExprKind, Name};
use crate::cel::macros::{CallStyle, MacroCall, MacroKind};
use crate::cel::token::TokenKind;
use crate::text::TextRange;

/// A call being built: who is called, how, and with what.
struct CallParts {
    target: Option<ExprId>,
    function: Name,
    args: Vec<ExprId>,
    span: TextRange,
    style: CallStyle,
}

impl Parser<'_> {
    /// `f(args)` after the name.
    pub(super) fn global_call(&mut self, function: Name) -> ExprId {
        let (args, close) = self.call_args();
        let span = function.span.cover(close);
        self.call_or_macro(CallParts {
            target: None,
            function,
            args,
            span,
            style: CallStyle::Global,
        })
    }

    /// `target.f(args)` after the name.
    pub(super) fn member_call(&mut self, target: ExprId, function: Name) -> ExprId {
        let (args, close) = self.call_args();
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
            style,
        })
    }

    /// `(a, b)`; returns the arguments and the range of `)`.
    fn call_args(&mut self) -> (Vec<ExprId>, TextRange) {
        self.bump();
        let mut args = Vec::new();
        let close = self.comma_list(TokenKind::RParen, |p| args.push(p.expr()));
        (args, close)
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
                    ..
                } = call;
                self.alloc(
                    span,
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
            self.macro_vars(kind, &call.args[..n_vars.min(call.args.len())])
        } else {
            None
        };
        let Some(vars) = vars else {
            let parts = call.target.into_iter().chain(call.args).collect();
            return self.error_node(call.span, parts);
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
        self.alloc(call.span, ExprKind::Macro(macro_call))
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
            self.error(self.span(arg), "invalid argument to has() macro");
        }
        ok
    }

    /// The bound variable names, or `None` (with an error) if one is not a simple name.
    fn macro_vars(&mut self, kind: MacroKind, args: &[ExprId]) -> Option<Vec<Name>> {
        let mut vars: Vec<Name> = Vec::new();
        for &arg in args {
            let name = match self.exprs.get(arg.index()).map(|e| &e.kind) {
                Some(ExprKind::Ident(name)) if !name.text.starts_with('.') => name.clone(),
                _ => {
                    self.error(self.span(arg), kind.bad_var_message());
                    return None;
                }
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
