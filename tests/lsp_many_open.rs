//! End-to-end: many open documents. Each file holds a policy and the binding that names it, so
//! every open changes what the file contributes to the others (a policy name); the server must
//! still settle with diagnostics for every document without re-checking every other document per
//! open. The test opens 1,000 and checks that each gets its diagnostics; the ignored
//! `measure_open_documents` prints time to settle and RSS for the sizes in
//! `ADMISSION_LS_OPEN_COUNTS` (default `1000,10000`) against `ADMISSION_LS_BINARY` (default the
//! debug binary): `cargo test --release --test lsp_many_open -- --ignored --nocapture`.

#[path = "support/lsp_client.rs"]
mod lsp_client;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use lsp_client::Client;
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

/// A policy and its binding; policy 0 has a type error, so some diagnostics are not empty.
fn file(i: usize) -> String {
    let expression = if i == 0 {
        "object.spec.replicas <= 'x'"
    } else {
        "object.spec.replicas <= 5"
    };
    format!(
        "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {{name: p{i}}}
spec:
  matchConstraints:
    resourceRules:
    - {{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}}
  validations:
  - expression: {expression}
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

fn uri(i: usize) -> String {
    format!("file:///many/p{i}.yaml")
}

struct Settled {
    elapsed: Duration,
    publications: usize,
    rss_kb: Option<u64>,
    peak_kb: Option<u64>,
}

/// Opens `count` documents and reads publications until every document has its version-1
/// diagnostics and none came for `quiet`.
fn open_and_settle(binary: &str, count: usize, quiet: Duration) -> Settled {
    let mut client = Client::spawn(binary);
    client.initialize(json!({}), Value::Null, Value::Null);
    let start = Instant::now();
    for i in 0..count {
        let document = json!({"uri": uri(i), "languageId": "yaml", "version": 1, "text": file(i)});
        client.notify("textDocument/didOpen", json!({"textDocument": document}));
    }
    let mut published = BTreeSet::new();
    let (mut publications, mut last) = (0, start.elapsed());
    let mut first_error = None;
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        match client.next_within(quiet) {
            Some(message) if message["method"] == "textDocument/publishDiagnostics" => {
                let params = &message["params"];
                publications += 1;
                last = start.elapsed();
                published.insert(params["uri"].as_str().unwrap_or_default().to_owned());
                if params["uri"] == uri(0) && params["diagnostics"] != json!([]) {
                    first_error = Some(params["diagnostics"][0]["code"].clone());
                }
            }
            Some(_) => {}
            None if published.len() >= count => break,
            None => assert!(
                Instant::now() < deadline,
                "{} of {count} published",
                published.len()
            ),
        }
    }
    assert_eq!(published.len(), count);
    assert!(
        first_error.is_some(),
        "the type error of p0 was not published"
    );
    let status = std::fs::read_to_string(format!("/proc/{}/status", client.pid())).ok();
    let field = |name: &str| {
        let line = status
            .as_deref()?
            .lines()
            .find_map(|l| l.strip_prefix(name))?;
        line.trim().trim_end_matches(" kB").parse().ok()
    };
    let settled = Settled {
        elapsed: last,
        publications,
        rss_kb: field("VmRSS:"),
        peak_kb: field("VmHWM:"),
    };
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    settled
}

#[test]
fn a_thousand_open_documents_settle_with_diagnostics_for_each() {
    let settled = open_and_settle(BINARY, 1000, Duration::from_millis(500));
    // Each document is published for its open, and at most a few times more as the others
    // arrive; re-checking every other open document per open published about count² / 2.
    assert!(
        settled.publications < 5 * 1000,
        "{} publications",
        settled.publications
    );
}

#[test]
#[ignore = "a measurement: prints time to settle and RSS"]
fn measure_open_documents() {
    let binary = std::env::var("ADMISSION_LS_BINARY").unwrap_or_else(|_| BINARY.to_owned());
    let counts = std::env::var("ADMISSION_LS_OPEN_COUNTS").unwrap_or_else(|_| "1000,10000".into());
    for count in counts.split(',').filter_map(|c| c.trim().parse().ok()) {
        let settled = open_and_settle(&binary, count, Duration::from_secs(2));
        println!(
            "{count} open documents: settled in {:.2} s, {} publications, RSS {} kB, peak {} kB",
            settled.elapsed.as_secs_f64(),
            settled.publications,
            settled.rss_kb.map_or("n/a".into(), |k| k.to_string()),
            settled.peak_kb.map_or("n/a".into(), |k| k.to_string()),
        );
    }
}
