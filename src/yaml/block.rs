//! Decoding literal (`|`) and folded (`>`) block scalars from their source text, with the source map.
//!
//! The rules follow saphyr-parser's scanner (so that our value matches the parser's): the content
//! indentation comes from the indentation indicator or from the first non-empty line; each content
//! line loses that indentation; in a folded scalar a break between two lines that do not start with
//! white space becomes a space (or disappears before empty lines); chomping decides the final breaks.
//! Every produced line feed maps to its source line break.

use super::source_map::{MapBuilder, SourceMap, size};
use crate::text::TextRange;

/// A decoded block scalar.
pub(crate) struct Block {
    /// The decoded value.
    pub(crate) value: String,
    /// Its source map.
    pub(crate) map: SourceMap,
    /// End of the last content line (the node's range ends here).
    pub(crate) end: usize,
}

/// What the header says about the final line breaks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Chomping {
    Strip,
    Clip,
    Keep,
}

/// The parsed header line.
struct Header {
    literal: bool,
    chomping: Chomping,
    indicator: Option<usize>,
    /// Start of the line after the header, or the end of the text.
    body: usize,
    /// End of the header line (before its break).
    line_end: usize,
}

/// A line break seen while reading: where it is and how long it is.
type Break = (usize, usize);

/// Decodes the block scalar whose header indicator is at `header`, reading no further than `limit`.
/// `parent` is the indentation of the enclosing block collection.
pub(crate) fn decode_block(
    text: &str,
    header: usize,
    limit: usize,
    parent: Option<usize>,
) -> Option<Block> {
    let head = parse_header(text, header)?;
    let limit = limit.min(text.len());
    let (indent, mut pos, trailing) = leading_lines(text, &head, limit, parent);
    let mut reader = Reader {
        text,
        literal: head.literal,
        out: MapBuilder::default(),
        leading: None,
        trailing,
        leading_blank: false,
        end: head.line_end,
    };
    let mut unbroken = false;
    while pos < limit {
        let line_end = locate_line_end(text, pos, limit);
        let spaces = count_spaces(text, pos, line_end, indent);
        if pos + spaces == line_end {
            // An empty line (no more than `indent` spaces): only its break counts.
            let Some(brk) = line_break(text, line_end, limit) else {
                break;
            };
            reader.trailing.push(brk);
            pos = brk.0 + brk.1;
            continue;
        }
        if spaces < indent {
            break;
        }
        reader.content_line(pos + spaces, line_end)?;
        reader.leading = line_break(text, line_end, limit);
        match reader.leading {
            Some(brk) => pos = brk.0 + brk.1,
            None => {
                unbroken = line_end >= limit;
                break;
            }
        }
    }
    Some(reader.finish(head.chomping, unbroken, head.body))
}

/// The state of reading content lines.
struct Reader<'a> {
    text: &'a str,
    literal: bool,
    out: MapBuilder,
    /// The break after the last content line, not yet emitted.
    leading: Option<Break>,
    /// Breaks of the empty lines since the last content line.
    trailing: Vec<Break>,
    /// Whether the last content line started with white space (is "more indented").
    leading_blank: bool,
    /// End of the last content line.
    end: usize,
}

impl Reader<'_> {
    /// Adds the content line `[first, line_end)` (indentation removed) after what separates it from
    /// the previous one.
    fn content_line(&mut self, first: usize, line_end: usize) -> Option<()> {
        let blank = matches!(self.text.as_bytes().get(first), Some(b' ' | b'\t'));
        let folds = !self.literal && !self.leading_blank && !blank;
        match self.leading {
            // Folding: the break becomes a space, or disappears before empty lines.
            Some((at, len)) if folds && self.trailing.is_empty() => self.out.produced(" ", at, len),
            Some(_) if folds => {}
            Some((at, len)) => self.out.produced("\n", at, len),
            None => {}
        }
        for &(at, len) in &self.trailing {
            self.out.produced("\n", at, len);
        }
        self.trailing.clear();
        self.leading_blank = blank;
        self.out.verbatim(self.text.get(first..line_end)?, first);
        self.end = line_end;
        Some(())
    }

    /// Applies chomping to the final breaks; `unbroken` says the last line ends the input without a
    /// break (the parser then adds a line feed unless stripping).
    fn finish(mut self, chomping: Chomping, unbroken: bool, body: usize) -> Block {
        if chomping != Chomping::Strip {
            if let Some((at, len)) = self.leading {
                self.out.produced("\n", at, len);
            } else if unbroken {
                self.out.produced("\n", self.end, 0);
            }
        }
        if chomping == Chomping::Keep {
            for &(at, len) in &self.trailing {
                self.out.produced("\n", at, len);
            }
        }
        let content_end = self.out.source_end().unwrap_or(body).max(body);
        let content = TextRange::new(size(body), size(content_end));
        let (value, map) = self.out.finish(content);
        Block {
            value,
            map,
            end: self.end,
        }
    }
}

/// Reads the header at `at`: indicator, chomping, indentation indicator, comment, line break.
fn parse_header(text: &str, at: usize) -> Option<Header> {
    let bytes = text.as_bytes();
    let literal = match bytes.get(at)? {
        b'|' => true,
        b'>' => false,
        _ => return None,
    };
    let mut head = Header {
        literal,
        chomping: Chomping::Clip,
        indicator: None,
        body: text.len(),
        line_end: 0,
    };
    let mut i = at + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'-' => head.chomping = Chomping::Strip,
            b'+' => head.chomping = Chomping::Keep,
            b'1'..=b'9' => head.indicator = Some(usize::from(b - b'0')),
            _ => break,
        }
        i += 1;
    }
    head.line_end = super::locate::line_end(bytes, i);
    head.body = head.line_end + line_break(text, head.line_end, text.len()).map_or(0, |b| b.1);
    Some(head)
}

/// Determines the content indentation, skipping the empty lines before the first content line;
/// returns it, the position of the first content line and the breaks of the skipped lines.
fn leading_lines(
    text: &str,
    head: &Header,
    limit: usize,
    parent: Option<usize>,
) -> (usize, usize, Vec<Break>) {
    let parent_indent = parent.map_or(-1, |p| isize::try_from(p).unwrap_or(isize::MAX));
    let explicit = head.indicator.map(|inc| {
        if parent_indent >= 0 {
            parent_indent.unsigned_abs() + inc
        } else {
            inc
        }
    });
    if let Some(indent) = explicit {
        return (indent, head.body, Vec::new());
    }
    let mut max_spaces = 0;
    let mut pos = head.body;
    let mut breaks = Vec::new();
    while pos < limit {
        let line_end = locate_line_end(text, pos, limit);
        let spaces = count_spaces(text, pos, line_end, usize::MAX);
        max_spaces = max_spaces.max(spaces);
        let Some(brk) = line_break(text, line_end, limit).filter(|_| pos + spaces == line_end)
        else {
            break;
        };
        breaks.push(brk);
        pos = brk.0 + brk.1;
    }
    let mut indent = max_spaces.max(usize::try_from(parent_indent + 1).unwrap_or(0));
    if parent_indent > 0 {
        indent = indent.max(1);
    }
    (indent, pos, breaks)
}

/// End of the line starting at `from` (before its break), not past `limit`.
fn locate_line_end(text: &str, from: usize, limit: usize) -> usize {
    super::locate::line_end(text.as_bytes(), from).min(limit)
}

/// The line break at `at`, if there is one before `limit`.
fn line_break(text: &str, at: usize, limit: usize) -> Option<Break> {
    let bytes = text.as_bytes();
    match bytes.get(at)? {
        _ if at >= limit => None,
        b'\r' if bytes.get(at + 1) == Some(&b'\n') => Some((at, 2)),
        b'\r' | b'\n' => Some((at, 1)),
        _ => None,
    }
}

/// Spaces at the start of `[from, to)`, at most `max`.
fn count_spaces(text: &str, from: usize, to: usize, max: usize) -> usize {
    let bytes = text.as_bytes();
    let mut n = 0;
    while n < max && from + n < to && bytes.get(from + n) == Some(&b' ') {
        n += 1;
    }
    n
}
