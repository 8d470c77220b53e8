//! End-to-end: a large `didOpen` (128 KiB and more) is read by the server's transport, which keeps
//! the text and hands the protocol library the message with a token in its place. The document the
//! server analyses must be exactly the text the client sent, however its JSON spells it (`\/`,
//! `\u00e9`, a surrogate pair for 😀), and a message of any other shape must take the library's
//! path unchanged. Each large text is also opened through that untouched path, under another URI:
//! both must give the same diagnostics and symbols.

#[path = "support/lsp_client.rs"]
mod lsp_client;

use expect_test::expect;
use lsp_client::Client;
use serde_json::{Value, json};

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

/// Every policy matches Deployments.
const MATCH: &str = "matchConstraints:\n    resourceRules:\n    - {apiGroups: [apps], apiVersions: [v1], \
                     operations: [CREATE], resources: [deployments]}\n";

/// About 200 KiB of policies; the last one's expression is broken after non-ASCII text on its
/// line, so the diagnostic's UTF-16 column depends on every character before it.
fn large_text() -> String {
    let mut text = String::new();
    for i in 0..900 {
        text.push_str(&format!(
            "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n\
             metadata:\n  name: p{i}.example.com\nspec:\n  {MATCH}  validations:\n  \
             - expression: \"object.metadata.name != 'é😀/x'\"\n---\n"
        ));
    }
    text.push_str(&format!(
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n\
         metadata:\n  name: last.example.com\nspec:\n  {MATCH}  validations:\n  \
         - {{message: \"é😀 ünïcode\", expression: \"object.spec.replicas <=\"}}\n",
    ));
    assert!(text.len() > 128 * 1024, "{} bytes", text.len());
    text
}

/// The body of a `didOpen` of `text`, its JSON spelling every `/` as `\/`, every `é` as `\u00e9`
/// and 😀 as its surrogate pair: the same value, written as some clients write it.
fn escaped_did_open(uri: &str, text: &str) -> Vec<u8> {
    let document = json!({"uri": uri, "languageId": "yaml", "version": 1, "text": text});
    let body = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": document}})
    .to_string()
    .replace('/', "\\/")
    .replace('é', "\\u00e9")
    .replace('😀', "\\ud83d\\ude00");
    let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    frame.extend_from_slice(body.as_bytes());
    frame
}

/// A `didOpen` with one top-level field the transport does not take over: the library decodes
/// it as it comes (and ignores the field).
fn untouched_did_open(uri: &str, text: &str) -> Value {
    let document = json!({"uri": uri, "languageId": "yaml", "version": 1, "text": text});
    json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": document}, "note": "not taken over"})
}

fn codes_and_ranges(published: &Value) -> Vec<String> {
    published["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            let (start, end) = (&d["range"]["start"], &d["range"]["end"]);
            format!(
                "{} {}:{}-{}:{}",
                d["code"].as_str().unwrap_or("?"),
                start["line"],
                start["character"],
                end["line"],
                end["character"]
            )
        })
        .collect()
}

fn symbol_count(client: &mut Client, uri: &str) -> usize {
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    symbols["result"].as_array().map_or(0, Vec::len)
}

#[test]
fn a_large_did_open_opens_exactly_the_text_sent() {
    let text = large_text();
    let mut client = Client::spawn(BINARY);
    // Before `initialize` the library drops a didOpen: its kept text is never claimed, and the
    // document opened later must not be confused with it.
    client.send_raw(&escaped_did_open(
        "file:///large/early.yaml",
        "kind: Early\n",
    ));
    client.send_raw(&escaped_did_open("file:///large/early.yaml", &text));
    client.initialize(json!({}), Value::Null, Value::Null);

    // One at a time: the two texts define the same policies, which side by side would be
    // reported as defined twice.
    let (taken, untouched) = ("file:///large/taken.yaml", "file:///large/untouched.yaml");
    client.send_raw(&escaped_did_open(taken, &text));
    let taken_diagnostics = codes_and_ranges(&client.diagnostics_at(taken, 1));
    let taken_symbols = symbol_count(&mut client, taken);
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": taken}}),
    );
    client.send(&untouched_did_open(untouched, &text));
    let untouched_diagnostics = codes_and_ranges(&client.diagnostics_at(untouched, 1));
    expect![[r#"
        [
            "cel-syntax 9909:65-9909:65",
        ]
    "#]]
    .assert_debug_eq(&taken_diagnostics);
    assert_eq!(taken_diagnostics, untouched_diagnostics);
    assert_eq!(taken_symbols, 901);
    assert_eq!(symbol_count(&mut client, untouched), 901);

    let stderr = client.stderr();
    assert!(!stderr.contains("was lost"), "{stderr}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}
