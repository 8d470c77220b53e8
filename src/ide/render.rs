//! Renders diagnostics the way compilers do: `path:line:col: severity[code] (prediction): message`, then the source
//! line and carets under the range. The CLI and the test snapshots share this renderer.

use std::fmt::Write;

use crate::policy::Diagnostic;
use crate::text::{Encoding, LineIndex};

/// How to render.
#[derive(Clone, Copy, Debug)]
pub struct RenderOptions {
    /// Whether to show the source line and carets under each header line.
    pub snippets: bool,
}

/// Renders every diagnostic of one file; lines and columns are 1-based, columns count characters.
pub fn render_diagnostics(
    path: &str,
    text: &str,
    diagnostics: &[Diagnostic],
    options: RenderOptions,
) -> String {
    let index = LineIndex::new(text);
    let mut out = String::new();
    for diagnostic in diagnostics {
        render_one(&mut out, path, &index, diagnostic, options);
    }
    out
}

fn render_one(
    out: &mut String,
    path: &str,
    index: &LineIndex,
    diagnostic: &Diagnostic,
    options: RenderOptions,
) {
    let start = index.line_col(diagnostic.range.start(), Encoding::Utf8);
    let line_text = index.line_text(start.line);
    let col_chars = char_column(line_text, start.col);
    let _ = writeln!(
        out,
        "{path}:{}:{}: {}[{}] ({}): {}",
        start.line + 1,
        col_chars + 1,
        diagnostic.severity.as_str(),
        diagnostic.code.as_str(),
        diagnostic.prediction.tag(),
        diagnostic.message
    );
    if !options.snippets {
        return;
    }
    let end = index.line_col(diagnostic.range.end(), Encoding::Utf8);
    let end_col_bytes = if end.line == start.line {
        end.col
    } else {
        line_text.len() as u32
    };
    let end_chars = char_column(line_text, end_col_bytes).max(col_chars + 1);
    let number = (start.line + 1).to_string();
    let gutter = " ".repeat(number.len());
    let shown = line_text.replace('\t', " ");
    let _ = writeln!(out, "{gutter} |");
    let _ = writeln!(out, "{number} | {shown}");
    let carets = "^".repeat((end_chars - col_chars) as usize);
    let _ = writeln!(out, "{gutter} | {}{carets}", " ".repeat(col_chars as usize));
}

/// Number of characters in the first `byte_col` bytes of `line`.
fn char_column(line: &str, byte_col: u32) -> u32 {
    let byte_col = (byte_col as usize).min(line.len());
    let mut at = byte_col;
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    line[..at].chars().count() as u32
}
