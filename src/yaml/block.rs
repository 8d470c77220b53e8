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
        has_content: false,
    };
    // Where reading stopped at the end of the input, the column there (the parser's chomping
    // looks at it); `None` when a less indented line ended the scalar.
    let mut eof_col = Some(0);
    while pos < limit {
        let line_end = locate_line_end(text, pos, limit);
        let spaces = count_spaces(text, pos, line_end, indent);
        if pos + spaces == line_end {
            // An empty line (no more than `indent` spaces): only its break counts.
            let Some(brk) = line_break(text, line_end, limit) else {
                eof_col = Some(spaces);
                break;
            };
            reader.trailing.push(brk);
            pos = brk.0 + brk.1;
            continue;
        }
        // A document marker at column 0 ends the scalar (only possible with no indentation).
        if spaces < indent
            || (pos == super::scalar::line_start(text, pos) && is_document_marker(text, pos))
        {
            eof_col = None;
            break;
        }
        reader.content_line(pos + spaces, line_end)?;
        reader.leading = line_break(text, line_end, limit);
        match reader.leading {
            Some(brk) => pos = brk.0 + brk.1,
            None => {
                eof_col = Some(line_end - pos);
                break;
            }
        }
    }
    let at_eof = eof_col.map(|col| (col, limit));
    Some(reader.finish(&head, indent, at_eof))
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
    /// Whether a content line was read.
    has_content: bool,
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
        self.has_content = true;
        Some(())
    }

    /// Applies chomping to the final breaks. `at_eof` is the column and offset where reading
    /// stopped if that is the end of the input: the parser then adds a line feed when the last line
    /// reaches the content indentation, and treats a scalar with no content lines apart.
    fn finish(mut self, head: &Header, indent: usize, at_eof: Option<(usize, usize)>) -> Block {
        let chomping = head.chomping;
        match at_eof {
            Some((col, eof)) if !self.has_content => {
                // An unterminated blank last line counts as a line when keeping.
                let header_broke = head.body > head.line_end;
                if chomping == Chomping::Keep && self.trailing.is_empty() && header_broke && col > 0
                {
                    self.out.produced("\n", eof, 0);
                }
                if chomping != Chomping::Keep {
                    self.trailing.clear();
                }
            }
            _ if chomping == Chomping::Strip => {}
            _ => {
                if let Some((at, len)) = self.leading {
                    self.out.produced("\n", at, len);
                }
                if let Some((_, eof)) = at_eof.filter(|(col, _)| *col >= indent.max(1)) {
                    self.out.produced("\n", eof, 0);
                }
            }
        }
        if chomping == Chomping::Keep {
            for &(at, len) in &self.trailing {
                self.out.produced("\n", at, len);
            }
        }
        let body = head.body;
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

/// Whether a `---` or `...` marker followed by white space or a line end starts at `at`, or a byte
/// order mark (which the parser reads as a token of its own at the start of a line).
fn is_document_marker(text: &str, at: usize) -> bool {
    let rest = text.get(at..).unwrap_or("");
    rest.starts_with('\u{feff}')
        || (rest.starts_with("---") || rest.starts_with("..."))
            && matches!(
                rest.as_bytes().get(3),
                None | Some(b' ' | b'\t' | b'\r' | b'\n')
            )
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

/// A tab go-yaml refuses in the indentation of the block scalar whose header indicator is at
/// `header`: one after the leading spaces of a line while the content indentation is not known
/// yet, or left of it once it is ("found a tab character where an indentation space is
/// expected", scannerc.go `yaml_parser_scan_block_scalar_breaks`). saphyr reads such a tab as
/// content. Returns the tab's offset.
pub(crate) fn refused_tab(
    text: &str,
    header: usize,
    limit: usize,
    parent: Option<usize>,
) -> Option<usize> {
    let head = parse_header(text, header)?;
    let limit = limit.min(text.len());
    let (indent, _, _) = leading_lines(text, &head, limit, parent);
    let mut known = head.indicator.is_some();
    let mut pos = head.body;
    while pos < limit {
        let line_end = locate_line_end(text, pos, limit);
        let spaces = count_spaces(text, pos, line_end, usize::MAX);
        let after = pos + spaces;
        if text.as_bytes().get(after) == Some(&b'\t') && (!known || spaces < indent) {
            return Some(after);
        }
        if after < line_end {
            if known && spaces < indent {
                return None; // the scalar ended on the line before
            }
            known = true;
        }
        pos = match line_break(text, line_end, limit) {
            Some((at, len)) => at + len,
            None => return None,
        };
    }
    None
}
