//! The hint on a variable whose expression uses a later variable, or itself. The API server
//! compiles the variables one by one and adds each to `kubernetes.variables` only after compiling
//! it (`apiserver: pkg/admission/plugin/cel/composition.go` `CompileAndStoreVariable`), so such a
//! reference is cel-go's plain `undefined field 'b'`; the message keeps that text and says why.

use super::super::sites::{ExpressionSite, SiteRole};
use crate::cel::ast::{Ast, ExprKind};
use crate::cel::check::{CheckError, CheckErrorKind, Checked};
use crate::cel::types::Type;

/// The object type of `variables`.
const VARIABLES: &str = "kubernetes.variables";

/// `; variables.b is declared after this variable; …` when `error`, in variable site `site`, is
/// an undefined field of `variables` that names this very variable or one declared after it
/// (`names`: every variable of the policy, in order); empty otherwise.
pub fn hint(
    site: &ExpressionSite,
    ast: &Ast,
    checked: &Checked,
    error: &CheckError,
    names: &[String],
) -> String {
    if site.role != SiteRole::Variable || error.kind != CheckErrorKind::UndefinedField {
        return String::new();
    }
    let Some(field) = variables_field_at(ast, checked, error) else {
        return String::new();
    };
    let reason = if site.name.as_deref() == Some(field) {
        "refers to itself"
    } else if names.iter().any(|n| n == field) && !site.variables.iter().any(|n| n == field) {
        "is declared after this variable"
    } else {
        return String::new();
    };
    format!("; variables.{field} {reason}; a variable can only use the variables before it")
}

/// The field name of the `variables.x` selection whose name `error` underlines.
fn variables_field_at<'a>(ast: &'a Ast, checked: &Checked, error: &CheckError) -> Option<&'a str> {
    let variables = Type::object(VARIABLES);
    ast.exprs.iter().find_map(|expr| match &expr.kind {
        ExprKind::Select { operand, field, .. }
            if field.span == error.span && *checked.type_of(*operand) == variables =>
        {
            Some(field.text.as_str())
        }
        _ => None,
    })
}
