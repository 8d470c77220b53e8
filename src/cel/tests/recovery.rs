//! Error recovery: a broken expression still gives a tree that keeps every well-formed part, so
//! completion and hover work on half-typed input.

use expect_test::expect;

use super::{check_errors, check_parse};

#[test]
fn trailing_dot_keeps_the_operand() {
    check_parse(
        "object.spec.",
        expect![[r#"
            select .<missing> @0..12
              select .spec @0..11
                ident object @0..6
            error @12..12: Syntax error: no viable alternative at input '.'
        "#]],
    );
}

#[test]
fn trailing_dot_before_an_operator() {
    check_parse(
        "object.spec. == 1",
        expect![[r#"
            binary _==_ @0..17
              select .<missing> @0..13
                select .spec @0..11
                  ident object @0..6
              int 1 @16..17
            error @13..15: Syntax error: no viable alternative at input '. =='
        "#]],
    );
}

#[test]
fn unfinished_call_keeps_its_arguments() {
    check_parse(
        "f(a,",
        expect![[r#"
            call f @0..4
              ident a @2..3
              error @4..4
            error @4..4: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
        "#]],
    );
    check_parse(
        "object.metadata.name.startsWith(",
        expect![[r#"
            call .startsWith @0..32
              select .name @0..20
                select .metadata @0..15
                  ident object @0..6
            error @32..32: Syntax error: missing ')' at '<EOF>'
        "#]],
    );
}

#[test]
fn unfinished_list_and_map() {
    check_parse(
        "[1, 2",
        expect![[r#"
            list @0..5
              int 1 @1..2
              int 2 @4..5
            error @5..5: Syntax error: missing ']' at '<EOF>'
        "#]],
    );
    check_parse(
        "{'a': 1, 'b':",
        expect![[r#"
            map @0..13
              key string "a" @1..4
              value int 1 @6..7
              key string "b" @9..12
              value error @13..13
            error @13..13: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
        "#]],
    );
}

#[test]
fn missing_right_operand() {
    check_parse(
        "a &&",
        expect![[r#"
            binary _&&_ @0..4
              ident a @0..1
              error @4..4
            error @4..4: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
        "#]],
    );
    check_parse(
        "object.spec.replicas <= ",
        expect![[r#"
            binary _<=_ @0..24
              select .replicas @0..20
                select .spec @0..11
                  ident object @0..6
              error @24..24
            error @24..24: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
        "#]],
    );
}

#[test]
fn unfinished_conditional_and_index() {
    check_parse(
        "a ? b",
        expect![[r#"
            conditional @0..5
              ident a @0..1
              ident b @4..5
              error @5..5
            error @5..5: Syntax error: mismatched input '<EOF>' expecting ':'
        "#]],
    );
    check_parse(
        "a[",
        expect![[r#"
            index @0..2
              ident a @0..1
              error @2..2
            error @2..2: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
        "#]],
    );
}

#[test]
fn unfinished_macro() {
    check_parse(
        "l.all(x, ",
        expect![[r#"
            macro All .all(x) @0..9
              ident l @0..1
              error @9..9
            error @9..9: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
        "#]],
    );
}

#[test]
fn unfinished_macro_body_sees_its_variable() {
    check_parse(
        "object.spec.containers.all(c, c.",
        expect![[r#"
            macro All .all(c) @0..32
              select .containers @0..22
                select .spec @0..11
                  ident object @0..6
              select .<missing> @30..32
                ident c @30..31
            error @32..32: Syntax error: no viable alternative at input '.'
        "#]],
    );
}

#[test]
fn calls_take_no_trailing_comma() {
    check_parse(
        "f(a, )",
        expect![[r#"
            call f @0..6
              ident a @2..3
              error @5..5
            error @5..6: Syntax error: mismatched input ')' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
        "#]],
    );
}

#[test]
fn unfinished_struct() {
    check_parse(
        "Object{spec: Object.spec{replicas: }",
        expect![[r#"
            struct Object @0..36
              spec: struct Object.spec @13..36
                replicas: error @35..35
            error @35..36: Syntax error: mismatched input '}' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
            error @36..36: Syntax error: missing '}' at '<EOF>'
        "#]],
    );
}

#[test]
fn trailing_tokens_are_kept_in_an_error_root() {
    check_parse(
        "1 + 2\n3 +",
        expect![[r#"
            error @0..9
              binary _+_ @0..5
                int 1 @0..1
                int 2 @4..5
              binary _+_ @6..9
                int 3 @6..7
                error @9..9
            error @6..7: Syntax error: mismatched input '3' expecting <EOF>
            error @9..9: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
        "#]],
    );
}

#[test]
fn missing_comma_between_arguments() {
    check_parse(
        "f(a b, c)",
        expect![[r#"
            call f @0..9
              ident a @2..3
              ident b @4..5
              ident c @7..8
            error @4..5: Syntax error: mismatched input 'b' expecting {')'}
        "#]],
    );
}

#[test]
fn stray_closers_and_operators() {
    check_errors(
        ")",
        expect![[r#"
            1:1: Syntax error: mismatched input ')' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
              | )
              | ^
        "#]],
    );
    check_errors(
        "1 + + 2",
        expect![[r#"
            1:5: Syntax error: extraneous input '+' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
              | 1 + + 2
              |     ^
        "#]],
    );
    check_errors(
        "*@a | b",
        expect![[r#"
            1:1: Syntax error: extraneous input '*' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
              | *@a | b
              | ^
            1:2: Syntax error: token recognition error at: '@'
              | *@a | b
              |  ^
            1:5: Syntax error: token recognition error at: '| '
              | *@a | b
              |     ^
            1:7: Syntax error: extraneous input 'b' expecting <EOF>
              | *@a | b
              |       ^
        "#]],
    );
    check_errors(
        "f(a))",
        expect![[r#"
            1:5: Syntax error: extraneous input ')' expecting <EOF>
              | f(a))
              |     ^
        "#]],
    );
}

#[test]
fn cel_go_error_positions() {
    check_errors(
        "{a}",
        expect![[r#"
        1:3: Syntax error: mismatched input '}' expecting ':'
          | {a}
          |   ^
    "#]],
    );
    check_errors(
        "{:a}",
        expect![[r#"
            1:2: Syntax error: extraneous input ':' expecting {'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
              | {:a}
              |  ^
        "#]],
    );
    check_errors(
        "ind[a{b}]",
        expect![[r#"
        1:8: Syntax error: mismatched input '}' expecting ':'
          | ind[a{b}]
          |        ^
    "#]],
    );
    check_errors(
        "func{{a}}",
        expect![[r#"
            1:6: Syntax error: extraneous input '{' expecting {'}', ',', '?', IDENTIFIER, ESC_IDENTIFIER}
              | func{{a}}
              |      ^
            1:7: Syntax error: extraneous input 'a' expecting {'}', ','}
              | func{{a}}
              |       ^
            1:8: Syntax error: mismatched input '}' expecting ':'
              | func{{a}}
              |        ^
            1:9: Syntax error: extraneous input '}' expecting <EOF>
              | func{{a}}
              |         ^
        "#]],
    );
    check_errors(
        "TestAllTypes(){}",
        expect![[r#"
        1:15: Syntax error: mismatched input '{' expecting <EOF>
          | TestAllTypes(){}
          |               ^
    "#]],
    );
    check_errors(
        "TestAllTypes{}()",
        expect![[r#"
            1:15: Syntax error: mismatched input '(' expecting <EOF>
              | TestAllTypes{}()
              |               ^
            1:16: Syntax error: mismatched input ')' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
              | TestAllTypes{}()
              |                ^
        "#]],
    );
    check_errors(
        "self.true == 1",
        expect![[r#"
        1:6: Syntax error: mismatched input 'true' expecting IDENTIFIER
          | self.true == 1
          |      ^^^^
    "#]],
    );
    check_errors(
        "{\"a\": 1}.\"a\"",
        expect![[r#"
            1:10: Syntax error: no viable alternative at input '."a"'
              | {"a": 1}."a"
              |          ^^^
        "#]],
    );
    check_errors(
        "--",
        expect![[r#"
            1:3: Syntax error: no viable alternative at input '-'
              | --
              |   ^
        "#]],
    );
    check_errors(
        "a ? b ((?))",
        expect![[r#"
            1:9: Syntax error: mismatched input '?' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
              | a ? b ((?))
              |         ^
            1:10: Syntax error: mismatched input ')' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
              | a ? b ((?))
              |          ^
            1:12: Syntax error: mismatched input '<EOF>' expecting ':'
              | a ? b ((?))
              |            ^
        "#]],
    );
    check_errors(
        "      '😁' in ['😁', '😑', '😦']\n\t\t\t&& in.😁",
        expect![[r#"
            2:7: Syntax error: extraneous input 'in' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
              | 			&& in.😁
              |       ^^
            2:10: Syntax error: token recognition error at: '😁'
              | 			&& in.😁
              |          ^
            2:11: Syntax error: no viable alternative at input '.😁'
              | 			&& in.😁
              |           ^
        "#]],
    );
}

#[test]
fn many_errors_stop_at_the_limit() {
    let src = "$ ) ".repeat(1_000);
    let parsed = crate::cel::parse(&src);
    assert_eq!(
        parsed.errors.len(),
        crate::cel::ParseOptions::default().max_errors
    );
}

/// Syntax errors worded as cel-go's ANTLR parser words them (its default error strategy): a
/// stray token followed by what was expected is "extraneous" (`1 2`), otherwise "mismatched"; a
/// trailing comma then the end inserts the closer (`missing ']' at '<EOF>'`); a `-` with no
/// operand has "no viable alternative"; a lone `&` or `|` shows the character after it, as the
/// lexer read it; a bad escape is a token recognition error from the quote on. (The first
/// message of each is checked against cel-go's own table in tests/conformance_cel_parse.rs.)
#[test]
fn antlr_wording() {
    let shown: Vec<String> = [
        "[1, 2, ",
        "[1, 2",
        "[[1, 2]",
        "{'a': 1, ",
        "f(1 2)",
        "[",
        "{",
        "f(1, ",
        "1 2",
        "1 + 2 3",
        "--",
        "-",
        "- )",
        "a && | b",
        "a |",
        "'\\q'",
        "x.'y'",
        "{1: 2 3}",
        "(1",
        "msg{a 1}",
        "!-a",
        "a + .'b'",
    ]
    .iter()
    .map(|src| {
        let parsed = crate::cel::parse(src);
        let first = parsed.errors.first().map_or("", |e| e.message.as_str());
        format!("{src:?} -> {first}")
    })
    .collect();
    expect![[r#"
        "[1, 2, " -> Syntax error: missing ']' at '<EOF>'
        "[1, 2" -> Syntax error: missing ']' at '<EOF>'
        "[[1, 2]" -> Syntax error: missing ']' at '<EOF>'
        "{'a': 1, " -> Syntax error: missing '}' at '<EOF>'
        "f(1 2)" -> Syntax error: extraneous input '2' expecting {')'}
        "[" -> Syntax error: mismatched input '<EOF>' expecting {'[', ']', '{', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
        "{" -> Syntax error: mismatched input '<EOF>' expecting {'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
        "f(1, " -> Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
        "1 2" -> Syntax error: extraneous input '2' expecting <EOF>
        "1 + 2 3" -> Syntax error: extraneous input '3' expecting <EOF>
        "--" -> Syntax error: no viable alternative at input '-'
        "-" -> Syntax error: no viable alternative at input '-'
        "- )" -> Syntax error: no viable alternative at input '- )'
        "a && | b" -> Syntax error: token recognition error at: '| '
        "a |" -> Syntax error: token recognition error at: '|'
        "'\\q'" -> Syntax error: token recognition error at: ''\q'
        "x.'y'" -> Syntax error: no viable alternative at input '.'y''
        "{1: 2 3}" -> Syntax error: extraneous input '3' expecting {'}', ','}
        "(1" -> Syntax error: missing ')' at '<EOF>'
        "msg{a 1}" -> Syntax error: missing ':' at '1'
        "!-a" -> Syntax error: no viable alternative at input '-a'
        "a + .'b'" -> Syntax error: no viable alternative at input '.'b''"#]].assert_eq(&shown.join("\n"));
}
