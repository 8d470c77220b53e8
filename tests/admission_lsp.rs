//! The editor side of evaluation, end to end over stdio: code lenses on a policy and on a suite's
//! cases, `admission-ls.evaluate` and `admission-ls.runTests` returning the CLI's JSON, and a failing
//! case published as a diagnostic on the case; the validate lenses on custom resources and CRDs and
//! `admission-ls.validate` returning `admission-ls validate --format json`'s reports.

#[path = "support/lsp_client.rs"]
mod lsp_client;
#[path = "support/tempdir.rs"]
mod tempdir;

use std::process::Command;

use lsp_client::{Client, file_uri};
use serde_json::{Value, json};
use tempdir::TempDir;

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

const POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: small}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: object.spec.replicas <= 5
    message: too many replicas
";

const OBJECT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: n}\nspec: {replicas: 9}\n";

const SUITE: &str = "\
apiVersion: admission-ls.dev/v1alpha1
kind: PolicyTest
policies: [policy.yaml]
cases:
  - name: passes
    object: {apiVersion: apps/v1, kind: Deployment, metadata: {name: a}, spec: {replicas: 1}}
    expect: {decision: allow}
  - name: fails
    object: {apiVersion: apps/v1, kind: Deployment, metadata: {name: b}, spec: {replicas: 9}}
    expect: {decision: allow}
";

fn open(client: &mut Client, uri: &str, text: &str) {
    let document = json!({"uri": uri, "languageId": "yaml", "version": 1, "text": text});
    client.notify("textDocument/didOpen", json!({"textDocument": document}));
}

/// `value` without its `durationMs` fields.
fn timeless(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != "durationMs")
                .map(|(k, v)| (k.clone(), timeless(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(timeless).collect()),
        other => other.clone(),
    }
}

/// A `runTests` answer without the fields only the editor gets: each case's `uri` and `range`.
fn placeless(value: &Value) -> Value {
    let mut value = value.clone();
    for suite in value["suites"].as_array_mut().into_iter().flatten() {
        for case in suite["cases"].as_array_mut().into_iter().flatten() {
            if let Some(case) = case.as_object_mut() {
                case.remove("uri");
                case.remove("range");
            }
        }
    }
    value
}

fn cli_json(args: &[&str]) -> Value {
    let output = Command::new(BINARY)
        .args(args)
        .output()
        .expect("the binary runs");
    serde_json::from_slice(&output.stdout).unwrap_or(Value::Null)
}

#[test]
fn lenses_commands_and_case_diagnostics() {
    let dir = TempDir::new("admission-lsp");
    let policy = dir.write("policy.yaml", POLICY);
    let object = dir.write("object.yaml", OBJECT);
    let suite = dir.write("suite.test.yaml", SUITE);
    assert!(dir.path().is_dir());
    let mut client = Client::spawn(BINARY);
    let init = client.initialize(json!({}), Value::Null, Value::Null);
    let commands = &init["result"]["capabilities"]["executeCommandProvider"]["commands"];
    assert_eq!(
        *commands,
        json!([
            "admission-ls.evaluate",
            "admission-ls.runTests",
            "admission-ls.validate",
            "admission-ls.listTests"
        ])
    );

    let policy_uri = file_uri(&policy);
    open(&mut client, &policy_uri, POLICY);
    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": policy_uri}}),
    );
    assert_eq!(lenses["result"][0]["command"]["title"], "Evaluate small…");

    let args = json!({"uri": policy_uri, "object": object.display().to_string()});
    let evaluated = client.request(
        "workspace/executeCommand",
        json!({"command": "admission-ls.evaluate", "arguments": [args]}),
    );
    let cli = cli_json(&[
        "eval",
        &policy.display().to_string(),
        "--object",
        &object.display().to_string(),
        "--format",
        "json",
    ]);
    assert_eq!(evaluated["result"], cli);
    assert_eq!(cli["decision"], "deny");
    assert!(!cli["defaulted"].as_array().is_some_and(Vec::is_empty));

    // `defaults: false` is `eval --no-defaults`: the object exactly as written.
    let raw_args =
        json!({"uri": policy_uri, "object": object.display().to_string(), "defaults": false});
    let raw = client.request(
        "workspace/executeCommand",
        json!({"command": "admission-ls.evaluate", "arguments": [raw_args]}),
    );
    let raw_cli = cli_json(&[
        "eval",
        &policy.display().to_string(),
        "--object",
        &object.display().to_string(),
        "--no-defaults",
        "--format",
        "json",
    ]);
    assert_eq!(raw["result"], raw_cli);
    assert_eq!(raw_cli["defaulted"], json!([]));

    let suite_uri = file_uri(&suite);
    open(&mut client, &suite_uri, SUITE);
    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": suite_uri}}),
    );
    let titles: Vec<&str> = lenses["result"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|x| x["command"]["title"].as_str())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(titles, ["Run 2 tests", "Run case", "Run case"]);

    let ran = client.request(
        "workspace/executeCommand",
        json!({"command": "admission-ls.runTests", "arguments": [{"uri": suite_uri}]}),
    );
    let cli = cli_json(&["test", &suite.display().to_string(), "--format", "json"]);
    // Durations differ from run to run; everything else is the same JSON but the editor's
    // place of each case (its `uri` and LSP `range`; `line` and `column` are in both).
    assert_eq!(timeless(&placeless(&ran["result"])), timeless(&cli));
    assert_eq!(cli["suites"][0]["cases"][1]["line"], 8);
    assert_eq!(
        ran["result"]["suites"][0]["cases"][1]["range"]["start"]["line"],
        7
    );
    assert_eq!(ran["result"]["suites"][0]["cases"][1]["uri"], suite_uri);
    assert!(ran["result"]["summary"]["durationMs"].as_f64().is_some());
    assert_eq!(cli["summary"]["failed"], 1);
    let published = client.diagnostics_where(&suite_uri, |d| {
        d["diagnostics"]
            .as_array()
            .is_some_and(|list| !list.is_empty())
    });
    let diagnostic = &published["diagnostics"][0];
    assert_eq!(diagnostic["range"]["start"]["line"], 7);
    assert_eq!(diagnostic["code"], "test-failed");
    let message = diagnostic["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with("test case 'fails' failed: expected allow, got deny"),
        "{message}"
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// The titles of `lenses` (a `textDocument/codeLens` response).
fn lens_titles(lenses: &Value) -> Vec<&str> {
    lenses["result"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|x| x["command"]["title"].as_str())
                .collect()
        })
        .unwrap_or_default()
}

/// Runs the command of `lens` as a client does when it is clicked.
fn click(client: &mut Client, lens: &Value) -> Value {
    let command = &lens["command"];
    let params = json!({"command": command["command"], "arguments": command["arguments"]});
    client.request("workspace/executeCommand", params)
}

/// `report` without what the command adds to the CLI's report: the file and the document index.
fn as_cli_report(report: &Value) -> Value {
    let mut report = report.clone();
    if let Value::Object(map) = &mut report {
        map.remove("path");
        map.remove("document");
    }
    report
}

#[test]
fn validate_lenses_on_custom_resources_and_their_crd_answer_as_the_cli() {
    let fixture = |name: &str| {
        std::fs::read_to_string(format!("tests/cli_fixtures/validate/{name}"))
            .expect("the validate fixtures are in the repository")
    };
    let crd_text = fixture("widgets.crd.yaml");
    let objects_text = format!(
        "{}---\n{}",
        fixture("widget.yaml"),
        fixture("widget-valid.yaml")
    );
    let dir = TempDir::new("admission-lsp-validate");
    let crd = dir.write("widgets.crd.yaml", &crd_text);
    let objects = dir.write("widgets.yaml", &objects_text);
    let mut client = Client::spawn(BINARY);
    client.initialize(json!({}), Value::Null, Value::Null);
    let (crd_uri, objects_uri) = (file_uri(&crd), file_uri(&objects));
    open(&mut client, &crd_uri, &crd_text);
    open(&mut client, &objects_uri, &objects_text);
    let cli = cli_json(&[
        "validate",
        &objects.display().to_string(),
        "--crd",
        &crd.display().to_string(),
        "--format",
        "json",
    ]);
    assert_eq!(cli[0]["valid"], false);
    assert_eq!(cli[1]["valid"], true);

    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": objects_uri}}),
    );
    let title = "Validate against CRD widgets.example.com";
    assert_eq!(lens_titles(&lenses), [title, title]);
    let first = click(&mut client, &lenses["result"][0]);
    let reports = &first["result"]["reports"];
    assert_eq!(as_cli_report(&reports[0]), cli[0]);
    assert_eq!(reports[0]["document"], 0);
    assert_eq!(
        first["result"]["summary"],
        json!({"objects": 1, "valid": 0, "invalid": 1})
    );
    let fields: Vec<&str> = cli[0]["errors"]
        .as_array()
        .map(|e| e.iter().filter_map(|x| x["field"].as_str()).collect())
        .unwrap_or_default();
    assert!(fields.contains(&"spec.tags[2]"), "{fields:?}");

    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": crd_uri}}),
    );
    assert_eq!(
        lens_titles(&lenses),
        ["Validate 2 custom resources in the workspace"]
    );
    let all = click(&mut client, &lenses["result"][0]);
    let reports: Vec<Value> = all["result"]["reports"]
        .as_array()
        .map(|r| r.iter().map(as_cli_report).collect())
        .unwrap_or_default();
    assert_eq!(Value::Array(reports), cli);
    assert_eq!(
        all["result"]["summary"],
        json!({"objects": 2, "valid": 1, "invalid": 1})
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

const KYVERNO_POLICY: &str = "\
apiVersion: policies.kyverno.io/v1
kind: ValidatingPolicy
metadata: {name: require-team}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: \"has(object.metadata.labels) && 'team' in object.metadata.labels\"
";

const KYVERNO_TEST: &str = "\
apiVersion: cli.kyverno.io/v1alpha1
kind: Test
metadata: {name: team}
policies: [../policy.yaml]
resources: [../pod.yaml]
results:
- policy: require-team
  kind: Pod
  resources: [labelled]
  result: fail
";

const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: labelled, labels: {team: a}}\nspec: {containers: [{name: c, image: i}]}\n";

/// A listed suite: its URI, its format and its cases (name, first line).
type Listed = (String, String, Vec<(String, Value)>);

/// The test explorer's commands over a workspace: `listTests` finds every suite (a PolicyTest and
/// a Kyverno Test in a hidden `.kyverno-test` folder) with each case's place before anything runs;
/// `runTests` with no file runs them all, one suite or one case, and gives each failed case its
/// place and what it expected and got, and publishes the failures on the case lines.
#[test]
fn the_test_explorer_lists_and_runs_the_workspace_suites() {
    let dir = TempDir::new("admission-lsp-explorer");
    dir.write("policy.yaml", POLICY);
    let suite = dir.write("suite.test.yaml", SUITE);
    let kyverno = TempDir::new("admission-lsp-explorer-kyverno");
    kyverno.write("policy.yaml", KYVERNO_POLICY);
    kyverno.write("pod.yaml", POD);
    let kyverno_test = kyverno.write(".kyverno-test/kyverno-test.yaml", KYVERNO_TEST);
    let mut client = Client::spawn(BINARY);
    let folders = json!([
        {"uri": file_uri(dir.path()), "name": "a"},
        {"uri": file_uri(kyverno.path()), "name": "b"}
    ]);
    client.request(
        "initialize",
        json!({"capabilities": {}, "rootUri": null, "workspaceFolders": folders}),
    );
    client.notify("initialized", json!({}));
    let (suite_uri, kyverno_uri) = (file_uri(&suite), file_uri(&kyverno_test));

    let listed = client.request(
        "workspace/executeCommand",
        json!({"command": "admission-ls.listTests", "arguments": []}),
    );
    let suites = &listed["result"]["suites"];
    let summary: Vec<Listed> = suites
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            let cases = s["cases"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| {
                    (
                        c["name"].as_str().unwrap_or("").to_string(),
                        c["range"]["start"]["line"].clone(),
                    )
                })
                .collect();
            (
                s["uri"].as_str().unwrap_or("").to_string(),
                s["format"].as_str().unwrap_or("").to_string(),
                cases,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                suite_uri.clone(),
                "PolicyTest".to_string(),
                vec![
                    ("passes".to_string(), json!(4)),
                    ("fails".to_string(), json!(7))
                ]
            ),
            (
                kyverno_uri.clone(),
                "KyvernoTest".to_string(),
                vec![("require-team Pod/labelled: fail".to_string(), json!(6))]
            ),
        ],
        "{listed}"
    );

    let all = client.request(
        "workspace/executeCommand",
        json!({"command": "admission-ls.runTests", "arguments": [{}]}),
    );
    let summary = &all["result"]["summary"];
    assert_eq!(
        (summary["passed"].as_u64(), summary["failed"].as_u64()),
        (Some(1), Some(2)),
        "{all}"
    );
    let kyverno_case = &all["result"]["suites"][1]["cases"][0];
    assert_eq!(kyverno_case["uri"], kyverno_uri);
    assert_eq!(kyverno_case["range"]["start"]["line"], 6);
    assert_eq!(kyverno_case["expected"], "Pod/labelled: fail");
    assert_eq!(kyverno_case["actual"], "Pod/labelled: pass: success");
    let failed = &all["result"]["suites"][0]["cases"][1];
    assert_eq!(
        (failed["expected"].as_str(), failed["actual"].as_str()),
        (
            Some("decision: allow"),
            Some(
                "decision: deny: deployments.apps \"b\" is forbidden: ValidatingAdmissionPolicy 'small' denied request: too many replicas"
            )
        ),
        "{failed}"
    );
    let published = client.diagnostics_where(&kyverno_uri, |d| {
        d["diagnostics"]
            .as_array()
            .is_some_and(|list| !list.is_empty())
    });
    assert_eq!(published["diagnostics"][0]["range"]["start"]["line"], 6);

    // One case of one suite, by the names the listing gave.
    let suite_name = suites[0]["name"].clone();
    let one = client.request(
        "workspace/executeCommand",
        json!({"command": "admission-ls.runTests", "arguments": [{"uri": suite_uri, "suite": suite_name, "case": "passes"}]}),
    );
    let names: Vec<&str> = one["result"]["suites"][0]["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["passes"], "{one}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}
