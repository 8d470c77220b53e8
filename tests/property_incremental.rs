//! Incremental edits equal a full re-parse: random `didChange` edit sequences applied the way the
//! server's document store applies them (a rope, LSP positions through
//! `lsp::encoding::from_proto::char_index`) must give the same text as the same edits applied to a
//! plain string through the analysis' `LineIndex::offset`, and so the same diagnostics as a fresh
//! parse of that text. Positions include columns past the line end, past the last line and inside
//! multi-unit characters (emoji, CRLF), in both UTF-8 and UTF-16 encodings.

use admission_ls::ide::{DiagnosticsConfig, Encoding, LineCol, LineIndex, diagnostics_for_text};
use admission_ls::lsp::encoding::from_proto;
use proptest::prelude::*;
use ropey::Rope;
use tower_lsp_server::ls_types::Position;

const POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1\r
kind: ValidatingAdmissionPolicy
metadata:
  name: démo-😀
spec:
  validations:
  - expression: object.spec.replicas <= 5 # 😀 é
    message: \"too many\"
";

#[derive(Clone, Debug)]
struct Edit {
    start: (u32, u32),
    end: (u32, u32),
    text: String,
}

fn edit() -> impl Strategy<Value = Edit> {
    let position = (0u32..11, 0u32..50);
    let piece = prop::sample::select(vec![
        "",
        "a",
        "\n",
        "\r\n",
        "\r",
        "😀",
        "é",
        " ",
        ":",
        "- ",
        "'",
        "(",
        "expression: x.y",
        "  - expression: 1 +\n",
    ]);
    (
        position.clone(),
        position,
        prop::collection::vec(piece, 0..3),
    )
        .prop_map(|(start, end, pieces)| Edit {
            start,
            end,
            text: pieces.concat(),
        })
}

/// What the document store does with a ranged change.
fn apply_rope(rope: &mut Rope, edit: &Edit, encoding: Encoding) {
    let position = |(line, character): (u32, u32)| Position::new(line, character);
    let start = from_proto::char_index(rope, position(edit.start), encoding);
    let end = from_proto::char_index(rope, position(edit.end), encoding);
    let (start, end) = (start.min(end), start.max(end));
    rope.remove(start..end);
    rope.insert(start, &edit.text);
}

/// The same change on a plain string, positions through the analysis' line index.
fn apply_string(text: &mut String, edit: &Edit, encoding: Encoding) {
    let index = LineIndex::new(text);
    let offset =
        |(line, col): (u32, u32)| usize::from(index.offset(LineCol { line, col }, encoding));
    let (a, b) = (offset(edit.start), offset(edit.end));
    text.replace_range(a.min(b)..a.max(b), &edit.text);
}

fn summary(text: &str) -> Vec<String> {
    diagnostics_for_text(text, &DiagnosticsConfig::default())
        .iter()
        .map(|d| format!("{:?} {} {}", d.range, d.code.as_str(), d.message))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn incremental_edits_equal_a_fresh_parse(
        utf16 in any::<bool>(),
        edits in prop::collection::vec(edit(), 1..12),
    ) {
        let encoding = if utf16 { Encoding::Utf16 } else { Encoding::Utf8 };
        let mut rope = Rope::from_str(POLICY);
        let mut text = POLICY.to_string();
        for edit in &edits {
            apply_rope(&mut rope, edit, encoding);
            apply_string(&mut text, edit, encoding);
            prop_assert_eq!(rope.to_string(), text.clone(), "after {:?}", edit);
        }
        prop_assert_eq!(summary(&rope.to_string()), summary(&text));
    }
}

/// A column inside a multi-unit character (the second UTF-16 unit of an emoji, the second byte of
/// `é`) is before that character for both conversions, so an edit there lands in the same place.
#[test]
fn a_column_inside_a_character_means_its_start() {
    for (encoding, col) in [
        (Encoding::Utf16, 1),
        (Encoding::Utf8, 1),
        (Encoding::Utf8, 3),
    ] {
        let text = "😀é\n";
        let index = LineIndex::new(text);
        let offset = usize::from(index.offset(LineCol { line: 0, col }, encoding));
        let rope = Rope::from_str(text);
        let chars = from_proto::char_index(&rope, Position::new(0, col), encoding);
        assert_eq!(
            offset,
            rope.char_to_byte(chars),
            "{encoding:?} column {col}"
        );
    }
}
