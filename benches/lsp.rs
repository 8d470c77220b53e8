//! Benchmark of the language server through the release binary over stdio: cold start to first
//! diagnostics, keystroke to diagnostics (runs coalesce, no fixed wait) on a 300-line file, and peak RSS with 200
//! open policy files (targets: ≤ 150 ms, ≤ 50 ms p95, ≤ 80 MB), hover and completion on it
//! (issue 7: ≤ 30 ms p95). Run with `cargo bench --bench lsp`.

#[path = "../tests/support/lsp_client.rs"]
mod lsp_client;
#[path = "support/policies.rs"]
mod policies;
#[path = "support/stats.rs"]
mod stats;

use std::time::Instant;

use lsp_client::Client;
use serde_json::{Value, json};
use stats::{Stats, header, row};

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

fn main() {
    let policy = policies::policy_of_lines(300);
    println!(
        "policy file: {} lines, {} bytes",
        policy.lines().count(),
        policy.len()
    );
    header();
    cold_start(&policy);
    keystrokes(&policy);
    requests(&policy);
    memory();
}

fn start() -> Client {
    let mut client = Client::spawn(BINARY);
    client.initialize(json!({}), Value::Null, Value::Null);
    client
}

fn open(client: &mut Client, uri: &str, text: &str) {
    let document = json!({"uri": uri, "languageId": "yaml", "version": 1, "text": text});
    client.notify("textDocument/didOpen", json!({"textDocument": document}));
}

fn cold_start(policy: &str) {
    let mut samples = Vec::new();
    for _ in 0..20 {
        let start = Instant::now();
        let mut client = Client::spawn(BINARY);
        client.initialize(json!({}), Value::Null, Value::Null);
        open(&mut client, "file:///bench/cold.yaml", policy);
        client.diagnostics_at("file:///bench/cold.yaml", 1);
        samples.push(start.elapsed());
        client.shutdown_and_exit();
    }
    row(
        "cold start → first diagnostics (300 lines)",
        &Stats::of(samples),
        "≤ 150 ms",
    );
}

fn keystrokes(policy: &str) {
    let mut client = start();
    let uri = "file:///bench/typing.yaml";
    open(&mut client, uri, policy);
    client.diagnostics_at(uri, 1);
    // Type into the message of the last validation, one character per keystroke, waiting for each
    // keystroke's diagnostics as an editor user pausing would.
    let line = policy.lines().count() as u32 - 2;
    let mut samples = Vec::new();
    for i in 0..100u32 {
        let at = json!({"line": line, "character": 14 + i});
        let change = json!({"range": {"start": at, "end": at}, "text": "x"});
        let version = 2 + i as i64;
        let start = Instant::now();
        let params =
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]});
        client.notify("textDocument/didChange", params);
        client.diagnostics_at(uri, version);
        samples.push(start.elapsed());
    }
    row(
        "keystroke → diagnostics (300 lines)",
        &Stats::of(samples),
        "p95 ≤ 50 ms",
    );
    client.shutdown_and_exit();
}

fn memory() {
    let mut client = start();
    for i in 0..200 {
        let text =
            policies::policy_of_lines(300).replace("big.example.com", &format!("p{i}.example.com"));
        open(&mut client, &format!("file:///bench/open/p{i}.yaml"), &text);
    }
    for i in 0..200 {
        client.diagnostics_at(&format!("file:///bench/open/p{i}.yaml"), 1);
    }
    let status =
        std::fs::read_to_string(format!("/proc/{}/status", client.pid())).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .map_or("n/a".to_owned(), |l| l[name.len()..].trim().to_owned())
    };
    println!(
        "memory with 200 open 300-line policies: peak RSS (VmHWM) {}, RSS {} (target ≤ 80 MB)",
        field("VmHWM:"),
        field("VmRSS:")
    );
    client.shutdown_and_exit();
}

/// Hover and completion latency on the last expression of the 300-line file (the cursor's site is
/// checked after every earlier one).
fn requests(policy: &str) {
    let mut client = start();
    let uri = "file:///bench/requests.yaml";
    open(&mut client, uri, policy);
    client.diagnostics_at(uri, 1);
    let line = policy
        .lines()
        .enumerate()
        .filter(|(_, text)| text.contains("object.spec."))
        .last()
        .map_or(0, |(i, _)| i);
    let column = policy
        .lines()
        .nth(line)
        .and_then(|text| text.find("object.spec.").map(|c| c + "object.spec.".len()))
        .unwrap_or(0);
    let position = json!({"line": line, "character": column});
    // The last `reason` key, on a key and at its value (a closed set).
    let last_reason = policy.lines().count().saturating_sub(1);
    let key = json!({"line": last_reason, "character": 6});
    let value = json!({"line": last_reason, "character": 12});
    for (method, at, name) in [
        (
            "textDocument/hover",
            &position,
            "hover on a field (300 lines)",
        ),
        (
            "textDocument/completion",
            &position,
            "completion after `object.spec.` (300 lines)",
        ),
        (
            "textDocument/hover",
            &key,
            "hover on a policy key (300 lines)",
        ),
        (
            "textDocument/completion",
            &key,
            "completion of a key (300 lines)",
        ),
        (
            "textDocument/completion",
            &value,
            "completion of an enum value (300 lines)",
        ),
    ] {
        let params = json!({"textDocument": {"uri": uri}, "position": at});
        let mut samples = Vec::new();
        for _ in 0..50 {
            let start = Instant::now();
            client.request(method, params.clone());
            samples.push(start.elapsed());
        }
        row(name, &Stats::of(samples), "≤ 30 ms p95");
    }
    client.shutdown_and_exit();
}
