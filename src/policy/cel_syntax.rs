//! CEL syntax errors of every expression site, at the exact characters of the file: each error span
//! of the expression text is mapped through the site's offset and the scalar's source map.

use super::sites::ExpressionSite;
use super::{Code, Diagnostic};
use crate::text::TextRange;

/// Adds a `cel-syntax` diagnostic for every parse error of `site`.
pub(crate) fn check(site: &ExpressionSite, diagnostics: &mut Vec<Diagnostic>) {
    for (span, message) in parse_errors(&site.text) {
        let range = site.to_file_range(span);
        diagnostics.push(Diagnostic::new(
            Code::CelSyntax,
            range,
            format!("{}: {message}", site.path),
        ));
    }
}

/// The parse errors of an expression: spans are byte ranges of `text`.
fn parse_errors(text: &str) -> Vec<(TextRange, String)> {
    crate::cel::parse(text)
        .errors
        .into_iter()
        .map(|error| (error.span, error.message))
        .collect()
}
