//! Operators and member expressions: precedence, associativity, unary runs, selection, indexing,
//! calls, optional syntax, list/map literals and message construction.

use expect_test::expect;

use super::{ParseOptions, check_errors, check_errors_with, check_parse, check_parse_with};

#[test]
fn precedence_ladder() {
    check_parse(
        "a || b && c == d + e * f",
        expect![[r#"
        binary _||_ @0..24
          ident a @0..1
          binary _&&_ @5..24
            ident b @5..6
            binary _==_ @10..24
              ident c @10..11
              binary _+_ @15..24
                ident d @15..16
                binary _*_ @19..24
                  ident e @19..20
                  ident f @23..24
    "#]],
    );
    check_parse(
        "a * b + c < d && e || f ? g : h",
        expect![[r#"
        conditional @0..31
          binary _||_ @0..23
            binary _&&_ @0..18
              binary _<_ @0..13
                binary _+_ @0..9
                  binary _*_ @0..5
                    ident a @0..1
                    ident b @4..5
                  ident c @8..9
                ident d @12..13
              ident e @17..18
            ident f @22..23
          ident g @26..27
          ident h @30..31
    "#]],
    );
}

#[test]
fn left_associativity() {
    check_parse(
        "a - b - c",
        expect![[r#"
        binary _-_ @0..9
          binary _-_ @0..5
            ident a @0..1
            ident b @4..5
          ident c @8..9
    "#]],
    );
    check_parse(
        "a < b < c",
        expect![[r#"
        binary _<_ @0..9
          binary _<_ @0..5
            ident a @0..1
            ident b @4..5
          ident c @8..9
    "#]],
    );
    check_parse(
        "a / b * c % d",
        expect![[r#"
        binary _%_ @0..13
          binary _*_ @0..9
            binary _/_ @0..5
              ident a @0..1
              ident b @4..5
            ident c @8..9
          ident d @12..13
    "#]],
    );
}

#[test]
fn conditional_is_right_associative() {
    check_parse(
        "a ? b : c ? d : e",
        expect![[r#"
        conditional @0..17
          ident a @0..1
          ident b @4..5
          conditional @8..17
            ident c @8..9
            ident d @12..13
            ident e @16..17
    "#]],
    );
}

#[test]
fn relations_and_in() {
    check_parse(
        "x in [1] == (y != z) && p <= q && r >= s && t > u",
        expect![[r#"
        binary _&&_ @0..49
          binary _&&_ @0..40
            binary _&&_ @0..30
              binary _==_ @0..20
                binary @in @0..8
                  ident x @0..1
                  list @5..8
                    int 1 @6..7
                binary _!=_ @12..20
                  ident y @13..14
                  ident z @18..19
              binary _<=_ @24..30
                ident p @24..25
                ident q @29..30
            binary _>=_ @34..40
              ident r @34..35
              ident s @39..40
          binary _>_ @44..49
            ident t @44..45
            ident u @48..49
    "#]],
    );
}

#[test]
fn unary_runs_collapse_by_parity() {
    check_parse(
        "[!a, !!a, !!!a, -a, --a, ---a]",
        expect![[r#"
        list @0..30
          unary !_ @1..3
            ident a @2..3
          ident a @7..8
          unary !_ @10..14
            ident a @13..14
          unary -_ @16..18
            ident a @17..18
          ident a @22..23
          unary -_ @25..29
            ident a @28..29
    "#]],
    );
}

#[test]
fn minus_folds_into_number_literals() {
    check_parse(
        "[4--4, 4--4.1, -1.x, --1, -(1), !-1]",
        expect![[r#"
        list @0..36
          binary _-_ @1..5
            int 4 @1..2
            int -4 @3..5
          binary _-_ @7..13
            int 4 @7..8
            double -4.1 @9..13
          select .x @15..19
            int -1 @15..17
          int 1 @23..24
          unary -_ @26..30
            int 1 @27..30
          unary !_ @32..35
            int -1 @33..35
    "#]],
    );
}

#[test]
fn mixed_unary_runs_are_errors() {
    check_errors(
        "!-a",
        expect![[r#"
            1:3: Syntax error: no viable alternative at input '-a'
              | !-a
              |   ^
        "#]],
    );
}

#[test]
fn member_chain() {
    check_parse(
        "a.b[0].c(d)[?e].?f",
        expect![[r#"
        select .?f @0..18
          index ? @0..15
            call .c @0..11
              index @0..6
                select .b @0..3
                  ident a @0..1
                int 0 @4..5
              ident d @9..10
            ident e @13..14
    "#]],
    );
}

#[test]
fn root_scoped_names() {
    check_parse(
        "[.a, .a.b, .f(x), .pkg.Msg{}]",
        expect![[r#"
        list @0..29
          ident .a @1..3
          select .b @5..9
            ident .a @5..7
          call .f @11..16
            ident x @14..15
          struct .pkg.Msg @18..28
    "#]],
    );
}

#[test]
fn global_and_member_calls() {
    check_parse(
        "size(x) + x.startsWith('a') + f() + a.b.c(1, 2)",
        expect![[r#"
        binary _+_ @0..47
          binary _+_ @0..33
            binary _+_ @0..27
              call size @0..7
                ident x @5..6
              call .startsWith @10..27
                ident x @10..11
                string "a" @23..26
            call f @30..33
          call .c @36..47
            select .b @36..39
              ident a @36..37
            int 1 @42..43
            int 2 @45..46
    "#]],
    );
}

#[test]
fn lists_and_maps_allow_trailing_commas() {
    check_parse(
        "[1, ?b, ] + {'k': 1, ?k2: v, }",
        expect![[r#"
        binary _+_ @0..30
          list @0..9
            int 1 @1..2
            ?ident b @5..6
          map @12..30
            key string "k" @13..16
            value int 1 @18..19
            ?key ident k2 @22..24
            value ident v @26..27
    "#]],
    );
}

#[test]
fn message_construction() {
    check_parse(
        "Object{spec: Object.spec{replicas: 1, ?paused: x}}",
        expect![[r#"
        struct Object @0..50
          spec: struct Object.spec @13..49
            replicas: int 1 @35..36
            ?paused: ident x @47..48
    "#]],
    );
    check_parse(
        "JSONPatch{op: \"add\", path: \"/x\", value: 1,}",
        expect![[r#"
        struct JSONPatch @0..43
          op: string "add" @14..19
          path: string "/x" @27..31
          value: int 1 @40..41
    "#]],
    );
}

#[test]
fn optional_syntax_can_be_turned_off() {
    let options = ParseOptions {
        optional_syntax: false,
        ..ParseOptions::default()
    };
    check_errors_with(
        "a.?b || a[?b] || [?a] || {?a: b} || M{?f: v}",
        &options,
        expect![[r#"
        1:2: unsupported syntax '.?'
          | a.?b || a[?b] || [?a] || {?a: b} || M{?f: v}
          |  ^
        1:11: unsupported syntax '[?'
          | a.?b || a[?b] || [?a] || {?a: b} || M{?f: v}
          |           ^
        1:19: unsupported syntax '?'
          | a.?b || a[?b] || [?a] || {?a: b} || M{?f: v}
          |                   ^
        1:27: unsupported syntax '?'
          | a.?b || a[?b] || [?a] || {?a: b} || M{?f: v}
          |                           ^
        1:39: unsupported syntax '?'
          | a.?b || a[?b] || [?a] || {?a: b} || M{?f: v}
          |                                       ^
    "#]],
    );
}

#[test]
fn escaped_field_names() {
    let on = ParseOptions {
        ident_escape_syntax: true,
        ..ParseOptions::default()
    };
    check_parse_with(
        "a.`b-c`.`in` + M{`x.y`: 1}",
        &on,
        expect![[r#"
        binary _+_ @0..26
          select .in @0..12
            select .b-c @0..7
              ident a @0..1
          struct M @15..26
            x.y: int 1 @24..25
    "#]],
    );
    check_errors(
        "a.`b-c`",
        expect![[r#"
        1:3: unsupported syntax: '`'
          | a.`b-c`
          |   ^^^^^
    "#]],
    );
    check_errors_with(
        "`b-c` + a.`$b`",
        &on,
        expect![[r#"
            1:1: Syntax error: mismatched input '`b-c`' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
              | `b-c` + a.`$b`
              | ^^^^^
            1:11: Syntax error: token recognition error at: '`$'
              | `b-c` + a.`$b`
              |           ^^
            1:15: Syntax error: no viable alternative at input '.`$b`'
              | `b-c` + a.`$b`
              |               ^
        "#]],
    );
}

#[test]
fn operator_function_names() {
    use crate::cel::ops::{BinaryOp, UnaryOp};
    let names: Vec<&str> = [BinaryOp::In, BinaryOp::And, BinaryOp::Rem, BinaryOp::Ne]
        .iter()
        .map(|op| op.function_name())
        .chain([UnaryOp::Not.function_name(), UnaryOp::Neg.function_name()])
        .collect();
    assert_eq!(names, ["@in", "_&&_", "_%_", "_!=_", "!_", "-_"]);
}

/// Each node's anchor (where cel-go reports it), in pre-order.
#[track_caller]
fn check_anchors(src: &str, expect: expect_test::Expect) {
    let parsed = crate::cel::parse(src);
    let ast = &parsed.ast;
    let mut out = String::new();
    for id in ast.preorder(ast.root) {
        let expr = ast.expr(id);
        let anchor = usize::from(expr.anchor);
        let at = src
            .get(anchor..)
            .and_then(|s| s.chars().next())
            .unwrap_or(' ');
        let kind = format!("{:?}", expr.kind);
        let name = kind.split([' ', '(', '{']).next().unwrap_or("");
        out.push_str(&format!("{name} at {anchor} '{at}'\n"));
    }
    expect.assert_eq(&out);
}

#[test]
fn anchors_are_cel_go_positions() {
    check_anchors(
        "a.b[0] + f(x) ? M{f: -y} : l.all(v, v)",
        expect![[r#"
        Conditional at 14 '?'
        Binary at 7 '+'
        Index at 3 '['
        Select at 1 '.'
        Ident at 0 'a'
        Literal at 4 '0'
        Call at 10 '('
        Ident at 11 'x'
        Struct at 17 '{'
        Unary at 21 '-'
        Ident at 22 'y'
        Macro at 32 '('
        Ident at 27 'l'
        Ident at 36 'v'
    "#]],
    );
}
