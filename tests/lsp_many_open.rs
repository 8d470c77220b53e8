//! End-to-end: many open documents. Each file holds a policy and the binding that names it, so
//! every open changes what the file contributes to the others (a policy name); the server must
//! still settle with diagnostics for every document without re-checking every other document per
//! open. The test opens 1,000 and checks that each gets its diagnostics; `cargo bench --bench
//! scale` measures time to settle and RSS for 1,000 and 10,000.

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

/// Opens `count` documents and reads publications until every document has its diagnostics and
/// none came for `quiet`; returns how many publications there were.
fn open_and_settle(count: usize, quiet: Duration) -> usize {
    let mut client = Client::spawn(BINARY);
    client.initialize(json!({}), Value::Null, Value::Null);
    for i in 0..count {
        let document = json!({"uri": uri(i), "languageId": "yaml", "version": 1, "text": file(i)});
        client.notify("textDocument/didOpen", json!({"textDocument": document}));
    }
    let mut published = BTreeSet::new();
    let mut publications = 0;
    let mut first_error = None;
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        match client.next_within(quiet) {
            Some(message) if message["method"] == "textDocument/publishDiagnostics" => {
                let params = &message["params"];
                publications += 1;
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
    assert_eq!(
        first_error,
        Some(json!("cel-no-overload")),
        "the type error of p0"
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
    publications
}

#[test]
fn a_thousand_open_documents_settle_with_diagnostics_for_each() {
    let publications = open_and_settle(1000, Duration::from_millis(500));
    // Each document is published for its open, and at most a few times more as the others
    // arrive; re-checking every other open document per open published about count² / 2.
    assert!(publications < 5 * 1000, "{publications} publications");
}
