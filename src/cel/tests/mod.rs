//! Snapshot tests of the CEL parser: `check_parse` prints the tree (one node per line with its
//! byte span) followed by any errors; `check_errors` prints each error as a code frame with carets.
//! Update snapshots with `UPDATE_EXPECT=1 cargo test --lib cel`.

mod bounds;
mod literals;
mod macros;
mod operators;
mod recovery;
mod roundtrip;

use expect_test::Expect;

use super::{ParseOptions, Parsed, parse, parse_with};

fn render(src: &str, parsed: &Parsed) -> String {
    let mut out = parsed.ast.debug_tree();
    for error in &parsed.errors {
        out.push_str(&format!("error @{:?}: {}\n", error.span, error.message));
    }
    let _ = src;
    out
}

#[track_caller]
fn check_parse(src: &str, expect: Expect) {
    expect.assert_eq(&render(src, &parse(src)));
}

#[track_caller]
fn check_parse_with(src: &str, options: &ParseOptions, expect: Expect) {
    expect.assert_eq(&render(src, &parse_with(src, options)));
}

/// 1-based line and code-point column, as cel-go reports.
fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let prefix = src.get(..offset).unwrap_or(src);
    let line_start = prefix.rfind('\n').map_or(0, |i| i + 1);
    let col = prefix.get(line_start..).map_or(0, |s| s.chars().count());
    (prefix.matches('\n').count() + 1, col + 1)
}

/// Errors as code frames: `line:col: message`, the source line, carets under the span.
fn render_errors(src: &str, parsed: &Parsed) -> String {
    let mut out = String::new();
    for error in &parsed.errors {
        let start = usize::from(error.span.start());
        let (line, col) = line_col(src, start);
        let text = src.lines().nth(line - 1).unwrap_or("");
        let width = src
            .get(start..usize::from(error.span.end()))
            .map_or(1, |s| s.lines().next().unwrap_or("").chars().count().max(1));
        out.push_str(&format!("{line}:{col}: {}\n", error.message));
        out.push_str(&format!(
            "  | {text}\n  | {}{}\n",
            " ".repeat(col - 1),
            "^".repeat(width)
        ));
    }
    out
}

#[track_caller]
fn check_errors(src: &str, expect: Expect) {
    expect.assert_eq(&render_errors(src, &parse(src)));
}

#[track_caller]
fn check_errors_with(src: &str, options: &ParseOptions, expect: Expect) {
    expect.assert_eq(&render_errors(src, &parse_with(src, options)));
}
