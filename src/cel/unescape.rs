//! Decoding of string and bytes literals: prefixes (`r`, `b`, `br`), quoting (single, double,
//! triple) and escape sequences, with cel-spec's rules: `\x` and octal escapes are code points in
//! strings and bytes in bytes literals; `\u`/`\U` are forbidden in bytes; surrogates and code
//! points past U+10FFFF are invalid. Decoding never fails: a bad escape is reported and skipped.

use std::ops::Range;

/// A problem in a literal, with the byte range relative to the literal's start. The range starts at
/// the literal's first byte (where cel-go reports it) and ends after the bad escape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EscapeError {
    /// Bytes of the literal text, relative to its start.
    pub range: Range<usize>,
    /// What is wrong.
    pub message: String,
}

/// A decoded literal: the bytes of its value (UTF-8 for strings) and the problems found.
#[derive(Clone, Debug, Default)]
pub struct Decoded {
    /// The value; for a string literal always valid UTF-8.
    pub value: Vec<u8>,
    /// Invalid escapes and code points, in order.
    pub errors: Vec<EscapeError>,
}

/// Decodes a string literal token text (with its prefix and quotes) into a `String`.
pub fn decode_string(text: &str) -> (String, Vec<EscapeError>) {
    if let Some(plain) = plain_string(text) {
        return (plain.to_string(), Vec::new());
    }
    let decoded = decode(text, false);
    // The decoder only pushes whole UTF-8 sequences for strings, so this never loses data.
    (
        String::from_utf8_lossy(&decoded.value).into_owned(),
        decoded.errors,
    )
}

/// The content of a string literal that needs no decoding: one quote character on each side, no
/// prefix, and nothing inside that the decoder would treat specially (a backslash, the quote, a
/// line break). Most literals are such, and the full decoder showed in the parse profile.
fn plain_string(text: &str) -> Option<&str> {
    let quote = text.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let inner = text.get(1..text.len().checked_sub(1)?)?;
    let closed = text.len() >= 2 && text.ends_with(quote);
    let special = |c: char| c == quote || c == '\\' || c == '\n' || c == '\r';
    (closed && !inner.contains(special)).then_some(inner)
}

/// Decodes a bytes literal token text (`b"..."`, `br'...'`, …) into its bytes.
pub fn decode_bytes(text: &str) -> (Vec<u8>, Vec<EscapeError>) {
    let decoded = decode(text, true);
    (decoded.value, decoded.errors)
}

fn decode(text: &str, is_bytes: bool) -> Decoded {
    let prefix_len = text.find(['"', '\'']).unwrap_or(text.len());
    let raw = text
        .get(..prefix_len)
        .is_some_and(|p| p.contains(['r', 'R']));
    let rest = text.get(prefix_len..).unwrap_or("");
    let quote = rest.chars().next().unwrap_or('"');
    let triple = rest.starts_with(&format!("{quote}{quote}{quote}")) && rest.len() >= 3;
    let open = if triple { 3 } else { 1 };
    let body = rest.get(open..).unwrap_or("");
    let closing: String = std::iter::repeat_n(quote, open).collect();
    let mut state = Decoder {
        body,
        at: 0,
        out: Decoded::default(),
        is_bytes,
        base: prefix_len + open,
    };
    state.run(raw, &closing);
    state.out
}

struct Decoder<'a> {
    body: &'a str,
    at: usize,
    out: Decoded,
    is_bytes: bool,
    /// Offset of `body` within the literal text, to report ranges relative to the literal.
    base: usize,
}

impl Decoder<'_> {
    fn run(&mut self, raw: bool, closing: &str) {
        while let Some(ch) = self.rest().chars().next() {
            if self.rest().starts_with(closing) {
                return;
            }
            if ch == '\\' && !raw {
                self.escape();
            } else {
                self.push_char(ch);
                self.at += ch.len_utf8();
            }
        }
    }

    fn rest(&self) -> &str {
        self.body.get(self.at..).unwrap_or("")
    }

    fn push_char(&mut self, ch: char) {
        let mut buf = [0u8; 4];
        self.out
            .value
            .extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
    }

    /// A `\x`, octal or `\u` escape with value `code`: a byte in bytes literals, a code point in
    /// strings.
    fn push_code(&mut self, code: u32, end: usize) {
        if self.is_bytes && code <= 0xFF {
            self.out.value.push(code as u8);
            return;
        }
        match char::from_u32(code) {
            Some(ch) => self.push_char(ch),
            None => {
                self.fail(end, "invalid unicode code point");
                self.push_char(char::REPLACEMENT_CHARACTER);
            }
        }
    }

    fn fail(&mut self, end: usize, message: &str) {
        let range = 0..self.base + end;
        self.out.errors.push(EscapeError {
            range,
            message: message.to_string(),
        });
    }

    fn escape(&mut self) {
        let start = self.at;
        let Some(kind) = self.rest().chars().nth(1) else {
            self.at = self.body.len();
            return self.fail(self.at, "invalid escape sequence");
        };
        self.at += 1 + kind.len_utf8();
        let simple = match kind {
            'a' => Some(0x07),
            'b' => Some(0x08),
            'f' => Some(0x0c),
            'n' => Some(b'\n'),
            'r' => Some(b'\r'),
            't' => Some(b'\t'),
            'v' => Some(0x0b),
            '\\' | '?' | '"' | '\'' | '`' => Some(kind as u8),
            _ => None,
        };
        if let Some(byte) = simple {
            return self.out.value.push(byte);
        }
        match kind {
            'x' | 'X' => self.numeric(16, 2, start),
            'u' | 'U' if self.is_bytes => {
                self.fail(self.at, "\\u and \\U escapes are not allowed in bytes")
            }
            'u' => self.numeric(16, 4, start),
            'U' => self.numeric(16, 8, start),
            '0'..='3' => {
                self.at -= 1;
                self.numeric(8, 3, start);
            }
            _ => self.fail(self.at, &format!("invalid escape sequence '\\{kind}'")),
        }
    }

    /// Reads exactly `len` digits in `radix` after an escape introducer.
    fn numeric(&mut self, radix: u32, len: usize, start: usize) {
        let body = self.body;
        let digits = body
            .get(self.at..)
            .and_then(|r| r.get(..len))
            .filter(|d| d.chars().all(|c| c.is_digit(radix)));
        let Some(digits) = digits else {
            let bad_end = self.at
                + self
                    .rest()
                    .chars()
                    .take(len)
                    .map(char::len_utf8)
                    .sum::<usize>();
            self.at = bad_end;
            let shown = self.body.get(start..bad_end).unwrap_or("\\");
            return self.fail(bad_end, &format!("invalid escape sequence '{shown}'"));
        };
        self.at += len;
        let code = u32::from_str_radix(digits, radix).unwrap_or(u32::MAX);
        self.push_code(code, self.at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_every_escape_form() {
        let (s, errs) = decode_string(r#""\a\b\f\n\r\t\v\\\?\"\'\`\101\x41\X41\u00e9\U0001F600""#);
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(s, "\x07\x08\x0c\n\r\t\x0b\\?\"'`AAAé😀");
    }

    #[test]
    fn bytes_escapes_are_bytes() {
        let (b, errs) = decode_bytes(r#"b"\xff\377ÿ""#);
        assert!(errs.is_empty());
        assert_eq!(b, vec![0xff, 0xff, 0xc3, 0xbf]);
        let (_, errs) = decode_bytes(r#"b"\u00ff""#);
        assert_eq!(errs.len(), 1);
    }

    /// The plain-literal shortcut gives what the decoder gives, and leaves everything else to it.
    #[test]
    fn plain_literals_decode_as_the_decoder_does() {
        let literals = [
            "'abc'",
            "\"a b\"",
            "''",
            "\"\"",
            "'é😀'",
            "'^[a-z0-9-]+$'",
            r"'a\nb'",
            r"'it\'s'",
            "\"'\"",
            "'\"'",
            "'''x'''",
            "r'x'",
            "'unterminated",
            "'",
            "'a\nb'",
        ];
        for literal in literals {
            let full = decode(literal, false);
            let expected = String::from_utf8_lossy(&full.value).into_owned();
            if let Some(plain) = plain_string(literal) {
                assert!(full.errors.is_empty(), "{literal}");
                assert_eq!(plain, expected, "{literal}");
            }
            assert_eq!(decode_string(literal).0, expected, "{literal}");
        }
        assert_eq!(plain_string("'abc'"), Some("abc"));
        assert_eq!(plain_string(r"'a\nb'"), None);
    }

    #[test]
    fn raw_and_triple() {
        assert_eq!(decode_string(r#"r"\n""#).0, "\\n");
        assert_eq!(decode_string("'''a\n'b'''").0, "a\n'b");
        assert_eq!(decode_string(r#"R"""\x""""#).0, "\\x");
    }

    #[test]
    fn invalid_code_points() {
        let (s, errs) = decode_string(r"'\udead'");
        assert_eq!(s, "\u{fffd}");
        assert_eq!(
            errs,
            vec![EscapeError {
                range: 0..7,
                message: "invalid unicode code point".into()
            }]
        );
        assert_eq!(decode_string(r"'\U00110000'").1.len(), 1);
        assert_eq!(decode_string(r"'\xFh'").1.len(), 1);
    }
}
