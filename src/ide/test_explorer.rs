//! The test explorer's plain data, shared by the editor clients and the command line: the suites
//! of a file and their cases with where each is ([`test_items`], listed before anything runs, so
//! an editor can show them), the cheap text test of which files may hold a suite
//! ([`might_hold_suite`]), and what a failed case expected and got, taken apart from the runner's
//! failure lines ([`comparison`]) so an editor can show them side by side as a diff.

use crate::policy::families;
use crate::policy::suite::{CaseResult, Format};
use crate::text::TextSize;
use crate::yaml::YamlFile;

pub use crate::policy::suite::{CaseItem, SuiteItem};

/// Whether `text` may hold a suite: a cheap search, each family's for what its suite formats name
/// (a `PolicyTest`, a kaptest key, gator's or Kyverno's test API version). It may take in a file
/// that holds none (it is then parsed for nothing) but never leaves out one that does.
pub fn might_hold_suite(text: &str) -> bool {
    families::suites::might_hold(text)
}

/// Whether a file named `name` found in a hidden folder (which the folder walks skip) is a suite
/// file a family's component finds there (Kyverno's `kyverno-test.yaml`).
pub fn named_in_hidden_folders(name: &str) -> bool {
    families::suites::named_in_hidden_folders(name)
}

/// The suites of `text` (read from `path`) with their cases, in file order. A file that looks
/// like a suite but cannot be read gives one suite with the error.
pub fn test_items(path: &str, text: &str) -> Vec<SuiteItem> {
    test_items_of(path, text, &crate::yaml::parse(text))
}

/// [`test_items`] of `text` parsed into `file`: each family lists its own suites.
fn test_items_of(path: &str, text: &str, file: &YamlFile) -> Vec<SuiteItem> {
    families::suites::items(path, text, file)
}

/// The name the JSON outputs give a format.
pub fn format_name(format: Format) -> &'static str {
    match format {
        Format::PolicyTest => "PolicyTest",
        Format::Kaptest => "kaptest",
        Format::Gator => "gator",
        Format::KyvernoTest => "KyvernoTest",
    }
}

/// The 1-based line and column (in characters) of `offset` in `text`, as compilers print them.
pub fn line_column(text: &str, offset: TextSize) -> (u32, u32) {
    let mut at = usize::from(offset).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = text.get(..at).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    (clamp(line), clamp(column))
}

/// Why a case did not pass, in one text: the reason it could not run, then each mismatch.
pub fn case_message(case: &CaseResult) -> String {
    let details: Vec<&str> = case
        .error
        .iter()
        .chain(&case.failures)
        .map(String::as_str)
        .collect();
    details.join("\n")
}

/// What a failed case expected and what it got, one line (or block) per mismatch, each named
/// (`decision: deny` / `decision: allow`), for an editor's diff view; `None` when no failure line
/// is a comparison (an error, a count of violations).
pub fn comparison(case: &CaseResult) -> Option<(String, String)> {
    let (mut expected, mut actual) = (Vec::new(), Vec::new());
    for failure in &case.failures {
        if let Some((want, got)) = split_failure(failure) {
            expected.push(want);
            actual.push(got);
        }
    }
    if expected.is_empty() {
        return None;
    }
    Some((expected.join("\n"), actual.join("\n")))
}

/// One failure line taken apart, in the shapes the suite runners write (`policy/suite/run.rs`,
/// `suite/gator.rs`, Kyverno's `cli_test`).
fn split_failure(failure: &str) -> Option<(String, String)> {
    let (head, rest) = failure.split_once('\n').unwrap_or((failure, ""));
    if let Some(label) = head.strip_suffix(" (- expected, + actual):") {
        return Some(object_sides(label, rest));
    }
    if let Some(label) = head.strip_suffix(':') {
        let want = rest
            .lines()
            .find_map(|l| l.trim().strip_prefix("- expected:"));
        let got = rest
            .lines()
            .find_map(|l| l.trim().strip_prefix("+ actual:"));
        if let (Some(want), Some(got)) = (want, got) {
            return Some((
                format!("{label}: {}", want.trim()),
                format!("{label}: {}", got.trim()),
            ));
        }
    }
    if let Some((label, want, got)) = labelled(head, "expected ", ", got ") {
        return Some((format!("{label}{want}"), format!("{label}{got}")));
    }
    // Kyverno: `Kind/name (variant): want pass, got fail: message`.
    if let Some((label, want, got)) = labelled(head, "want ", ", got ") {
        return Some((format!("{label}{want}"), format!("{label}{got}")));
    }
    None
}

/// `head` as `LABEL` `before` WANT `between` GOT, the label kept with its separator (`errors: `)
/// or `decision: ` when the line starts with `before`.
fn labelled<'a>(head: &'a str, before: &str, between: &str) -> Option<(String, &'a str, &'a str)> {
    let at = head.find(before)?;
    let (label, tail) = head.split_at(at);
    let (want, got) = tail.get(before.len()..)?.split_once(between)?;
    let label = if label.is_empty() {
        "decision: ".to_string()
    } else {
        label.to_string()
    };
    Some((label, want, got))
}

/// The two sides of an object diff (`-` expected, `+` actual, ` ` both).
fn object_sides(label: &str, diff: &str) -> (String, String) {
    let (mut expected, mut actual) = (vec![format!("{label}:")], vec![format!("{label}:")]);
    for line in diff.lines() {
        let (mark, body) = line.split_at(line.chars().next().map_or(0, char::len_utf8));
        match mark {
            "-" => expected.push(body.to_string()),
            "+" => actual.push(body.to_string()),
            _ => {
                expected.push(body.to_string());
                actual.push(body.to_string());
            }
        }
    }
    (expected.join("\n"), actual.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::TextRange;

    fn failed(failures: &[&str]) -> CaseResult {
        CaseResult {
            name: "c".into(),
            range: TextRange::default(),
            policy: String::new(),
            passed: false,
            error: None,
            failures: failures.iter().map(|f| f.to_string()).collect(),
            outcome: None,
            duration: std::time::Duration::ZERO,
        }
    }

    #[test]
    fn each_failure_shape_gives_its_two_sides() {
        let case = failed(&[
            "expected allow, got deny: too many",
            "message:\n  - expected: a\n  + actual:   b",
            "errors: expected [\"x\"], got []",
            "Pod/web (autogen): want pass, got fail: no",
            "object (- expected, + actual):\n {\n-  \"a\": 1\n+  \"a\": 2\n }",
            "got 0 violations but want at least 1",
        ]);
        let (expected, actual) = comparison(&case).unwrap_or_default();
        assert_eq!(
            expected,
            "decision: allow\nmessage: a\nerrors: [\"x\"]\nPod/web (autogen): pass\nobject:\n{\n  \"a\": 1\n}"
        );
        assert_eq!(
            actual,
            "decision: deny: too many\nmessage: b\nerrors: []\nPod/web (autogen): fail: no\nobject:\n{\n  \"a\": 2\n}"
        );
        assert_eq!(comparison(&failed(&["got 2 violations"])), None);
    }

    #[test]
    fn suites_and_cases_are_listed_with_their_ranges() {
        let text = "apiVersion: admission-ls.dev/v1alpha1\nkind: PolicyTest\nmetadata: {name: s}\ncases:\n  - name: one\n    expect: {decision: allow}\n  - name: two\n    expect: {decision: deny}\n";
        assert!(might_hold_suite(text));
        let items = test_items("s.yaml", text);
        let names: Vec<(&str, (u32, u32))> = items
            .iter()
            .flat_map(|s| &s.cases)
            .map(|c| (c.name.as_str(), line_column(text, c.range.start())))
            .collect();
        assert_eq!(names, [("one", (5, 5)), ("two", (7, 5))]);
        assert_eq!(items[0].name, "s");
        assert!(!might_hold_suite("apiVersion: v1\nkind: ConfigMap\n"));
    }
}
