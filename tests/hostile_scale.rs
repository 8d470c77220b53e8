//! Hostile input at scale (issue 9): a policy with 10,000 validations and a workspace of 5,000
//! policy files, through the library's diagnostics, through `check` on a folder, and through the
//! server (open, or the startup scan of a workspace folder), after which the server must still
//! answer the next request. Assertions are on the diagnostics; the only clocks are the generous hang
//! guards of the LSP client (`support/lsp_client.rs`) and of `in_thread`.

#[path = "support/lsp_client.rs"]
mod lsp_client;
#[path = "support/tempdir.rs"]
mod tempdir;

use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use admission_ls::ide::{Diagnostic, DiagnosticsConfig, diagnostics_for_text};
use lsp_client::{Client, file_uri};
use serde_json::{Value, json};
use tempdir::TempDir;

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

/// A policy named `name` with the given validation expressions.
fn policy(name: &str, expressions: impl Iterator<Item = String>) -> String {
    let mut text = format!(
        "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: {name}
spec:
  matchConstraints:
    resourceRules:
    - {{apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}}
  validations:
"
    );
    for expression in expressions {
        text.push_str(&format!(
            "  - expression: \"{expression}\"\n    message: m\n"
        ));
    }
    text
}

/// 10,000 validations, the 9,999th (line 9 + 2 × 9,998 + 1 = 20,006) broken.
fn ten_thousand_validations() -> String {
    let expressions = (0..10_000).map(|n| match n {
        9_998 => "object.spec.replicas <=".to_string(),
        _ => format!("object.spec.replicas <= {n}"),
    });
    policy("many", expressions)
}

/// Runs `work` on a fresh thread (default stack) with a hang guard of two minutes.
fn in_thread<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let _ = sender.send(work());
    });
    let result = receiver
        .recv_timeout(Duration::from_secs(120))
        .expect("the worker panicked, overflowed or hung");
    let _ = worker.join();
    result
}

fn codes_and_lines(text: &str, diagnostics: &[Diagnostic]) -> Vec<String> {
    let index = admission_ls::ide::LineIndex::new(text);
    diagnostics
        .iter()
        .map(|d| {
            let at = index.line_col(d.range.start(), admission_ls::ide::Encoding::Utf8);
            format!("{} on line {}", d.code.as_str(), at.line + 1)
        })
        .collect()
}

#[test]
fn a_policy_with_ten_thousand_validations_in_process() {
    let found = in_thread(|| {
        let text = ten_thousand_validations();
        let diagnostics = diagnostics_for_text(&text, &DiagnosticsConfig::default());
        codes_and_lines(&text, &diagnostics)
    });
    assert_eq!(found, ["cel-syntax on line 20006"]);
}

#[test]
fn a_policy_with_ten_thousand_validations_in_the_server() {
    let mut client = Client::spawn(BINARY);
    client.initialize(json!({}), Value::Null, Value::Null);
    let uri = "file:///tmp/hostile/many.yaml";
    let document = json!({"uri": uri, "languageId": "yaml", "version": 1,
        "text": ten_thousand_validations()});
    client.notify("textDocument/didOpen", json!({"textDocument": document}));
    let published = client.diagnostics_at(uri, 1);
    let lines: Vec<(&Value, &Value)> = published["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| (&d["code"], &d["range"]["start"]["line"]))
        .collect();
    assert_eq!(lines, [(&json!("cel-syntax"), &json!(20_005))]);
    answers_the_next_request(&mut client);
}

/// Writes `count` one-policy files, every tenth with a broken expression.
fn workspace(count: usize) -> TempDir {
    let dir = TempDir::new("hostile-workspace");
    for n in 0..count {
        let expression = if n % 10 == 0 {
            "object.spec.replicas <=".to_string()
        } else {
            format!("object.spec.replicas <= {n}")
        };
        let text = policy(&format!("p-{n}"), std::iter::once(expression));
        dir.write(&format!("team-{:02}/policy-{n:04}.yaml", n % 50), text);
    }
    dir
}

#[test]
fn check_on_a_workspace_of_five_thousand_files() {
    let dir = workspace(5_000);
    let output = Command::new(BINARY)
        .args(["check", "--format", "json"])
        .arg(dir.path())
        .output()
        .expect("run check");
    assert_eq!(output.status.code(), Some(1), "errors make the status 1");
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON report");
    assert_eq!(
        report["summary"],
        json!({"files": 5_000, "errors": 500, "warnings": 0, "policyFiles": 5_000, "unreadable": 0})
    );
    let broken = report["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|file| file["diagnostics"][0]["code"] == "cel-syntax")
        .count();
    assert_eq!(broken, 500);
}

#[test]
fn the_server_scans_a_workspace_of_five_thousand_files_and_still_answers() {
    let dir = workspace(5_000);
    let mut client = Client::spawn(BINARY);
    let root = file_uri(dir.path());
    client.initialize(json!({}), json!(root), Value::Null);
    // The first file in walk order is broken and is published.
    let first = format!("{root}/team-00/policy-0000.yaml");
    let published = client.diagnostics_where(&first, |p| p["version"].is_null());
    assert_eq!(
        published["diagnostics"][0]["code"], "cel-syntax",
        "{published}"
    );
    answers_the_next_request(&mut client);
}

/// What the scan's bounds leave out is said in the log and in one `window/showMessage`: a file over
/// the size limit, a file that is not text.
#[test]
fn the_scan_reports_the_files_it_left_out() {
    let dir = workspace(3);
    let comment = "# padding\n".repeat(900_000); // 9 MB, over the 8 MiB limit
    let large = format!(
        "{comment}{}",
        policy("large", std::iter::once("true".to_string()))
    );
    dir.write("large/policy.yaml", large);
    std::fs::write(dir.path().join("binary.yaml"), [0xff, 0xfe, 0x00]).expect("write");
    let mut client = Client::spawn(BINARY);
    let root = file_uri(dir.path());
    client.initialize(json!({}), json!(root), Value::Null);
    let shown = client.wait_for(|m| m["method"] == "window/showMessage");
    let message = shown["params"]["message"].as_str().unwrap_or_default();
    let message = message.replace(&dir.path().display().to_string(), "ROOT");
    assert_eq!(
        message,
        "admission-ls: the workspace scan left files out (1 YAML files over 8 MiB not read \
         (ROOT/large/policy.yaml); 1 YAML files not readable as UTF-8 text (ROOT/binary.yaml)); \
         open a file to check it"
    );
    assert_eq!(shown["params"]["type"], 2, "a warning");
    answers_the_next_request(&mut client);
    let log = client.stderr();
    assert!(
        log.contains("workspace scan: 5 YAML files, 3 admission or CRD files"),
        "{log}"
    );
}

/// A document opened now gets its diagnostics, and `shutdown` is answered.
fn answers_the_next_request(client: &mut Client) {
    let uri = "file:///tmp/hostile/next.yaml";
    let text = policy(
        "next",
        std::iter::once("object.spec.replicas <=".to_string()),
    );
    let document = json!({"uri": uri, "languageId": "yaml", "version": 7, "text": text});
    client.notify("textDocument/didOpen", json!({"textDocument": document}));
    let published = client.diagnostics_at(uri, 7);
    assert_eq!(
        published["diagnostics"][0]["code"], "cel-syntax",
        "{published}"
    );
    let response = client.request("shutdown", Value::Null);
    assert_eq!(response["result"], Value::Null, "{response}");
}
