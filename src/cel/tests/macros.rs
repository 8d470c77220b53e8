//! Macros: every kind is kept as a call shape with its variable names; malformed ones give
//! cel-go's errors and an `Error` node keeping the target and arguments.

use expect_test::expect;

use super::{ParseOptions, check_errors, check_parse, check_parse_with};

#[test]
fn has() {
    check_parse(
        "has(a.b.c)",
        expect![[r#"
        macro Has has() @0..10
          select .c @4..9
            select .b @4..7
              ident a @4..5
    "#]],
    );
    check_errors(
        "has(m) || has(a.?b) || has(a, b)",
        expect![[r#"
        1:5: invalid argument to has() macro
          | has(m) || has(a.?b) || has(a, b)
          |     ^
        1:16: invalid argument to has() macro
          | has(m) || has(a.?b) || has(a, b)
          |                ^^^
    "#]],
    );
}

#[test]
fn quantifiers() {
    check_parse(
        "l.all(x, x > 0) && l.exists(x, x > 0) && l.exists_one(x, x > 0) && l.existsOne(x, x > 0)",
        expect![[r#"
        binary _&&_ @0..88
          binary _&&_ @0..63
            binary _&&_ @0..37
              macro All .all(x) @0..15
                ident l @0..1
                binary _>_ @9..14
                  ident x @9..10
                  int 0 @13..14
              macro Exists .exists(x) @19..37
                ident l @19..20
                binary _>_ @31..36
                  ident x @31..32
                  int 0 @35..36
            macro ExistsOne .exists_one(x) @41..63
              ident l @41..42
              binary _>_ @57..62
                ident x @57..58
                int 0 @61..62
          macro ExistsOne .existsOne(x) @67..88
            ident l @67..68
            binary _>_ @82..87
              ident x @82..83
              int 0 @86..87
    "#]],
    );
}

#[test]
fn two_variable_quantifiers() {
    check_parse(
        "m.all(k, v, v > k) || m.exists(k, v, v) || m.existsOne(k, v, v)",
        expect![[r#"
        binary _||_ @0..63
          binary _||_ @0..39
            macro All .all(k, v) @0..18
              ident m @0..1
              binary _>_ @12..17
                ident v @12..13
                ident k @16..17
            macro Exists .exists(k, v) @22..39
              ident m @22..23
              ident v @37..38
          macro ExistsOne .existsOne(k, v) @43..63
            ident m @43..44
            ident v @61..62
    "#]],
    );
}

#[test]
fn map_and_filter() {
    check_parse(
        "l.map(x, x * 2) + l.map(x, x > 0, x * 2) + l.filter(x, x > 0)",
        expect![[r#"
        binary _+_ @0..61
          binary _+_ @0..40
            macro Map .map(x) @0..15
              ident l @0..1
              binary _*_ @9..14
                ident x @9..10
                int 2 @13..14
            macro Map .map(x) @18..40
              ident l @18..19
              binary _>_ @27..32
                ident x @27..28
                int 0 @31..32
              binary _*_ @34..39
                ident x @34..35
                int 2 @38..39
          macro Filter .filter(x) @43..61
            ident l @43..44
            binary _>_ @55..60
              ident x @55..56
              int 0 @59..60
    "#]],
    );
}

#[test]
fn transforms() {
    check_parse(
        "l.transformList(i, v, v * i) + m.transformMap(k, v, k != '', v) + m.transformMapEntry(k, v, {v: k})",
        expect![[r#"
            binary _+_ @0..99
              binary _+_ @0..63
                macro TransformList .transformList(i, v) @0..28
                  ident l @0..1
                  binary _*_ @22..27
                    ident v @22..23
                    ident i @26..27
                macro TransformMap .transformMap(k, v) @31..63
                  ident m @31..32
                  binary _!=_ @52..59
                    ident k @52..53
                    string "" @57..59
                  ident v @61..62
              macro TransformMapEntry .transformMapEntry(k, v) @66..99
                ident m @66..67
                map @92..98
                  key ident v @93..94
                  value ident k @96..97
        "#]],
    );
}

#[test]
fn sort_by_opt_map_and_bind() {
    check_parse(
        "l.sortBy(x, -x) + o.optMap(x, x + 1) + o.optFlatMap(x, f(x)) + cel.bind(y, 1, y + y)",
        expect![[r#"
        binary _+_ @0..84
          binary _+_ @0..60
            binary _+_ @0..36
              macro SortBy .sortBy(x) @0..15
                ident l @0..1
                unary -_ @12..14
                  ident x @13..14
              macro OptMap .optMap(x) @18..36
                ident o @18..19
                binary _+_ @30..35
                  ident x @30..31
                  int 1 @34..35
            macro OptFlatMap .optFlatMap(x) @39..60
              ident o @39..40
              call f @55..59
                ident x @57..58
          macro Bind bind(y) @63..84
            int 1 @75..76
            binary _+_ @78..83
              ident y @78..79
              ident y @82..83
    "#]],
    );
}

#[test]
fn wrong_arity_is_a_plain_call() {
    check_parse(
        "[l.map(x), l.all(a, b, c, d), x.bind(a, b, c), has(a.b, c)]",
        expect![[r#"
        list @0..59
          call .map @1..9
            ident l @1..2
            ident x @7..8
          call .all @11..28
            ident l @11..12
            ident a @17..18
            ident b @20..21
            ident c @23..24
            ident d @26..27
          call .bind @30..45
            ident x @30..31
            ident a @37..38
            ident b @40..41
            ident c @43..44
          call has @47..58
            select .b @51..54
              ident a @51..52
            ident c @56..57
    "#]],
    );
}

#[test]
fn variable_errors() {
    check_errors(
        "1.all(2, 3)",
        expect![[r#"
        1:7: argument must be a simple name
          | 1.all(2, 3)
          |       ^
    "#]],
    );
    check_errors(
        "m.filter(a.b, false)",
        expect![[r#"
        1:11: argument is not an identifier
          | m.filter(a.b, false)
          |           ^^
    "#]],
    );
    check_errors(
        "m.map(__result__, __result__)",
        expect![[r#"
        1:7: iteration variable overwrites accumulator variable
          | m.map(__result__, __result__)
          |       ^^^^^^^^^^
    "#]],
    );
    check_errors(
        "m.all(k, k, true)",
        expect![[r#"
        1:10: duplicate variable name: k
          | m.all(k, k, true)
          |          ^
    "#]],
    );
    check_errors(
        "cel.bind(a.b, 1, 2)",
        expect![[r#"
        1:11: cel.bind() variable name must be a simple identifier
          | cel.bind(a.b, 1, 2)
          |           ^^
    "#]],
    );
    check_errors(
        "o.optMap(.x, x)",
        expect![[r#"
        1:10: optMap() variable name must be a simple identifier
          | o.optMap(.x, x)
          |          ^^
    "#]],
    );
}

#[test]
fn malformed_macro_keeps_its_parts() {
    check_parse(
        "l.map(x.y, x + 1)",
        expect![[r#"
        error @0..17
          ident l @0..1
          select .y @6..9
            ident x @6..7
          binary _+_ @11..16
            ident x @11..12
            int 1 @15..16
        error @7..9: argument is not an identifier
    "#]],
    );
}

#[test]
fn macros_can_be_disabled() {
    let options = ParseOptions {
        macros: false,
        ..ParseOptions::default()
    };
    check_parse_with(
        "has(a.b) && l.all(x, x)",
        &options,
        expect![[r#"
        binary _&&_ @0..23
          call has @0..8
            select .b @4..7
              ident a @4..5
          call .all @12..23
            ident l @12..13
            ident x @18..19
            ident x @21..22
    "#]],
    );
}

#[test]
fn block_variables() {
    check_parse(
        "[1].exists(cel.iterVar(0, 0), cel.iterVar(0, 0) > 0)",
        expect![[r#"
        macro Exists .exists(@it:0:0) @0..52
          list @0..3
            int 1 @1..2
          binary _>_ @30..51
            call .iterVar @30..47
              ident cel @30..33
              int 0 @42..43
              int 0 @45..46
            int 0 @50..51
    "#]],
    );
}
