//! The verdict on every body equals the verdict of the full `Value` parse (`check_parsed`, the
//! check as it was before calls were judged on their outline, kept as the fallback and used here
//! as the oracle): on a table of bodies at the edges of serde_json's parse (surrogate escapes,
//! invalid UTF-8, numbers out of range, nesting at the limit, repeated keys, control characters,
//! every escape, params of every kind, batches, responses) and on a few thousand deterministic
//! mutants of real messages. The outline must also decide the ordinary messages by itself.

use super::check::{Verdict, check, check_parsed, passes_on_its_outline};
use super::frames::Frame;

fn same_verdict(body: &[u8]) {
    let fast = check(Frame::Body(body.to_vec()));
    let oracle = check_parsed(body.to_vec());
    assert_eq!(fast, oracle, "{}", String::from_utf8_lossy(body));
}

fn call(params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{params}}}"#)
}

fn notification(params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{params}}}"#)
}

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

/// A `didOpen` as a client sends it: a YAML text with escapes, non-ASCII characters raw and
/// escaped, and a surrogate pair.
fn did_open() -> String {
    let text = "apiVersion: v1\\nkind: ValidatingAdmissionPolicy\\r\\nmetadata: {name: \\\"démo\\\"}\\n\
                spec:\\n  validations:\\n  - expression: \\\"object.x == '😀\\ud83d\\ude00\\u00e9\\t'\\\"\\n";
    notification(&format!(
        r#"{{"textDocument":{{"uri":"file:///p.yaml","languageId":"yaml","version":1,"text":"{text}"}}}}"#
    ))
}

fn did_change() -> String {
    r#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///p.yaml","version":2},"contentChanges":[{"range":{"start":{"line":3,"character":-0},"end":{"line":3,"character":12}},"text":"x\u0000"}]}}"#.to_owned()
}

fn tricky_bodies() -> Vec<Vec<u8>> {
    let mut bodies: Vec<String> = Vec::new();
    let params = [
        "{}",
        "[]",
        "null",
        "1",
        "1.5",
        "-0",
        "true",
        "\"s\"",
        r#"{"a":"\ud800"}"#,
        r#"{"a":"\udc00"}"#,
        r#"{"a":"\ud83d\ude00"}"#,
        r#"{"a":"\ud83d\u0041"}"#,
        r#"{"a":"\ud83d\ud83d"}"#,
        r#"{"a":"\ud83d"}"#,
        r#"{"a":"\ud83dx"}"#,
        r#"{"a":"\ud83d\n"}"#,
        r#"{"\ud800":1}"#,
        r#"{"a":"\u00zz"}"#,
        r#"{"a":"\u12"}"#,
        r#"{"a":"\x"}"#,
        r#"{"a":"\"\\\/\b\f\n\r\t\u0000\u001f\uffff"}"#,
        "{\"a\":\"tab\there\"}",
        "{\"a\":\"nl\nhere\"}",
        "{\"a\":\"\u{7f}\u{80}\u{10ffff}\"}",
        r#"{"a":1e400}"#,
        r#"{"a":-1e400}"#,
        r#"{"a":1e308}"#,
        r#"{"a":1.7976931348623157e308}"#,
        r#"{"a":1e-400}"#,
        r#"{"a":1E2}"#,
        r#"{"a":12.5e0}"#,
        r#"{"a":01}"#,
        r#"{"a":1.}"#,
        r#"{"a":-}"#,
        r#"{"a":18446744073709551616}"#,
        r#"{"a":-9223372036854775809}"#,
        r#"{"a":[1,]}"#,
        r#"{"a":1,}"#,
        r#"{"a" 1}"#,
        r#"{"a":1 "b":2}"#,
        r#"{"a":1,"a":{"b":2}}"#,
        r#"{"a":tru}"#,
        r#"{"a":nul}"#,
        "{} ",
        "{}x",
    ];
    for p in params {
        bodies.push(call(p));
        bodies.push(notification(p));
    }
    let long = "9".repeat(400);
    bodies.push(call(&format!("[{long}]")));
    bodies.push(call(&format!("[0.{long}]")));
    bodies.push(call(&format!("[{}]", "9".repeat(300))));
    for depth in 95..=130 {
        bodies.push(call(&nested(depth)));
        bodies.push(call(&format!("{{\"a\":{}}}", nested(depth))));
    }
    bodies.extend([
        nested(127),
        r#"{"jsonrpc":"2.0","method":"x","params":{},"params":3}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"x","params":3,"params":{}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"id":"a","method":"x"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"id":1.5,"method":"x"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"x","method":7}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":7,"method":"x"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","jsonrpc":"1.0","method":"x"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"x"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":-1,"method":"$/x"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"x","result":1}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"x","extra":{"\ud800":1}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"x\ud800"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"x","params":{}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"x"}"#.to_owned(),
        r#"[{"jsonrpc":"2.0","method":"x"}]"#.to_owned(),
        "[]".to_owned(),
        "\"x\"".to_owned(),
        "".to_owned(),
        " ".to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"result":null}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"result":{"a":"\ud800"}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"result":1,"params":{}}"#.to_owned(),
        did_open(),
        did_change(),
    ]);
    let mut bodies: Vec<Vec<u8>> = bodies.into_iter().map(String::into_bytes).collect();
    for bad in [
        &[0xff][..],
        &[0xc3],
        &[0xed, 0xa0, 0x80],
        &[0xf4, 0x90, 0x80, 0x80],
        &[0],
    ] {
        let mut body = br#"{"jsonrpc":"2.0","method":"x","params":{"a":""#.to_vec();
        body.extend_from_slice(bad);
        body.extend_from_slice(br#""}}"#);
        bodies.push(body);
    }
    bodies
}

#[test]
fn tricky_bodies_get_the_full_parse_s_verdict() {
    for body in tricky_bodies() {
        same_verdict(&body);
    }
}

#[test]
fn ordinary_calls_are_decided_on_their_outline() {
    for body in [
        did_open(),
        did_change(),
        call("{}"),
        call("[1,2]"),
        call("null"),
    ] {
        assert!(passes_on_its_outline(body.as_bytes()), "{body}");
        assert!(matches!(
            check_parsed(body.clone().into_bytes()),
            Verdict::Pass(_)
        ));
    }
    let open_with_lone_surrogate = did_open().replace("\\ude00", "x");
    assert!(!passes_on_its_outline(open_with_lone_surrogate.as_bytes()));
    assert!(matches!(
        check(Frame::Body(open_with_lone_surrogate.into_bytes())),
        Verdict::Answer(_)
    ));
}

/// A small deterministic generator (xorshift64*), so that every run tries the same mutants.
struct Mutator(u64);

impl Mutator {
    fn next(&mut self, below: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % below.max(1)
    }

    fn mutate(&mut self, body: &mut Vec<u8>) {
        const INSERTS: [&[u8]; 18] = [
            b"\\", b"\"", b"\\ud83d", b"\\udc00", b"\xff", b"[", b"}", b"1e400", b",", b"e", b".",
            b"-", b" ", b"\t", b"0", b":", b"\\u00", b"null",
        ];
        let at = self.next(body.len() + 1);
        match self.next(4) {
            0 if at < body.len() => body[at] = self.next(256) as u8,
            1 => body.truncate(at),
            2 if at < body.len() => {
                body.remove(at);
            }
            _ => {
                let insert = INSERTS[self.next(INSERTS.len())];
                body.splice(at..at, insert.iter().copied());
            }
        }
    }
}

#[test]
fn mutants_of_real_messages_get_the_full_parse_s_verdict() {
    let seeds = [
        did_open(),
        did_change(),
        call(r#"{"textDocument":{"uri":"file:///p.yaml"},"position":{"line":1,"character":2}}"#),
        r#"{"jsonrpc":"2.0","id":7,"result":[{"a":null}]}"#.to_owned(),
    ];
    let mut mutator = Mutator(0x9E37_79B9_7F4A_7C15);
    let mut decided = 0;
    for seed in &seeds {
        for _ in 0..1500 {
            let mut body = seed.clone().into_bytes();
            for _ in 0..=mutator.next(3) {
                mutator.mutate(&mut body);
            }
            same_verdict(&body);
            decided += usize::from(passes_on_its_outline(&body));
        }
    }
    assert!(
        decided > 500,
        "only {decided} mutants were decided on their outline"
    );
}
