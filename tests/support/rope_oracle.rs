//! The oracle for the document store's position conversion: how the store converted LSP positions
//! when it kept each document as a ropey `Rope` (with its `cr_lines` feature, so LF, CR and CRLF
//! end lines). The store now edits one flat text; the property tests and the `lsp_edits` fuzz
//! target hold it to what the rope did.

// Each test that includes this uses what it needs.
#![allow(dead_code)]

use admission_ls::ide::Encoding;
use ropey::Rope;
use tower_lsp_server::ls_types::Position;

/// The char index of `position` in `rope`: its column clamped to its line's content (before the
/// line's break) and its line to the rope's end; a column inside a character gives that character.
pub fn char_index(rope: &Rope, position: Position, encoding: Encoding) -> usize {
    let line = position.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let start = rope.line_to_char(line);
    let slice = rope.line(line);
    let n = slice.len_chars();
    let last = (n > 0).then(|| slice.char(n - 1));
    let crlf = last == Some('\n') && n > 1 && slice.char(n - 2) == '\r';
    let breaks = usize::from(crlf) + usize::from(matches!(last, Some('\n' | '\r')));
    let content_end = start + n - breaks;
    let character = position.character as usize;
    let char = match encoding {
        Encoding::Utf8 => {
            let (a, b) = (rope.char_to_byte(start), rope.char_to_byte(content_end));
            rope.byte_to_char(a + character.min(b - a))
        }
        Encoding::Utf16 => {
            let (a, b) = (
                rope.char_to_utf16_cu(start),
                rope.char_to_utf16_cu(content_end),
            );
            rope.utf16_cu_to_char(a + character.min(b - a))
        }
    };
    char.min(content_end)
}

/// The byte offset of `position` in `rope`, as [`char_index`] finds it.
pub fn byte_offset(rope: &Rope, position: Position, encoding: Encoding) -> usize {
    rope.char_to_byte(char_index(rope, position, encoding))
}

/// Replaces the span between `start` and `end` (in either order) with `text`, as the store did.
pub fn replace(
    rope: &mut Rope,
    (start, end): (Position, Position),
    text: &str,
    encoding: Encoding,
) {
    let start = char_index(rope, start, encoding);
    let end = char_index(rope, end, encoding);
    let (start, end) = (start.min(end), start.max(end));
    rope.remove(start..end);
    rope.insert(start, text);
}
