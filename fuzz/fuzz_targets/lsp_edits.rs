//! LSP edit handling: a random sequence of incremental `didChange` edits applied the way the
//! server's document store applies them (a rope, positions through `lsp::encoding::from_proto`),
//! and independently to a plain string through `text::LineIndex::offset`; the two texts must agree,
//! and the diagnostics of the result must come back. The store itself (`lsp::documents`) is private,
//! so this drives the same public conversion and rope calls it is made of.
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

/// The rope side: what `Document::apply_change` does for a ranged change.
fn apply_rope(rope: &mut Rope, edit: &Edit, encoding: Encoding) {
    let position = |(line, character): (u8, u8)| Position::new(line.into(), character.into());
    let start = from_proto::char_index(rope, position(edit.start), encoding);
    let end = from_proto::char_index(rope, position(edit.end), encoding);
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
    let mut rope = Rope::from_str(&session.initial);
    let mut text = session.initial.clone();
    for edit in session.edits.iter().take(64) {
        apply_rope(&mut rope, edit, encoding);
        apply_string(&mut text, edit, encoding);
        assert_eq!(
            rope.to_string(),
            text,
            "rope and line index disagree after {edit:?}"
        );
    }
    let _ = diagnostics_for_text(&text, &DiagnosticsConfig::default());
});
