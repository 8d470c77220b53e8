//! Splitting a file into documents before parsing, so that a syntax error (after which the YAML
//! parser cannot continue) only cuts short its own document.
//!
//! A document boundary is a line that starts with `---` or `...` at column 0, followed by white space
//! or the end of the line: YAML forbids such a line inside any content, so the split never cuts a
//! node in two. A `---` line opens a new piece unless the current piece holds nothing but comments
//! and directives (which belong to the document the `---` starts).
//!
//! A `...` line ends its document, and what follows it up to the next `---` line stays in the same
//! piece, unread ([`read_end`]): kubectl's `YAMLReader` (apimachinery `pkg/util/yaml/decoder.go`)
//! cuts the stream at `---` lines only, and go-yaml v2 reads the first document of each chunk
//! (go.yaml.in/yaml/v2 `yaml.go` `unmarshal` parses one document and stops after its
//! DOCUMENT-END), so whatever comes after the `...`, even broken YAML, never reaches the API server.

/// Byte ranges `[start, end)` of the pieces of `text`, in order, covering all of it.
pub(crate) fn split_documents(text: &str) -> Vec<(usize, usize)> {
    let mut pieces = Vec::new();
    let mut piece = PieceState {
        start: 0,
        has_content: false,
        has_start: false,
        ended: false,
    };
    let mut markers = MarkerLines::new(text);
    let mut line_start = 0;
    while line_start < text.len() {
        if piece.has_content || piece.ended {
            // Only a marker line changes anything now: skip the lines before it unread.
            match markers.next_from(line_start) {
                Some(at) => line_start = at,
                None => break,
            }
        }
        let line_end = next_line_start(text, line_start);
        let line = text.get(line_start..line_end).unwrap_or("");
        match marker(line) {
            Some(Marker::Start) => {
                if piece.has_content || piece.has_start || piece.ended {
                    pieces.push((piece.start, line_start));
                    piece.start = line_start;
                }
                piece.has_content = false;
                piece.has_start = true;
                piece.ended = false;
            }
            Some(Marker::End) => piece.ended = true,
            None => {
                if !piece.has_content && !piece.ended && !is_preamble(line) {
                    piece.has_content = true;
                }
            }
        }
        line_start = line_end;
    }
    if piece.start < text.len() || pieces.is_empty() {
        pieces.push((piece.start, text.len()));
    }
    pieces
}

/// The marker lines of a text, found in order by substring search rather than line by line (a
/// document's content lines need no look once it is known to have content).
struct MarkerLines<'t> {
    text: &'t str,
    dashes: std::iter::Peekable<memchr::memmem::FindIter<'t, 'static>>,
    dots: std::iter::Peekable<memchr::memmem::FindIter<'t, 'static>>,
}

impl<'t> MarkerLines<'t> {
    fn new(text: &'t str) -> MarkerLines<'t> {
        MarkerLines {
            text,
            dashes: memchr::memmem::find_iter(text.as_bytes(), b"---").peekable(),
            dots: memchr::memmem::find_iter(text.as_bytes(), b"...").peekable(),
        }
    }

    /// Start of the first marker line at or after the line start `from`. A match never spans a
    /// line break, so one that starts a line is never hidden inside an earlier match.
    fn next_from(&mut self, from: usize) -> Option<usize> {
        loop {
            while self.dashes.next_if(|&at| at < from).is_some() {}
            while self.dots.next_if(|&at| at < from).is_some() {}
            let found = match (self.dashes.peek(), self.dots.peek()) {
                (Some(&dash), Some(&dot)) if dot < dash => self.dots.next(),
                (Some(_), _) => self.dashes.next(),
                (None, _) => self.dots.next(),
            }?;
            let line_start =
                found == 0 || matches!(self.text.as_bytes().get(found - 1), Some(b'\n' | b'\r'));
            let line = self.text.get(found..).unwrap_or("");
            if line_start && marker(line).is_some() {
                return Some(found);
            }
        }
    }
}

/// What is known of the piece being read.
struct PieceState {
    /// Where it starts.
    start: usize,
    /// Whether it has a line other than blank lines, comments and directives.
    has_content: bool,
    /// Whether it opened with a `---` line.
    has_start: bool,
    /// Whether a `...` line ended its document: the lines after it are not read.
    ended: bool,
}

/// End of what go-yaml reads of the piece `text[start..end]`: the end of its first `...` line,
/// or of the piece.
pub(crate) fn read_end(text: &str, (start, end): (usize, usize)) -> usize {
    // Nearly every piece has no `...` at all: one substring search spares the line walk.
    let piece = text.as_bytes().get(start..end).unwrap_or_default();
    if memchr::memmem::find(piece, b"...").is_none() {
        return end;
    }
    let mut line_start = start;
    while line_start < end {
        let line_end = next_line_start(text, line_start).min(end);
        let line = text.get(line_start..line_end).unwrap_or("");
        if matches!(marker(line), Some(Marker::End)) {
            return line_end;
        }
        line_start = line_end;
    }
    end
}

/// Where the first `...` line of the piece `text[start..end]` starts, when it is the first thing
/// of its chunk (after the piece's `---` line, if any, with only blank and comment lines between).
pub(crate) fn leading_end_marker(text: &str, (start, end): (usize, usize)) -> Option<usize> {
    let mut line_start = start;
    while line_start < end {
        let line_end = next_line_start(text, line_start).min(end);
        let line = text.get(line_start..line_end).unwrap_or("");
        match marker(line) {
            Some(Marker::End) => return Some(line_start),
            Some(Marker::Start) => {}
            None if is_blank_or_comment(line) => {}
            None => return None,
        }
        line_start = line_end;
    }
    None
}

/// Where the chunk kubectl hands go-yaml of the piece `text[start..end]` starts, when the piece
/// has a `---` line: after that line (only blanks, comments and directives come before it).
pub(crate) fn chunk_start(text: &str, (start, end): (usize, usize)) -> Option<usize> {
    let mut line_start = start;
    while line_start < end {
        let line_end = next_line_start(text, line_start).min(end);
        let line = text.get(line_start..line_end).unwrap_or("");
        match marker(line) {
            Some(Marker::Start) => return Some(line_end),
            Some(Marker::End) => return None,
            None if is_preamble(line) => {}
            None => return None,
        }
        line_start = line_end;
    }
    None
}

/// Whether a line holds nothing but blanks and maybe a comment.
fn is_blank_or_comment(line: &str) -> bool {
    let trimmed = line.trim_start_matches([' ', '\t']);
    trimmed.is_empty() || trimmed.starts_with(['#', '\r', '\n'])
}

/// A document marker line.
enum Marker {
    /// `---`
    Start,
    /// `...`
    End,
}

/// The marker a line starts with, if any.
fn marker(line: &str) -> Option<Marker> {
    let kind = if line.starts_with("---") {
        Marker::Start
    } else if line.starts_with("...") {
        Marker::End
    } else {
        return None;
    };
    match line.as_bytes().get(3) {
        None | Some(b' ' | b'\t' | b'\r' | b'\n') => Some(kind),
        Some(_) => None,
    }
}

/// Whether a line may precede a document's `---` without being its content.
fn is_preamble(line: &str) -> bool {
    let trimmed = line.trim_start_matches([' ', '\t']);
    trimmed.is_empty() || trimmed.starts_with(['#', '\r', '\n']) || line.starts_with('%')
}

/// Start of the line after the one starting at `from` (LF, CRLF or a lone CR end a line). The
/// line break is found with memchr: a byte loop here was a serial twentieth of opening a
/// 33,000-line file, before its documents are parsed in parallel.
fn next_line_start(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let rest = bytes.get(from..).unwrap_or_default();
    let Some(at) = memchr::memchr2(b'\n', b'\r', rest).map(|i| from + i) else {
        return text.len();
    };
    match bytes.get(at..at + 2) {
        Some(b"\r\n") => at + 2,
        _ => at + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::{leading_end_marker, read_end, split_documents};

    fn pieces(text: &str) -> Vec<&str> {
        split_documents(text)
            .into_iter()
            .map(|(s, e)| &text[s..e])
            .collect()
    }

    #[test]
    fn splits_on_markers() {
        assert_eq!(pieces("a: 1\n---\nb: 2\n"), ["a: 1\n", "---\nb: 2\n"]);
        assert_eq!(
            pieces("# c\n%YAML 1.2\n---\na\n...\n# d\n--- x\n"),
            ["# c\n%YAML 1.2\n---\na\n...\n# d\n", "--- x\n"]
        );
        assert_eq!(
            pieces("a\n...\nb: [\n...\n---\nc\n"),
            ["a\n...\nb: [\n...\n", "---\nc\n"]
        );
        assert_eq!(pieces("---\n---\n"), ["---\n", "---\n"]);
        assert_eq!(pieces("a: ---x\n----\n"), ["a: ---x\n----\n"]);
        assert_eq!(pieces(""), [""]);
        assert_eq!(pieces("a\r\n---\r\nb"), ["a\r\n", "---\r\nb"]);
        assert_eq!(pieces("a\r---\rb\r"), ["a\r", "---\rb\r"]);
    }

    /// The split made by looking at every line, as the markers are defined.
    fn pieces_line_by_line(text: &str) -> Vec<(usize, usize)> {
        let mut pieces = Vec::new();
        let (mut start, mut content, mut opened, mut ended) = (0, false, false, false);
        let mut line_start = 0;
        while line_start < text.len() {
            let line_end = super::next_line_start(text, line_start);
            let line = &text[line_start..line_end];
            match super::marker(line) {
                Some(super::Marker::Start) => {
                    if content || opened || ended {
                        pieces.push((start, line_start));
                        start = line_start;
                    }
                    (content, opened, ended) = (false, true, false);
                }
                Some(super::Marker::End) => ended = true,
                None => content |= !ended && !super::is_preamble(line),
            }
            line_start = line_end;
        }
        if start < text.len() || pieces.is_empty() {
            pieces.push((start, text.len()));
        }
        pieces
    }

    #[test]
    fn skipping_content_lines_finds_every_marker() {
        let texts = [
            "a: ---\n--- # c\nb: ...\n...\n--- x\n",
            "a: b----\n----\n---\n",
            "a\n....\n...\tx\n---\n---\n",
            "# c\n\n%YAML 1.1\n---\n...\n...\na\n---",
            "a\r\n...\r\n---\r\nb\r--- c\r...",
            "x: |\n  ---\n  ...\n---\n.. .\n---a\n",
            "---",
            "...\n---\n",
        ];
        for text in texts {
            assert_eq!(split_documents(text), pieces_line_by_line(text), "{text:?}");
        }
    }

    #[test]
    fn reads_up_to_the_first_end_marker() {
        let text = "a\n...\nb: [\n";
        assert_eq!(read_end(text, (0, text.len())), 6);
        assert_eq!(read_end("a\n", (0, 2)), 2);
        assert_eq!(read_end("a: x...y\nb\n", (0, 11)), 11);
        assert_eq!(read_end("a\r...\rb\r", (0, 8)), 6);
        assert_eq!(leading_end_marker(text, (0, text.len())), None);
        let text = "# c\n---\n\n... # end\nb\n";
        assert_eq!(leading_end_marker(text, (0, text.len())), Some(9));
    }
}
