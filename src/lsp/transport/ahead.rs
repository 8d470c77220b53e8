//! A large document's `textDocument/didOpen` is read here, once. Its text is decoded out of the
//! frame, kept for the server under a token, and its YAML parse starts on a thread of its own
//! (`ide::ahead` keeps the result for the diagnostics run that follows); the protocol library gets
//! the same message with the token in place of the text. Decoding a 1.25 MB text through the
//! library's untagged message enum copies it half a dozen times (serde's buffered `Content`, the
//! pipe, the frame buffer, the params), each copy a megabyte of fresh pages; this way it is copied
//! once, and the document, its parse and the analysis share that copy.
//!
//! The library still validates everything but the text: the other fields are passed on as they
//! came, and a message of any other shape (an `id`, a field too many or missing, a duplicate) is
//! passed on untouched.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::json_text;

use crate::ide::ahead::{MIN_BYTES, promise};

/// The method whose text is taken over.
const DID_OPEN: &str = "textDocument/didOpen";

/// A kept text unclaimed while this many later ones were claimed was dropped by the library (a
/// `didOpen` before `initialize`): notifications reach the server in the order they came.
const CLAIM_WINDOW: u64 = 64;

/// A `didOpen` notification, as far as it is taken over.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Opened<'a> {
    jsonrpc: String,
    method: String,
    #[serde(borrow)]
    params: OpenedParams<'a>,
}

#[derive(Deserialize)]
struct OpenedParams<'a> {
    #[serde(rename = "textDocument", borrow)]
    text_document: OpenedDocument<'a>,
}

/// The `TextDocumentItem`: the text read (by [`json_text`]), the rest passed on as it came.
#[derive(Deserialize)]
struct OpenedDocument<'a> {
    uri: Value,
    #[serde(rename = "languageId")]
    language_id: Value,
    version: Value,
    #[serde(borrow)]
    text: &'a RawValue,
}

/// Texts taken out of their messages, waiting for the server to claim them.
struct Kept {
    /// Starts every token: random per process, so no client text is taken for one.
    prefix: String,
    next: u64,
    texts: Vec<(u64, Arc<str>)>,
}

static KEPT: LazyLock<Mutex<Kept>> = LazyLock::new(|| {
    let random = || RandomState::new().build_hasher().finish();
    Mutex::new(Kept {
        prefix: format!("\u{0}admission-ls:{:016x}{:016x}:", random(), random()),
        next: 0,
        texts: Vec::new(),
    })
});

fn kept() -> MutexGuard<'static, Kept> {
    KEPT.lock().unwrap_or_else(|e| e.into_inner())
}

/// The body to pass on for `body`: a large `didOpen` with its text taken over (kept for
/// [`claim`], its parse started), or `None` to pass `body` on unchanged.
pub(super) fn take_over(body: &[u8]) -> Option<Vec<u8>> {
    // The method's last word: a client may write its slash as `\/`.
    if body.len() < MIN_BYTES || memchr::memmem::find(body, b"didOpen").is_none() {
        return None;
    }
    let opened: Opened = serde_json::from_slice(body).ok()?;
    if opened.method != DID_OPEN || opened.jsonrpc != "2.0" {
        return None;
    }
    let document = opened.params.text_document;
    let text: Arc<str> = Arc::from(json_text::decode(document.text.get().as_bytes())?);
    let token = keep(text.clone());
    parse_ahead(text);
    let message = json!({
        "jsonrpc": "2.0",
        "method": DID_OPEN,
        "params": {"textDocument": {
            "uri": document.uri,
            "languageId": document.language_id,
            "version": document.version,
            "text": token,
        }},
    });
    serde_json::to_vec(&message).ok()
}

/// Keeps `text` and returns its token.
fn keep(text: Arc<str>) -> String {
    let mut kept = kept();
    let number = kept.next;
    kept.next += 1;
    kept.texts.push((number, text));
    format!("{}{number}", kept.prefix)
}

/// The text `token` stands for, once; `None` when `token` is not one (a client's own text).
pub fn claim(token: &str) -> Option<Arc<str>> {
    let mut kept = kept();
    let number: u64 = token.strip_prefix(kept.prefix.as_str())?.parse().ok()?;
    let at = kept.texts.iter().position(|(n, _)| *n == number);
    let claimed = at.map(|at| kept.texts.remove(at).1);
    kept.texts.retain(|(n, _)| n + CLAIM_WINDOW > number);
    match claimed {
        Some(text) => Some(text),
        None => {
            eprintln!("admission-ls: the text of a large didOpen was lost; the document is empty");
            Some(Arc::from(""))
        }
    }
}

/// Starts parsing `text` on a thread of its own.
fn parse_ahead(text: Arc<str>) {
    let promise = promise();
    let spawned = std::thread::Builder::new()
        .name("parse-ahead".into())
        .spawn(move || promise.fulfil(text));
    if let Err(error) = spawned {
        // Nothing lost: the diagnostics run parses the text itself.
        eprintln!("admission-ls: could not start parsing ahead: {error}");
    }
}

#[cfg(test)]
mod tests {
    use super::{claim, take_over};
    use serde_json::{Value, json};

    fn large_text() -> String {
        "a: \"é😀/\\\"\"\n".repeat(super::MIN_BYTES / 10)
    }

    fn did_open(text: &str) -> Value {
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
            {"uri": "file:///a.yaml", "languageId": "yaml", "version": 3, "text": text}}})
    }

    #[test]
    fn a_large_did_open_is_passed_on_with_a_token_for_its_text() {
        let text = large_text();
        let body = serde_json::to_string(&did_open(&text))
            .expect("serializes")
            .replace('/', "\\/")
            .replace('é', "\\u00e9")
            .replace('😀', "\\ud83d\\ude00");
        let passed = take_over(body.as_bytes()).expect("taken over");
        let mut passed: Value = serde_json::from_slice(&passed).expect("JSON");
        let token = passed["params"]["textDocument"]["text"].take();
        let token = token.as_str().expect("a token");
        let mut expected = did_open("");
        expected["params"]["textDocument"]["text"] = Value::Null;
        assert_eq!(passed, expected, "all but the text as it came");
        assert_eq!(claim(token).as_deref(), Some(text.as_str()));
        assert_eq!(claim("a: 1\n"), None, "a client's own text is no token");
    }

    #[test]
    fn any_other_message_is_passed_on_untouched() {
        let text = large_text();
        let mut request = did_open(&text);
        request["id"] = json!(1);
        let lone_surrogate = serde_json::to_string(&did_open(&text))
            .expect("serializes")
            .replacen("a: ", "\\ud83d: ", 1);
        let twice = serde_json::to_string(&did_open(&text))
            .expect("serializes")
            .replacen("\"version\"", "\"text\":\"\",\"version\"", 1);
        let mut other = did_open(&text);
        other["method"] = json!("textDocument/didChange");
        let untouched = [
            serde_json::to_string(&request).expect("serializes"),
            lone_surrogate,
            twice,
            serde_json::to_string(&other).expect("serializes"),
            serde_json::to_string(&did_open("a: 1\n")).expect("serializes"),
        ];
        for body in untouched {
            assert!(
                take_over(body.as_bytes()).is_none(),
                "{}",
                &body[..200.min(body.len())]
            );
        }
    }
}
