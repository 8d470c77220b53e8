//! End-to-end: requests are isolated from the serve task. With the debug build's fault switch
//! (`ADMISSION_LS_FAULT`, see `src/lsp/fault.rs`) a request that panics is answered as an internal
//! error while the server keeps serving, a slow suite run does not hold up the diagnostics of a
//! keystroke sent after it, and `$/cancelRequest` stops a long command early.

#[path = "support/lsp_client.rs"]
mod lsp_client;
#[path = "support/tempdir.rs"]
mod tempdir;

use std::time::{Duration, Instant};

use lsp_client::{Client, TIMEOUT, file_uri};
use serde_json::{Value, json};
use tempdir::TempDir;

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

/// JSON-RPC's `InternalError` and LSP's `RequestCancelled`.
const INTERNAL_ERROR: i64 = -32603;
const REQUEST_CANCELLED: i64 = -32800;

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
";

const SUITE: &str = "\
apiVersion: admission-ls.dev/v1alpha1
kind: PolicyTest
policies: [policy.yaml]
cases:
  - name: fails
    object: {apiVersion: apps/v1, kind: Deployment, metadata: {name: b}, spec: {replicas: 9}}
    expect: {decision: allow}
";

fn start(fault: &str) -> Client {
    let mut client = Client::spawn_with_env(BINARY, &[("ADMISSION_LS_FAULT", fault)]);
    let response = client.initialize(json!({}), Value::Null, Value::Null);
    assert!(response["result"]["capabilities"].is_object(), "{response}");
    client
}

fn open(client: &mut Client, uri: &str, version: i64, text: &str) {
    let document = json!({"uri": uri, "languageId": "yaml", "version": version, "text": text});
    client.notify("textDocument/didOpen", json!({"textDocument": document}));
}

fn change(client: &mut Client, uri: &str, version: i64, text: &str) {
    let params = json!({"textDocument": {"uri": uri, "version": version},
        "contentChanges": [{"text": text}]});
    client.notify("textDocument/didChange", params);
}

fn run_tests(client: &mut Client, suite_uri: &str) -> i64 {
    client.send_request(
        "workspace/executeCommand",
        json!({"command": "admission-ls.runTests", "arguments": [{"uri": suite_uri}]}),
    )
}

fn symbols(client: &mut Client, uri: &str) -> Value {
    client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    )
}

#[test]
fn a_panicking_request_is_answered_as_an_error_and_the_server_keeps_serving() {
    let mut client = start("textDocument/hover=panic");
    let uri = "file:///isolation/policy.yaml";
    open(&mut client, uri, 1, POLICY);
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 8, "character": 17}}),
    );
    assert_eq!(hover["error"]["code"], INTERNAL_ERROR, "{hover}");
    let message = hover["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("fault injected"), "{hover}");

    // Still serving: another request, and the diagnostics of an edit.
    assert_eq!(symbols(&mut client, uri)["result"][0]["name"], "small");
    change(&mut client, uri, 2, &POLICY.replace("<= 5", "<= 'x'"));
    let published = client.diagnostics_at(uri, 2);
    assert_ne!(published["diagnostics"], json!([]), "{published}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn a_keystroke_during_a_slow_suite_run_gets_its_diagnostics_first() {
    let dir = TempDir::new("isolation-slow");
    let policy = dir.write("policy.yaml", POLICY);
    let suite = dir.write("suite.test.yaml", SUITE);
    assert!(dir.path().is_dir());
    let mut client = start("admission-ls.runTests=sleep:3000");
    let (policy_uri, suite_uri) = (file_uri(&policy), file_uri(&suite));
    open(&mut client, &policy_uri, 1, POLICY);
    client.diagnostics_at(&policy_uri, 1);

    let started = Instant::now();
    let run = run_tests(&mut client, &suite_uri);
    change(
        &mut client,
        &policy_uri,
        2,
        &POLICY.replace("<= 5", "<= 'x'"),
    );
    let published = client.diagnostics_at(&policy_uri, 2);
    let keystroke = started.elapsed();
    assert_ne!(published["diagnostics"], json!([]), "{published}");
    assert!(
        client
            .take_pending(|m| m.get("id") == Some(&json!(run)))
            .is_none(),
        "the run answered before the keystroke's diagnostics"
    );
    assert!(keystroke < Duration::from_millis(2500), "{keystroke:?}");

    // The run itself still completes, with the suite's real result.
    let ran = client.response(run);
    assert_eq!(ran["result"]["summary"]["failed"], 1, "{ran}");
    assert!(started.elapsed() >= Duration::from_millis(3000));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn a_cancelled_command_stops_early_and_the_server_keeps_serving() {
    let dir = TempDir::new("isolation-cancel");
    dir.write("policy.yaml", POLICY);
    let suite = dir.write("suite.test.yaml", SUITE);
    // Far longer than the client's timeout: only the cancellation can end it in time.
    let mut client = start("admission-ls.runTests=sleep:600000");
    let suite_uri = file_uri(&suite);
    open(&mut client, &suite_uri, 1, SUITE);

    let run = run_tests(&mut client, &suite_uri);
    client.notify("$/cancelRequest", json!({"id": run}));
    let answer = client.response(run);
    assert_eq!(answer["error"]["code"], REQUEST_CANCELLED, "{answer}");

    let deadline = Instant::now() + TIMEOUT;
    while !client.stderr().contains("admission-ls.runTests cancelled") {
        assert!(Instant::now() < deadline, "{}", client.stderr());
        std::thread::sleep(Duration::from_millis(10));
    }
    let policy_uri = "file:///isolation/cancel/policy.yaml";
    open(&mut client, policy_uri, 1, POLICY);
    assert_eq!(
        symbols(&mut client, policy_uri)["result"][0]["name"],
        "small"
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// LSP's `RequestFailed`, the answer to a command beyond the long-work queue.
const REQUEST_FAILED: i64 = -32803;

/// Slots and queue of long work (`src/lsp/server/isolate.rs`).
const LONG_WORK_SLOTS: usize = 2;
const LONG_WORK_QUEUE: usize = 16;

#[test]
fn seven_slow_commands_leave_threads_for_a_keystroke_and_a_request() {
    let dir = TempDir::new("isolation-seven");
    let policy = dir.write("policy.yaml", POLICY);
    let suite = dir.write("suite.test.yaml", SUITE);
    let mut client = start("admission-ls.runTests=sleep:600000");
    let (policy_uri, suite_uri) = (file_uri(&policy), file_uri(&suite));
    open(&mut client, &policy_uri, 1, POLICY);
    client.diagnostics_at(&policy_uri, 1);

    // Before the commands had their own slots, seven of them held seven of the blocking pool's
    // eight threads (stdin holds the eighth) and the keystroke's run and the request waited.
    let runs: Vec<i64> = (0..7).map(|_| run_tests(&mut client, &suite_uri)).collect();
    change(
        &mut client,
        &policy_uri,
        2,
        &POLICY.replace("<= 5", "<= 'x'"),
    );
    let published = client.diagnostics_at(&policy_uri, 2);
    assert_ne!(published["diagnostics"], json!([]), "{published}");
    assert_eq!(
        symbols(&mut client, &policy_uri)["result"][0]["name"],
        "small"
    );

    for run in &runs {
        client.notify("$/cancelRequest", json!({"id": run}));
    }
    for run in runs {
        assert_eq!(client.response(run)["error"]["code"], REQUEST_CANCELLED);
    }
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn a_command_beyond_the_long_work_queue_is_refused_with_a_message() {
    let dir = TempDir::new("isolation-queue");
    let suite = dir.write("suite.test.yaml", SUITE);
    dir.write("policy.yaml", POLICY);
    let mut client = start("admission-ls.runTests=sleep:600000");
    let suite_uri = file_uri(&suite);
    let runs: Vec<i64> = (0..LONG_WORK_SLOTS + LONG_WORK_QUEUE)
        .map(|_| run_tests(&mut client, &suite_uri))
        .collect();
    let over = run_tests(&mut client, &suite_uri);
    let refused = client.response(over);
    assert_eq!(refused["error"]["code"], REQUEST_FAILED, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("2 commands are running and 16 waiting"),
        "{message}"
    );

    // A queued command that is cancelled leaves the queue: the next one is taken.
    client.notify("$/cancelRequest", json!({"id": runs[LONG_WORK_SLOTS]}));
    let cancelled = client.response(runs[LONG_WORK_SLOTS]);
    assert_eq!(cancelled["error"]["code"], REQUEST_CANCELLED, "{cancelled}");
    let taken = run_tests(&mut client, &suite_uri);
    for run in runs
        .iter()
        .chain([&taken])
        .filter(|&&r| r != runs[LONG_WORK_SLOTS])
    {
        client.notify("$/cancelRequest", json!({"id": run}));
        assert_eq!(client.response(*run)["error"]["code"], REQUEST_CANCELLED);
    }
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}
