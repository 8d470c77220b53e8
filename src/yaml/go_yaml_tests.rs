//! Leniency as go-yaml's (go.yaml.in/yaml/v2 `scannerc.go`, what sigs.k8s.io/yaml decodes with for
//! kubectl and the API server): what it accepts is read with the same value and an exact source
//! map, what it refuses is an error.

use expect_test::expect;

use super::tests::check;
use super::{NodeKind, parse};
use crate::text::TextSize;

/// `yaml_parser_scan_flow_scalar` has no indentation check: continuation lines of a quoted scalar
/// may start left of its key, and fold as usual (one space; an empty line gives a line feed).
#[test]
fn quoted_continuation_lines_left_of_the_key() {
    check(
        r#"spec:
  validations:
    - expression: "object.a &&
  object.b"
      message: 'one

 two'
    - expression: "x \
y"
"#,
        expect![[r#"
            doc 0:0-8:2
              map 0:0-8:2
                Plain 0:0-0:4 "spec"
                  map 1:2-8:2
                    Plain 1:2-1:13 "validations"
                      seq 2:4-8:2
                        map 2:6-6:5
                          Plain 2:6-2:16 "expression"
                            DoubleQuoted 2:18-3:11 "object.a && object.b"
                          Plain 4:6-4:13 "message"
                            SingleQuoted 4:15-6:5 "one\ntwo"
                        map 7:6-8:2
                          Plain 7:6-7:16 "expression"
                            DoubleQuoted 7:18-8:2 "x y"
        "#]],
    );
}

/// The decoded text maps back to the file exactly, on the continuation line too.
#[test]
fn continuation_left_of_the_key_keeps_an_exact_source_map() {
    let text = "a:\n  b: \"first &&\n second\"\n  c: d\n";
    let file = parse(text);
    assert!(file.errors.is_empty(), "{:?}", file.errors);
    let root = file.documents[0].root.as_ref().expect("a root");
    let b = root.get("a").and_then(|a| a.get("b")).expect("a.b");
    let NodeKind::Scalar(scalar) = &b.kind else {
        panic!("a scalar");
    };
    assert_eq!(scalar.value, "first && second");
    assert!(scalar.source_map.is_exact());
    let second = scalar.value.find("second").expect("second");
    let in_file = scalar.source_map.to_file(TextSize::from(second as u32));
    assert_eq!(&text[usize::from(in_file)..][..6], "second");
    let c = root.get("a").and_then(|a| a.get("c")).expect("a.c");
    assert_eq!(&text[c.range], "d");
}

/// go-yaml refuses these too: a multi-line key, and a document marker at column 0 inside the
/// quotes ("found unexpected document indicator").
#[test]
fn what_go_yaml_refuses_stays_an_error() {
    let key = parse("a:\n  \"multi\n line\": 1\n");
    assert!(!key.errors.is_empty());
    let marker = parse("a:\n  b: \"one\n---\n two\"\n");
    assert!(!marker.errors.is_empty());
}

/// Each such scalar costs one more read of its document, so their number is bounded
/// ([`MAX_MASKS`](super::mask::MAX_MASKS) a document); past it the parser's error stands.
#[test]
fn scalars_continued_left_of_their_key_are_bounded_per_document() {
    let document = |count: usize| {
        let mut text = String::from("a:\n");
        for i in 0..count {
            text.push_str(&format!("  k{i}: \"x\n y\"\n"));
        }
        text
    };
    let within = parse(&document(super::mask::MAX_MASKS));
    assert!(within.errors.is_empty(), "{:?}", within.errors);
    let beyond = parse(&document(super::mask::MAX_MASKS + 1));
    assert_eq!(beyond.errors.len(), 1);
}

/// go-yaml skips the blanks that start a quoted scalar's continuation line, tabs included, with no
/// indentation check.
#[test]
fn tabs_indenting_a_quoted_continuation_line() {
    check(
        "a:\n  b: \"x\n\ty\"\n  c: 'p\n \tq'\n",
        expect![[r#"
        doc 0:0-4:4
          map 0:0-4:4
            Plain 0:0-0:1 "a"
              map 1:2-4:4
                Plain 1:2-1:3 "b"
                  DoubleQuoted 1:5-2:3 "x y"
                Plain 3:2-3:3 "c"
                  SingleQuoted 3:5-4:4 "p q"
    "#]],
    );
}

/// go-yaml skips a tab after a key's `:` as it skips a space, in a block or a flow mapping
/// (`yaml_parser_scan_to_next_token`: tabs are skipped where no simple key may start); saphyr
/// wants a space there. The value is the same as with a space.
#[test]
fn a_tab_after_a_keys_colon() {
    check(
        "a:\t1\nb:\t\t{x:\tz, y: [p,\tq]}\n",
        expect![[r#"
            doc 0:0-1:21
              map 0:0-1:21
                Plain 0:0-0:1 "a"
                  Plain 0:3-0:4 "1"
                Plain 1:0-1:1 "b"
                  map 1:4-1:21
                    Plain 1:5-1:6 "x"
                      Plain 1:8-1:9 "z"
                    Plain 1:11-1:12 "y"
                      seq 1:14-1:20
                        Plain 1:15-1:16 "p"
                        Plain 1:18-1:19 "q"
        "#]],
    );
}

/// Where a simple key may start, go-yaml does not skip a tab: after the `:` of an explicit
/// `? key` and after a block sequence's `-` it is "found character that cannot start any token".
#[test]
fn a_tab_where_a_key_may_start_is_refused() {
    check(
        "? a\n:\t1\n",
        expect![[r#"
            doc 0:0-1:3 (errors)
              map 0:0-1:1
                Plain 0:2-0:3 "a"
                  Plain 1:1-1:1 ""
            error 1:2-1:3: ':' must be followed by a valid YAML whitespace
        "#]],
    );
    check(
        "- x\n-\ty\n- \tz\n",
        expect![[r#"
            doc 0:0-2:4 (errors)
              seq 0:0-2:4
                Plain 0:2-0:3 "x"
                Plain 1:2-1:3 "y"
                Plain 2:3-2:4 "z"
            error 1:1-1:2: found character that cannot start any token
            error 2:2-2:3: found character that cannot start any token
        "#]],
    );
}

/// kubectl splits a stream at every line that starts with `---` and refuses one with anything but
/// blanks or a comment after the dashes (apimachinery `pkg/util/yaml/decoder.go` `YAMLReader`); a
/// directive is then left alone before its `---`, which go-yaml refuses.
#[test]
fn document_separators_as_kubectl_splits_them() {
    check(
        "%YAML 1.1\n---\na: 1\n--- # fine\nb: 2\n--- |\n  text\n---x: 1\n",
        expect![[r#"
            doc 1:0-2:4 (errors)
              map 2:0-2:4
                Plain 2:0-2:1 "a"
                  Plain 2:3-2:4 "1"
            doc 3:0-4:4
              map 4:0-4:4
                Plain 4:0-4:1 "b"
                  Plain 4:3-4:4 "2"
            doc 5:0-7:1 (errors)
              Literal 5:4-6:6 "text\n"
            error 0:0-0:1: did not find expected <document start>
            error 5:4-5:5: invalid Yaml document separator: |
            error 7:0-7:1: did not find expected <document start>
            error 7:3-7:4: invalid Yaml document separator: x: 1
        "#]],
    );
}

/// A tab indenting a block and an alias inside its own anchor are refused in go-yaml's words
/// (scannerc.go: "found character that cannot start any token"; decode.go `alias`).
#[test]
fn refusals_in_go_yaml_words() {
    check(
        "a:\n\tb: 1\n",
        expect![[r#"
            doc 0:0-1:2 (errors)
              map 0:0-0:2
                Plain 0:0-0:1 "a"
                  Plain 0:2-0:2 ""
            error 1:1-1:2: found character that cannot start any token
        "#]],
    );
    check(
        "a: &a [1, *a]\n",
        expect![[r#"
            doc 0:0-0:11 (errors)
              map 0:0-0:8
                Plain 0:0-0:1 "a"
                  seq 0:6-0:8
                    Plain 0:7-0:8 "1"
            error 0:10-0:11: anchor 'a' value contains itself
        "#]],
    );
}

/// A list or a mapping as a key: go-yaml decodes every mapping into a Go map and refuses such a
/// key ("invalid map key", decode.go `mapping`); a scalar complex key is an ordinary key.
#[test]
fn collection_keys_are_refused() {
    check(
        "? a\n: 1\n? [x, y]\n: 2\n",
        expect![[r#"
            doc 0:0-3:3 (errors)
              map 0:0-3:3
                Plain 0:2-0:3 "a"
                  Plain 1:2-1:3 "1"
                seq 2:2-2:8
                  Plain 2:3-2:4 "x"
                  Plain 2:6-2:7 "y"
                  Plain 3:2-3:3 "2"
            error 2:2-2:3: invalid map key
        "#]],
    );
}

/// go-yaml refuses a tab in a block scalar's indentation: after the leading spaces while the
/// content indentation is not known, or left of it ("found a tab character where an indentation
/// space is expected", scannerc.go `yaml_parser_scan_block_scalar_breaks`); a tab past the
/// indentation is content.
#[test]
fn tabs_in_block_scalar_indentation() {
    check(
        "a: |\n  \tx\nb: |\n  x\n  \ty\nc: |2\n  \tz\n",
        expect![[r#"
            doc 0:0-6:4 (errors)
              map 0:0-6:4
                Plain 0:0-0:1 "a"
                  Literal 0:3-1:4 "\tx\n"
                Plain 2:0-2:1 "b"
                  Literal 2:3-4:4 "x\n\ty\n"
                Plain 5:0-5:1 "c"
                  Literal 5:3-6:4 "\tz\n"
            error 1:2-1:3: found a tab character where an indentation space is expected
        "#]],
    );
}

/// go-yaml decodes a document only when it parses, so a document with a syntax error reports
/// that error alone, not what its decoding would refuse besides.
#[test]
fn decoding_refusals_wait_for_a_document_that_parses() {
    check(
        "a: {{ x }}-y\n",
        expect![[r#"
            doc 0:0-0:11 (errors)
              map 0:0-0:10
                Plain 0:0-0:1 "a"
                  map 0:3-0:10
                    map 0:4-0:9
                      Plain 0:6-0:7 "x"
                        Plain 0:7-0:7 ""
                      Plain 0:9-0:9 ""
            error 0:10-0:11: while parsing a block mapping, did not find expected key
        "#]],
    );
}
