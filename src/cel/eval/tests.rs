//! Unit tests of the evaluator: snapshots of values and errors, self-checking lists, cost limits
//! and bombs.

use expect_test::{Expect, expect};

use super::*;
use crate::cel::parse;

fn run(src: &str, bindings: &[(&str, Value)]) -> Evaluation {
    let parsed = parse(src);
    assert!(parsed.is_ok(), "{src}: {:?}", parsed.errors);
    let mut act = Activation::new();
    for (name, value) in bindings {
        act.bind(name, value.clone());
    }
    evaluate(&parsed.ast, &act, &EvalOptions::default())
}

fn show(e: &Evaluation) -> String {
    match &e.result {
        Ok(v) => v.to_string(),
        Err(err) => format!("error ({:?}): {}", err.kind, err.message),
    }
}

fn check_eval(src: &str, bindings: &[(&str, Value)], expect: Expect) {
    expect.assert_eq(&show(&run(src, bindings)));
}

#[test]
fn literals_and_arithmetic() {
    check_eval("1 + 2 * 3", &[], expect!["7"]);
    check_eval("9223372036854775807 + 1", &[], expect!["error (Overflow): return error for overflow"]);
}
