//! The outline of a frame's body: its top-level fields as JSON values, except `params`, which is
//! replaced by an empty value of its kind (`{}`, `[]`, `null`, or `false` for any other kind) —
//! given only when serde_json's `Value` parse of the whole body is known to succeed, so that
//! [`super::check`] can pass a message on without materializing its params (a `didOpen` carries
//! the whole text, a megabyte for a 33,000-line file, which the full parse decoded and copied).
//!
//! Why an outline stands for the full parse. `check` reads `params` only for its kind, so the
//! verdict on the outline is the verdict on the message once the parse is known to succeed. The
//! outline is given only for bodies in a subset of what serde_json's `Value` parse accepts (its
//! `de.rs` and `read.rs`, with the default features this crate builds it with: no
//! `arbitrary_precision`, no `unbounded_depth`):
//! - the whole body is UTF-8 (`parse_str` validates every string; outside strings only ASCII is
//!   grammatical) and holds no byte below 0x20 (`parse_str` refuses control characters in a
//!   string; outside strings the outline asks for spaces only, where serde_json also takes tab,
//!   LF and CR);
//! - the grammar is RFC 8259's, as serde_json reads it: `true`, `false`, `null`, objects with
//!   string keys, arrays, no trailing comma, nothing after the value but whitespace;
//! - a string's escapes are the eight single-character ones or `\u` with four hex digits, a
//!   surrogate only as a high-low pair (`parse_unicode_escape` refuses a lone one; serde_json's
//!   fast skip, `ignore_escape`, does not, which is why the skip is not used here);
//! - arrays and objects nest at most [`DEEPEST`] deep (`remaining_depth` refuses 128);
//! - a number is `-?(0|[1-9][0-9]*)(\.[0-9]+)?` of at most [`LONGEST_NUMBER`] bytes: no exponent,
//!   so below 10^300 and never out of `f64` range (`f64_from_parts` refuses `1e400`).
//!
//! Anything else (tabs or newlines between tokens, exponents, deep nesting, a broken body) gets
//! no outline: the caller then runs the full parse, whose verdict is exact, so a refusal here
//! costs time, never a different answer. The top-level fields other than `params` are parsed
//! by serde_json itself, as `Value`s, and inserted as `Value`'s map inserts them (a repeated key
//! keeps its last value).

use std::ops::Range;

use serde_json::{Map, Value};

/// The deepest nesting the outline reads (serde_json refuses 128).
const DEEPEST: usize = 100;

/// The longest number the outline reads, in bytes (10^300 is far below `f64::MAX`).
const LONGEST_NUMBER: usize = 300;

/// The outline of `body`, or `None` when `body` is not known to parse as a JSON object.
pub fn outline(body: &[u8]) -> Option<Value> {
    std::str::from_utf8(body).ok()?;
    if has_control_bytes(body) {
        return None;
    }
    let mut reader = Reader { body, at: 0 };
    let fields = reader.top_level_object()?;
    reader.skip_spaces();
    (reader.at == body.len()).then_some(Value::Object(fields))
}

/// Whether `body` holds a byte below 0x20, tested in runs the compiler turns into vector compares.
fn has_control_bytes(body: &[u8]) -> bool {
    body.chunks(256)
        .any(|run| run.iter().fold(false, |found, &b| found | (b < 0x20)))
}

/// Containers open around the reader.
#[derive(Clone, Copy, PartialEq)]
enum Open {
    Array,
    Object,
}

struct Reader<'a> {
    body: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.body.get(self.at).copied()
    }

    fn skip_spaces(&mut self) {
        while self.peek() == Some(b' ') {
            self.at += 1;
        }
    }

    /// Consumes `byte` after spaces, or fails.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_spaces();
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// The top-level object's fields, `params` replaced by an empty value of its kind.
    fn top_level_object(&mut self) -> Option<Map<String, Value>> {
        self.expect(b'{')?;
        let mut fields = Map::new();
        self.skip_spaces();
        if self.peek()? == b'}' {
            self.at += 1;
            return Some(fields);
        }
        loop {
            let key = self.key()?;
            self.expect(b':')?;
            self.skip_spaces();
            let value = self.value()?;
            let value = match key.as_str() {
                "params" => empty_of_kind(self.body[value.start]),
                _ => serde_json::from_slice(&self.body[value]).ok()?,
            };
            fields.insert(key, value);
            self.skip_spaces();
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(fields);
                }
                _ => return None,
            }
        }
    }

    /// A top-level key, decoded by serde_json when it has escapes.
    fn key(&mut self) -> Option<String> {
        self.skip_spaces();
        let start = self.at;
        (self.peek()? == b'"').then_some(())?;
        self.string()?;
        let raw = &self.body[start + 1..self.at - 1];
        if raw.contains(&b'\\') {
            return serde_json::from_slice(&self.body[start..self.at]).ok();
        }
        String::from_utf8(raw.to_vec()).ok()
    }

    /// Reads one value (nested ones included, without recursion) and gives its span.
    fn value(&mut self) -> Option<Range<usize>> {
        let start = self.at;
        let mut open: Vec<Open> = Vec::new();
        loop {
            self.skip_spaces();
            match self.peek()? {
                b'{' | b'[' if open.len() == DEEPEST => return None,
                b'{' => {
                    self.at += 1;
                    self.skip_spaces();
                    if self.peek()? != b'}' {
                        open.push(Open::Object);
                        self.member_key()?;
                        continue;
                    }
                    self.at += 1;
                }
                b'[' => {
                    self.at += 1;
                    self.skip_spaces();
                    if self.peek()? != b']' {
                        open.push(Open::Array);
                        continue;
                    }
                    self.at += 1;
                }
                b'"' => self.string()?,
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                b'-' | b'0'..=b'9' => self.number()?,
                _ => return None,
            }
            if self.after_value(&mut open)? {
                return Some(start..self.at);
            }
        }
    }

    /// After a value: closes what it ends, and reads up to the next value; `true` when the
    /// outermost value is complete.
    fn after_value(&mut self, open: &mut Vec<Open>) -> Option<bool> {
        loop {
            let Some(&innermost) = open.last() else {
                return Some(true);
            };
            self.skip_spaces();
            let close = match innermost {
                Open::Array => b']',
                Open::Object => b'}',
            };
            match self.peek()? {
                b',' => {
                    self.at += 1;
                    if innermost == Open::Object {
                        self.member_key()?;
                    }
                    return Some(false);
                }
                byte if byte == close => {
                    self.at += 1;
                    open.pop();
                }
                _ => return None,
            }
        }
    }

    /// A key and its colon inside a nested object.
    fn member_key(&mut self) -> Option<()> {
        self.skip_spaces();
        (self.peek()? == b'"').then_some(())?;
        self.string()?;
        self.expect(b':')
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.at + word.len();
        (self.body.get(self.at..end)? == word).then(|| self.at = end)
    }

    /// A number without an exponent, of at most [`LONGEST_NUMBER`] bytes.
    fn number(&mut self) -> Option<()> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek()? {
            b'0' => self.at += 1,
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            let first = self.at;
            self.digits();
            (self.at > first).then_some(())?;
        }
        let plain = !matches!(self.peek(), Some(b'e' | b'E' | b'0'..=b'9'));
        (plain && self.at - start <= LONGEST_NUMBER).then_some(())
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }

    /// A string whose opening quote is at the reader (the caller saw it); only `"` and `\` stop the search (the body holds
    /// no control byte, and is UTF-8).
    fn string(&mut self) -> Option<()> {
        self.at += 1;
        loop {
            self.at += memchr::memchr2(b'"', b'\\', self.body.get(self.at..)?)?;
            if self.body[self.at] == b'"' {
                self.at += 1;
                return Some(());
            }
            self.at = match *self.body.get(self.at + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.at + 2,
                b'u' => {
                    let after = self.body.get(self.at + 2..)?;
                    let (_, rest) = super::json_text::unicode_escape(after)?;
                    self.body.len() - rest.len()
                }
                _ => return None,
            };
        }
    }
}

/// An empty value of the kind whose first byte is `first`.
fn empty_of_kind(first: u8) -> Value {
    match first {
        b'{' => Value::Object(Map::new()),
        b'[' => Value::Array(Vec::new()),
        b'n' => Value::Null,
        _ => Value::Bool(false),
    }
}
