//! `check --format sarif` and `check --format github`, so CI shows the diagnostics on the lines.
//!
//! SARIF 2.1.0 (OASIS): one run whose `tool.driver` lists a rule per diagnostic code with its
//! documentation, and one result per diagnostic (`ruleId`, `level` error/warning/note, `message.text`
//! and a physical location with a 1-based region; `columnKind: utf16CodeUnits`, the SARIF default).
//! A path that could not be read is a result of rule `io-error` at line 1.
//!
//! GitHub Actions workflow commands: `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`
//! (`::warning` and `::notice` likewise), escaped as the Actions toolkit does (`toCommandValue` /
//! `escapeData` and `escapeProperty` in actions/toolkit `packages/core/src/command.ts`): `%`, `\r`
//! and `\n` as `%25`, `%0D`, `%0A` everywhere, and `:` and `,` as `%3A`, `%2C` in properties.

use std::fmt::Write as _;

use admission_ls::ide::{Code, Diagnostic, Encoding, LineIndex, Severity};
use serde_json::{Value as Json, json};

use super::check::{Checked, Unreadable};

/// The SARIF code for a path that could not be read (not a diagnostic code of the checker).
pub const IO_ERROR: &str = "io-error";

/// 1-based start and end line and UTF-16 column of a diagnostic.
struct Region {
    start_line: u32,
    start_column: u32,
    end_line: u32,
    end_column: u32,
}

fn region(index: &LineIndex, d: &Diagnostic) -> Region {
    let start = index.line_col(d.range.start(), Encoding::Utf16);
    let end = index.line_col(d.range.end(), Encoding::Utf16);
    Region {
        start_line: start.line + 1,
        start_column: start.col + 1,
        end_line: end.line + 1,
        end_column: end.col + 1,
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Information | Severity::Hint => "note",
    }
}

/// The SARIF log, pretty-printed.
pub fn sarif(checked: &[Checked], unreadable: &[Unreadable]) -> String {
    let mut results = Vec::new();
    for file in checked.iter().filter(|f| !f.diagnostics.is_empty()) {
        let index = LineIndex::new(&file.text);
        for d in &file.diagnostics {
            let r = region(&index, d);
            results.push(json!({
                "ruleId": d.code.as_str(),
                "level": level(d.severity),
                "message": {"text": d.message},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": uri(&file.path)},
                    "region": {"startLine": r.start_line, "startColumn": r.start_column,
                               "endLine": r.end_line, "endColumn": r.end_column},
                }}],
            }));
        }
    }
    for u in unreadable {
        results.push(json!({
            "ruleId": IO_ERROR, "level": "error", "message": {"text": u.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": uri(&u.path)}, "region": {"startLine": 1},
            }}],
        }));
    }
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "admission-ls",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules(),
            }},
            "columnKind": "utf16CodeUnits",
            "results": results,
        }],
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&log).unwrap_or_default()
    )
}

/// One rule per diagnostic code, in code order, then `io-error`.
fn rules() -> Vec<Json> {
    let mut rules: Vec<Json> = Code::ALL
        .iter()
        .map(|code| {
            let doc = code.doc().trim();
            let short = doc.lines().next().unwrap_or(code.as_str());
            json!({
                "id": code.as_str(),
                "shortDescription": {"text": short},
                "fullDescription": {"text": doc},
            })
        })
        .collect();
    rules.push(json!({
        "id": IO_ERROR,
        "shortDescription": {"text": "a path that check could not read"},
    }));
    rules
}

/// A relative path as a URI reference (forward slashes, spaces and `%` escaped).
fn uri(path: &str) -> String {
    path.replace('\\', "/")
        .replace('%', "%25")
        .replace(' ', "%20")
}

fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Information | Severity::Hint => "notice",
    }
}

/// The workflow commands, one line per diagnostic.
pub fn github(checked: &[Checked], unreadable: &[Unreadable]) -> String {
    let mut out = String::new();
    for file in checked.iter().filter(|f| !f.diagnostics.is_empty()) {
        let index = LineIndex::new(&file.text);
        for d in &file.diagnostics {
            let r = region(&index, d);
            let _ = writeln!(
                out,
                "::{} file={},line={},col={},endLine={},endColumn={},title={}::{}",
                command(d.severity),
                escape_property(&file.path),
                r.start_line,
                r.start_column,
                r.end_line,
                r.end_column,
                escape_property(&format!("admission-ls {}", d.code.as_str())),
                escape_data(&d.message)
            );
        }
    }
    for u in unreadable {
        let _ = writeln!(
            out,
            "::error file={},line=1,title={}::{}",
            escape_property(&u.path),
            escape_property(&format!("admission-ls {IO_ERROR}")),
            escape_data(&u.message)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_command_escaping_follows_the_actions_toolkit() {
        assert_eq!(escape_data("100% a\r\nb: c, d"), "100%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }
}
