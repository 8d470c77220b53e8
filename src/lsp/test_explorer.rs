//! The test explorer's commands, which every editor client shares: `admission-ls.listTests` lists
//! the suites and cases of one file (`{uri | path}`) or of the whole workspace (no argument: the
//! YAML files of the workspace folders, the `kyverno-test.yaml` files of their hidden folders and
//! the open documents), each with its `uri` and LSP `range`, without running anything;
//! `admission-ls.runTests` runs a file's suites (`{uri | path, suite?, case?, publish?}`) or, with no file,
//! every suite of the workspace, and answers `test --format json`'s JSON with each case's `uri`,
//! `range`, `line` and `column` (and `expected`/`actual` for a failed comparison). The failing
//! cases of each file run are published as diagnostics on the cases, unless `publish` is false.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use tower_lsp_server::ls_types::{Diagnostic, Uri};

use super::commands::{OpenTexts, Outcome, read, target};
use super::disk::{self, Bounds};
use super::encoding::to_proto;
use super::server::Cancel;
use super::workspace;
use crate::ide::lenses::case_problems;
use crate::ide::run::{CaseResult, RunHooks, RunOptions, SuiteReport, run_tests_with};
use crate::ide::run::{Timestamp, tests_json_with};
use crate::ide::test_explorer::{
    format_name, line_column, might_hold_suite, named_in_hidden_folders, test_items,
};
use crate::ide::{Encoding, LineIndex, TextRange};

/// The command that lists the suites and cases.
pub const LIST_TESTS_COMMAND: &str = "admission-ls.listTests";

/// The deepest folder searched for suites in hidden folders.
const HIDDEN_DEPTH: usize = 32;

/// `admission-ls.listTests`: `{"suites": [{uri, path, name, format, range, errors, cases: [{name,
/// range}]}]}`.
pub fn list_tests(
    args: &Value,
    open: &OpenTexts,
    roots: &[PathBuf],
    encoding: Encoding,
) -> Result<Outcome, String> {
    let files = files_of(args, open, roots)?;
    let mut suites = Vec::new();
    for (path, text) in &files {
        let Some(uri) = Uri::from_file_path(path) else {
            continue;
        };
        let index = LineIndex::new(text);
        let range = |r: TextRange| to_proto::range(&index, r, encoding);
        for suite in test_items(path, text) {
            let cases: Vec<Value> = suite
                .cases
                .iter()
                .map(|c| json!({"name": c.name, "range": range(c.range)}))
                .collect();
            suites.push(json!({
                "uri": uri.as_str(), "path": path, "name": suite.name,
                "format": format_name(suite.format), "range": range(suite.range),
                "errors": suite.errors, "cases": cases,
            }));
        }
    }
    Ok(Outcome {
        result: json!({ "suites": suites }),
        publish: Vec::new(),
    })
}

/// `admission-ls.runTests`: the named file's suites (one suite, one case) or every suite of the
/// workspace.
pub fn run_tests(
    args: &Value,
    open: &OpenTexts,
    roots: &[PathBuf],
    encoding: Encoding,
    cancel: &Cancel,
    now: Option<Timestamp>,
) -> Result<Outcome, String> {
    let files = files_of(args, open, roots)?;
    let load = |p: &str| read(p, open);
    let suite = args.get("suite").and_then(Value::as_str);
    let case = args.get("case").and_then(Value::as_str);
    let start = std::time::Instant::now();
    let options = RunOptions {
        hooks: RunHooks {
            // A cancelled run skips its remaining cases; nobody reads the answer.
            select: &|path, s, c| {
                let suite_named =
                    |name: &str| s.name == name || (s.name.is_empty() && path == name);
                !cancel.is_cancelled()
                    && suite.is_none_or(suite_named)
                    && case.is_none_or(|name| c.name == name)
            },
            clock: &|| start.elapsed(),
        },
        kube_version: None,
        now,
        // The run lens, like the editor's other commands, runs as the newest Kyverno release.
        kyverno_version: None,
    };
    let reports = run_tests_with(&files, &load, options);
    let located = Located::new(&files, encoding);
    let place = |report: &SuiteReport, case: &CaseResult| located.place(report, case);
    // A client that shows the failures itself (Neovim's own diagnostics namespace) asks for none.
    let publish = args.get("publish").and_then(Value::as_bool) != Some(false);
    Ok(Outcome {
        result: tests_json_with(&reports, &place),
        publish: if publish {
            located.problems(&reports)
        } else {
            Vec::new()
        },
    })
}

/// The suite files a command is about: the one its `uri` or `path` names (as it is, whatever it
/// holds), or else the workspace's.
fn files_of(
    args: &Value,
    open: &OpenTexts,
    roots: &[PathBuf],
) -> Result<Vec<(String, String)>, String> {
    if args.get("uri").is_some() || args.get("path").is_some() {
        let (path, _) = target(args)?;
        let path = path.display().to_string();
        let text = read(&path, open).map_err(|e| format!("cannot read {path}: {e}"))?;
        return Ok(vec![(path, text)]);
    }
    Ok(workspace_suites(roots, open))
}

/// The files of the workspace folders and the open documents that may hold a suite, with their
/// texts (an open document's from the editor), in path order.
pub fn workspace_suites(roots: &[PathBuf], open: &OpenTexts) -> Vec<(String, String)> {
    let scan = workspace::scan(roots);
    let mut paths: BTreeSet<PathBuf> = scan.files.into_iter().map(|f| f.path).collect();
    paths.extend(scan.other_yaml);
    for root in roots.iter().filter(|r| r.is_dir()) {
        let mut found = Vec::new();
        hidden_suites(root, 0, &mut found);
        paths.extend(found);
    }
    paths.extend(
        open.keys()
            .filter(|p| p.to_str().is_some_and(workspace::is_yaml))
            .cloned(),
    );
    paths
        .into_iter()
        .filter_map(|path| {
            let text = match open.get(&path) {
                Some(text) => text.clone(),
                None => disk::read_text(&path, Bounds::named()).ok()?,
            };
            might_hold_suite(&text).then(|| (path.display().to_string(), text))
        })
        .collect()
}

/// The suite files in hidden folders under `dir`, which the folder walks skip: the files named as a
/// family's suites are found there (Kyverno keeps its `kyverno-test.yaml` in `.kyverno-test/`;
/// `.git`, `node_modules` and `target` aside, linked folders not followed), in sorted order.
pub fn hidden_suites(dir: &Path, depth: usize, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir()
            && depth < HIDDEN_DEPTH
            && !matches!(name.as_str(), ".git" | "node_modules" | "target")
        {
            hidden_suites(&path, depth + 1, found);
        } else if kind.is_file()
            && named_in_hidden_folders(&name)
            && path.components().any(|c| {
                c.as_os_str().to_string_lossy().starts_with('.')
                    && c.as_os_str() != "."
                    && c.as_os_str() != ".."
            })
            && !found.contains(&path)
        {
            found.push(path);
        }
    }
}

/// The files of a run with their line indexes and URIs, to place each case.
struct Located<'a> {
    files: Vec<(&'a str, &'a str, LineIndex, Option<Uri>)>,
    encoding: Encoding,
}

impl<'a> Located<'a> {
    fn new(files: &'a [(String, String)], encoding: Encoding) -> Located<'a> {
        let files = files
            .iter()
            .map(|(path, text)| {
                let uri = Uri::from_file_path(path);
                (path.as_str(), text.as_str(), LineIndex::new(text), uri)
            })
            .collect();
        Located { files, encoding }
    }

    fn file(&self, path: &str) -> Option<&(&'a str, &'a str, LineIndex, Option<Uri>)> {
        self.files.iter().find(|f| f.0 == path)
    }

    /// A case's `line`, `column` (1-based, as `test --format json` gives them), `uri` and `range`.
    fn place(&self, report: &SuiteReport, case: &CaseResult) -> Map<String, Value> {
        let mut fields = Map::new();
        let Some((_, text, index, uri)) = self.file(&report.path) else {
            return fields;
        };
        let (line, column) = line_column(text, case.range.start());
        fields.insert("line".into(), line.into());
        fields.insert("column".into(), column.into());
        if let Some(uri) = uri {
            fields.insert("uri".into(), uri.as_str().into());
        }
        let range = to_proto::range(index, case.range, self.encoding);
        fields.insert("range".into(), json!(range));
        fields
    }

    /// The failing cases of each file that held a suite, as diagnostics to publish (an empty list
    /// for a file whose cases all passed, which clears what an earlier run left).
    fn problems(&self, reports: &[SuiteReport]) -> Vec<(Uri, Vec<Diagnostic>)> {
        self.files
            .iter()
            .filter(|(path, ..)| reports.iter().any(|r| r.path == *path))
            .filter_map(|(path, _, index, uri)| {
                let diagnostics = reports
                    .iter()
                    .filter(|r| r.path == *path)
                    .flat_map(case_problems)
                    .map(|problem| to_proto::diagnostic(index, &problem, self.encoding))
                    .collect();
                Some((uri.clone()?, diagnostics))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: &str = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n  matchConstraints:\n    resourceRules:\n    - {apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}\n  validations:\n  - expression: 'false'\n";
    const SUITE: &str = "apiVersion: admission-ls.dev/v1alpha1\nkind: PolicyTest\npolicies: [policy.yaml]\ncases:\n  - name: wrong\n    object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n    expect: {decision: allow}\n";

    /// A client that shows the failures itself asks for no published diagnostics; by default the
    /// failing case of the file run is published.
    #[test]
    fn publish_false_publishes_nothing() {
        let open = OpenTexts::from([
            (PathBuf::from("/e/policy.yaml"), POLICY.to_owned()),
            (PathBuf::from("/e/s.test.yaml"), SUITE.to_owned()),
        ]);
        let run = |args: Value| {
            run_tests(&args, &open, &[], Encoding::Utf16, &Cancel::default(), None).map(|outcome| {
                let counts: Vec<usize> = outcome.publish.iter().map(|(_, d)| d.len()).collect();
                (outcome.result["summary"]["failed"].clone(), counts)
            })
        };
        let published = run(json!({"path": "/e/s.test.yaml"}));
        assert_eq!(published, Ok((json!(1), vec![1])));
        let quiet = run(json!({"path": "/e/s.test.yaml", "publish": false}));
        assert_eq!(quiet, Ok((json!(1), vec![])));
    }
}
