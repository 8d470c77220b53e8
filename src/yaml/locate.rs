//! Finding things in the source that the parser's events do not point at exactly: the content after
//! a node's tag and anchor, a block scalar's `|`/`>` header, the colon after a key.
//!
//! Each scan runs over a gap between tokens, where only white space, comments, indicators and node
//! properties can occur.

use super::source_map::size;
use crate::text::TextRange;

/// Where a node's properties (tag, anchor) end and what the tag says.
pub(crate) struct Properties {
    /// Just past the last property.
    pub(crate) end: usize,
    /// Start of the node's content after the properties and any white space or comments.
    pub(crate) content: usize,
    /// The tag as written, if one was found.
    pub(crate) tag: Option<(usize, usize)>,
}

/// Skips the properties that start at `from` (a node's event position when it has a tag or anchor).
pub(crate) fn skip_properties(text: &str, from: usize) -> Properties {
    let bytes = text.as_bytes();
    let mut props = Properties {
        end: from,
        content: from,
        tag: None,
    };
    let mut i = from;
    loop {
        i = skip_gap(text, i);
        match bytes.get(i) {
            Some(b'!') => {
                let end = property_end(bytes, i);
                props.tag = Some((i, end));
                i = end;
            }
            Some(b'&') => i = property_end(bytes, i),
            _ => break,
        }
        props.end = i;
    }
    props.content = i;
    props
}

/// End of the tag or anchor starting at `from`.
fn property_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from + 1;
    // A verbatim tag `!<…>` may hold any URI character, flow indicators included.
    if bytes.get(i) == Some(&b'<') {
        while let Some(&b) = bytes.get(i) {
            i += 1;
            if b == b'>' || is_space_or_break(b) {
                break;
            }
        }
        return i;
    }
    while let Some(&b) = bytes.get(i) {
        if is_space_or_break(b) || matches!(b, b',' | b'[' | b']' | b'{' | b'}') {
            break;
        }
        i += 1;
    }
    i
}

/// Skips white space, line breaks and comments from `from`.
pub(crate) fn skip_gap(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        match b {
            b' ' | b'\t' | b'\r' | b'\n' | 0xEF => {
                // 0xEF starts a byte order mark; skip the whole mark, nothing else.
                if b == 0xEF {
                    if bytes.get(i..i + 3) != Some(&[0xEF, 0xBB, 0xBF]) {
                        break;
                    }
                    i += 2;
                }
                i += 1;
            }
            b'#' => i = line_end(bytes, i),
            _ => break,
        }
    }
    i
}

/// Position of the `|` or `>` of a block scalar whose header follows `from`, before `limit`.
pub(crate) fn find_block_header(text: &str, from: usize, limit: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < limit {
        i = skip_gap(text, i);
        match bytes.get(i)? {
            b'|' | b'>' => return (i < limit).then_some(i),
            b'!' | b'&' => i = property_end(bytes, i),
            // A `...` ends a previous document of the same piece.
            b'.' if text.get(i..).is_some_and(|rest| rest.starts_with("...")) => i += 3,
            b'-' | b'?' | b':' | b',' | b'[' | b'{' => i += 1,
            _ => return None,
        }
    }
    None
}

/// The `-` of a block sequence whose first item starts at `at`: the parser puts the start of a
/// sequence that is not indented under its key (`key:\n- item`) at the item, after the `- `.
/// When the first item is on a later line (`- # comment` then the item), the parser puts the start
/// at the end of the comment; the search then starts before the comment.
pub(crate) fn dash_before(text: &str, at: usize) -> usize {
    dash_and_blanks_before(text, at).map_or(at, |(dash, _)| dash)
}

/// The `-` of a block sequence entry that only blanks separate from file offset `at` (on the same
/// line), with those blanks.
pub(crate) fn dash_and_blanks_before(text: &str, at: usize) -> Option<(usize, &str)> {
    let bytes = text.as_bytes();
    if bytes.get(at) == Some(&b'-') {
        return Some((at, ""));
    }
    let end = comment_start_before(bytes, at).unwrap_or(at);
    let mut i = end;
    while i > 0 && matches!(bytes.get(i - 1), Some(b' ' | b'\t')) {
        i -= 1;
    }
    (i > 0 && bytes.get(i - 1) == Some(&b'-')).then(|| (i - 1, text.get(i..end).unwrap_or("")))
}

/// Start of a comment (`#` at a line start or after white space) on the line of `at`, before `at`.
fn comment_start_before(bytes: &[u8], at: usize) -> Option<usize> {
    let at = at.min(bytes.len());
    let line_start = bytes[..at]
        .iter()
        .rposition(|b| matches!(b, b'\n' | b'\r'))
        .map_or(0, |i| i + 1);
    (line_start..at).find(|&i| {
        bytes.get(i) == Some(&b'#')
            && (i == line_start || matches!(bytes.get(i - 1), Some(b' ' | b'\t')))
    })
}

/// Just past the `:` that follows a key ending at `key_end`, or `key_end` when there is none.
pub(crate) fn after_colon(text: &str, key_end: usize) -> usize {
    let i = skip_gap(text, key_end);
    if text.as_bytes().get(i) == Some(&b':') {
        i + 1
    } else {
        key_end
    }
}

/// Just past the closing quote of the quoted scalar opening at `start`, searching before `limit`.
/// (The parser's end for a quoted scalar may include white space and a comment after it.)
pub(crate) fn quoted_end(text: &str, start: usize, limit: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let quote = *bytes.get(start)?;
    let mut i = start + 1;
    while i < limit {
        // Jump to the next byte that may end the scalar or escape the quote.
        let rest = bytes.get(i..)?;
        let found = if quote == b'"' {
            memchr::memchr2(b'"', b'\\', rest)
        } else {
            memchr::memchr(quote, rest)
        };
        i += found?;
        if i >= limit {
            break;
        }
        match bytes.get(i) {
            Some(b'\\') if quote == b'"' => i += 2,
            Some(b'\'') if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
            _ => return Some(i + 1),
        }
    }
    None
}

/// The range of the character at `at` (empty at a line break or the end of the text).
pub(crate) fn char_range(text: &str, at: usize) -> TextRange {
    let at = at.min(text.len());
    let len = text
        .get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(0, |c| match c {
            '\n' | '\r' => 0,
            c => c.len_utf8(),
        });
    TextRange::at(size(at), size(len))
}

/// Moves `end` back over white space and line breaks, not before `start`.
pub(crate) fn trim_end(text: &str, start: usize, end: usize) -> usize {
    let bytes = text.as_bytes();
    let mut e = end;
    while e > start && bytes.get(e - 1).is_some_and(|b| is_space_or_break(*b)) {
        e -= 1;
    }
    e
}

/// Position of the line break (or end of text) ending the line containing `from`.
pub(crate) fn line_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        if b == b'\n' || b == b'\r' {
            break;
        }
        i += 1;
    }
    i
}

/// White space or a line break.
fn is_space_or_break(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_and_headers() {
        let text = "a: !!str &x # c\n  |2-\n";
        let props = skip_properties(text, 3);
        assert_eq!(props.tag, Some((3, 8)));
        assert_eq!(props.end, 11);
        assert_eq!(props.content, 18);
        assert_eq!(find_block_header(text, 1, text.len()), Some(18));
        assert_eq!(after_colon("a : b", 1), 3);
        assert_eq!(after_colon("a, b", 1), 1);
        assert_eq!(trim_end("ab \r\n", 0, 5), 2);
    }

    #[test]
    fn quoted_ends() {
        let text = r#"a: "x\"y" # "c""#;
        assert_eq!(quoted_end(text, 3, text.len()), Some(9));
        assert_eq!(quoted_end(text, 3, 8), None);
        let text = "a: 'it''s' b";
        assert_eq!(quoted_end(text, 3, text.len()), Some(10));
        assert_eq!(quoted_end(text, 3, 7), None);
        assert_eq!(quoted_end("'it'", 0, 2), None);
        assert_eq!(quoted_end("\"a\\", 0, 9), None);
    }
}
