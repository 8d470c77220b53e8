//! End-to-end: a client that sends malformed frames over stdio cannot end the server. Each variant
//! goes to the built binary, followed by a well-formed request that must still be answered; the
//! snapshot lists what each variant got back: the JSON-RPC 2.0 error it names
//! (https://www.jsonrpc.org/specification#error_object: -32700 Parse error, -32600 Invalid Request,
//! -32601 Method not found, -32602 Invalid params) with its id, or a normal answer.

#[path = "support/lsp_client.rs"]
mod lsp_client;

use std::time::Duration;

use expect_test::expect;
use lsp_client::Client;
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");
const URI: &str = "file:///frames/policy.yaml";

const POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: small}
spec:
  validations:
  - expression: object.spec.replicas <= 5
";

fn framed(header: &str, body: &str) -> Vec<u8> {
    format!("{header}: {}\r\n\r\n{body}", body.len()).into_bytes()
}

fn request(id: i64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn inverted_range(id: i64, method: &str) -> Vec<u8> {
    let range = json!({"start": {"line": 5, "character": 0}, "end": {"line": 1, "character": 0}});
    let mut params = json!({"textDocument": {"uri": URI}, "range": range});
    if method == "textDocument/codeAction" {
        params["context"] = json!({"diagnostics": []});
    }
    framed("Content-Length", &request(id, method, params))
}

/// The variants, each with the raw bytes sent.
fn variants() -> Vec<(&'static str, Vec<u8>)> {
    let valid = request(100, "workspace/symbol", json!({"query": ""}));
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let short = format!(
        "Content-Length: 10\r\n\r\n{}",
        request(101, "shutdown", json!(null))
    );
    let mut not_utf8 = b"Content-Length: 4\r\n\r\n".to_vec();
    not_utf8.extend_from_slice(&[0xff, 0xfe, 0xfd, 0xfc]);
    vec![
        ("invalid JSON", framed("Content-Length", "{\"jsonrpc\":")),
        ("not UTF-8", not_utf8),
        (
            "wrong jsonrpc version",
            framed(
                "Content-Length",
                r#"{"jsonrpc":"1.0","id":7,"method":"workspace/symbol","params":{"query":""}}"#,
            ),
        ),
        (
            "no jsonrpc member",
            framed(
                "Content-Length",
                r#"{"id":8,"method":"workspace/symbol","params":{"query":""}}"#,
            ),
        ),
        (
            "lowercase content-length header",
            framed("content-length", &valid),
        ),
        ("short Content-Length", short.into_bytes()),
        ("batch", framed("Content-Length", &format!("[{valid}]"))),
        ("nesting 200 deep", framed("Content-Length", &deep)),
        (
            "fractional id",
            framed(
                "Content-Length",
                r#"{"jsonrpc":"2.0","id":1.5,"method":"shutdown"}"#,
            ),
        ),
        (
            "method not a string",
            framed("Content-Length", r#"{"jsonrpc":"2.0","id":9,"method":[]}"#),
        ),
        (
            "header block without Content-Length",
            b"Content-Type: application/vscode-jsonrpc\r\n\r\n".to_vec(),
        ),
        (
            "Content-Length not a number",
            b"Content-Length: many\r\n\r\n".to_vec(),
        ),
        (
            "unknown $/ request",
            framed("Content-Length", &request(10, "$/unknown", json!({}))),
        ),
        (
            "unknown $/ notification",
            framed(
                "Content-Length",
                r#"{"jsonrpc":"2.0","method":"$/unknown","params":{}}"#,
            ),
        ),
        (
            "inlay hints, range start after end",
            inverted_range(11, "textDocument/inlayHint"),
        ),
        (
            "code actions, range start after end",
            inverted_range(12, "textDocument/codeAction"),
        ),
    ]
}

/// Every message that arrives within a short while, as `id: code` or `id: answered`.
fn answers(client: &mut Client) -> Vec<String> {
    let mut seen = Vec::new();
    while let Some(message) = client.next_within(Duration::from_millis(400)) {
        if message.get("method").is_some() {
            continue; // diagnostics and logs
        }
        let id = message["id"].to_string();
        match message["error"]["code"].as_i64() {
            Some(code) => seen.push(format!("{id}: error {code}")),
            None => seen.push(format!("{id}: answered")),
        }
    }
    seen
}

#[test]
fn malformed_frames_are_answered_and_the_server_keeps_serving() {
    let mut client = Client::spawn(BINARY);
    client.initialize(json!({}), Value::Null, Value::Null);
    let document = json!({"uri": URI, "languageId": "yaml", "version": 1, "text": POLICY});
    client.notify("textDocument/didOpen", json!({"textDocument": document}));
    let mut report = String::new();
    let mut survived = 0;
    for (name, bytes) in variants() {
        client.send_raw(&bytes);
        let probe = client.send_request("workspace/symbol", json!({"query": "small"}));
        let answered = client.response(probe);
        assert!(answered["result"].is_array(), "after {name}: {answered}");
        survived += 1;
        report.push_str(&format!("{name}: {}\n", answers(&mut client).join(", ")));
    }
    expect![[r#"
        invalid JSON: null: error -32700
        not UTF-8: null: error -32700
        wrong jsonrpc version: 7: error -32600
        no jsonrpc member: 8: error -32600
        lowercase content-length header: 100: answered
        short Content-Length: null: error -32700
        batch: null: error -32600
        nesting 200 deep: null: error -32700
        fractional id: null: error -32600
        method not a string: 9: error -32600
        header block without Content-Length: null: error -32700
        Content-Length not a number: null: error -32700
        unknown $/ request: 10: error -32601
        unknown $/ notification: 
        inlay hints, range start after end: 11: error -32602
        code actions, range start after end: 12: error -32602
    "#]]
    .assert_eq(&report);
    assert_eq!(survived, variants().len());
    let status = client.shutdown_and_exit();
    assert_eq!(status.code(), Some(0));
}
