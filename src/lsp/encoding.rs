//! Position encodings: negotiation at `initialize`, and conversion of positions between the protocol
//! (line + UTF-8 or UTF-16 code units) and byte offsets into a document's text.
//!
//! Every conversion clamps: a position past the end of its line or of the document is moved to that
//! end, as the LSP specification asks, so hostile input never gives an offset outside the text or
//! inside a character.

use tower_lsp_server::ls_types::{InitializeParams, PositionEncodingKind};

use crate::ide::Encoding;

/// The encoding to use for a client: UTF-8 when the client offers it, else the UTF-16 default.
pub fn negotiate(params: &InitializeParams) -> Encoding {
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref());
    match offered {
        Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
        _ => Encoding::Utf16,
    }
}

/// Conversions from protocol values to the server's own.
pub mod from_proto {
    use super::*;
    use tower_lsp_server::ls_types::Position;

    /// The byte offset in `text` of an LSP position, as a `TextSize` (see [`byte_offset`]).
    pub fn offset(text: &str, position: Position, encoding: Encoding) -> crate::ide::TextSize {
        crate::ide::TextSize::from(
            u32::try_from(byte_offset(text, position, encoding)).unwrap_or(u32::MAX),
        )
    }

    /// The byte offset in `text` of an LSP position, clamped to the end of its line (before the
    /// line break) and to the end of the text; a column inside a character gives that
    /// character's start. Lines end at LF, CRLF or a lone CR, and a text ending in a break has
    /// an empty last line after it, so `line` counts breaks as the protocol does.
    pub fn byte_offset(text: &str, position: Position, encoding: Encoding) -> usize {
        let start = line_start(text.as_bytes(), (0, 0), position.line as usize);
        offset_in_line(text, start, position.character, encoding)
    }

    /// The byte offsets of both ends of an LSP range, each as [`byte_offset`] gives it, in the
    /// order given: the later line's start is searched from the earlier one's, so an edit in a
    /// large file scans its text once.
    pub fn byte_offsets(
        text: &str,
        start: Position,
        end: Position,
        encoding: Encoding,
    ) -> (usize, usize) {
        let (first, second) = if start.line <= end.line {
            (start, end)
        } else {
            (end, start)
        };
        let bytes = text.as_bytes();
        let first_start = line_start(bytes, (0, 0), first.line as usize);
        let second_start = match first_start {
            Some(from) => line_start(bytes, (from, first.line as usize), second.line as usize),
            None => None,
        };
        let first = offset_in_line(text, first_start, first.character, encoding);
        let second = offset_in_line(text, second_start, second.character, encoding);
        if start.line <= end.line {
            (first, second)
        } else {
            (second, first)
        }
    }

    /// The offset of column `character` of the line starting at `start` (the text's end for a
    /// line past it).
    fn offset_in_line(
        text: &str,
        start: Option<usize>,
        character: u32,
        encoding: Encoding,
    ) -> usize {
        let Some(start) = start else {
            return text.len();
        };
        let rest = &text[start..];
        let content = memchr::memchr2(b'\n', b'\r', rest.as_bytes()).unwrap_or(rest.len());
        start + crate::text::column_offset(&rest[..content], character, encoding)
    }

    /// Bytes whose line feeds are counted at once, when they hold no CR.
    const BLOCK: usize = 4096;

    /// The byte offset where line `line` starts, or `None` past the last line, searched from
    /// `known`: the start of an earlier line (offset, line). Each keystroke in a large file
    /// converts its range this way, so the breaks of a block without a CR are counted at once
    /// (its breaks are its LFs); the block holding the line's start, or a CR, is walked break by
    /// break. A line start is never inside a CRLF, so blocks may begin at one.
    fn line_start(bytes: &[u8], known: (usize, usize), line: usize) -> Option<usize> {
        let (from, mut seen) = known;
        if line == seen {
            return Some(from);
        }
        let rest = bytes.get(from..)?;
        for (n, block) in rest.chunks(BLOCK).enumerate() {
            let block_start = from + n * BLOCK;
            if memchr::memchr(b'\r', block).is_none() {
                let feeds = memchr::memchr_iter(b'\n', block).count();
                if seen + feeds < line {
                    seen += feeds;
                    continue;
                }
            }
            for at in memchr::memchr2_iter(b'\n', b'\r', block).map(|at| block_start + at) {
                // `\r\n` is one break: the line starts after its `\n`, found next (perhaps in
                // the next block).
                if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
                    continue;
                }
                seen += 1;
                if seen == line {
                    return Some(at + 1);
                }
            }
        }
        None
    }
}

/// Conversions from the analysis' values to protocol values.
pub mod to_proto {
    use super::*;
    use crate::ide::{self, LineIndex, Severity, TextRange, TextSize};
    use tower_lsp_server::ls_types::{self as lsp, NumberOrString};

    /// The protocol name of an encoding.
    pub fn encoding_kind(encoding: Encoding) -> PositionEncodingKind {
        match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }

    /// The LSP position of a byte offset.
    pub fn position(index: &LineIndex, offset: TextSize, encoding: Encoding) -> lsp::Position {
        let line_col = index.line_col(offset, encoding);
        lsp::Position {
            line: line_col.line,
            character: line_col.col,
        }
    }

    /// The LSP range of a byte range.
    pub fn range(index: &LineIndex, range: TextRange, encoding: Encoding) -> lsp::Range {
        lsp::Range {
            start: position(index, range.start(), encoding),
            end: position(index, range.end(), encoding),
        }
    }

    /// The LSP severity of a diagnostic.
    pub fn severity(severity: Severity) -> lsp::DiagnosticSeverity {
        match severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
            Severity::Information => lsp::DiagnosticSeverity::INFORMATION,
            Severity::Hint => lsp::DiagnosticSeverity::HINT,
        }
    }

    /// The LSP form of a diagnostic, with `source: "admission-ls"` as the CLI's JSON has it.
    pub fn diagnostic(
        index: &LineIndex,
        diagnostic: &ide::Diagnostic,
        encoding: Encoding,
    ) -> lsp::Diagnostic {
        lsp::Diagnostic {
            range: range(index, diagnostic.range, encoding),
            severity: Some(severity(diagnostic.severity)),
            code: Some(NumberOrString::String(diagnostic.code.as_str().to_owned())),
            source: Some(super::super::SOURCE.to_owned()),
            message: diagnostic.message.clone(),
            data: Some(serde_json::json!({ "prediction": diagnostic.prediction.as_str() })),
            ..lsp::Diagnostic::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp_server::ls_types::Position;

    fn at(text: &str, line: u32, character: u32, encoding: Encoding) -> usize {
        from_proto::byte_offset(text, Position { line, character }, encoding)
    }

    #[test]
    fn utf16_and_utf8_columns_agree_on_the_same_char() {
        let text = "a: x\r\nb: \"é😀x\"\rc";
        // The 'x' after the emoji: 7 UTF-16 units or 10 bytes into line 1, byte 6 + 10.
        assert_eq!(at(text, 1, 7, Encoding::Utf16), 16);
        assert_eq!(at(text, 1, 10, Encoding::Utf8), 16);
        // Inside the surrogate pair or inside a multi-byte char: the char itself.
        assert_eq!(at(text, 1, 6, Encoding::Utf16), 12);
        assert_eq!(at(text, 1, 7, Encoding::Utf8), 12);
        assert_eq!(at(text, 1, 5, Encoding::Utf8), 10, "inside é");
    }

    #[test]
    fn out_of_range_positions_are_clamped() {
        let text = "ab\r\ncd\n";
        assert_eq!(at(text, 0, 99, Encoding::Utf16), 2);
        assert_eq!(at(text, 1, 99, Encoding::Utf8), 6);
        assert_eq!(at(text, 2, 5, Encoding::Utf8), 7);
        assert_eq!(at(text, 99, 0, Encoding::Utf16), 7);
        assert_eq!(at("", u32::MAX, u32::MAX, Encoding::Utf16), 0);
    }

    #[test]
    fn lone_cr_and_crlf_each_end_one_line() {
        let text = "a\rb\r\nc\r\rd";
        let starts: Vec<usize> = (0..6).map(|l| at(text, l, 0, Encoding::Utf8)).collect();
        assert_eq!(starts, [0, 2, 5, 7, 8, 9], "line 5 is past the end");
        assert_eq!(
            at(text, 1, 9, Encoding::Utf16),
            3,
            "before the CRLF, never inside it"
        );
    }
}
