//! Literals: numbers, strings in every quoting form and escape, bytes, keywords.

use expect_test::expect;

use super::{check_errors, check_parse};

#[test]
fn integers() {
    check_parse(
        "[0, 42, 0xFF, 0Xa, -1, -0x10, -9223372036854775808, 9223372036854775807]",
        expect![[r#"
        list @0..72
          int 0 @1..2
          int 42 @4..6
          int 255 @8..12
          int 10 @14..17
          int -1 @19..21
          int -16 @23..28
          int -9223372036854775808 @30..50
          int 9223372036854775807 @52..71
    "#]],
    );
}

#[test]
fn unsigned() {
    check_parse(
        "[0u, 42U, 0xFFu, 18446744073709551615u]",
        expect![[r#"
        list @0..39
          uint 0 @1..3
          uint 42 @5..8
          uint 255 @10..15
          uint 18446744073709551615 @17..38
    "#]],
    );
}

#[test]
fn doubles() {
    check_parse(
        "[1.5, .5, 1e3, 1E-3, 2.5e+2, -4.1, 0.0]",
        expect![[r#"
        list @0..39
          double 1.5 @1..4
          double 0.5 @6..8
          double 1000.0 @10..13
          double 0.001 @15..19
          double 250.0 @21..27
          double -4.1 @29..33
          double 0.0 @35..38
    "#]],
    );
}

#[test]
fn dot_after_int_is_a_selection() {
    check_parse(
        "1.e5",
        expect![[r#"
        select .e5 @0..4
          int 1 @0..1
    "#]],
    );
}

#[test]
fn number_errors() {
    check_errors(
        "[9223372036854775808, -9223372036854775809, 0xFFFFFFFFFFFFFFFFF, 18446744073709551616u, 1.99e90000009]",
        expect![[r#"
            1:2: invalid int literal
              | [9223372036854775808, -9223372036854775809, 0xFFFFFFFFFFFFFFFFF, 18446744073709551616u, 1.99e90000009]
              |  ^^^^^^^^^^^^^^^^^^^
            1:23: invalid int literal
              | [9223372036854775808, -9223372036854775809, 0xFFFFFFFFFFFFFFFFF, 18446744073709551616u, 1.99e90000009]
              |                       ^^^^^^^^^^^^^^^^^^^^
            1:45: invalid int literal
              | [9223372036854775808, -9223372036854775809, 0xFFFFFFFFFFFFFFFFF, 18446744073709551616u, 1.99e90000009]
              |                                             ^^^^^^^^^^^^^^^^^^^
            1:66: invalid uint literal
              | [9223372036854775808, -9223372036854775809, 0xFFFFFFFFFFFFFFFFF, 18446744073709551616u, 1.99e90000009]
              |                                                                  ^^^^^^^^^^^^^^^^^^^^^
            1:89: invalid double literal
              | [9223372036854775808, -9223372036854775809, 0xFFFFFFFFFFFFFFFFF, 18446744073709551616u, 1.99e90000009]
              |                                                                                         ^^^^^^^^^^^^^
        "#]],
    );
}

#[test]
fn string_quoting_forms() {
    check_parse(
        r#"["a", 'b', """c
"d""", '''e'f''', r"\n", R'\x', r"""\"x""", b"g", B'h', br"\i", b'''j''']"#,
        expect![[r#"
            list @0..89
              string "a" @1..4
              string "b" @6..9
              string "c\n\"d" @11..21
              string "e'f" @23..32
              string "\\n" @34..39
              string "\\x" @41..46
              string "\\\"x" @48..58
              bytes b"g" @60..64
              bytes b"h" @66..70
              bytes b"\\i" @72..78
              bytes b"j" @80..88
        "#]],
    );
}

#[test]
fn string_escapes() {
    check_parse(
        r#""\a\b\f\n\r\t\v\\\?\"\'\`|\101|\x41\X42|\u00e9|\U0001F600""#,
        expect![[r#"
            string "\u{7}\u{8}\u{c}\n\r\t\u{b}\\?\"'`|A|AB|é|😀" @0..58
        "#]],
    );
}

#[test]
fn bytes_escapes_are_bytes() {
    check_parse(
        r#"b"\xff\377\u00""#.replace("\\u00", "ÿ").as_str(),
        expect![[r#"
        bytes b"\xff\xff\xc3\xbf" @0..13
    "#]],
    );
}

#[test]
fn escape_errors_point_at_the_literal() {
    check_errors(
        r#"'\udead' + '\U00110000' + "\xFh" + "\8" + b"\u00e9" + "ok"#,
        expect![[r#"
            1:1: invalid unicode code point
              | '\udead' + '\U00110000' + "\xFh" + "\8" + b"\u00e9" + "ok
              | ^^^^^^^
            1:12: invalid unicode code point
              | '\udead' + '\U00110000' + "\xFh" + "\8" + b"\u00e9" + "ok
              |            ^^^^^^^^^^^
            1:27: Syntax error: token recognition error at: '"\xFh'
              | '\udead' + '\U00110000' + "\xFh" + "\8" + b"\u00e9" + "ok
              |                           ^^^^^
            1:36: Syntax error: token recognition error at: '"\8'
              | '\udead' + '\U00110000' + "\xFh" + "\8" + b"\u00e9" + "ok
              |                                    ^^^
            1:43: \u and \U escapes are not allowed in bytes
              | '\udead' + '\U00110000' + "\xFh" + "\8" + b"\u00e9" + "ok
              |                                           ^^^^
            1:55: Syntax error: unterminated string literal
              | '\udead' + '\U00110000' + "\xFh" + "\8" + b"\u00e9" + "ok
              |                                                       ^^^
        "#]],
    );
}

#[test]
fn unterminated_strings() {
    check_errors(
        "'abc\n + \"\"\"x",
        expect![[r#"
        1:1: Syntax error: unterminated string literal
          | 'abc
          | ^^^^
        2:4: Syntax error: unterminated string literal
          |  + """x
          |    ^^^^
    "#]],
    );
}

#[test]
fn keywords_and_reserved_words() {
    check_parse(
        "[true, false, null]",
        expect![[r#"
        list @0..19
          true @1..5
          false @7..12
          null @14..18
    "#]],
    );
    check_errors(
        "if + var.x + a.var + package(1)",
        expect![[r#"
        1:1: reserved identifier: if
          | if + var.x + a.var + package(1)
          | ^^
        1:6: reserved identifier: var
          | if + var.x + a.var + package(1)
          |      ^^^
        1:22: reserved identifier: package
          | if + var.x + a.var + package(1)
          |                      ^^^^^^^
    "#]],
    );
}

#[test]
fn comments_and_whitespace() {
    check_parse(
        "a // first\n\t+ // second\r\n\x0cb",
        expect![[r#"
        binary _+_ @0..27
          ident a @0..1
          ident b @26..27
    "#]],
    );
}

#[test]
fn unknown_characters() {
    check_errors(
        "a | b & c = d $ é",
        expect![[r#"
            1:3: Syntax error: token recognition error at: '| '
              | a | b & c = d $ é
              |   ^
            1:5: Syntax error: mismatched input 'b' expecting <EOF>
              | a | b & c = d $ é
              |     ^
            1:7: Syntax error: token recognition error at: '& '
              | a | b & c = d $ é
              |       ^
            1:11: Syntax error: token recognition error at: '='
              | a | b & c = d $ é
              |           ^
            1:15: Syntax error: token recognition error at: '$'
              | a | b & c = d $ é
              |               ^
            1:17: Syntax error: token recognition error at: 'é'
              | a | b & c = d $ é
              |                 ^
        "#]],
    );
}

#[test]
fn escaped_line_break_ends_the_literal() {
    check_errors(
        "'a\\\r\nb'",
        expect![[r#"
            1:1: Syntax error: unterminated string literal
              | 'a\
              | ^^^
            1:1: Syntax error: token recognition error at: ''a\'
              | 'a\
              | ^^^
            2:1: Syntax error: unterminated string literal
              | b'
              | ^^
            2:1: Syntax error: extraneous input 'b'' expecting <EOF>
              | b'
              | ^^
        "#]],
    );
}

#[test]
fn tokens_keep_their_spans() {
    let (tokens, errors) = crate::cel::tokenize("a.b >= 1u // c\n'x'");
    let shown: Vec<String> = tokens
        .iter()
        .map(|t| format!("{:?}@{:?}", t.kind, t.range))
        .collect();
    expect!["Ident@0..1 Dot@1..2 Ident@2..3 GreaterEq@4..6 Uint@7..9 String@15..18 Eof@18..18"]
        .assert_eq(&shown.join(" "));
    assert!(errors.is_empty());
}
