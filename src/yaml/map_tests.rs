//! Snapshot tests of source maps: for each character of a decoded scalar, the file text it maps to.

use expect_test::{Expect, expect};

use super::{Node, parse};
use crate::text::{Encoding, LineIndex, TextRange, TextSize};

/// Prints, for each character of the value of `k` in `yaml`, where the map sends it and the source
/// text it covers.
fn check_map(yaml: &str, expect: Expect) {
    let file = parse(yaml);
    let index = LineIndex::new(yaml);
    let node = file
        .documents
        .first()
        .and_then(|d| d.root.as_ref())
        .and_then(|r| r.get("k"));
    let Some(scalar) = node.and_then(Node::as_scalar) else {
        panic!("no scalar `k` in {yaml:?}: {:?}", file.errors);
    };
    assert!(file.errors.is_empty(), "{:?}", file.errors);
    let map = &scalar.source_map;
    let mut out = format!(
        "{:?} {:?}{}\n",
        scalar.style,
        scalar.value,
        if map.is_exact() { "" } else { " (degraded)" }
    );
    for (at, c) in scalar.value.char_indices() {
        let range = TextRange::at(TextSize::from(at as u32), TextSize::of(c));
        let source = map.to_file_range(range);
        let lc = index.line_col(source.start(), Encoding::Utf8);
        out.push_str(&format!(
            "  {c:?} {}:{} {:?}\n",
            lc.line, lc.col, &yaml[source]
        ));
    }
    let end = index.line_col(
        map.to_file(TextSize::of(scalar.value.as_str())),
        Encoding::Utf8,
    );
    out.push_str(&format!("  end {}:{}\n", end.line, end.col));
    expect.assert_eq(&out);
}

#[test]
fn map_of_double_quoted_escapes() {
    check_map(
        "k: \"\\\"\\\\\\/\\ \\0\\a\\b\\t\\\t\\n\\v\\f\\r\\e\\N\\_\\L\\P\\x41\\u00e9\\U0001F600é\"\n",
        expect![[r#"
            DoubleQuoted "\"\\/ \0\u{7}\u{8}\t\t\n\u{b}\u{c}\r\u{1b}\u{85}\u{a0}\u{2028}\u{2029}Aé😀é"
              '"' 0:4 "\\\""
              '\\' 0:6 "\\\\"
              '/' 0:8 "\\/"
              ' ' 0:10 "\\ "
              '\0' 0:12 "\\0"
              '\u{7}' 0:14 "\\a"
              '\u{8}' 0:16 "\\b"
              '\t' 0:18 "\\t"
              '\t' 0:20 "\\\t"
              '\n' 0:22 "\\n"
              '\u{b}' 0:24 "\\v"
              '\u{c}' 0:26 "\\f"
              '\r' 0:28 "\\r"
              '\u{1b}' 0:30 "\\e"
              '\u{85}' 0:32 "\\N"
              '\u{a0}' 0:34 "\\_"
              '\u{2028}' 0:36 "\\L"
              '\u{2029}' 0:38 "\\P"
              'A' 0:40 "\\x41"
              'é' 0:44 "\\u00e9"
              '😀' 0:50 "\\U0001F600"
              'é' 0:60 "é"
              end 0:62
        "#]],
    );
}

#[test]
fn map_of_double_quoted_folding() {
    check_map(
        "k: \"a \n   b\n\n  \n c\\\n   d\\\n\n  e \"\n",
        expect![[r#"
        DoubleQuoted "a b\n\ncd\ne "
          'a' 0:4 "a"
          ' ' 0:6 "\n"
          'b' 1:3 "b"
          '\n' 2:0 "\n"
          '\n' 3:2 "\n"
          'c' 4:1 "c"
          'd' 5:3 "d"
          '\n' 6:0 "\n"
          'e' 7:2 "e"
          ' ' 7:3 " "
          end 7:4
    "#]],
    );
}

#[test]
fn map_of_plain_and_single_quoted() {
    check_map(
        "k: a  b\n  c\r\n\r\n  d\n",
        expect![[r#"
        Plain "a  b c\nd"
          'a' 0:3 "a"
          ' ' 0:4 " "
          ' ' 0:5 " "
          'b' 0:6 "b"
          ' ' 0:7 "\n"
          'c' 1:2 "c"
          '\n' 2:0 "\r\n"
          'd' 3:2 "d"
          end 3:3
    "#]],
    );
    check_map(
        "k: 'it''s\n\n  x  '\n",
        expect![[r#"
        SingleQuoted "it's\nx  "
          'i' 0:4 "i"
          't' 0:5 "t"
          '\'' 0:6 "''"
          's' 0:8 "s"
          '\n' 1:0 "\n"
          'x' 2:2 "x"
          ' ' 2:3 " "
          ' ' 2:4 " "
          end 2:5
    "#]],
    );
}

#[test]
fn map_of_literal_blocks() {
    check_map(
        "k: |+\n\n  a\n  \tb\n   c\n\n\nz: 1\n",
        expect![[r#"
        Literal "\na\n\tb\n c\n\n\n"
          '\n' 1:0 "\n"
          'a' 2:2 "a"
          '\n' 2:3 "\n"
          '\t' 3:2 "\t"
          'b' 3:3 "b"
          '\n' 3:4 "\n"
          ' ' 4:2 " "
          'c' 4:3 "c"
          '\n' 4:4 "\n"
          '\n' 5:0 "\n"
          '\n' 6:0 "\n"
          end 7:0
    "#]],
    );
    check_map(
        "k: |2-\n    x\n   y\nz: 1\n",
        expect![[r#"
        Literal "  x\n y"
          ' ' 1:2 " "
          ' ' 1:3 " "
          'x' 1:4 "x"
          '\n' 1:5 "\n"
          ' ' 2:2 " "
          'y' 2:3 "y"
          end 2:4
    "#]],
    );
}

#[test]
fn map_of_folded_blocks() {
    check_map(
        "k: >\n  one\n  two\n\n  three\n    more\n  four\r\n\r\nz: 1\n",
        expect![[r#"
        Folded "one two\nthree\n  more\nfour\n"
          'o' 1:2 "o"
          'n' 1:3 "n"
          'e' 1:4 "e"
          ' ' 1:5 "\n"
          't' 2:2 "t"
          'w' 2:3 "w"
          'o' 2:4 "o"
          '\n' 3:0 "\n"
          't' 4:2 "t"
          'h' 4:3 "h"
          'r' 4:4 "r"
          'e' 4:5 "e"
          'e' 4:6 "e"
          '\n' 4:7 "\n"
          ' ' 5:2 " "
          ' ' 5:3 " "
          'm' 5:4 "m"
          'o' 5:5 "o"
          'r' 5:6 "r"
          'e' 5:7 "e"
          '\n' 5:8 "\n"
          'f' 6:2 "f"
          'o' 6:3 "o"
          'u' 6:4 "u"
          'r' 6:5 "r"
          '\n' 6:6 "\r\n"
          end 7:0
    "#]],
    );
}
