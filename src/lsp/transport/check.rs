//! What the transport does with one frame's body before tower-lsp-server sees it: a message it can
//! route is passed on, anything else is answered here with the JSON-RPC 2.0 error the
//! specification names (https://www.jsonrpc.org/specification#error_object): `-32700` Parse error
//! for a body that is not JSON (or nests deeper than serde_json's limit of 128), `-32600` Invalid
//! Request for JSON that is not one request (a batch, a wrong `jsonrpc`, a bad `id`). The library's
//! own reader ends the stream at the first such frame. A request for an unknown `$/` method is
//! answered `-32601` Method not found: the library drops those silently, which leaves a client
//! waiting for an answer that never comes; a `$/` notification is still passed on (and ignored).
//!
//! A call is judged on its outline first ([`outline`](super::outline): the fields without the
//! params, known to parse), which decides a pass without decoding the params; anything else, and
//! anything the outline cannot vouch for, is judged on the full `Value` parse, whose error
//! messages the answers quote.

use serde::Deserialize;
use serde_json::{Value, json};

use super::frames::Frame;

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;

/// The `$/` methods the server answers as requests (none: the protocol's `$/` messages are
/// notifications).
const DOLLAR_REQUESTS: &[&str] = &[];

/// The fate of one frame.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// A message the library can route: pass the body on unchanged.
    Pass(Vec<u8>),
    /// Answer with this response and pass nothing on.
    Answer(Value),
    /// A malformed response to one of our requests: nothing to answer, log it.
    Drop(String),
}

/// Decides what to do with `frame`.
pub fn check(frame: Frame) -> Verdict {
    let body = match frame {
        Frame::Body(body) => body,
        Frame::Broken(reason) => return error(Value::Null, PARSE_ERROR, &reason),
    };
    if passes_on_its_outline(&body) {
        return Verdict::Pass(body);
    }
    check_parsed(body)
}

/// Whether `body` is a call that passes, judged on its outline: `check_message` reads the params
/// of a call only for their kind, which the outline keeps. A response (no method) is judged on
/// the whole message, params included, so it is left to the full parse.
pub(super) fn passes_on_its_outline(body: &[u8]) -> bool {
    let Some(outline) = super::outline::outline(body) else {
        return false;
    };
    outline.get("method").is_some_and(Value::is_string) && check_message(&outline).is_ok()
}

/// The verdict on `body` from the full parse.
pub(super) fn check_parsed(body: Vec<u8>) -> Verdict {
    let message: Value = match serde_json::from_slice(&body) {
        Ok(message) => message,
        Err(parse) => return error(Value::Null, PARSE_ERROR, &parse.to_string()),
    };
    match check_message(&message) {
        Ok(()) => Verdict::Pass(body),
        Err(verdict) => verdict,
    }
}

fn check_message(message: &Value) -> Result<(), Verdict> {
    let Some(fields) = message.as_object() else {
        let what = if message.is_array() {
            "a batch (the Language Server Protocol sends one message per frame)"
        } else {
            "not an object"
        };
        return Err(error(Value::Null, INVALID_REQUEST, what));
    };
    let id = fields.get("id");
    let answer_id = id.filter(|id| valid_id(id)).cloned().unwrap_or(Value::Null);
    if fields.get("jsonrpc") != Some(&json!("2.0")) {
        return Err(error(answer_id, INVALID_REQUEST, "jsonrpc must be \"2.0\""));
    }
    if id.is_some_and(|id| !valid_id(id)) {
        return Err(error(
            Value::Null,
            INVALID_REQUEST,
            "id must be an integer or a string",
        ));
    }
    match fields.get("method") {
        Some(Value::String(method)) => {
            check_call(method, id, fields.get("params"), answer_id.clone())?;
            routable(fields, answer_id)
        }
        Some(_) => Err(error(answer_id, INVALID_REQUEST, "method must be a string")),
        None if fields.contains_key("result") || fields.contains_key("error") => {
            check_response(message)
        }
        None => Err(error(answer_id, INVALID_REQUEST, "no method")),
    }
}

fn check_call(
    method: &str,
    id: Option<&Value>,
    params: Option<&Value>,
    answer_id: Value,
) -> Result<(), Verdict> {
    if params.is_some_and(|p| !p.is_object() && !p.is_array() && !p.is_null()) {
        return Err(error(
            answer_id,
            INVALID_REQUEST,
            "params must be an object or an array",
        ));
    }
    let is_request = id.is_some();
    if is_request && method.starts_with("$/") && !DOLLAR_REQUESTS.contains(&method) {
        let message = format!("no request {method}");
        return Err(error(answer_id, METHOD_NOT_FOUND, &message));
    }
    Ok(())
}

/// The library's own reading of a call succeeds (its reader would end the stream otherwise). Its
/// `params` takes any JSON value, so the trial leaves them out: copying them was a second copy of
/// every opened text (a megabyte for a 33,000-line file) on the way to its diagnostics.
fn routable(fields: &serde_json::Map<String, Value>, answer_id: Value) -> Result<(), Verdict> {
    let envelope = fields
        .iter()
        .filter(|(key, _)| *key != "params")
        .map(|(key, value)| (key.clone(), value.clone()));
    match tower_lsp_server::jsonrpc::Request::deserialize(Value::Object(envelope.collect())) {
        Ok(_) => Ok(()),
        Err(bad) => Err(error(answer_id, INVALID_REQUEST, &bad.to_string())),
    }
}

fn check_response(message: &Value) -> Result<(), Verdict> {
    match tower_lsp_server::jsonrpc::Response::deserialize(message) {
        Ok(_) => Ok(()),
        Err(bad) => Err(Verdict::Drop(format!("a malformed response: {bad}"))),
    }
}

/// An id tower-lsp-server can route: an integer in `i64`, a string, or null.
fn valid_id(id: &Value) -> bool {
    id.is_i64() || id.is_string() || id.is_null()
}

fn error(id: Value, code: i64, detail: &str) -> Verdict {
    let message = match code {
        PARSE_ERROR => "Parse error",
        INVALID_REQUEST => "Invalid Request",
        _ => "Method not found",
    };
    Verdict::Answer(json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": format!("{message}: {detail}")},
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(body: &str) -> Verdict {
        check(Frame::Body(body.as_bytes().to_vec()))
    }

    fn code_and_id(body: &str) -> (i64, Value) {
        match verdict(body) {
            Verdict::Answer(answer) => (
                answer["error"]["code"].as_i64().unwrap_or_default(),
                answer["id"].clone(),
            ),
            other => panic!("{body} was not answered: {other:?}"),
        }
    }

    #[test]
    fn requests_notifications_and_responses_pass() {
        for body in [
            r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"x","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#,
            r#"{"jsonrpc":"2.0","method":"$/unknown"}"#,
            r#"{"jsonrpc":"2.0","id":0,"result":null}"#,
        ] {
            assert_eq!(
                verdict(body),
                Verdict::Pass(body.as_bytes().to_vec()),
                "{body}"
            );
        }
    }

    #[test]
    fn bodies_that_are_not_json_are_parse_errors_with_a_null_id() {
        let deep = format!("{}{}", "[".repeat(129), "]".repeat(129));
        for body in ["{", "\u{0}", &deep] {
            assert_eq!(code_and_id(body), (PARSE_ERROR, Value::Null), "{body}");
        }
        let broken = check(Frame::Broken("no length".into()));
        assert!(matches!(broken, Verdict::Answer(a) if a["error"]["code"] == PARSE_ERROR));
        assert!(matches!(
            check(Frame::Body(vec![0xff, 0xfe])),
            Verdict::Answer(a) if a["error"]["code"] == PARSE_ERROR
        ));
    }

    #[test]
    fn json_that_is_not_one_request_is_an_invalid_request() {
        let cases = [
            (r#"[{"jsonrpc":"2.0","id":1,"method":"x"}]"#, Value::Null),
            ("1", Value::Null),
            (r#"{"jsonrpc":"1.0","id":4,"method":"x"}"#, json!(4)),
            (r#"{"id":4,"method":"x"}"#, json!(4)),
            (r#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#, Value::Null),
            (r#"{"jsonrpc":"2.0","id":{},"method":"x"}"#, Value::Null),
            (r#"{"jsonrpc":"2.0","id":5,"method":7}"#, json!(5)),
            (
                r#"{"jsonrpc":"2.0","id":5,"method":"x","params":3}"#,
                json!(5),
            ),
            (r#"{"jsonrpc":"2.0","id":6}"#, json!(6)),
        ];
        for (body, id) in cases {
            assert_eq!(code_and_id(body), (INVALID_REQUEST, id), "{body}");
        }
    }

    #[test]
    fn an_unknown_dollar_request_is_method_not_found() {
        let body = r#"{"jsonrpc":"2.0","id":9,"method":"$/unknown"}"#;
        assert_eq!(code_and_id(body), (METHOD_NOT_FOUND, json!(9)));
    }

    #[test]
    fn a_malformed_response_is_dropped_not_answered() {
        let body = r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}"#;
        assert!(matches!(verdict(body), Verdict::Drop(_)));
    }
}
