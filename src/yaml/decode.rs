//! Decoding flow scalars (plain, single- and double-quoted) from their source text, together with
//! the source map.
//!
//! The scalar is read line by line: continuation lines lose their leading white space, lines
//! followed by a break lose their trailing white space, and each break folds into a space, or into
//! one line feed per empty line that follows it. A produced space or line feed maps to the source
//! line break; a character produced by an escape maps to its backslash.

use super::ScalarStyle;
use super::source_map::size;
use super::source_map::{MapBuilder, SourceMap};
use crate::text::TextRange;

/// Decodes the flow scalar whose raw text (quotes included) is `text[start..end]`; `None` when the
/// text is not what the style needs (the caller then keeps the parser's value). `indent` gives the
/// least indentation of a plain scalar's lines (one more than the enclosing block collection's),
/// asked only for a scalar written on several lines.
pub(crate) fn decode_flow(
    text: &str,
    style: ScalarStyle,
    (start, end): (usize, usize),
    indent: impl FnOnce() -> usize,
) -> Option<(String, SourceMap)> {
    let raw = text.get(start..end)?;
    let (content_start, content_end) = match style {
        ScalarStyle::Plain => (start, end),
        ScalarStyle::SingleQuoted
            if raw.len() >= 2 && raw.starts_with('\'') && raw.ends_with('\'') =>
        {
            (start + 1, end - 1)
        }
        ScalarStyle::DoubleQuoted
            if raw.len() >= 2 && raw.starts_with('"') && raw.ends_with('"') =>
        {
            (start + 1, end - 1)
        }
        _ => return None,
    };
    let content = TextRange::new(size(content_start), size(content_end));
    let written = text.get(content_start..content_end)?;
    if is_verbatim(written, style) {
        // Most scalars: the value is the text as written, and the map one run of it.
        return Some((written.to_owned(), SourceMap::verbatim(content)));
    }
    let mut out = MapBuilder::with_capacity(content_end - content_start);
    let one_line = memchr::memchr2(b'\n', b'\r', written.as_bytes()).is_none();
    if one_line {
        // The common case, without the line table.
        emit_line(text, style, content_start, content_end, &mut out)?;
        return Some(out.finish(content));
    }
    let indent = indent();
    let lines = split_lines(text, content_start, content_end);
    let mut index = 0;
    while let Some(line) = lines.get(index) {
        let first = index == 0;
        let last = line.break_len == 0;
        let (from, to, escaped_break) = line_content(text, style, line, first, last);
        emit_line(text, style, from, to, &mut out)?;
        if last {
            break;
        }
        index = fold(
            text,
            (&lines, index),
            escaped_break,
            style == ScalarStyle::Plain,
            indent,
            &mut out,
        );
    }
    Some(out.finish(content))
}

/// Whether the content `written` of a flow scalar of `style` decodes to itself: one line, without
/// the escapes of its style (a backslash in double quotes, a doubled quote in single quotes).
fn is_verbatim(written: &str, style: ScalarStyle) -> bool {
    let bytes = written.as_bytes();
    match style {
        ScalarStyle::Plain => memchr::memchr2(b'\n', b'\r', bytes).is_none(),
        ScalarStyle::SingleQuoted => memchr::memchr3(b'\n', b'\r', b'\'', bytes).is_none(),
        ScalarStyle::DoubleQuoted => memchr::memchr3(b'\n', b'\r', b'\\', bytes).is_none(),
        ScalarStyle::Literal | ScalarStyle::Folded => false,
    }
}

/// A source line of a scalar: `[start, end)` and the break after it (`break_len == 0` for the last).
#[derive(Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
    break_len: usize,
}

/// Splits `text[start..end]` at LF, CRLF and lone CR.
fn split_lines(text: &str, start: usize, end: usize) -> Vec<Line> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut line_start = start;
    let mut i = start;
    while i < end {
        let break_len = match bytes.get(i) {
            Some(b'\n') => 1,
            Some(b'\r') if bytes.get(i + 1) == Some(&b'\n') && i + 1 < end => 2,
            Some(b'\r') => 1,
            _ => 0,
        };
        if break_len > 0 {
            lines.push(Line {
                start: line_start,
                end: i,
                break_len,
            });
            i += break_len;
            line_start = i;
        } else {
            i += 1;
        }
    }
    lines.push(Line {
        start: line_start,
        end,
        break_len: 0,
    });
    lines
}

/// The part of a line that is content, and whether it ends with an escaped line break.
fn line_content(
    text: &str,
    style: ScalarStyle,
    line: &Line,
    first: bool,
    last: bool,
) -> (usize, usize, bool) {
    let bytes = text.as_bytes();
    let mut from = line.start;
    if !first {
        while from < line.end && matches!(bytes.get(from), Some(b' ' | b'\t')) {
            from += 1;
        }
    }
    if last {
        return (from, line.end, false);
    }
    let trailing_backslashes = |to: usize| {
        bytes
            .get(from..to)
            .unwrap_or_default()
            .iter()
            .rev()
            .take_while(|b| **b == b'\\')
            .count()
    };
    if style == ScalarStyle::DoubleQuoted && trailing_backslashes(line.end) % 2 == 1 {
        return (from, line.end - 1, true);
    }
    let mut to = line.end;
    while to > from && matches!(bytes.get(to - 1), Some(b' ' | b'\t')) {
        to -= 1;
    }
    // A white space character right after an escaping backslash is content (`\ `, `\<tab>`).
    if style == ScalarStyle::DoubleQuoted && to < line.end && trailing_backslashes(to) % 2 == 1 {
        to += 1;
    }
    (from, to, false)
}

/// Folds the break after `lines[index]` and returns the index of the next line with content.
fn fold(
    text: &str,
    (lines, index): (&[Line], usize),
    escaped_break: bool,
    plain: bool,
    indent: usize,
    out: &mut MapBuilder,
) -> usize {
    let Some(line) = lines.get(index) else {
        return index + 1;
    };
    let mut next = index + 1;
    let mut empty = Vec::new();
    while let Some(candidate) = lines.get(next) {
        let blank = is_blank_line(text, candidate)
            || (plain && is_tab_comment_line(text, candidate, indent));
        if candidate.break_len == 0 || !blank {
            break;
        }
        empty.push(candidate);
        next += 1;
    }
    if empty.is_empty() && !escaped_break {
        out.produced(" ", line.end, line.break_len);
    }
    for blank in empty {
        out.produced("\n", blank.end, blank.break_len);
    }
    next
}

/// Whether a line holds only white space.
fn is_blank_line(text: &str, line: &Line) -> bool {
    text.get(line.start..line.end)
        .is_some_and(|s| s.bytes().all(|b| b == b' ' || b == b'\t'))
}

/// Whether a line inside a plain scalar is read as empty because a tab in the indentation is
/// followed only by white space and a comment (saphyr-parser's reading of such a line).
fn is_tab_comment_line(text: &str, line: &Line, indent: usize) -> bool {
    let Some(s) = text.get(line.start..line.end) else {
        return false;
    };
    let spaces = s.bytes().take_while(|b| *b == b' ').count();
    let rest = s.get(spaces..).unwrap_or("");
    let after_tab = rest
        .strip_prefix('\t')
        .map(|r| r.trim_start_matches([' ', '\t']));
    spaces < indent && after_tab.is_some_and(|r| r.is_empty() || r.starts_with('#'))
}

/// Emits one line's content: verbatim text, `''` and escapes.
fn emit_line(
    text: &str,
    style: ScalarStyle,
    from: usize,
    to: usize,
    out: &mut MapBuilder,
) -> Option<()> {
    let content = text.get(from..to)?;
    match style {
        ScalarStyle::SingleQuoted => {
            let mut pos = 0;
            while let Some(found) = content.get(pos..).and_then(|rest| rest.find("''")) {
                out.verbatim(content.get(pos..pos + found)?, from + pos);
                out.produced("'", from + pos + found, 2);
                pos += found + 2;
            }
            out.verbatim(content.get(pos..)?, from + pos);
        }
        ScalarStyle::DoubleQuoted => {
            let mut pos = 0;
            while let Some(found) = content.get(pos..).and_then(|rest| rest.find('\\')) {
                out.verbatim(content.get(pos..pos + found)?, from + pos);
                let at = pos + found;
                let (c, len) = escape(content.get(at + 1..)?)?;
                out.produced_char(c, from + at, len + 1);
                pos = at + 1 + len;
            }
            out.verbatim(content.get(pos..)?, from + pos);
        }
        _ => out.verbatim(content, from),
    }
    Some(())
}

/// The character of the escape that `rest` (the text after a backslash) starts with, and the length
/// of the escape after the backslash.
fn escape(rest: &str) -> Option<(char, usize)> {
    let first = rest.chars().next()?;
    let simple = match first {
        '0' => '\0',
        'a' => '\x07',
        'b' => '\x08',
        't' | '\t' => '\t',
        'n' => '\n',
        'v' => '\x0b',
        'f' => '\x0c',
        'r' => '\r',
        'e' => '\x1b',
        ' ' => ' ',
        '"' => '"',
        '/' => '/',
        '\\' => '\\',
        'N' => '\u{85}',
        '_' => '\u{a0}',
        'L' => '\u{2028}',
        'P' => '\u{2029}',
        'x' => return hex(rest, 2),
        'u' => return hex(rest, 4),
        'U' => return hex(rest, 8),
        _ => return None,
    };
    Some((simple, first.len_utf8()))
}

/// The character written as `digits` hex digits after the escape letter at the start of `rest`.
fn hex(rest: &str, digits: usize) -> Option<(char, usize)> {
    let code = rest.get(1..1 + digits)?;
    let value = u32::from_str_radix(code, 16).ok()?;
    Some((char::from_u32(value)?, 1 + digits))
}
