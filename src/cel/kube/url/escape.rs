//! Go `net/url` percent-encoding: `shouldEscape`, `escape` and `unescape` per encoding mode, with
//! Go's error texts. Go strings are bytes, so these work on bytes; an unescaped value may be
//! invalid UTF-8 (callers decide how to show it).

use crate::cel::kube::go::quote_bytes;

/// The URL component being escaped or unescaped (Go's `encoding`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A whole path.
    Path,
    /// A host (`host[:port]`).
    Host,
    /// An IPv6 zone.
    Zone,
    /// A user name or password.
    UserPassword,
    /// A query key or value.
    QueryComponent,
    /// A fragment.
    Fragment,
}

/// Whether `c` must be percent-encoded in `mode` (Go's `shouldEscape`).
pub fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone) && b"!$&'()*+,;=:[]<>\"".contains(&c) {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => {
            return match mode {
                Mode::Path => c == b'?',
                Mode::UserPassword => matches!(c, b'@' | b'/' | b'?' | b':'),
                Mode::QueryComponent => true,
                Mode::Fragment => false,
                Mode::Host | Mode::Zone => true,
            };
        }
        _ => {}
    }
    !(mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*'))
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    }
}

fn escape_error(s: &[u8]) -> String {
    format!("invalid URL escape {}", quote_bytes(s))
}

/// Go's `unescape`: checks every `%XX` (and, for hosts, the allowed characters), then decodes.
pub fn unescape(s: &[u8], mode: Mode) -> Result<Vec<u8>, String> {
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'%' => {
                if i + 2 >= s.len()
                    || !s[i + 1].is_ascii_hexdigit()
                    || !s[i + 2].is_ascii_hexdigit()
                {
                    return Err(escape_error(&s[i..s.len().min(i + 3)]));
                }
                let triple = &s[i..i + 3];
                if mode == Mode::Host && unhex(s[i + 1]) < 8 && triple != b"%25" {
                    return Err(escape_error(triple));
                }
                if mode == Mode::Zone {
                    let v = unhex(s[i + 1]) << 4 | unhex(s[i + 2]);
                    if triple != b"%25" && v != b' ' && should_escape(v, Mode::Host) {
                        return Err(escape_error(triple));
                    }
                }
                i += 3;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return Err(format!(
                        "invalid character {} in host name",
                        quote_bytes(&[c])
                    ));
                }
                i += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'%' => {
                out.push(unhex(s[i + 1]) << 4 | unhex(s[i + 2]));
                i += 3;
            }
            b'+' if mode == Mode::QueryComponent => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// Go's `escape`: percent-encodes what `mode` requires (space as `+` in query components).
pub fn escape(s: &[u8], mode: Mode) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for &c in s {
        if c == b' ' && mode == Mode::QueryComponent {
            out.push('+');
        } else if should_escape(c, mode) {
            out.push('%');
            out.push(char::from(HEX[usize::from(c >> 4)]));
            out.push(char::from(HEX[usize::from(c & 15)]));
        } else {
            out.push(char::from(c));
        }
    }
    out
}

/// `validEncoded`: whether `s` needs no further escaping for `mode`.
pub fn valid_encoded(s: &[u8], mode: Mode) -> bool {
    s.iter()
        .all(|&c| b"!$&'()*+,;=:@[]%".contains(&c) || !should_escape(c, mode))
}
