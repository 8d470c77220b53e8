//! The JSON output of `check`: `{"files":[{"path","diagnostics"}],"summary":{…}}` where each
//! diagnostic has the LSP shape (0-based line, UTF-16 character) with a string severity, as
//! the language server publishes them. Every checked file is listed, with an empty list when it is
//! clean; a path that could not be read is listed with one `io-error` diagnostic at its start.

use admission_ls::ide::{Encoding, LineIndex};
use admission_ls::lsp::SOURCE;
use admission_ls::lsp::encoding::to_proto;
use serde::Serialize;
use tower_lsp_server::ls_types::Range;

use super::annotations::IO_ERROR;
use super::check::{Checked, Summary, Unreadable};

#[derive(Serialize)]
struct Report<'a> {
    files: Vec<FileReport<'a>>,
    summary: SummaryReport,
}

#[derive(Serialize)]
struct FileReport<'a> {
    path: &'a str,
    diagnostics: Vec<DiagnosticReport<'a>>,
    /// Why the file was not checked, when it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<&'a str>,
}

#[derive(Serialize)]
struct DiagnosticReport<'a> {
    range: Range,
    severity: &'static str,
    code: &'static str,
    /// What the diagnostic predicts the API server does (`refused-on-create`,
    /// `fails-at-admission`, `typed-check`, `advice`; `test-case` for a failed test case).
    #[serde(skip_serializing_if = "Option::is_none")]
    prediction: Option<&'static str>,
    message: &'a str,
    source: &'static str,
}

#[derive(Serialize)]
struct SummaryReport {
    files: usize,
    errors: usize,
    warnings: usize,
    #[serde(rename = "policyFiles")]
    policy_files: usize,
    unreadable: usize,
    /// Files read but not checked (only when there are some).
    #[serde(skip_serializing_if = "is_zero")]
    skipped: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The whole report, pretty-printed.
pub fn report(checked: &[Checked], unreadable: &[Unreadable], summary: &Summary) -> String {
    let report = Report {
        files: checked
            .iter()
            .map(file_report)
            .chain(unreadable.iter().map(unreadable_report))
            .collect(),
        summary: SummaryReport {
            files: summary.files,
            errors: summary.errors,
            warnings: summary.warnings,
            policy_files: summary.policy_files,
            unreadable: unreadable.len(),
            skipped: summary.skipped,
        },
    };
    // Serialising plain structs of strings and numbers can't fail.
    serde_json::to_string_pretty(&report).unwrap_or_default()
}

fn file_report(file: &Checked) -> FileReport<'_> {
    FileReport {
        path: &file.path,
        diagnostics: diagnostic_reports(file),
        skipped: file.skipped.as_deref(),
    }
}

fn diagnostic_reports(file: &Checked) -> Vec<DiagnosticReport<'_>> {
    if file.diagnostics.is_empty() {
        // No line table for a clean file: building one read every byte of every file again, on
        // the one thread that writes the report.
        return Vec::new();
    }
    let index = LineIndex::new(&file.text);
    file.diagnostics
        .iter()
        .map(|d| DiagnosticReport {
            range: to_proto::range(&index, d.range, Encoding::Utf16),
            severity: d.severity.as_str(),
            code: d.code.as_str(),
            prediction: Some(d.prediction.as_str()),
            message: &d.message,
            source: SOURCE,
        })
        .collect()
}

fn unreadable_report(u: &Unreadable) -> FileReport<'_> {
    let start = tower_lsp_server::ls_types::Position::new(0, 0);
    FileReport {
        path: &u.path,
        diagnostics: vec![DiagnosticReport {
            range: Range::new(start, start),
            severity: "error",
            code: IO_ERROR,
            prediction: None,
            message: &u.message,
            source: SOURCE,
        }],
        skipped: None,
    }
}
