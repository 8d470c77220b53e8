//! `admission-ls test --format compact`: one `path:line:column: error: …` line per failing or
//! errored case and per suite error, the rest of its message indented under it, then the summary;
//! passing cases print nothing. Emacs' compilation-mode and Vim's default `errorformat` read the
//! first lines as locations, so a run's failures can be stepped through in the editor.

use std::fmt::Write as _;
use std::time::Duration;

use admission_ls::ide::run::{SuiteReport, Tally};
use admission_ls::ide::test_explorer::{case_message, line_column};

/// The compact report; `text_of` gives a suite file's text (for the case lines).
pub fn render(
    reports: &[SuiteReport],
    text_of: &dyn Fn(&str) -> Option<String>,
    total: Duration,
) -> String {
    let mut out = String::new();
    for report in reports {
        let text = text_of(&report.path).unwrap_or_default();
        for error in &report.errors {
            // A suite's own problems already start with `path:line:column:` when they have one.
            let located = error.starts_with(&format!("{}:", report.path));
            let prefix = if located {
                String::new()
            } else {
                format!("{}:1:1: ", report.path)
            };
            write_block(&mut out, &format!("{prefix}error: {error}"));
        }
        for case in report.cases.iter().filter(|c| !c.passed) {
            let (line, column) = line_column(&text, case.range.start());
            let what = if case.error.is_some() {
                "could not run"
            } else {
                "failed"
            };
            let head = format!(
                "{}:{line}:{column}: error: {} › {} {what}: {}",
                report.path,
                report.name,
                case.name,
                case_message(case)
            );
            write_block(&mut out, &head);
        }
    }
    let tally = Tally::of(reports);
    let mut summary = format!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.errored > 0 {
        let _ = write!(summary, ", {} errored", tally.errored);
    }
    let _ = writeln!(out, "{summary} in {}", super::test::duration(total));
    out
}

/// `text`'s first line as it is, the others indented so that no one reads them as locations.
fn write_block(out: &mut String, text: &str) {
    for (i, line) in text.lines().enumerate() {
        let indent = if i == 0 { "" } else { "    " };
        let _ = writeln!(out, "{indent}{line}");
    }
}
