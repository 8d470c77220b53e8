//! Hostile CEL (issues 3 and 5 "Bad input"): deep and huge expressions, thousands of variables,
//! cyclic-looking variable references and unknown types through the policy diagnostics; and for the
//! evaluator, expressions that would run forever or allocate without bound, a huge JSON input and a
//! deeply nested object. Each comes back with a diagnostic or a cost/size error, on a thread with the
//! default 2 MiB stack and a generous hang guard (speed is measured by the benches, never here).

use std::sync::mpsc;
use std::time::Duration;

use admission_ls::cel;
use admission_ls::cel::eval::{
    Activation, COST_LIMIT_MESSAGE, EvalOptions, Evaluation, Value, evaluate,
};
use admission_ls::ide::{DiagnosticsConfig, Encoding, LineIndex, diagnostics_for_text};
use expect_test::expect;
use serde_json::json;

/// Runs `work` on a fresh thread with a two-minute hang guard.
fn in_thread<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let _ = sender.send(work());
    });
    let result = receiver
        .recv_timeout(Duration::from_secs(120))
        .expect("the worker panicked, overflowed or hung");
    let _ = worker.join();
    result
}

/// The distinct diagnostic codes of `text` with the line of their first occurrence.
fn codes(text: String) -> Vec<String> {
    in_thread(move || {
        let index = LineIndex::new(&text);
        let mut seen: Vec<String> = Vec::new();
        for d in diagnostics_for_text(&text, &DiagnosticsConfig::default()) {
            let line = index.line_col(d.range.start(), Encoding::Utf8).line + 1;
            let entry = format!("{} line {line}", d.code.as_str());
            if !seen
                .iter()
                .any(|s| s.starts_with(&format!("{} ", d.code.as_str())))
            {
                seen.push(entry);
            }
        }
        seen
    })
}

const HEAD: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: hostile
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments], operations: [CREATE]}
";

fn with_validation(extra: &str, expression: &str) -> String {
    format!("{HEAD}{extra}  validations:\n  - expression: \"{expression}\"\n")
}

#[test]
fn a_chain_of_100_000_additions_is_too_deep() {
    let expression = vec!["1"; 100_000].join(" + ");
    let found = codes(with_validation("", &expression));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("cel-syntax line 10"), "{found:?}");
}

#[test]
fn an_expression_over_the_size_limit() {
    let expression = format!("'{}' == ''", "x".repeat(200_000));
    let found = codes(with_validation("", &expression));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("cel-syntax line 10"), "{found:?}");
}

#[test]
fn five_thousand_chained_variables() {
    let mut variables = String::from("  variables:\n  - name: v0\n    expression: \"1\"\n");
    for n in 1..5_000 {
        let previous = n - 1;
        variables.push_str(&format!(
            "  - name: v{n}\n    expression: \"variables.v{previous} + 1\"\n"
        ));
    }
    let found = codes(with_validation(
        &variables,
        "variables.v4999 > 0 && variables.nope",
    ));
    expect![[r#"
        [
            "cel-undefined-field line 10011",
        ]
    "#]]
    .assert_debug_eq(&found);
}

#[test]
fn cyclic_looking_variable_references() {
    let variables = "  variables:
  - name: a
    expression: \"variables.b + 1\"
  - name: b
    expression: \"variables.a + 1\"
  - name: c
    expression: \"variables.c\"
";
    let found = codes(with_validation(variables, "variables.a > 0"));
    expect![[r#"
        [
            "cel-undefined-field line 11",
        ]
    "#]]
    .assert_debug_eq(&found);
}

#[test]
fn an_unknown_param_kind_and_unknown_types() {
    let extra = "  paramKind: {apiVersion: nowhere.example.com/v9, kind: Nothing}\n";
    let found = codes(with_validation(
        extra,
        "params.spec.limit > object.spec.unknownField.deeper && type(x) == google.protobuf.Nope",
    ));
    expect![[r#"
        [
            "unresolved-reference line 9",
            "cel-undefined-field line 11",
            "cel-undeclared line 11",
        ]
    "#]]
    .assert_debug_eq(&found);
}

/// Parses and evaluates `expression` with `object` bound, with the default per-call cost limit.
fn run(expression: &str, object: Value) -> Evaluation {
    let expression = expression.to_string();
    in_thread(move || {
        let parsed = cel::parse(&expression);
        assert!(parsed.is_ok(), "{:?}", parsed.errors);
        let mut activation = Activation::new();
        activation.bind("object", object);
        evaluate(&parsed.ast, &activation, &EvalOptions::default())
    })
}

fn assert_cost_error(evaluation: &Evaluation) {
    match &evaluation.result {
        Err(error) => assert!(
            error.to_string().contains(COST_LIMIT_MESSAGE),
            "not a cost error: {error}"
        ),
        Ok(value) => panic!("expected a cost error, got {value:?}"),
    }
}

#[test]
fn nested_comprehensions_that_would_run_for_hours_stop_at_the_cost_limit() {
    let list = format!(
        "[{}]",
        (0..100)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    let expression =
        format!("{list}.all(a, {list}.all(b, {list}.all(c, {list}.all(d, a + b + c + d >= 0))))");
    assert_cost_error(&run(&expression, Value::Null));
}

#[test]
fn string_growth_without_bound_stops_at_a_limit() {
    let expression = "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30]\
         .map(i, 'x').map(s, s + s + s + s + s + s + s + s).join('').size() > 0 && \
         [1,2,3,4,5,6,7,8,9,10].all(i, object.s.replace('a', object.s + object.s + object.s).size() > 0)";
    let big = Value::from_json(&json!({"s": "a".repeat(1 << 20)})).expect("object");
    assert_cost_error(&run(expression, big));
}

#[test]
fn a_huge_json_input_is_evaluated_within_the_budget_or_refused() {
    let items: Vec<serde_json::Value> = (0..1_000_000).map(|n| json!({"n": n})).collect();
    let object = Value::from_json(&json!({ "items": items })).expect("object");
    assert_cost_error(&run(
        "object.items.all(i, i.n >= 0 && i.n < 2000000)",
        object,
    ));
}

/// 1,000 levels: over the conversion's depth bound, so a size error, never a stack overflow. The
/// JSON is built, converted and dropped on a thread with a big stack, because dropping a deep
/// `serde_json::Value` recurses in serde_json itself (its parser refuses such input at 128 levels).
#[test]
fn a_deeply_nested_object_is_refused() {
    let (sender, receiver) = mpsc::channel();
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let mut nested = json!("leaf");
            for _ in 0..1_000 {
                nested = json!({ "a": nested });
            }
            let _ = sender.send(Value::from_json(&nested).map_err(|e| e.to_string()).err());
        })
        .expect("spawn");
    let error = receiver
        .recv_timeout(Duration::from_secs(120))
        .expect("no answer");
    let _ = worker.join();
    assert_eq!(error.as_deref(), Some("value nested too deeply"));
}

/// 200 levels, within the bound: compared and selected without trouble on a default stack.
#[test]
fn a_nested_object_within_the_bound_compares() {
    let mut nested = json!("leaf");
    for _ in 0..200 {
        nested = json!({ "a": nested });
    }
    let object = Value::from_json(&nested).expect("within the bound");
    let evaluation = run("object == object && has(object.a.a.a)", object);
    assert!(
        matches!(evaluation.result, Ok(Value::Bool(true))),
        "{:?}",
        evaluation.result
    );
}
