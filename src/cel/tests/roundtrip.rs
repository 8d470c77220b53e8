//! Printing: parse → print → parse gives the same tree (spans aside), on fixtures and on random
//! inputs; random inputs also check that the parser never panics and every child id is valid.

use expect_test::expect;
use proptest::prelude::*;

use crate::cel::{Ast, parse};

/// The tree without spans, to compare trees parsed from different texts.
fn shape(ast: &Ast) -> String {
    let tree = ast.debug_tree();
    tree.lines()
        .map(|line| line.split(" @").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[track_caller]
fn assert_round_trip(src: &str) -> String {
    let first = parse(src);
    assert!(first.errors.is_empty(), "{src}: {:?}", first.errors);
    let printed = first.ast.to_cel_string();
    let second = parse(&printed);
    assert!(second.errors.is_empty(), "{printed}: {:?}", second.errors);
    assert_eq!(
        shape(&first.ast),
        shape(&second.ast),
        "{src} printed as {printed}"
    );
    printed
}

#[test]
fn printer_output() {
    let printed = assert_round_trip(
        "(a + b) * -c.d[?0] - -(1) - --x - (-(-y)) ? {'k\\n': b'\\xff', ?1u: 2.0}[k] : M.N{f: [1, ?x,], g: 1e300}",
    );
    expect![[r#"(a + b) * -c.d[?0] - -(1) - x - -(-y) ? {"k\n": b"\xff", ?1u: 2.0}[k] : M.N{f: [1, ?x], g: 1e300}"#]].assert_eq(&printed);
}

#[test]
fn fixtures_round_trip() {
    let fixtures = [
        "a || b && c == d + e * f",
        "a - (b - c)",
        "(a ? b : c) ? d : e",
        "a ? (b ? c : d) : e",
        "!(!a)",
        "-(1).x",
        "-1.x",
        "(-1).x",
        "(a + b).c",
        "l.map(x, x > 0, x * 2).filter(y, y < 3)",
        "cel.bind(x, 1, has(x.y) && l.all(k, v, k))",
        ".a.b + .f(1) + .pkg.Msg{}",
        "'\\u0001\\t\"\\'' + \"é😀\" + b'\\x00ÿ'",
        "-9223372036854775808 + 18446744073709551615u + 0.5 + 1e-7",
        "a.?b.c[?d] + [?x] + {?k: v}",
        "x in [1, 2] && !(y in m)",
        "a < b == (c < d)",
    ];
    for src in fixtures {
        assert_round_trip(src);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_input_is_safe(src in "[abxy01. ()\\[\\]{}?:,!<=>&|+*/%'\"-]{0,40}") {
        let parsed = parse(&src);
        for expr in &parsed.ast.exprs {
            expr.kind.for_each_child(|child| assert!(child.index() < parsed.ast.len()));
            assert!(usize::from(expr.span.end()) <= src.len());
        }
        if parsed.errors.is_empty() {
            assert_round_trip(&src);
        }
    }

    #[test]
    fn random_expressions_round_trip(src in expression()) {
        assert_round_trip(&src);
    }
}

/// Well-formed expressions built from the grammar's productions.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        "[a-c]".prop_map(String::from),
        (0i64..100).prop_map(|i| i.to_string()),
        Just("-7".to_string()),
        Just("1.5".to_string()),
        Just("'s'".to_string()),
        Just("true".to_string()),
    ];
    leaf.prop_recursive(5, 48, 4, |inner| {
        let ops = prop_oneof![
            Just("+"),
            Just("-"),
            Just("*"),
            Just("/"),
            Just("%"),
            Just("=="),
            Just("<"),
            Just("in"),
            Just("&&"),
            Just("||")
        ];
        prop_oneof![
            (inner.clone(), ops, inner.clone()).prop_map(|(a, op, b)| format!("{a} {op} {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}) - ({b})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, c)| format!("({a}) ? ({b}) : {c}")),
            inner.clone().prop_map(|a| format!("-({a})")),
            inner.clone().prop_map(|a| format!("-({a}).g")),
            inner.clone().prop_map(|a| format!("!({a})")),
            inner.clone().prop_map(|a| format!("({a}).f")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a})[{b}]")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("[{a}, ?{b}]")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{{{a}: {b}}}")),
            inner.clone().prop_map(|a| format!("m.map(x, {a})")),
            inner.clone().prop_map(|a| format!("M{{f: {a}}}")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("f({a}, {b})")),
        ]
    })
}
