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

#[path = "../../tests/support/rope_oracle.rs"]
mod rope_oracle;

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

/// The rope side: the same change as the store made it on its rope.
fn apply_rope(rope: &mut Rope, edit: &Edit, encoding: Encoding) {
    let position = |(line, character): (u8, u8)| Position::new(line.into(), character.into());
    let span = (position(edit.start), position(edit.end));
    rope_oracle::replace(rope, span, &edit.text, encoding);
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
