//! Position encodings: negotiation at `initialize`, and conversion of positions between the protocol
//! (line + UTF-8 or UTF-16 code units) and the analysis (byte offsets) or the document rope (chars).
//!
//! Every conversion clamps: a position past the end of its line or of the document is moved to that
//! end, as the LSP specification asks, so hostile input never makes ropey panic.

use ropey::{Rope, RopeSlice};
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

    /// The byte offset in `rope` of an LSP position, clamped like [`char_index`].
    pub fn offset(rope: &Rope, position: Position, encoding: Encoding) -> crate::ide::TextSize {
        let byte = rope.char_to_byte(char_index(rope, position, encoding));
        crate::ide::TextSize::from(u32::try_from(byte).unwrap_or(u32::MAX))
    }

    /// The char index in `rope` of an LSP position, clamped to the line end and the document end.
    pub fn char_index(rope: &Rope, position: Position, encoding: Encoding) -> usize {
        let line = position.line as usize;
        if line >= rope.len_lines() {
            return rope.len_chars();
        }
        let line_start = rope.line_to_char(line);
        let slice = rope.line(line);
        let content_chars = slice.len_chars() - line_break_chars(slice);
        let col = column_chars(
            rope,
            line_start,
            content_chars,
            position.character,
            encoding,
        );
        line_start + col.min(content_chars)
    }

    /// Number of chars of the line before the column `character`, counted in `encoding` units; a
    /// column inside a character counts that character as not yet reached.
    fn column_chars(
        rope: &Rope,
        line_start: usize,
        content_chars: usize,
        character: u32,
        encoding: Encoding,
    ) -> usize {
        let character = character as usize;
        match encoding {
            Encoding::Utf8 => {
                let start = rope.char_to_byte(line_start);
                let end = rope.char_to_byte(line_start + content_chars);
                rope.byte_to_char(start + character.min(end - start)) - line_start
            }
            Encoding::Utf16 => {
                let start = rope.char_to_utf16_cu(line_start);
                let end = rope.char_to_utf16_cu(line_start + content_chars);
                rope.utf16_cu_to_char(start + character.min(end - start)) - line_start
            }
        }
    }

    /// How many chars at the end of a line are its line break (LF, CR or CRLF).
    fn line_break_chars(line: RopeSlice<'_>) -> usize {
        let n = line.len_chars();
        let last = if n > 0 { line.char(n - 1) } else { return 0 };
        match last {
            '\n' if n > 1 && line.char(n - 2) == '\r' => 2,
            '\n' | '\r' => 1,
            _ => 0,
        }
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

    fn at(rope: &Rope, line: u32, character: u32, encoding: Encoding) -> usize {
        from_proto::char_index(rope, Position { line, character }, encoding)
    }

    #[test]
    fn utf16_and_utf8_columns_agree_on_the_same_char() {
        let rope = Rope::from_str("a: x\r\nb: \"é😀x\"\rc");
        // The 'x' after the emoji: 7 UTF-16 units or 10 bytes into line 1, char 6 + 6.
        assert_eq!(at(&rope, 1, 7, Encoding::Utf16), 12);
        assert_eq!(at(&rope, 1, 10, Encoding::Utf8), 12);
        // Inside the surrogate pair or inside a multi-byte char: the char itself.
        assert_eq!(at(&rope, 1, 6, Encoding::Utf16), 11);
        assert_eq!(at(&rope, 1, 7, Encoding::Utf8), 11);
    }

    #[test]
    fn out_of_range_positions_are_clamped() {
        let rope = Rope::from_str("ab\r\ncd\n");
        assert_eq!(at(&rope, 0, 99, Encoding::Utf16), 2);
        assert_eq!(at(&rope, 1, 99, Encoding::Utf8), 6);
        assert_eq!(at(&rope, 2, 5, Encoding::Utf8), 7);
        assert_eq!(at(&rope, 99, 0, Encoding::Utf16), 7);
        assert_eq!(at(&Rope::new(), u32::MAX, u32::MAX, Encoding::Utf16), 0);
    }
}
