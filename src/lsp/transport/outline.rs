//! The outline of a frame's body: its top-level fields as JSON values, except `params`, which is
//! replaced by an empty value of its kind (`{}`, `[]`, `null`, or `false` for any other kind) —
//! given only when serde_json's `Value` parse of the whole body would succeed, so that
//! [`super::check`] can pass a message on without materializing its params (a `didOpen` carries
//! the whole text, a megabyte for a 33,000-line file, which the full parse decoded and copied).
//!
//! Why an outline stands for the full parse. `check` reads `params` only for its kind, so the
//! verdict on the outline is the verdict on the message once the parse is known to succeed.
//! serde_json's `Value` parse (`from_slice`, with the default features this crate builds it with:
//! no `arbitrary_precision`, no `unbounded_depth`) fails on a body exactly when one of these holds:
//! 1. the JSON grammar is broken (syntax, a control character or a bad escape in a string,
//!    trailing characters): the outline's own parse is serde_json's, with `params` skipped by
//!    `IgnoredAny` (`Deserializer::ignore_value`, which checks the same grammar); the other fields
//!    are parsed as `Value`s;
//! 2. a string is not UTF-8, or holds a `\u` escape of a lone surrogate (`parse_str` validates
//!    both; `ignore_str` neither): the whole body must be UTF-8 (`str::from_utf8`, which the
//!    library's own reader asks too) and [`scan`] refuses any escaped surrogate not in a pair;
//! 3. arrays and objects nest 128 deep (`remaining_depth` starts at 128; `ignore_value` has no
//!    limit): [`scan`] refuses nesting deeper than [`DEEPEST`];
//! 4. a number is out of `f64` range (`1e400`; `ignore_integer` reads digits only): [`scan`]
//!    refuses any number with an exponent or longer than [`LONGEST_NUMBER`] bytes, and a number
//!    with at most that many digits and no exponent is below 10^300.
//!
//! Every refusal here is only "not known": the caller then runs the full parse, whose verdict is
//! exact, so a conservative refusal costs time, never a different answer.

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// The deepest nesting the scan accepts (serde_json refuses 128).
const DEEPEST: usize = 100;

/// The longest number the scan accepts, in bytes (10^300 is far below `f64::MAX`).
const LONGEST_NUMBER: usize = 300;

/// The outline of `body`, or `None` when it is not known that `body` parses as a JSON object.
pub fn outline(body: &[u8]) -> Option<Value> {
    std::str::from_utf8(body).ok()?;
    scan(body)?;
    let Outline(fields) = serde_json::from_slice(body).ok()?;
    Some(Value::Object(fields))
}

/// `Some` when no string of `body` (assumed to be JSON) escapes a lone surrogate, nesting stays
/// within [`DEEPEST`] and every number is short and has no exponent.
fn scan(body: &[u8]) -> Option<()> {
    let mut depth = 0usize;
    let mut at = 0;
    while let Some(&byte) = body.get(at) {
        at = match byte {
            b'"' => string_end(body, at + 1)?,
            b'[' | b'{' => {
                depth += 1;
                (depth <= DEEPEST).then_some(at + 1)?
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                at + 1
            }
            b'-' | b'0'..=b'9' => number_end(body, at)?,
            _ => at + 1,
        };
    }
    Some(())
}

/// The index after the closing quote of the string whose content starts at `at`, or `None` if
/// it escapes a lone surrogate or does not end. Only `"` and `\` matter inside a string: an
/// escape's next byte is never the closing quote.
fn string_end(body: &[u8], mut at: usize) -> Option<usize> {
    loop {
        at += memchr::memchr2(b'"', b'\\', body.get(at..)?)?;
        if body[at] == b'"' {
            return Some(at + 1);
        }
        at = match body.get(at + 1)? {
            b'u' => unicode_escape_end(body, at)?,
            _ => at + 2,
        };
    }
}

/// The index after the `\u` escape at `at` (after both halves of a surrogate pair), or `None`
/// for a lone surrogate or a malformed escape.
fn unicode_escape_end(body: &[u8], at: usize) -> Option<usize> {
    let unit = hex_unit(body, at)?;
    match unit {
        0xD800..=0xDBFF => {
            let low = hex_unit(body, at + 6)?;
            (0xDC00..=0xDFFF).contains(&low).then_some(at + 12)
        }
        0xDC00..=0xDFFF => None,
        _ => Some(at + 6),
    }
}

/// The UTF-16 unit of the escape `\uXXXX` at `at`.
fn hex_unit(body: &[u8], at: usize) -> Option<u16> {
    let escape = body.get(at..at + 6)?;
    if &escape[..2] != b"\\u" {
        return None;
    }
    let digits = std::str::from_utf8(&escape[2..]).ok()?;
    u16::from_str_radix(digits, 16).ok()
}

/// The index after the number at `at`, or `None` if it has an exponent or is too long.
fn number_end(body: &[u8], at: usize) -> Option<usize> {
    let length = body[at..]
        .iter()
        .take_while(|b| matches!(b, b'-' | b'+' | b'.' | b'0'..=b'9' | b'e' | b'E'))
        .count();
    let number = &body[at..at + length];
    let plain = length <= LONGEST_NUMBER && !number.iter().any(|b| matches!(b, b'e' | b'E'));
    plain.then_some(at + length)
}

/// The top-level fields of a message, `params` replaced by an empty value of its kind.
struct Outline(Map<String, Value>);

impl<'de> Deserialize<'de> for Outline {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(OutlineVisitor)
    }
}

struct OutlineVisitor;

impl<'de> Visitor<'de> for OutlineVisitor {
    type Value = Outline;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Outline, A::Error> {
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            // Inserted as `Value`'s own map inserts: a repeated key keeps its last value.
            let value = match key.as_str() {
                "params" => map.next_value::<Kind>()?.0,
                _ => map.next_value::<Value>()?,
            };
            fields.insert(key, value);
        }
        Ok(Outline(fields))
    }
}

/// An empty value of the kind of the value read, whose members are skipped.
struct Kind(Value);

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(KindVisitor)
    }
}

struct KindVisitor;

impl<'de> Visitor<'de> for KindVisitor {
    type Value = Kind;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Kind, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Kind(Value::Object(Map::new())))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Kind, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Kind(Value::Array(Vec::new())))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Kind, E> {
        Ok(Kind(Value::Null))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Kind, E> {
        Ok(Kind(Value::Bool(false)))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Kind, E> {
        Ok(Kind(Value::Bool(false)))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Kind, E> {
        Ok(Kind(Value::Bool(false)))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Kind, E> {
        Ok(Kind(Value::Bool(false)))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Kind, E> {
        Ok(Kind(Value::Bool(false)))
    }
}
