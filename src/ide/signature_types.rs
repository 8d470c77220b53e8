//! The types that choose a call's overload in signature help. The call is usually unfinished
//! (`url(object.x, ` or `s.indexOf('a', `), so it is completed before checking: cut after the
//! argument under the cursor (or, when that is not a whole expression yet, after the last finished
//! one), close the call and every bracket still open before it, and check that text in the site's
//! environment. The receiver and the arguments then have their types.

use crate::cel::ast::ExprKind;
use crate::cel::library::Overload;
use crate::cel::token::{Token, TokenKind};
use crate::cel::types::{Substitution, Type};
use crate::text::TextSize;

use super::cursor::CelCursor;

/// The receiver's and finished arguments' types of the call being typed.
pub(super) struct CallTypes {
    receiver: Option<Type>,
    args: Vec<Type>,
}

/// The types of the call whose `(` is `tokens[open]` and whose name starts at `name_start`, in
/// `before` (the site's text up to the cursor). `None` when the completed text does not give a call.
pub(super) fn call_types(
    cursor: &CelCursor,
    before: &str,
    tokens: &[Token],
    open: usize,
    name_start: TextSize,
) -> Option<CallTypes> {
    let finished = finished_arguments_end(tokens, open)?;
    let current = TextSize::of(before);
    // The argument under the cursor counts too when it is already a whole expression.
    let with_current = (before.get(usize::from(finished)..)?.trim() != "")
        .then(|| completed_call(cursor, before, tokens, open, name_start, current))
        .flatten();
    with_current.or_else(|| completed_call(cursor, before, tokens, open, name_start, finished))
}

/// The types of the call when `before` is cut at `cut` and closed; `None` unless that parses.
fn completed_call(
    cursor: &CelCursor,
    before: &str,
    tokens: &[Token],
    open: usize,
    name_start: TextSize,
    cut: TextSize,
) -> Option<CallTypes> {
    let mut text = before.get(..usize::from(cut))?.to_owned();
    text.push(')');
    text.extend(closers(tokens.get(..open)?).iter().rev());
    let parsed = crate::cel::parse(&text);
    if !parsed.is_ok() {
        return None;
    }
    let checked = crate::cel::check::check(&parsed.ast, &cursor.env);
    parsed.ast.exprs.iter().find_map(|expr| {
        let ExprKind::Call {
            target,
            function,
            args,
        } = &expr.kind
        else {
            return None;
        };
        if function.span.start() != name_start {
            return None;
        }
        Some(CallTypes {
            receiver: target.map(|t| checked.type_of(t).clone()),
            args: args.iter().map(|a| checked.type_of(*a).clone()).collect(),
        })
    })
}

/// Where the finished arguments end: at the last comma of the call's own level, or just after
/// its `(` when the first argument is being typed.
fn finished_arguments_end(tokens: &[Token], open: usize) -> Option<TextSize> {
    let mut depth = 0u32;
    let mut cut = tokens.get(open)?.range.end();
    for token in tokens.get(open + 1..)? {
        match token.kind {
            TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => depth += 1,
            TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                depth = depth.saturating_sub(1)
            }
            TokenKind::Comma if depth == 0 => cut = token.range.start(),
            _ => {}
        }
    }
    Some(cut)
}

/// The closing brackets of the brackets still open at the end of `tokens`, innermost last.
fn closers(tokens: &[Token]) -> Vec<char> {
    let mut open = Vec::new();
    for token in tokens {
        match token.kind {
            TokenKind::LParen => open.push(')'),
            TokenKind::LBracket => open.push(']'),
            TokenKind::LBrace => open.push('}'),
            TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                open.pop();
            }
            _ => {}
        }
    }
    open
}

/// Whether `overload` has the parameter the cursor is on (`active`) and accepts the receiver and
/// the finished arguments (`typed`; unknown types accept every overload of the right arity).
pub(super) fn fits(overload: &Overload, typed: &Option<CallTypes>, active: u32) -> bool {
    let params = overload.arguments();
    let active = usize::try_from(active).unwrap_or(usize::MAX);
    if active >= params.len() && !(params.is_empty() && active == 0) {
        return false;
    }
    let Some(typed) = typed else { return true };
    let mut subst = Substitution::new();
    let receiver_fits = match (&typed.receiver, overload.member, overload.params.first()) {
        (Some(receiver), true, Some(param)) => param.is_assignable_from(receiver, &mut subst),
        _ => true,
    };
    receiver_fits
        && params
            .iter()
            .zip(&typed.args)
            .all(|(param, arg)| param.is_assignable_from(arg, &mut subst))
}
