//! Rename of a macro's variable (`c` in `object.spec.containers.all(c, c.name != '')`, `x` of
//! `cel.bind(x, …)`): its declaration and every use bound to it, inside the one expression. A new
//! name is refused when it could change what another name means: any identifier or macro variable
//! already written in the expression, a variable of the expression's environment (`object`,
//! `self`, …) or a type name (`int`, the `net` of `net.IP`), which a local of that name would
//! shadow.

use crate::cel::ast::{Ast, ExprKind};
use crate::cel::check::Reference;
use crate::text::TextRange;

use super::FileId;
use super::cursor::CelCursor;
use super::rename_targets::{Occurrence, Symbol, Target};

/// The macro variable at the cursor (its declaration or a use), if that is where it is.
pub(super) fn local_target(file: FileId, cursor: &CelCursor) -> Option<Target> {
    let (name, declared_at) = local_at(cursor)?;
    let mut spans = vec![declared_at];
    for index in 0..cursor.ast.exprs.len() {
        let Ok(id) = u32::try_from(index).map(crate::cel::ast::ExprId) else {
            break;
        };
        let bound = matches!(cursor.checked.reference(id),
            Some(Reference::Local { declared_at: at, .. }) if *at == declared_at);
        if bound && matches!(cursor.ast.expr(id).kind, ExprKind::Ident(_)) {
            spans.push(cursor.ast.expr(id).span);
        }
    }
    let range = spans
        .iter()
        .find(|span| span.contains_inclusive(cursor.offset))
        .map(|span| cursor.file_range(*span))?;
    let uses = spans
        .iter()
        .map(|span| Occurrence {
            file,
            range: cursor.file_range(*span),
            plain_scalar: None,
        })
        .collect();
    let taken = names_in_scope(&cursor.ast, cursor);
    Some(Target {
        symbol: Symbol::Local { name, uses, taken },
        range,
    })
}

/// The name and declaration of the macro variable declared or used at the cursor.
fn local_at(cursor: &CelCursor) -> Option<(String, TextRange)> {
    let ids = (0..cursor.ast.exprs.len()).filter_map(|i| u32::try_from(i).ok());
    let mut locals =
        ids.filter_map(
            |i| match cursor.checked.reference(crate::cel::ast::ExprId(i)) {
                Some(Reference::Local { name, declared_at }) => Some((i, name, *declared_at)),
                _ => None,
            },
        );
    locals.find_map(|(i, name, declared_at)| {
        let span = cursor.ast.expr(crate::cel::ast::ExprId(i)).span;
        let here =
            span.contains_inclusive(cursor.offset) || declared_at.contains_inclusive(cursor.offset);
        here.then(|| (name.clone(), declared_at))
    })
}

/// Every name a new local name could capture or be captured by.
fn names_in_scope(ast: &Ast, cursor: &CelCursor) -> Vec<String> {
    let mut names: Vec<String> = cursor.env.variables.keys().cloned().collect();
    // Type identifiers, and the first part of dotted ones (`net` of `net.IP`).
    let types = crate::cel::library::type_identifiers(&cursor.env.libraries);
    names.extend(types.map(|t| t.name.split('.').next().unwrap_or(t.name).to_owned()));
    for expr in &ast.exprs {
        match &expr.kind {
            ExprKind::Ident(name) => names.push(name.text.clone()),
            ExprKind::Macro(call) => names.extend(call.vars.iter().map(|v| v.text.clone())),
            _ => {}
        }
    }
    names
}

/// Why `new_name` cannot replace the macro variable, if it cannot.
pub(super) fn clash(taken: &[String], new_name: &str) -> Option<String> {
    taken.iter().any(|t| t == new_name).then(|| {
        format!(
            "`{new_name}` is already a name in this expression or its environment (a variable, a \
             type or a macro variable): renaming to it would change what a name refers to"
        )
    })
}
