//! Reuse of documents' diagnostics, shown by how many documents each run checked: an edit
//! re-checks the documents whose text changed, and a change of the target version or of the
//! workspace re-checks them all. Every run is also compared with a fresh host.

use std::sync::Arc;

use super::{AnalysisHost, DiagnosticsConfig, FileId};

const POLICY_FILE: FileId = FileId(1);
const CRD_FILE: FileId = FileId(2);

fn policy(name: &str, expression: &str) -> String {
    format!(
        "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: {name}
spec:
  paramKind:
    apiVersion: example.com/v1
    kind: Limit
  matchConstraints:
    resourceRules:
    - {{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}}
  validations:
  - expression: {expression}
"
    )
}

fn file(expressions: [&str; 3]) -> String {
    let names = ["a", "b", "c"];
    let documents: Vec<String> = names
        .iter()
        .zip(expressions)
        .map(|(name, expression)| policy(name, expression))
        .collect();
    documents.join("---\n")
}

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: limits.example.com
spec:
  group: example.com
  names: {kind: Limit, plural: limits}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          max: {type: integer}
";

/// The diagnostics of `file` from `host` as `(range, code)`, after checking that a fresh host
/// with the same files gives the same ones, and how many documents the run checked.
fn run(host: &AnalysisHost, config: &DiagnosticsConfig) -> (Vec<String>, usize) {
    let analysis = host.snapshot();
    let warm = analysis.diagnostics(POLICY_FILE, config);
    let mut fresh = AnalysisHost::new();
    for (id, text) in &host.files {
        fresh.set_file(*id, text.clone());
    }
    assert_eq!(warm, fresh.snapshot().diagnostics(POLICY_FILE, config));
    let checked = analysis.checked_documents(POLICY_FILE).unwrap_or(0);
    let summary = warm
        .iter()
        .map(|d| format!("{:?} {} {}", d.range, d.code.as_str(), d.message))
        .collect();
    (summary, checked)
}

fn set(host: &mut AnalysisHost, file: FileId, text: &str) {
    host.set_file(file, Arc::from(text));
}

#[test]
fn an_edit_rechecks_only_the_documents_whose_text_changed() {
    let config = DiagnosticsConfig::default();
    let mut host = AnalysisHost::new();
    set(&mut host, CRD_FILE, CRD);
    set(
        &mut host,
        POLICY_FILE,
        &file(["params.max > 0", "params.nax > 0", "1 < 2"]),
    );
    let (first, checked) = run(&host, &config);
    assert_eq!(checked, 3);
    assert_eq!(first.len(), 1, "{first:?}");

    // The middle document's expression changes and grows: the last one moves but is reused.
    set(
        &mut host,
        POLICY_FILE,
        &file(["params.max > 0", "params.nax > 0 && y", "1 < 2"]),
    );
    let (second, checked) = run(&host, &config);
    assert_eq!(checked, 1);
    assert_eq!(second.len(), 2, "{second:?}");

    // The same text again: nothing to check.
    set(
        &mut host,
        POLICY_FILE,
        &file(["params.max > 0", "params.nax > 0 && y", "1 < 2"]),
    );
    assert_eq!(run(&host, &config), (second.clone(), 0));

    // A line above every document changes the first key only; the others move.
    let moved = format!(
        "# moved\n{}",
        file(["params.max > 0", "params.nax > 0 && y", "1 < 2"])
    );
    set(&mut host, POLICY_FILE, &moved);
    let (third, checked) = run(&host, &config);
    assert_eq!(checked, 1);
    assert_eq!(third.len(), 2, "{third:?}");
    assert_ne!(third, second, "the ranges moved with the documents");
}

#[test]
fn another_version_or_workspace_rechecks_every_document() {
    let mut host = AnalysisHost::new();
    set(&mut host, CRD_FILE, CRD);
    set(
        &mut host,
        POLICY_FILE,
        &file(["params.max > 0", "params.nax > 0", "1 < 2"]),
    );
    let newest = DiagnosticsConfig::default();
    assert_eq!(run(&host, &newest).1, 3);
    let older = DiagnosticsConfig {
        kube_version: crate::schema::KubeVersion::parse("1.30").unwrap(),
        ..DiagnosticsConfig::default()
    };
    assert_eq!(run(&host, &older).1, 3);
    assert_eq!(run(&host, &older).1, 0);

    // The CRD's schema changes: `params.nax` now exists, the first expression is wrong.
    set(
        &mut host,
        CRD_FILE,
        &CRD.replace("max: {type: integer}", "nax: {type: integer}"),
    );
    let (found, checked) = run(&host, &older);
    assert_eq!(checked, 3);
    assert_eq!(found.len(), 1, "{found:?}");

    // The CRD file's text changes without changing its facts: everything is reused.
    set(
        &mut host,
        CRD_FILE,
        &format!(
            "# note\n{}",
            CRD.replace("max: {type: integer}", "nax: {type: integer}")
        ),
    );
    assert_eq!(run(&host, &older), (found, 0));

    // The CRD goes away.
    host.remove_file(CRD_FILE);
    assert_eq!(run(&host, &older).1, 3);
}

/// `policy(name, …)` documents and a binding of policy `b`, joined into one file.
fn with_binding(names: &[&str]) -> String {
    let mut documents: Vec<String> = names.iter().map(|n| policy(n, "params.max > 0")).collect();
    documents.push(
        "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: binding-of-b
spec:
  policyName: b
  paramRef: {name: limits, parameterNotFoundAction: Deny}
  validationActions: [Deny]
"
        .to_string(),
    );
    documents.join("---\n")
}

#[test]
fn a_syntax_error_rechecks_only_what_read_the_document_it_hides() {
    let config = DiagnosticsConfig::default();
    let mut host = AnalysisHost::new();
    set(&mut host, CRD_FILE, CRD);
    let clean = with_binding(&["a", "b", "c"]);
    set(&mut host, POLICY_FILE, &clean);
    assert_eq!(run(&host, &config).1, 4);

    // `a: b:` is a syntax error at the end of policy `a`: it leaves the workspace, but nothing
    // else looked it up, so no other document is checked again.
    let broken_a = clean.replacen("params.max > 0\n", "params.max > 0:\n", 1);
    set(&mut host, POLICY_FILE, &broken_a);
    assert_eq!(run(&host, &config).1, 0);
    set(&mut host, POLICY_FILE, &clean);
    assert_eq!(run(&host, &config).1, 1, "policy a alone");

    // Hiding policy `b` changes what its binding finds: the binding is checked again.
    let at_b = clean.find("name: b\n").unwrap_or(0);
    let (head, tail) = clean.split_at(at_b);
    let broken_b = format!(
        "{head}{}",
        tail.replacen("params.max > 0\n", "params.max > 0:\n", 1)
    );
    set(&mut host, POLICY_FILE, &broken_b);
    let (found, checked) = run(&host, &config);
    assert_eq!(checked, 1, "the binding: {found:?}");
    set(&mut host, POLICY_FILE, &clean);
    assert_eq!(run(&host, &config).1, 2, "policy b and its binding");
}
