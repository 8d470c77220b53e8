//! Kind guards: a policy matching several kinds often branches on the kind, e.g.
//! `object.kind == 'Pod' ? object.spec : object.spec.template.spec` or
//! `has(object.spec.template) && …`. Checked against each kind, the branch meant for another kind
//! has undefined fields, yet at runtime it is never evaluated (or `has()` is simply false). So an
//! error found for only some of the matched kinds is dropped when it sits inside `has()`, or in a
//! branch of `?:`, `&&` or `||` whose deciding side inspects the kind (`kind`, `apiVersion`,
//! `resource`, `subResource` selections) or tests presence with `has()`. An error found for every
//! kind is always reported: no guard can make it right.

use crate::cel::ast::{Ast, BinaryOp, ExprId, ExprKind, MacroKind};
use crate::text::TextRange;

/// Selections that tell kinds apart.
const KIND_FIELDS: &[&str] = &["kind", "apiVersion", "resource", "subResource", "group"];

/// Whether the error at `span` is inside `has()` or a branch guarded by a kind test.
pub fn guarded(ast: &Ast, span: TextRange) -> bool {
    ast.preorder(ast.root).into_iter().any(|id| {
        let within = |child: ExprId| ast.expr(child).span.contains_range(span);
        match &ast.expr(id).kind {
            ExprKind::Macro(call) => {
                call.kind == MacroKind::Has && ast.expr(id).span.contains_range(span)
            }
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            } => (within(*then) || within(*otherwise)) && inspects_kind(ast, *cond),
            ExprKind::Binary {
                op: BinaryOp::And | BinaryOp::Or,
                lhs,
                rhs,
            } => within(*rhs) && inspects_kind(ast, *lhs),
            _ => false,
        }
    })
}

fn inspects_kind(ast: &Ast, id: ExprId) -> bool {
    ast.preorder(id)
        .into_iter()
        .any(|n| match &ast.expr(n).kind {
            ExprKind::Select { field, .. } => KIND_FIELDS.contains(&field.text.as_str()),
            ExprKind::Macro(call) => call.kind == MacroKind::Has,
            _ => false,
        })
}
