//! Hover on a range that has a diagnostic: the diagnostic's message and what its code means (the
//! part of the code's `explain` text before its example), appended after any other hover.

use crate::policy::Diagnostic;
use crate::text::TextSize;

use super::HoverResult;

/// `hover` with a section for each diagnostic under `offset`; a hover of its own when there was
/// none (its range is then the first such diagnostic's).
pub(super) fn with_diagnostics(
    hover: Option<HoverResult>,
    diagnostics: &[Diagnostic],
    offset: TextSize,
) -> Option<HoverResult> {
    let under: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.range.contains_inclusive(offset))
        .collect();
    let first = under.first()?;
    let sections: Vec<String> = under.iter().map(|d| section(d)).collect();
    let mut hover = hover.unwrap_or_else(|| HoverResult {
        range: first.range,
        markdown: String::new(),
    });
    if !hover.markdown.is_empty() {
        hover.markdown.push_str("\n\n---\n\n");
    }
    hover.markdown.push_str(&sections.join("\n\n---\n\n"));
    Some(hover)
}

fn section(diagnostic: &Diagnostic) -> String {
    let code = diagnostic.code;
    let meaning = code.doc().split("\nExample:").next().unwrap_or_default();
    // The text opens with `code (severity): `, which the heading already says.
    let meaning = meaning.split_once("): ").map_or(meaning, |(_, rest)| rest);
    format!(
        "**{}[{}]**: {}\n\n{}",
        diagnostic.severity.as_str(),
        code.as_str(),
        diagnostic.message,
        meaning.trim_end()
    )
}
