//! Lints where the static type and the runtime value differ (kubernetes/kubernetes#125053): a schema field with `format: date-time` (or `date`) is typed
//! `timestamp`, and one with `format: duration` is typed `duration`, but the admission object is
//! JSON-shaped, so at runtime the value is a **string**. Comparing it with a timestamp, doing
//! arithmetic on it or calling timestamp methods on it type-checks and then fails (`no such
//! overload`) or silently compares unequal. Converting it first — `timestamp(x)`, `duration(x)` —
//! works in both worlds, and `string(x)`, `has(x)`, equality with `null` and comparisons of two such
//! fields are harmless, so those are not reported.

use crate::cel::ast::{Ast, BinaryOp, ExprId, ExprKind};
use crate::cel::check::{Checked, Reference};
use crate::cel::types::Type;
use crate::text::TextRange;

/// Functions whose argument may be such a field: conversions that accept the string form too.
const SAFE_FUNCTIONS: &[&str] = &["string", "timestamp", "duration", "type", "dyn"];

/// The fields used as timestamps or durations in `ast`: the field name's span and the message.
pub fn runtime_strings(ast: &Ast, checked: &Checked) -> Vec<(TextRange, String)> {
    let mut out = Vec::new();
    // Every finding is a node typed timestamp or duration: most expressions (and every site of
    // the acceptance pass) have none, so the walk is skipped for them.
    if !checked.types.iter().any(is_time) {
        return out;
    }
    for id in ast.preorder(ast.root) {
        match &ast.expr(id).kind {
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge
                | BinaryOp::Add
                | BinaryOp::Sub => {
                    field_use(ast, checked, *lhs, &mut out);
                    field_use(ast, checked, *rhs, &mut out);
                }
                BinaryOp::Eq | BinaryOp::Ne => {
                    // Against `null` or another such field (two strings at runtime) equality
                    // works; against a real timestamp or duration it is always unequal.
                    if is_real_time(ast, checked, *rhs) {
                        field_use(ast, checked, *lhs, &mut out);
                    }
                    if is_real_time(ast, checked, *lhs) {
                        field_use(ast, checked, *rhs, &mut out);
                    }
                }
                _ => {}
            },
            ExprKind::Call {
                target,
                function,
                args,
            } => {
                if let Some(target) = target {
                    field_use(ast, checked, *target, &mut out);
                } else if !SAFE_FUNCTIONS.contains(&function.text.as_str()) {
                    for arg in args {
                        field_use(ast, checked, *arg, &mut out);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn is_time(ty: &Type) -> bool {
    matches!(ty, Type::Timestamp | Type::Duration)
}

/// A timestamp or duration value that is one at runtime too (not such a field).
fn is_real_time(ast: &Ast, checked: &Checked, id: ExprId) -> bool {
    is_time(checked.type_of(id)) && !is_time_field(ast, checked, id)
}

fn is_time_field(ast: &Ast, checked: &Checked, id: ExprId) -> bool {
    matches!(checked.reference(id), Some(Reference::Field { .. }))
        && is_time(checked.type_of(id))
        && matches!(ast.expr(id).kind, ExprKind::Select { .. })
}

fn field_use(ast: &Ast, checked: &Checked, id: ExprId, out: &mut Vec<(TextRange, String)>) {
    if !is_time_field(ast, checked, id) {
        return;
    }
    let ExprKind::Select { field, .. } = &ast.expr(id).kind else {
        return;
    };
    let (format, convert) = match checked.type_of(id) {
        Type::Duration => ("duration", "duration"),
        _ => ("date-time", "timestamp"),
    };
    out.push((
        field.span,
        format!(
            "'{}' is typed {convert} (format {format}) but is a string at admission time, where this use fails or never matches; convert it first: {convert}(…)",
            field.text
        ),
    ));
}
