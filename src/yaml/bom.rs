//! A byte order mark that starts a chunk kubectl hands to go-yaml.
//!
//! kubectl cuts the stream at `---` lines (apimachinery `pkg/util/yaml/decoder.go` `YAMLReader`,
//! the `---` line itself dropped) and go-yaml v2 reads each chunk as a new stream, whose first
//! bytes it checks for a byte order mark and skips (go.yaml.in/yaml/v2 `readerc.go`
//! `yaml_parser_determine_encoding`). Files joined with `---` lines often carry one there:
//! `---` then `\u{feff}apiVersion: …`. saphyr-parser takes a mark only between documents, so the
//! parser is shown the mark moved before the `---` line: the same bytes in another order, every
//! offset after the mark unchanged, and [`file_offset`] puts back the few before it.

use super::split;

/// The width of a byte order mark in UTF-8.
const WIDTH: usize = '\u{feff}'.len_utf8();

/// Where the byte order mark starting the chunk of the piece `text[start..end]` is, when that
/// chunk starts after a `---` line of the piece (at the piece's start the parser takes it).
pub(crate) fn chunk_mark(text: &str, (start, end): (usize, usize)) -> Option<usize> {
    let chunk = split::chunk_start(text, (start, end))?;
    let rest = text.get(chunk..end)?;
    rest.starts_with('\u{feff}').then_some(chunk)
}

/// `piece` (at file offset `base`) with the byte order mark at file offset `mark` moved to its
/// start.
pub(crate) fn moved_to_start(piece: &str, base: usize, mark: usize) -> String {
    let at = mark - base;
    let mut shown = String::with_capacity(piece.len());
    shown.push('\u{feff}');
    shown.push_str(piece.get(..at).unwrap_or(""));
    shown.push_str(piece.get(at + WIDTH..).unwrap_or(""));
    shown
}

/// The file offset of `shown_at`, an offset in the file as if it held the shown piece at `base`,
/// when the mark at `mark` was moved to `base`.
pub(crate) fn file_offset(shown_at: usize, base: usize, mark: usize) -> usize {
    if shown_at < base + WIDTH {
        mark
    } else if shown_at < mark + WIDTH {
        shown_at - WIDTH
    } else {
        shown_at
    }
}

#[cfg(test)]
mod tests {
    use super::{chunk_mark, file_offset, moved_to_start};

    #[test]
    fn moves_the_mark_of_a_chunk_to_the_start() {
        let text = "a\n---\n\u{feff}b: 1\n";
        let piece = (2, text.len());
        assert_eq!(chunk_mark(text, piece), Some(6));
        assert_eq!(moved_to_start(&text[2..], 2, 6), "\u{feff}---\nb: 1\n");
        assert_eq!(file_offset(5, 2, 6), 2);
        assert_eq!(file_offset(9, 2, 6), 9);
        assert_eq!(chunk_mark("\u{feff}a: 1\n", (0, 7)), None);
        assert_eq!(chunk_mark("---\nb: \u{feff}\n", (0, 11)), None);
    }
}
