//! Code lenses and test-failure problems as plain data, for the language server: a lens on each
//! policy ("Evaluate…", command `admission-ls.evaluate`: admission policies, and the family
//! documents the command evaluates) and on each suite and test case of every family's suites
//! (`families::suites`: "Run N tests", "Run case", command `admission-ls.runTests`; a suite its
//! component runs only as a whole, a Kyverno CLI Test, gets one "Run tests" lens), and each
//! failing case as a problem at the
//! case's range. The server turns these into LSP types. A file of the analysis is read from the
//! snapshot's shared tree ([`Analysis::lenses`]); a text of its own is parsed ([`lenses`]).

use serde_json::{Value as Json, json};

use super::run::SuiteReport;
use crate::policy::admission::view::{self, Document};
use crate::policy::families::{self, suites};
use crate::policy::suite::SuiteItem;
use crate::policy::{Code, Diagnostic};
use crate::text::TextRange;
use crate::yaml::{self, YamlFile};

use super::{Analysis, FileId};

/// The command that evaluates a policy.
pub const EVALUATE_COMMAND: &str = "admission-ls.evaluate";
/// The command that runs test suites.
pub const RUN_TESTS_COMMAND: &str = "admission-ls.runTests";

/// A code lens: where, what it says, and the command with its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Lens {
    /// The range it sits on (the document or the case).
    pub range: TextRange,
    /// The title shown.
    pub title: String,
    /// The command.
    pub command: &'static str,
    /// The command's arguments (one JSON object: `path`, and `policy` or `case`).
    pub arguments: Json,
}

/// The lenses of one file's text, which is parsed for them.
pub fn lenses(path: &str, text: &str) -> Vec<Lens> {
    lenses_of(path, text, &yaml::parse(text))
}

impl Analysis {
    /// The lenses of `file`, at `path`, from the tree the snapshot shares with every feature
    /// (code lenses are asked for after every edit); empty for a file the snapshot does not have.
    pub fn lenses(&self, file: FileId, path: &str) -> Vec<Lens> {
        self.parsed(file)
            .map(|parsed| lenses_of(path, &parsed.text, &parsed.yaml))
            .unwrap_or_default()
    }
}

/// The lenses of `text`, parsed into `file`.
fn lenses_of(path: &str, text: &str, file: &YamlFile) -> Vec<Lens> {
    let mut out = Vec::new();
    for document in &file.documents {
        let Some(root) = &document.root else { continue };
        // The typed view reads kind and name as the checker does (both policy kinds).
        if let Some(Document::Policy(policy)) = view::read(root) {
            let policy = policy.name;
            out.push(Lens {
                range: root.range,
                title: format!("Evaluate {policy}…"),
                command: EVALUATE_COMMAND,
                arguments: json!({"path": path, "policy": policy}),
            });
        } else if let Some(lens) = family_lens(path, root) {
            out.push(lens);
        }
    }
    for (item, whole) in suites::items_run_whole(path, text, file) {
        out.extend(suite_lenses(path, file, &item, whole));
    }
    out.sort_by_key(|l| l.range.start());
    out
}

/// The lenses of one suite of every family's (`families::suites`): one that runs it all, at its
/// first case, and one per case; or, for a suite its component runs only as a whole, one at its
/// document. A suite that could not be read has none (running it says why).
fn suite_lenses(path: &str, file: &YamlFile, item: &SuiteItem, whole: bool) -> Vec<Lens> {
    let run_all = |range: TextRange, title: String| Lens {
        range,
        title,
        command: RUN_TESTS_COMMAND,
        arguments: json!({"path": path}),
    };
    if whole {
        let start = item.range.start();
        let roots = file.documents.iter().filter_map(|d| d.root.as_ref());
        let document = roots.map(|r| r.range).find(|r| r.contains_inclusive(start));
        return vec![run_all(document.unwrap_or(item.range), "Run tests".into())];
    }
    if item.cases.is_empty() && !item.errors.is_empty() {
        return Vec::new();
    }
    let first = item.cases.first().map_or(TextRange::default(), |c| c.range);
    let mut out = vec![run_all(first, format!("Run {} tests", item.cases.len()))];
    out.extend(item.cases.iter().map(|c| Lens {
        range: c.range,
        title: "Run case".into(),
        command: RUN_TESTS_COMMAND,
        arguments: json!({"path": path, "case": c.name}),
    }));
    out
}

/// The evaluate lens of a family document the command evaluates: a Kyverno policy, a Gatekeeper
/// ConstraintTemplate (with its Constraint as `params`), a DRA DeviceClass or claim (against
/// ResourceSlices), an AuthenticationConfiguration (against a token's claims).
fn family_lens(path: &str, root: &yaml::Node) -> Option<Lens> {
    // Only a document a family claims (a kind it serves) and evaluates.
    let family = families::claiming(root)?;
    if !family.evaluated(root) {
        return None;
    }
    let kind = root.get("kind").and_then(yaml::Node::as_str).unwrap_or("");
    let name = root
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(yaml::Node::as_str);
    let (title, arguments) = match name {
        Some(name) => (name, json!({"path": path, "policy": name})),
        None => (kind, json!({"path": path})),
    };
    Some(Lens {
        range: root.range,
        title: format!("Evaluate {title}…"),
        command: EVALUATE_COMMAND,
        arguments,
    })
}

/// The failing cases of a suite's report, as `test-failed` diagnostics on each case.
pub fn case_problems(report: &SuiteReport) -> Vec<Diagnostic> {
    report
        .cases
        .iter()
        .filter(|c| !c.passed)
        .map(|c| {
            let details: Vec<&str> = c
                .error
                .iter()
                .chain(&c.failures)
                .map(String::as_str)
                .collect();
            let message = format!("test case '{}' failed: {}", c.name, details.join("\n"));
            Diagnostic::new(Code::TestFailed, c.range, message)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenses_on_policies_suites_and_cases() {
        let text = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\n---\nkind: PolicyTest\napiVersion: admission-ls.dev/v1alpha1\ncases:\n  - name: one\n    expect: {decision: allow}\n";
        let titles: Vec<String> = lenses("s.yaml", text)
            .into_iter()
            .map(|l| format!("{} {}", l.title, l.arguments))
            .collect();
        assert_eq!(
            titles,
            [
                r#"Evaluate p… {"path":"s.yaml","policy":"p"}"#,
                r#"Run 1 tests {"path":"s.yaml"}"#,
                r#"Run case {"case":"one","path":"s.yaml"}"#,
            ]
        );
    }

    /// The Kyverno kinds with an evaluate lens are exactly those the evaluation runs.
    #[test]
    fn kyverno_lenses_follow_what_the_evaluation_runs() {
        use crate::policy::families::evaluation::EvalInput;
        use crate::policy::families::kyverno::eval;
        let kinds = [
            "ValidatingPolicy",
            "MutatingPolicy",
            "GeneratingPolicy",
            "DeletingPolicy",
            "ImageValidatingPolicy",
            "NamespacedValidatingPolicy",
            "NamespacedMutatingPolicy",
            "NamespacedGeneratingPolicy",
            "NamespacedDeletingPolicy",
            "NamespacedImageValidatingPolicy",
        ];
        for kind in kinds {
            let text = format!(
                "apiVersion: policies.kyverno.io/v1\nkind: {kind}\nmetadata: {{name: p}}\nspec: {{}}\n"
            );
            let file = yaml::parse(&text);
            let Some(root) = file.documents.first().and_then(|d| d.root.as_ref()) else {
                panic!("{kind}: no document");
            };
            let runs = eval::evaluate(root, kind, &EvalInput::default()).is_ok();
            let lensed = !lenses("p.yaml", &text).is_empty();
            assert_eq!(lensed, runs, "{kind}");
        }
    }
}
