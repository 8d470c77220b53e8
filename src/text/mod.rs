//! Text positions: byte offsets, ranges, and the line index that converts a byte offset to a line and
//! column in UTF-8 or UTF-16 code units and back.
//!
//! Every position inside the core is a UTF-8 byte offset (`TextSize`) into the file text; only the
//! front-ends convert to lines and columns. Line breaks are LF, CRLF and a lone CR, as in YAML and LSP.

pub mod parallel;

pub use text_size::{TextRange, TextSize};

/// Line and column, both 0-based; the column counts code units of the encoding asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    /// 0-based line number.
    pub line: u32,
    /// 0-based column in code units (bytes for UTF-8, 16-bit units for UTF-16).
    pub col: u32,
}

/// The unit in which columns are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Bytes of UTF-8.
    Utf8,
    /// 16-bit code units of UTF-16 (the LSP default).
    Utf16,
}

/// Start offsets of every line of a text, for offset ↔ line/column conversion.
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<TextSize>,
    text: std::sync::Arc<str>,
}

impl LineIndex {
    /// Indexes `text`; the index keeps a copy to measure UTF-16 columns.
    pub fn new(text: &str) -> LineIndex {
        LineIndex::shared(text.into())
    }

    /// Indexes `text` and keeps it as it is: an editor's snapshot already holds the text in an
    /// `Arc`, so a request on a large file need not copy its text.
    pub fn shared(text: std::sync::Arc<str>) -> LineIndex {
        let bytes = text.as_bytes();
        if memchr::memchr(b'\r', bytes).is_none() {
            return LineIndex {
                line_starts: line_feed_starts(bytes),
                text,
            };
        }
        // Sized by a first count (every break byte, so at least the line count): a 30,000-line
        // file's index is then one allocation rather than a doubling vector and its copies. Both
        // passes find the breaks with memchr, several bytes at a time: the diagnostics of every
        // keystroke in a large file index its new text.
        let breaks = memchr::memchr2_iter(b'\n', b'\r', bytes).count();
        let mut line_starts = Vec::with_capacity(breaks + 1);
        line_starts.push(TextSize::from(0));
        for at in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            // `\r\n` is one break: its line starts after the `\n`, found next.
            if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
                continue;
            }
            line_starts.push(to_size(at + 1));
        }
        LineIndex { line_starts, text }
    }

    /// Number of lines (a text without a final line break still has its last line).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte offset where `line` starts, if the line exists.
    pub fn line_start(&self, line: u32) -> Option<TextSize> {
        self.line_starts.get(line as usize).copied()
    }

    /// Text of a 0-based line without its line break (empty for a line past the end).
    pub fn line_text(&self, line: u32) -> &str {
        let Some(start) = self.line_start(line) else {
            return "";
        };
        let end = self
            .line_start(line + 1)
            .unwrap_or_else(|| to_size(self.text.len()));
        self.text[usize::from(start)..usize::from(end)].trim_end_matches(['\n', '\r'])
    }

    /// Line and column of a byte offset; an offset inside a character is moved to its start, one past
    /// the end is clamped to the end.
    pub fn line_col(&self, offset: TextSize, encoding: Encoding) -> LineCol {
        let offset = self.clamp_to_char(offset);
        let line = self.line_starts.partition_point(|start| *start <= offset) - 1;
        let start = self.line_starts[line];
        let prefix = &self.text[usize::from(start)..usize::from(offset)];
        let col = match encoding {
            Encoding::Utf8 => prefix.len(),
            Encoding::Utf16 => prefix.chars().map(char::len_utf16).sum(),
        };
        LineCol {
            line: line as u32,
            col: col as u32,
        }
    }

    /// Byte offset of a line and column; a column past the end of its line is clamped to the line end
    /// (as LSP asks), a line past the end gives the end of the text. A column inside a character
    /// gives that character's start, as the server's document store does with edits
    /// (`lsp::encoding::from_proto`): otherwise a request and an edit at the same position disagree.
    pub fn offset(&self, pos: LineCol, encoding: Encoding) -> TextSize {
        let Some(start) = self.line_start(pos.line) else {
            return to_size(self.text.len());
        };
        start + to_size(column_offset(self.line_text(pos.line), pos.col, encoding))
    }

    fn clamp_to_char(&self, offset: TextSize) -> TextSize {
        let mut at = usize::from(offset).min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        to_size(at)
    }
}

/// The line starts of a text without `\r`: after every `\n`. Counted first by memchr's
/// vectorized count (one allocation of the right size), then found with the one-byte search,
/// which is quicker than the two-byte one the general case needs: building this index was
/// 0.75 ms of every diagnostics run on a 33,000-line file.
fn line_feed_starts(bytes: &[u8]) -> Vec<TextSize> {
    let mut line_starts = Vec::with_capacity(memchr::memchr_iter(b'\n', bytes).count() + 1);
    line_starts.push(TextSize::from(0));
    line_starts.extend(memchr::memchr_iter(b'\n', bytes).map(|at| to_size(at + 1)));
    line_starts
}

/// The bytes of `line` (its text without the break) before column `col`, counted in `encoding`
/// units: a column past the end is the end, and a column inside a character is that character's
/// start. The line index and the server's edits both convert columns so, and must agree.
pub fn column_offset(line: &str, col: u32, encoding: Encoding) -> usize {
    let col = col as usize;
    if encoding == Encoding::Utf8 {
        let mut at = col.min(line.len());
        while !line.is_char_boundary(at) {
            at -= 1;
        }
        return at;
    }
    let mut units = 0usize;
    for (byte, ch) in line.char_indices() {
        units += ch.len_utf16();
        if units > col {
            return byte;
        }
    }
    line.len()
}

/// Converts a `usize` length or offset to `TextSize`; texts over 4 GiB are refused before they get here.
pub fn to_size(n: usize) -> TextSize {
    TextSize::try_from(n).unwrap_or(TextSize::from(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_count_surrogate_pairs() {
        let index = LineIndex::new("a: x\r\nb: \"é😀x\"\rc");
        let x = TextSize::from(16); // the 'x' after the emoji
        assert_eq!(
            index.line_col(x, Encoding::Utf8),
            LineCol { line: 1, col: 10 }
        );
        assert_eq!(
            index.line_col(x, Encoding::Utf16),
            LineCol { line: 1, col: 7 }
        );
        assert_eq!(
            index.offset(LineCol { line: 1, col: 7 }, Encoding::Utf16),
            x
        );
        assert_eq!(index.line_count(), 3);
        assert_eq!(index.line_text(1), "b: \"é😀x\"");
        assert_eq!(
            index.offset(LineCol { line: 2, col: 99 }, Encoding::Utf8),
            TextSize::from(20)
        );
    }

    /// Found by `tests/property_incremental.rs`: a column inside a character used to move past it,
    /// while the server's edits (ropey) stop before it.
    #[test]
    fn a_column_inside_a_character_gives_its_start() {
        let index = LineIndex::new("😀é\n");
        let at = |col, encoding| index.offset(LineCol { line: 0, col }, encoding);
        assert_eq!(at(1, Encoding::Utf16), TextSize::from(0));
        assert_eq!(at(2, Encoding::Utf16), TextSize::from(4));
        assert_eq!(at(3, Encoding::Utf8), TextSize::from(0));
        assert_eq!(at(5, Encoding::Utf8), TextSize::from(4));
        assert_eq!(at(4, Encoding::Utf8), TextSize::from(4));
    }
}
