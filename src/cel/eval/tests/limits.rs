//! Cost accounting, cost-limit cut-offs for hostile expressions, lazy variables and stack depth.

use super::{run, show};
use crate::cel::eval::*;
use crate::cel::parse;

#[test]
fn lazy_variables_evaluate_once_and_charge_once() {
    let parsed = parse("variables.x + variables.x");
    let calls = std::cell::Cell::new(0);
    let mut act = Activation::new();
    act.bind_lazy(
        "variables.x",
        Box::new(|_budget| {
            calls.set(calls.get() + 1);
            Computed {
                result: Ok(Value::Int(20)),
                cost: 100,
            }
        }),
    );
    let out = evaluate(&parsed.ast, &act, &EvalOptions::default());
    assert_eq!(show(&out), "40");
    assert_eq!(calls.get(), 1);
    assert_eq!(out.cost, 100 + 1 + 1 + 1);
}

#[test]
fn costs() {
    let cost = |src: &str| run(src, &[]).cost;
    assert_eq!(cost("1"), 0);
    assert_eq!(cost("1 + 2"), 1);
    assert_eq!(cost("has({'a': 1}.a)"), 30);
    assert_eq!(cost("[1, 2]"), 10);
    assert_eq!(cost("{'a': 1}"), 30);
    assert_eq!(cost("'abc'.startsWith('a')"), 1);
    assert_eq!(cost("'abcdefghijk'.contains('abcdefghijk')"), 4);
    assert_eq!(cost("lists.range(10)"), 21);
    assert_eq!(cost("[3, 1, 2].sort()"), 10 + 9 * 2 + 11);
    assert_eq!(cost("sets.equivalent([1], [1])"), 10 + 10 + 1 + 2);
    assert_eq!(cost("[1, 2, 3].sum()"), 10 + 3);
    assert_eq!(cost("['ab', 'cd'].join('-')"), 10 + 1);
    // The list 10; per iteration 3 for the accumulator steps and 2 for `x > 0`; the result 1.
    assert_eq!(cost("[1, 2, 3].all(x, x > 0)"), 10 + 3 * (3 + 2) + 1);
    assert_eq!(cost("lists.range(1000000)"), 1_000_011);
}

#[test]
fn bombs_stop_with_the_cost_error() {
    // String doubling: 2^40 characters if nothing stops it.
    let mut doubling = "s39 + s39".to_string();
    for i in (0..40).rev() {
        let init = if i == 0 {
            "'ab'".to_string()
        } else {
            format!("s{0} + s{0}", i - 1)
        };
        doubling = format!("cel.bind(s{i}, {init}, {doubling})");
    }
    // List doubling: 1000 × 2^30 elements if nothing stops it (list `+` costs 1 in cel-go).
    let mut lists = "(l29 + l29).size()".to_string();
    for i in (0..30).rev() {
        let init = if i == 0 {
            "lists.range(1000)".to_string()
        } else {
            format!("l{0} + l{0}", i - 1)
        };
        lists = format!("cel.bind(l{i}, {init}, {lists})");
    }
    let bombs = [
        doubling.as_str(),
        "lists.range(1000000).map(x, x * 2).size()",
        "lists.range(1000).all(i, lists.range(1000).all(j, lists.range(1000).all(k, true)))",
        lists.as_str(),
        "lists.range(9000000000000000000).size()",
        // Replacement that multiplies the size of a string.
        "cel.bind(s, 'aaaaaaaaaa'.replace('a', 'aaaaaaaaaa').replace('a', 'aaaaaaaaaa'), \
         s.replace('a', s).replace('a', s).size())",
        // Nested lists compared element by element cost only their outer size in cel-go.
        "cel.bind(a, lists.range(400000), cel.bind(b, lists.range(399999) + [0], \
         sets.intersects([a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a], \
         [b, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b, b])))",
        // O(n²) calls are charged before they run.
        "lists.range(200000).distinct().size()",
        "sets.equivalent(lists.range(300000), lists.range(300000))",
    ];
    for bomb in bombs {
        let out = run(bomb, &[]);
        let err = out.result.err().map(|e| e.message);
        assert_eq!(err.as_deref(), Some(COST_LIMIT_MESSAGE), "{bomb}");
    }
}

#[test]
fn deep_expressions_do_not_overflow_a_small_stack() {
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            let deep = format!("{}1{}", "[".repeat(240), "]".repeat(240));
            let nested = format!("{}1{}", "(".repeat(240), " + 1)".repeat(240));
            let mut macros = "true".to_string();
            for i in 0..240 {
                macros = format!("[{i}].all(x{i}, {macros})");
            }
            let mut outcomes = Vec::new();
            for src in [deep, nested, macros] {
                let parsed = parse(&src);
                let out = evaluate(&parsed.ast, &Activation::new(), &EvalOptions::default());
                outcomes.push(out.result.is_ok());
            }
            outcomes
        });
    let outcomes = handle
        .map(|h| h.join().unwrap_or_default())
        .unwrap_or_default();
    assert_eq!(outcomes, vec![true, true, true]);
}

/// `variables` is a lazy map upstream (apiserver `pkg/cel/lazy/lazy.go`): `has(variables.x)` finds
/// a declared variable, forcing it, and `MapValue.Contains` passes an erroring variable's error on.
#[test]
fn has_sees_declared_lazy_variables() {
    let mut act = Activation::new();
    let computed = |result: Result<Value, EvalError>| Computed { result, cost: 5 };
    act.bind_lazy(
        "variables.ready",
        Box::new(move |_| computed(Ok(Value::Bool(false)))),
    );
    act.bind_lazy(
        "variables.broken",
        Box::new(move |_| {
            computed(Err(EvalError::new(
                ErrorKind::NoSuchKey,
                "no such key: spec",
            )))
        }),
    );
    let shown: Vec<String> = [
        "has(variables.ready)",
        "has(variables.ready) && !variables.ready",
        "has(variables.broken)",
    ]
    .iter()
    .map(|src| {
        format!(
            "{src} -> {}",
            show(&evaluate(&parse(src).ast, &act, &EvalOptions::default()))
        )
    })
    .collect();
    expect_test::expect![[r#"
        has(variables.ready) -> true
        has(variables.ready) && !variables.ready -> true
        has(variables.broken) -> error (NoSuchKey): no such key: spec"#]]
    .assert_eq(&shown.join("\n"));
}
