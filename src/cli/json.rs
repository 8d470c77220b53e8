//! The JSON output of `check`: `{"files":[{"path","diagnostics"}],"summary":{…}}` where each
//! diagnostic has the LSP shape (0-based line, UTF-16 character) with a string severity, as
//! design.md §1.1 specifies. Every checked file is listed, with an empty list when it is clean.

use admission_ls::ide::{Encoding, LineIndex};
use admission_ls::lsp::SOURCE;
use admission_ls::lsp::encoding::to_proto;
use serde::Serialize;
use tower_lsp_server::ls_types::Range;

use super::check::{Checked, Summary};

#[derive(Serialize)]
struct Report<'a> {
    files: Vec<FileReport<'a>>,
    summary: SummaryReport,
}

#[derive(Serialize)]
struct FileReport<'a> {
    path: &'a str,
    diagnostics: Vec<DiagnosticReport<'a>>,
}

#[derive(Serialize)]
struct DiagnosticReport<'a> {
    range: Range,
    severity: &'static str,
    code: &'static str,
    message: &'a str,
    source: &'static str,
}

#[derive(Serialize)]
struct SummaryReport {
    files: usize,
    errors: usize,
    warnings: usize,
}

/// The whole report, pretty-printed.
pub fn report(checked: &[Checked], summary: &Summary) -> String {
    let report = Report {
        files: checked.iter().map(file_report).collect(),
        summary: SummaryReport {
            files: summary.files,
            errors: summary.errors,
            warnings: summary.warnings,
        },
    };
    // Serialising plain structs of strings and numbers can't fail.
    serde_json::to_string_pretty(&report).unwrap_or_default()
}

fn file_report(file: &Checked) -> FileReport<'_> {
    let index = LineIndex::new(&file.text);
    let diagnostics = file
        .diagnostics
        .iter()
        .map(|d| DiagnosticReport {
            range: to_proto::range(&index, d.range, Encoding::Utf16),
            severity: d.severity.as_str(),
            code: d.code.as_str(),
            message: &d.message,
            source: SOURCE,
        })
        .collect();
    FileReport {
        path: &file.path,
        diagnostics,
    }
}
