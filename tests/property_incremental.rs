//! Incremental edits equal a full re-parse: random `didChange` edit sequences applied the way the
//! server's document store applies them (a flat text, LSP positions through
//! `lsp::encoding::from_proto::byte_offsets`) must give the same text as the same edits applied to
//! a ropey rope (the store's former text, its positions converted by char index) and to a plain
//! string through the analysis' `LineIndex::offset`, and so the same diagnostics as a fresh parse
//! of that text. The parse that re-reads only the changed documents of a multi-document file
//! equals a fresh parse too. Positions include columns past the line end, past the last line and inside
//! multi-unit characters (emoji, CRLF), in both UTF-8 and UTF-16 encodings; every position of texts
//! with every kind of line end converts as the rope converted it.

use admission_ls::ide::{DiagnosticsConfig, Encoding, LineCol, LineIndex, diagnostics_for_text};
use admission_ls::lsp::encoding::from_proto;
use admission_ls::yaml::{self, incremental};
use proptest::prelude::*;
use ropey::Rope;
use tower_lsp_server::ls_types::Position;

#[path = "support/rope_oracle.rs"]
mod rope_oracle;

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
fn apply_flat(text: &mut String, edit: &Edit, encoding: Encoding) {
    let position = |(line, character): (u32, u32)| Position::new(line, character);
    let (start, end) =
        from_proto::byte_offsets(text, position(edit.start), position(edit.end), encoding);
    text.replace_range(start.min(end)..start.max(end), &edit.text);
}

/// The same change as the store made it on its rope.
fn apply_rope(rope: &mut Rope, edit: &Edit, encoding: Encoding) {
    let position = |(line, character): (u32, u32)| Position::new(line, character);
    let span = (position(edit.start), position(edit.end));
    rope_oracle::replace(rope, span, &edit.text, encoding);
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
        let mut flat = POLICY.to_string();
        let mut text = POLICY.to_string();
        for edit in &edits {
            apply_rope(&mut rope, edit, encoding);
            apply_flat(&mut flat, edit, encoding);
            apply_string(&mut text, edit, encoding);
            prop_assert_eq!(&flat, &text, "after {:?}", edit);
            prop_assert_eq!(rope.to_string(), text.clone(), "after {:?}", edit);
        }
        prop_assert_eq!(summary(&flat), summary(&text));
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
        let flat = from_proto::byte_offset(text, Position::new(0, col), encoding);
        assert_eq!(offset, flat, "{encoding:?} column {col}");
    }
}

/// Line starts in a text of several of the 4,096-byte blocks `from_proto` counts line feeds in:
/// CRLFs split across a block boundary, lone CRs in some blocks only, long lines and runs of empty
/// ones.
#[test]
fn line_starts_across_blocks_are_the_rope_s() {
    let mut text = String::new();
    let mut n = 0u32;
    while text.len() < 5 * 4096 {
        n = n.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let width = (n >> 16) as usize % 90;
        text.push_str(&"x".repeat(width));
        let in_cr_block = (text.len() / 4096) % 2 == 1;
        text.push_str(match n % 7 {
            0 | 1 if in_cr_block => "\r",
            2 => "\r\n",
            _ => "\n",
        });
    }
    let boundary = 3 * 4096 - 1;
    text.replace_range(boundary..boundary + 2, "\r\n");
    let rope = Rope::from_str(&text);
    for line in 0..rope.len_lines() as u32 + 2 {
        for character in [0, 5, 200] {
            let position = Position { line, character };
            let expected = rope_oracle::byte_offset(&rope, position, Encoding::Utf8);
            assert_eq!(
                from_proto::byte_offset(&text, position, Encoding::Utf8),
                expected,
                "{position:?}"
            );
            let earlier = Position {
                line: line * 2 / 3,
                character: 1,
            };
            let from_earlier = from_proto::byte_offsets(&text, earlier, position, Encoding::Utf8);
            assert_eq!(from_earlier.1, expected, "{earlier:?}..{position:?}");
        }
    }
}

/// Every position (lines and columns past the ends included) of texts with every kind of
/// line end, multi-unit characters and empty lines converts as the rope did.
#[test]
fn every_position_converts_as_the_rope_did() {
    let texts = [
        "",
        "\n",
        "\r",
        "\r\n",
        "\n\r",
        "a",
        "ab\r\ncd\n",
        "a: x\r\nb: \"é😀x\"\rc",
        "\r\r\n\n😀\r😀é\r\n\u{10FFFF}\u{FFFF}x",
        "line\u{2028}sep\u{85}nel\u{b}vt\u{c}ff\n",
        "é\n\n😀😀\r\n\r\n",
    ];
    for text in texts {
        let rope = Rope::from_str(text);
        for encoding in [Encoding::Utf8, Encoding::Utf16] {
            for line in 0..(text.len() as u32 + 3) {
                for character in (0..20).chain([u32::MAX]) {
                    let position = Position { line, character };
                    let expected = rope_oracle::byte_offset(&rope, position, encoding);
                    assert_eq!(
                        from_proto::byte_offset(text, position, encoding),
                        expected,
                        "{text:?} {position:?} {encoding:?}"
                    );
                    let other = Position {
                        line: line / 2,
                        character: 3,
                    };
                    let other_expected = rope_oracle::byte_offset(&rope, other, encoding);
                    assert_eq!(
                        from_proto::byte_offsets(text, position, other, encoding),
                        (expected, other_expected),
                        "{text:?} {position:?}..{other:?}"
                    );
                    assert_eq!(
                        from_proto::byte_offsets(text, other, position, encoding),
                        (other_expected, expected),
                        "{text:?} {other:?}..{position:?}"
                    );
                }
            }
        }
    }
}

/// A multi-document file for the incremental parse: documents with flow and block collections,
/// block scalars that keep trailing lines (`|+`), comments, a `...` end marker, escapes, and an
/// anchor with its alias.
const MULTI: &str = "\
# leading comment
apiVersion: v1
kind: ConfigMap
metadata: {name: a}
data:
  k: \"tab\\there é\"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: p
spec:
  validations:
  - expression: |+
      object.spec.replicas <= 5

  - &shared {expression: 'true', message: \"m\"}
  - *shared
...
---
- [1, 2, {x: y}]
- >
  folded
  text
---
key: value # 😀
";

/// A byte offset of `text` on a character boundary, from a number.
fn boundary(text: &str, n: usize) -> usize {
    let mut at = n % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn multi_piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "", "a", "\n", "---\n", "\n---\n", "...\n", "- ", ": ", "{", "]", "'", "\"", "|\n",
        "  x: 1\n", "😀", "&a ", "*a", "\r\n", "#",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    /// After every edit of a sequence, the parse that reuses the previous one's unchanged pieces
    /// equals a fresh parse of the new text: the same documents, nodes, source maps and errors,
    /// at the same offsets.
    #[test]
    fn reparsing_only_the_changed_documents_equals_a_fresh_parse(
        edits in prop::collection::vec((any::<usize>(), 0usize..40, multi_piece()), 1..10),
    ) {
        let mut text = MULTI.to_string();
        let (mut yaml, mut pieces) = incremental::parse_with_pieces(&text);
        prop_assert_eq!(&yaml, &yaml::parse(&text));
        for (at, removed, inserted) in edits {
            let start = boundary(&text, at);
            let end = boundary(&text, (start + removed).min(text.len()));
            let mut edited = text.clone();
            edited.replace_range(start..end, inserted);
            let previous = incremental::Previous { text: &text, yaml: &yaml, pieces: &pieces };
            let (next, next_pieces) = incremental::reparse(&edited, Some(&previous));
            prop_assert_eq!(&next, &yaml::parse(&edited), "after {:?}", (start, end, inserted));
            // Moving the trees out of an owned previous parse gives the same tree and pieces.
            let owned = incremental::reparse_owned(&edited, &text, yaml.clone(), &pieces);
            prop_assert_eq!(&owned, &(next.clone(), next_pieces.clone()));
            (text, yaml, pieces) = (edited, next, next_pieces);
        }
    }
}

/// An edit inside one document of many re-parses that document only, and the documents after it
/// are reused at their new offsets.
#[test]
fn an_edit_reparses_only_the_document_it_touches() {
    let (yaml, pieces) = incremental::parse_with_pieces(MULTI);
    let edited = MULTI.replace("name: p", "name: policy");
    let previous = incremental::Previous {
        text: MULTI,
        yaml: &yaml,
        pieces: &pieces,
    };
    let (next, _, parsed) = incremental::reparse_counted(&edited, Some(&previous));
    assert_eq!(parsed, 1);
    assert_eq!(next, yaml::parse(&edited));
    assert_eq!(next.documents.len(), 4);
    let (_, _, all) = incremental::reparse_counted(&edited, None);
    assert_eq!(all, 4);
}

/// A document cut short by an error at its very end spans the next piece's first character (the
/// error's range, and so the document's), so it is parsed again when what follows it changes:
/// here the piece after it is deleted and it becomes the last (found by the property above).
#[test]
fn a_document_cut_short_at_its_end_is_parsed_again_when_its_neighbour_changes() {
    let before = "a: 1\n---\n- [1, 2, {x\n---\nb: 2\n";
    let after = "a: 1\n---\n- [1, 2, {x\n";
    let (yaml, pieces) = incremental::parse_with_pieces(before);
    let previous = incremental::Previous {
        text: before,
        yaml: &yaml,
        pieces: &pieces,
    };
    let (next, _, parsed) = incremental::reparse_counted(after, Some(&previous));
    assert_eq!(next, yaml::parse(after));
    assert_eq!(
        parsed, 1,
        "the first document is reused, the broken one parsed again"
    );
}

/// A previous parse given away moves each piece's trees once: a file that now holds the same
/// document twice parses the second copy again, and still equals a fresh parse.
#[test]
fn an_owned_previous_parse_reused_twice_parses_the_second_copy() {
    let before = "a: 1\n---\nb: 2\n";
    let after = "a: 1\n---\na: 1\n---\nb: 2\n";
    let (yaml, pieces) = incremental::parse_with_pieces(before);
    let (next, next_pieces) = incremental::reparse_owned(after, before, yaml, &pieces);
    assert_eq!(next, yaml::parse(after));
    assert_eq!(
        (next, next_pieces),
        incremental::parse_with_pieces(after),
        "same tree and pieces as a fresh parse"
    );
}
