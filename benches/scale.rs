//! The server at scale, through the release binary over stdio: time until 1,000 and 10,000 opened
//! documents (each a policy and the binding that names it, so every open changes what the file
//! gives the others) all have their diagnostics and the server is quiet, with the number of
//! publications and the resident set; then the startup scan of a workspace of 20,000 policy files
//! as the server logs it, and the time until every file's diagnostics are published. Run with
//! `cargo bench --bench scale` (`-- open` or `-- scan` for one part; `ADMISSION_LS_BINARY` to
//! measure another build); see benches/README.md.

#[path = "../tests/support/lsp_client.rs"]
mod lsp_client;
#[path = "../tests/support/tempdir.rs"]
mod tempdir;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use lsp_client::{Client, file_uri};
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

fn main() {
    let binary = std::env::var("ADMISSION_LS_BINARY").unwrap_or_else(|_| BINARY.to_owned());
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted = |part: &str| only.is_empty() || only.iter().any(|o| o == part);
    if wanted("open") {
        for count in [1_000, 10_000] {
            open_documents(&binary, count);
        }
    }
    if wanted("scan") {
        scan(&binary, 20_000);
    }
}

/// A policy and its binding.
fn policy_and_binding(i: usize) -> String {
    format!(
        "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {{name: p{i}}}
spec:
  matchConstraints:
    resourceRules:
    - {{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}}
  validations:
  - expression: object.spec.replicas <= {i}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {{name: b{i}}}
spec:
  policyName: p{i}
  validationActions: [Deny]
"
    )
}

/// `VmRSS` and `VmHWM` of process `pid` in kB, where `/proc` exists.
fn memory_kb(pid: u32) -> (String, String) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        let line = status.lines().find_map(|l| l.strip_prefix(name));
        line.map_or("n/a".to_owned(), |l| l.trim().to_owned())
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn open_documents(binary: &str, count: usize) {
    let mut client = Client::spawn(binary);
    client.initialize(json!({}), Value::Null, Value::Null);
    let start = Instant::now();
    for i in 0..count {
        let uri = format!("file:///scale/p{i}.yaml");
        let text = policy_and_binding(i);
        let document = json!({"uri": uri, "languageId": "yaml", "version": 1, "text": text});
        client.notify("textDocument/didOpen", json!({"textDocument": document}));
    }
    let (mut published, mut publications, mut last) = (BTreeSet::new(), 0, Duration::ZERO);
    loop {
        match client.next_within(Duration::from_secs(2)) {
            Some(message) if message["method"] == "textDocument/publishDiagnostics" => {
                publications += 1;
                last = start.elapsed();
                published.insert(
                    message["params"]["uri"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                );
            }
            Some(_) => {}
            None if published.len() >= count => break,
            None => assert!(start.elapsed() < Duration::from_secs(3600), "never settled"),
        }
    }
    let (rss, peak) = memory_kb(client.pid());
    println!(
        "{count} open documents: settled in {:.2} s, {publications} publications, RSS {rss}, peak {peak}",
        last.as_secs_f64()
    );
    client.shutdown_and_exit();
}

fn scan(binary: &str, count: usize) {
    let dir = tempdir::TempDir::new("bench-scale-scan");
    for i in 0..count {
        dir.write(
            &format!("team-{:02}/policy-{i:05}.yaml", i % 50),
            policy_and_binding(i),
        );
    }
    let mut client = Client::spawn(binary);
    let root = file_uri(dir.path());
    let start = Instant::now();
    client.initialize(json!({}), json!(root), Value::Null);
    let mut published = BTreeSet::new();
    while published.len() < count {
        let message = client.wait_for(|m| m["method"] == "textDocument/publishDiagnostics");
        published.insert(
            message["params"]["uri"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        );
    }
    let all = start.elapsed();
    let log = client.stderr();
    let line = log
        .lines()
        .find(|l| l.contains("workspace scan:"))
        .unwrap_or("no scan line");
    let (rss, peak) = memory_kb(client.pid());
    println!(
        "{count}-file workspace: {line}; every file published after {:.2} s; RSS {rss}, peak {peak}",
        all.as_secs_f64()
    );
    client.shutdown_and_exit();
}
