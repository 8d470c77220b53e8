//! A large document's `textDocument/didOpen` starts its YAML parse as soon as its frame has passed
//! the check, on a thread of its own, while the protocol library decodes and dispatches the same
//! message (`ide::ahead` keeps the result for the diagnostics run that follows).

use std::sync::Arc;

use serde::Deserialize;

use crate::ide::ahead::{MIN_BYTES, promise};

/// Starts parsing the opened text of `body` ahead if it is a large `didOpen`; otherwise nothing.
pub(super) fn start(body: &Arc<Vec<u8>>) {
    if body.len() < MIN_BYTES || memchr::memmem::find(body, b"textDocument/didOpen").is_none() {
        return;
    }
    let body = body.clone();
    // Promised before the text is read out: the analysis may already ask for the tree meanwhile.
    let promise = promise();
    let spawned = std::thread::Builder::new()
        .name("parse-ahead".into())
        .spawn(move || {
            if let Some(text) = opened_text(&body) {
                drop(body);
                promise.fulfil(text);
            }
        });
    if let Err(error) = spawned {
        // Nothing lost: the diagnostics run parses the text itself.
        eprintln!("admission-ls: could not start parsing ahead: {error}");
    }
}

/// A `didOpen` message, as far as parsing ahead reads it.
#[derive(Deserialize)]
struct Opened {
    method: String,
    params: OpenedParams,
}

#[derive(Deserialize)]
struct OpenedParams {
    #[serde(rename = "textDocument")]
    text_document: OpenedDocument,
}

#[derive(Deserialize)]
struct OpenedDocument {
    text: String,
}

/// The opened text, if `body` is a `didOpen` notification.
fn opened_text(body: &[u8]) -> Option<String> {
    let opened: Opened = serde_json::from_slice(body).ok()?;
    (opened.method == "textDocument/didOpen").then_some(opened.params.text_document.text)
}

#[cfg(test)]
mod tests {
    use super::opened_text;

    #[test]
    fn reads_the_text_of_a_did_open_only() {
        let open = br#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.yaml","languageId":"yaml","version":1,"text":"a: 1\n"}}}"#;
        assert_eq!(opened_text(open).as_deref(), Some("a: 1\n"));
        let change = br#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"text":"textDocument/didOpen"}}}"#;
        assert_eq!(opened_text(change), None);
        assert_eq!(opened_text(b"not json"), None);
    }
}
