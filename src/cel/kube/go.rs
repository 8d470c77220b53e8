//! Go formatting helpers the upstream error texts are built with.

/// `strconv.Quote`: a double-quoted Go string literal. Printable characters stay as they are;
/// control characters use Go's escapes (`\n`, `\x01`, `\u0085`).
pub fn quote(s: &str) -> String {
    quote_bytes(s.as_bytes())
}

/// `strconv.Quote` of a Go string that may hold invalid UTF-8 (each bad byte becomes `\xNN`).
pub fn quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 2);
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        push_quoted(&mut out, chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
    out
}

fn push_quoted(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn quotes_like_go() {
        assert_eq!(super::quote("a\"b\\c\n\u{1}é"), "\"a\\\"b\\\\c\\n\\x01é\"");
        assert_eq!(super::quote_bytes(b"%z\xc3"), "\"%z\\xc3\"");
    }
}
