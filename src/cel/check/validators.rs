//! The literal validators the Kubernetes environment adds from 1.29 (cel-go `cel/validator.go`):
//! `duration('…')` and `timestamp('…')` with a literal string must parse, and `timestamp(n)` with
//! a literal int must be in range, or the API server rejects the expression with "invalid
//! duration argument" / "invalid timestamp argument". cel-go's validator evaluates the call, so
//! this one runs the evaluator's conversion: check and run time cannot disagree.
//! The third, `ValidateRegexLiterals`, compiles the first literal argument of every `matches`
//! call with Go's `regexp.Compile` ("invalid matches argument"); like cel-go's `formatValidator`
//! it looks at the call's first argument, which for the global `matches(s, re)` is `s`.
//!
//! Independently of the version, the Kubernetes regex library compiles a literal pattern of
//! `find` and `findAll` when the program is built (`library/regex.go`, `cel.OptimizeRegex`), so a
//! pattern Go refuses fails the expression's compilation: "program instantiation failed: …".

use super::{CheckError, CheckErrorKind, PROGRAM_INSTANTIATION_FAILED};
use crate::cel::ast::{Ast, ExprId, ExprKind, Literal};
use crate::cel::eval::Value;
use crate::cel::eval::functions::convert;

/// Whether any validator could report on `ast`: the literal validators look only at calls of
/// `duration`, `timestamp`, `matches`, `find` and `findAll` whose first argument is a literal, the
/// homogeneous-literal rule only at list and map literals. Most
/// expressions have neither, and then the walk that orders the nodes for them is not needed.
pub(super) fn may_report(ast: &Ast) -> bool {
    ast.exprs.iter().any(|expr| match &expr.kind {
        ExprKind::List { .. } | ExprKind::Map { .. } => true,
        ExprKind::Call {
            target,
            function,
            args,
        } => {
            let validated = match function.text.as_str() {
                "duration" | "timestamp" => target.is_none(),
                "find" | "findAll" => target.is_some(),
                "matches" => true,
                _ => false,
            };
            validated
                && args
                    .first()
                    .is_some_and(|&arg| matches!(ast.expr(arg).kind, ExprKind::Literal(_)))
        }
        _ => false,
    })
}

/// Reports literal arguments of `duration` and `timestamp` calls that would fail to convert,
/// and literal `matches` patterns Go refuses.
/// `order` is every node of `ast` in pre-order.
pub(super) fn validate_literals(ast: &Ast, order: &[ExprId], errors: &mut Vec<CheckError>) {
    for &id in order {
        let ExprKind::Call {
            target,
            function,
            args,
        } = &ast.expr(id).kind
        else {
            continue;
        };
        if target.is_some() && function.text != "matches" {
            continue;
        }
        let Some(arg) = args.first().map(|&a| ast.expr(a)) else {
            continue;
        };
        let valid = match (&arg.kind, function.text.as_str()) {
            // cel-go evaluates the call (`evalCall`), so the evaluator's own conversion decides:
            // what fails at run time is refused here, and nothing else.
            (ExprKind::Literal(Literal::String(text)), "duration") => {
                converts(convert::to_duration, Value::string(text))
            }
            (ExprKind::Literal(Literal::String(text)), "timestamp") => {
                converts(convert::to_timestamp, Value::string(text))
            }
            (ExprKind::Literal(Literal::Int(seconds)), "timestamp") => {
                converts(convert::to_timestamp, Value::Int(*seconds))
            }
            (ExprKind::Literal(Literal::String(text)), "matches") => {
                crate::cel::re2::check(text).is_ok()
            }
            _ => continue,
        };
        if !valid {
            errors.push(CheckError {
                kind: CheckErrorKind::Type,
                span: arg.span,
                anchor: arg.anchor,
                message: format!("invalid {} argument", function.text),
                suggestion: None,
            });
        }
    }
}

/// Whether the conversion of a literal succeeds at run time.
fn converts(conversion: fn(&Value) -> Value, literal: Value) -> bool {
    !matches!(conversion(&literal), Value::Error(_))
}

/// Reports literal `find` / `findAll` patterns Go's `regexp.Compile` refuses.
pub(super) fn validate_regex_programs(ast: &Ast, order: &[ExprId], errors: &mut Vec<CheckError>) {
    for &id in order {
        let ExprKind::Call {
            target: Some(_),
            function,
            args,
        } = &ast.expr(id).kind
        else {
            continue;
        };
        if !matches!(function.text.as_str(), "find" | "findAll") {
            continue;
        }
        let Some(arg) = args.first().map(|&a| ast.expr(a)) else {
            continue;
        };
        let ExprKind::Literal(Literal::String(pattern)) = &arg.kind else {
            continue;
        };
        if let Err(refused) = crate::cel::re2::check(pattern) {
            errors.push(CheckError {
                kind: CheckErrorKind::Type,
                span: arg.span,
                anchor: arg.anchor,
                message: format!("{PROGRAM_INSTANTIATION_FAILED}{refused}"),
                suggestion: None,
            });
        }
    }
}
