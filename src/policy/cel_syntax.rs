//! CEL syntax errors of every expression site, at the exact characters of the file: each error span
//! of the expression text is mapped through the site's offset and the scalar's source map.

use super::sites::ExpressionSite;
use super::{Code, Diagnostic};
use crate::cel::ast::Ast;

/// Parses `site`, adding a `cel-syntax` diagnostic for every parse error; the tree when it parsed
/// cleanly (only clean trees are type-checked, so a syntax error gives no follow-on type errors).
pub(crate) fn parse(site: &ExpressionSite, diagnostics: &mut Vec<Diagnostic>) -> Option<Ast> {
    let parsed = crate::cel::parse(&site.text);
    for error in &parsed.errors {
        diagnostics.push(Diagnostic::new(
            Code::CelSyntax,
            site.to_file_range(error.span),
            format!("{}: {}", site.path, error.message),
        ));
    }
    parsed.errors.is_empty().then_some(parsed.ast)
}
