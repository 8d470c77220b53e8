//! The evaluator's trace: recording changes neither the result nor the cost, and the lines show
//! each node's value, skipped branches and a loop's last iteration.

use expect_test::{Expect, expect};

use super::super::trace_view::{lines, render_text};
use super::super::*;
use crate::cel::parse;

fn traced(src: &str) -> (Evaluation, String) {
    let parsed = parse(src);
    assert!(parsed.is_ok(), "{src}: {:?}", parsed.errors);
    let act = Activation::new();
    let (run, trace) = evaluate_traced(&parsed.ast, &act, &EvalOptions::default());
    let text = render_text(&lines(&parsed.ast, src, &trace), "");
    (run, text)
}

fn check_trace(src: &str, expected: Expect) {
    expected.assert_eq(&traced(src).1);
}

#[test]
fn tracing_changes_neither_result_nor_cost() {
    for src in [
        "[1, 2, 3].all(x, x < 3)",
        "[1, 2, 3].exists_one(x, x == 2) && 'a' + 'b' == 'ab'",
        "cel.bind(v, [1, 2], v.map(x, x * 2).filter(y, y > 2))",
        "{'a': 1}.transformMap(k, v, v + 1)",
        "1 / 0 == 1 || true",
        "[1, 2].map(a, [3, 4].map(b, a * b))",
    ] {
        let parsed = parse(src);
        let plain = evaluate(&parsed.ast, &Activation::new(), &EvalOptions::default());
        let (with_trace, _) = traced(src);
        assert_eq!(plain.cost, with_trace.cost, "{src}");
        assert_eq!(
            format!("{:?}", plain.result),
            format!("{:?}", with_trace.result),
            "{src}"
        );
    }
}

#[test]
fn an_error_is_shown_where_it_is_raised_and_absorbed() {
    check_trace(
        "1 / 0 == 1 || true",
        expect![[r#"
            1 / 0 == 1 || true  →  true
              1 / 0 == 1  →  error: division by zero
                1 / 0  →  1 / 0  →  error raised here: division by zero
        "#]],
    );
}

#[test]
fn an_inner_loop_shows_only_the_iteration_that_ended_the_outer_one() {
    check_trace(
        "[1, 2, 3].all(a, [10, 20].all(b, a * b < 40))",
        expect![[r#"
            [1, 2, 3].all(a, [10, 20].all(b, a * b < 40))  →  false  (last iteration: index 1: a = 2)
              [1, 2, 3]  →  [1, 2, 3]
              [10, 20].all(b, a * b < 40)  →  false  (last iteration: index 1: b = 20)
                [10, 20]  →  [10, 20]
                a * b < 40  →  40 < 40  →  false
                  a * b  →  2 * 20  →  40
                    a  →  2
                    b  →  20
        "#]],
    );
}

#[test]
fn bind_and_ternary() {
    check_trace(
        "cel.bind(v, 2, v > 1 ? 'big' : 'small')",
        expect![[r#"
            cel.bind(v, 2, v > 1 ? 'big' : 'small')  →  "big"
              v > 1 ? 'big' : 'small'  →  "big"
                v > 1  →  2 > 1  →  true
                  v  →  2
                'small'  →  (not evaluated)
        "#]],
    );
}

#[test]
fn a_qualified_function_namespace_is_not_shown_as_skipped() {
    check_trace(
        "strings.quote(x.y) == '\"a\"'",
        expect![[r#"
            strings.quote(x.y) == '"a"'  →  error: no such attribute: x
              strings.quote(x.y)  →  error: no such attribute: x
                x.y  →  error: no such attribute: x
                  x  →  error raised here: no such attribute: x
        "#]],
    );
    check_trace(
        "strings.quote('a') == '\"a\"'",
        expect![[r#"
        strings.quote('a') == '"a"'  →  "\"a\"" == "\"a\""  →  true
          strings.quote('a')  →  "\"a\""
    "#]],
    );
}
