//! Snapshot tests of the tree: every node with its range as `line:col`, style and value.

use expect_test::{Expect, expect};

use super::{Node, NodeKind, parse};
use crate::text::{Encoding, LineIndex, TextRange};

/// Prints the tree of every document (ranges as `line:col`, styles, values) and the errors.
pub(super) fn check(yaml: &str, expect: Expect) {
    let file = parse(yaml);
    let index = LineIndex::new(yaml);
    let mut out = String::new();
    for doc in &file.documents {
        out.push_str(&format!(
            "doc {}{}\n",
            pos(&index, doc.range),
            if doc.has_errors { " (errors)" } else { "" }
        ));
        if let Some(root) = &doc.root {
            print_node(&index, root, 1, &mut out);
        }
    }
    for error in &file.errors {
        out.push_str(&format!(
            "error {}: {}\n",
            pos(&index, error.range),
            error.message
        ));
    }
    expect.assert_eq(&out);
}

fn pos(index: &LineIndex, range: TextRange) -> String {
    let s = index.line_col(range.start(), Encoding::Utf8);
    let e = index.line_col(range.end(), Encoding::Utf8);
    format!("{}:{}-{}:{}", s.line, s.col, e.line, e.col)
}

fn print_node(index: &LineIndex, node: &Node, depth: usize, out: &mut String) {
    let indent = "  ".repeat(depth);
    let tag = node
        .tag
        .as_deref()
        .map(|t| format!(" {t}"))
        .unwrap_or_default();
    match &node.kind {
        NodeKind::Scalar(s) => {
            let exact = if s.source_map.is_exact() {
                ""
            } else {
                " (degraded map)"
            };
            out.push_str(&format!(
                "{indent}{:?}{tag} {} {:?}{exact}\n",
                s.style,
                pos(index, node.range),
                s.value
            ));
        }
        NodeKind::Sequence(items) => {
            out.push_str(&format!("{indent}seq{tag} {}\n", pos(index, node.range)));
            for item in items {
                print_node(index, item, depth + 1, out);
            }
        }
        NodeKind::Mapping(entries) => {
            out.push_str(&format!("{indent}map{tag} {}\n", pos(index, node.range)));
            for entry in entries {
                print_node(index, &entry.key, depth + 1, out);
                print_node(index, &entry.value, depth + 2, out);
            }
        }
    }
}

#[test]
fn simple_mapping() {
    check(
        "a: b\r\nc:\r\nd: !!str x\ne: !foo [1, 2]\nf: &x {a: 1}\ng: *x\n",
        expect![[r#"
        doc 0:0-5:5
          map 0:0-5:5
            Plain 0:0-0:1 "a"
              Plain 0:3-0:4 "b"
            Plain 1:0-1:1 "c"
              Plain 1:2-1:2 ""
            Plain 2:0-2:1 "d"
              Plain !!str 2:9-2:10 "x"
            Plain 3:0-3:1 "e"
              seq !foo 3:8-3:14
                Plain 3:9-3:10 "1"
                Plain 3:12-3:13 "2"
            Plain 4:0-4:1 "f"
              map 4:6-4:12
                Plain 4:7-4:8 "a"
                  Plain 4:10-4:11 "1"
            Plain 5:0-5:1 "g"
              map 5:3-5:5
                Plain 4:7-4:8 "a"
                  Plain 4:10-4:11 "1"
    "#]],
    );
}

#[test]
fn block_scalars() {
    check(
        "a: |  # c\n\n    x\n     y\nb: >-\n  f\n\n  g\nc: |2-\n    z\nd: !!str &k >+\n  q\n   r\n  s\n\ne: |\nf: >\n  one\n  two\n\n   more\n  back\n",
        expect![[r#"
            doc 0:0-21:6
              map 0:0-21:6
                Plain 0:0-0:1 "a"
                  Literal 0:3-3:6 "\nx\n y\n"
                Plain 4:0-4:1 "b"
                  Folded 4:3-7:3 "f\ng"
                Plain 8:0-8:1 "c"
                  Literal 8:3-9:5 "  z"
                Plain 10:0-10:1 "d"
                  Folded !!str 10:12-13:3 "q\n r\ns\n\n"
                Plain 15:0-15:1 "e"
                  Literal 15:3-15:4 ""
                Plain 16:0-16:1 "f"
                  Folded 16:3-21:6 "one two\n\n more\nback\n"
        "#]],
    );
}

#[test]
fn quoted_scalars() {
    check(
        "a: 'it''s'\nb: \"t\\té\\u00e9\\x41\\U0001F600\\\"\\\\\\/\\ \\_\\N\"\nc: \"fold\n  ed\n\n  para\"\nd: \"esc\\\n    aped\"\ne: 'multi\n   line  \n\n\n  x'\n",
        expect![[r#"
            doc 0:0-12:4
              map 0:0-12:4
                Plain 0:0-0:1 "a"
                  SingleQuoted 0:3-0:10 "it's"
                Plain 1:0-1:1 "b"
                  DoubleQuoted 1:3-1:42 "t\tééA😀\"\\/ \u{a0}\u{85}"
                Plain 2:0-2:1 "c"
                  DoubleQuoted 2:3-5:7 "fold ed\npara"
                Plain 6:0-6:1 "d"
                  DoubleQuoted 6:3-7:9 "escaped"
                Plain 8:0-8:1 "e"
                  SingleQuoted 8:3-12:4 "multi line\n\nx"
        "#]],
    );
}

#[test]
fn plain_multiline_and_crlf() {
    check(
        "a: plain\r\n  more\r\n\r\n  text\r\nb: |\r\n  l1\r\n  l2\r\n",
        expect![[r#"
        doc 0:0-6:4
          map 0:0-6:4
            Plain 0:0-0:1 "a"
              Plain 0:3-3:6 "plain more\ntext"
            Plain 4:0-4:1 "b"
              Literal 4:3-6:4 "l1\nl2\n"
    "#]],
    );
}

#[test]
fn errors_in_one_of_three_documents() {
    check(
        "a: 1\n---\nb: [1, 2\nc: 3\n---\nd: 4\n",
        expect![[r#"
        doc 0:0-0:4
          map 0:0-0:4
            Plain 0:0-0:1 "a"
              Plain 0:3-0:4 "1"
        doc 1:0-3:2 (errors)
          map 2:0-2:5
            Plain 2:0-2:1 "b"
              seq 2:3-2:5
                Plain 2:4-2:5 "1"
        doc 4:0-5:4
          map 5:0-5:4
            Plain 5:0-5:1 "d"
              Plain 5:3-5:4 "4"
        error 3:1-3:2: illegal placement of ':' indicator
    "#]],
    );
}

#[test]
fn empty_and_comments() {
    check("", expect![[""]]);
    check("# only a comment\n\n# another\n", expect![[""]]);
    check(
        "---\n...\n",
        expect![[r#"
            doc 0:0-1:3 (errors)
            error 1:0-1:1: did not find expected node content
        "#]],
    );
}

#[test]
fn undefined_alias() {
    check(
        "a: *nope\n",
        expect![[r#"
            doc 0:0-0:4 (errors)
              map 0:0-0:2
                Plain 0:0-0:1 "a"
                  Plain 0:2-0:2 ""
            error 0:3-0:4: while parsing node, found unknown anchor
        "#]],
    );
}

#[test]
fn binary_junk() {
    check(
        "a: \u{0}\u{1}\u{7f}b\n\u{1b}[0m: x\n",
        expect![[r#"
            doc 0:0-0:4 (errors)
              map 0:0-0:2
                Plain 0:0-0:1 "a"
                  Plain 0:2-0:2 ""
            error 0:3-0:4: found unprintable character
        "#]],
    );
}

#[test]
fn node_accessors() {
    let yaml = "m: {a: 1}\ns: [x]\nn1: ~\nn2:\nn3: !!null ''\nq: 'null'\nb: True\ni: -0x1\nj: 0o17\nk: 12\nf: 1.5e3\ng: .inf\nh: .NaN\nt: !!str 5\nd: 1\nd: 2\n";
    let file = parse(yaml);
    // `.inf` and `.NaN` values are floats kubectl cannot write as JSON: one refusal, the tree kept.
    let messages: Vec<&str> = file.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(messages, ["json: unsupported value: +Inf"]);
    let Some(root) = file.documents.first().and_then(|d| d.root.as_ref()) else {
        panic!("no root");
    };
    let kind = |key: &str| root.get(key).map(Node::kind_name);
    assert_eq!(kind("m"), Some("mapping"));
    assert_eq!(kind("s"), Some("sequence"));
    assert_eq!(kind("n1"), Some("null"));
    assert_eq!(kind("n2"), Some("null"));
    assert_eq!(kind("n3"), Some("null"));
    assert_eq!(kind("q"), Some("string"));
    assert_eq!(kind("b"), Some("boolean"));
    assert_eq!(kind("i"), Some("string"));
    assert_eq!(kind("j"), Some("integer"));
    assert_eq!(kind("k"), Some("integer"));
    assert_eq!(kind("f"), Some("number"));
    assert_eq!(kind("g"), Some("number"));
    assert_eq!(kind("h"), Some("number"));
    assert_eq!(kind("t"), Some("string"));
    assert_eq!(kind("missing"), None);
    assert!(root.get("n2").is_some_and(Node::is_null));
    assert!(!root.get("q").is_some_and(Node::is_null));
    assert_eq!(
        root.get("j")
            .and_then(Node::as_scalar)
            .and_then(|s| s.as_i64()),
        Some(15)
    );
    assert_eq!(root.get("d").and_then(Node::as_str), Some("1"));
    assert_eq!(
        root.get("m")
            .and_then(|m| m.get("a"))
            .and_then(Node::as_str),
        Some("1")
    );
    assert_eq!(
        root.get("s").and_then(Node::as_sequence).map(<[Node]>::len),
        Some(1)
    );
    assert_eq!(
        root.as_mapping()
            .and_then(|e| e.first())
            .and_then(|e| e.key_str()),
        Some("m")
    );
}

#[test]
fn flow_collections_end_at_their_closing_bracket_not_at_a_trailing_comment() {
    check(
        "---\nb: [x, y]   # c\nc: {a: 1}  # d\n",
        expect![[r#"
            doc 0:0-2:9
              map 1:0-2:9
                Plain 1:0-1:1 "b"
                  seq 1:3-1:9
                    Plain 1:4-1:5 "x"
                    Plain 1:7-1:8 "y"
                Plain 2:0-2:1 "c"
                  map 2:3-2:9
                    Plain 2:4-2:5 "a"
                      Plain 2:7-2:8 "1"
        "#]],
    );
}

/// Found by the `decoder_agrees_with_parser` property: a sequence whose first item follows a comment
/// on the dash's line started at the comment, so the block scalar's parent indentation was wrong.
#[test]
fn sequence_with_a_comment_after_its_first_dash_starts_at_the_dash() {
    check(
        "k:\n- #\n  |\n  \\\nafter: end\n",
        expect![[r#"
        doc 0:0-4:10
          map 0:0-4:10
            Plain 0:0-0:1 "k"
              seq 1:0-3:3
                Literal 2:2-3:3 "\\\n"
            Plain 4:0-4:5 "after"
              Plain 4:7-4:10 "end"
    "#]],
    );
}
