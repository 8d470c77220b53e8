//! LSP edit handling: a random sequence of incremental `didChange` edits applied the way the
//! server's document store applies them (a flat text, both ends of the range through
//! `lsp::encoding::from_proto::byte_offsets`), to a ropey rope as the store applied them before
//! (positions as char indices), and to a plain string through `text::LineIndex::offset`; the three
//! texts must agree, and the diagnostics of the result must come back. The store itself
//! (`lsp::documents`) is private, so this drives the same public conversion it is made of.
#![no_main]

use admission_ls::ide::{DiagnosticsConfig, Encoding, LineCol, LineIndex, diagnostics_for_text};
use admission_ls::lsp::encoding::from_proto;
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use ropey::Rope;
use tower_lsp_server::ls_types::Position;

#[derive(Arbitrary, Debug)]
struct Edit {
    start: (u8, u8),
    end: (u8, u8),
    text: String,
}

#[derive(Arbitrary, Debug)]
struct Session {
    utf16: bool,
    initial: String,
    edits: Vec<Edit>,
}

/// The store's side: both ends converted in one call, the span replaced in the flat text.
fn apply_flat(text: &mut String, edit: &Edit, encoding: Encoding) {
    let position = |(line, character): (u8, u8)| Position::new(line.into(), character.into());
    let (start, end) =
        from_proto::byte_offsets(text, position(edit.start), position(edit.end), encoding);
    text.replace_range(start.min(end)..start.max(end), &edit.text);
}

/// The char index of a position in a rope, clamped to its line's content (before LF, CR or
/// CRLF) and to the rope's end: the conversion the store made when it kept a rope.
fn rope_char_index(rope: &Rope, position: Position, encoding: Encoding) -> usize {
    let line = position.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let start = rope.line_to_char(line);
    let slice = rope.line(line);
    let n = slice.len_chars();
    let ends_with = |c| n > 0 && slice.char(n - 1) == c;
    let crlf = ends_with('\n') && n > 1 && slice.char(n - 2) == '\r';
    let content_end =
        start + n - usize::from(crlf) - usize::from(ends_with('\n') || ends_with('\r'));
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

/// The rope side: the same change as the store made it on its rope.
fn apply_rope(rope: &mut Rope, edit: &Edit, encoding: Encoding) {
    let position = |(line, character): (u8, u8)| Position::new(line.into(), character.into());
    let start = rope_char_index(rope, position(edit.start), encoding);
    let end = rope_char_index(rope, position(edit.end), encoding);
    let (start, end) = (start.min(end), start.max(end));
    rope.remove(start..end);
    rope.insert(start, &edit.text);
}

/// The plain-string side, through the analysis' line index.
fn apply_string(text: &mut String, edit: &Edit, encoding: Encoding) {
    let index = LineIndex::new(text);
    let offset = |(line, col): (u8, u8)| {
        let pos = LineCol {
            line: line.into(),
            col: col.into(),
        };
        usize::from(index.offset(pos, encoding))
    };
    let (a, b) = (offset(edit.start), offset(edit.end));
    text.replace_range(a.min(b)..a.max(b), &edit.text);
}

fuzz_target!(|session: Session| {
    let encoding = if session.utf16 {
        Encoding::Utf16
    } else {
        Encoding::Utf8
    };
    let mut flat = session.initial.clone();
    let mut rope = Rope::from_str(&session.initial);
    let mut text = session.initial.clone();
    for edit in session.edits.iter().take(64) {
        apply_flat(&mut flat, edit, encoding);
        apply_rope(&mut rope, edit, encoding);
        apply_string(&mut text, edit, encoding);
        assert_eq!(flat, text, "store and line index disagree after {edit:?}");
        assert_eq!(
            rope.to_string(),
            text,
            "rope and line index disagree after {edit:?}"
        );
    }
    let _ = diagnostics_for_text(&text, &DiagnosticsConfig::default());
});
