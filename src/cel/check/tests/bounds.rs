//! Hostile inputs: deep nesting, many variables, huge literals; on a 2 MiB thread.

use super::*;

fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .expect("spawn");
    assert!(handle.join().is_ok(), "checker overflowed or panicked");
}

#[test]
fn deep_expressions_check_on_a_small_stack() {
    on_small_stack(|| {
        for src in [
            format!("{}1{}", "(".repeat(240), ")".repeat(240)),
            format!("{}1{}", "[".repeat(240), "]".repeat(240)),
            format!("a{}", ".b".repeat(240)),
            format!("{}true", "!".repeat(240)),
            vec!["1"; 240].join(" + "),
            format!("{}0{}", "[0].map(x, ".repeat(100), ")".repeat(100)),
            format!("{}true{}", "[0].all(x, ".repeat(240), ")".repeat(240)),
            format!(
                "{}1{}",
                "optional.of(1).optMap(y, ".repeat(240),
                ")".repeat(240)
            ),
            format!("{}1{}", "{'a': ".repeat(240), "}".repeat(240)),
            format!("{}1{}", "f(".repeat(240), ")".repeat(240)),
        ] {
            let parsed = parse(&src);
            let checked = check(&parsed.ast, &env());
            assert_eq!(checked.types.len(), parsed.ast.len());
        }
    });
}

#[test]
fn ten_thousand_variables() {
    let mut env = env();
    for i in 0..10_000 {
        env.declare(&format!("v{i}"), Type::Int, None);
    }
    let (_, checked) = checked("v9999 + v0 + w1", &env);
    assert_eq!(checked.errors.len(), 1);
    assert_eq!(checked.errors[0].suggestion.as_deref(), Some("v1"));
}

#[test]
fn huge_literal_lists() {
    on_small_stack(|| {
        let src = format!("[{}]", vec!["1"; 20_000].join(", "));
        let parsed = parse(&src);
        let checked = check(&parsed.ast, &env());
        assert_eq!(checked.result, Type::list(Type::Int));
        let mixed = format!("[{}, 'a']", vec!["1"; 20_000].join(", "));
        let checked = check(&parse(&mixed).ast, &env());
        assert_eq!(checked.errors.len(), 1);
    });
}

#[test]
fn hand_built_tree_deeper_than_the_guard() {
    use crate::cel::ast::{Expr, Name};
    use crate::text::{TextRange, TextSize};
    let span = TextRange::empty(TextSize::new(0));
    let mut exprs = vec![Expr {
        span,
        anchor: TextSize::new(0),
        kind: ExprKind::Literal(Literal::Int(1)),
    }];
    for i in 0..5_000u32 {
        exprs.push(Expr {
            span,
            anchor: TextSize::new(0),
            kind: ExprKind::Select {
                operand: ExprId(i),
                field: Name {
                    text: "f".into(),
                    span,
                },
                optional: false,
            },
        });
    }
    let ast = Ast {
        root: ExprId(5_000),
        exprs,
    };
    on_small_stack(move || {
        let checked = check(&ast, &env());
        assert_eq!(checked.types.len(), 5_001);
    });
}

#[test]
fn many_unknown_names_against_many_variables_stay_bounded() {
    let mut env = env();
    for i in 0..10_000 {
        env.declare(&format!("variable{i}"), Type::Int, None);
    }
    let src = format!(
        "[{}]",
        (0..2_000)
            .map(|i| format!("varible{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let (_, checked) = checked(&src, &env);
    assert_eq!(checked.errors.len(), 2_000);
    let suggested = checked
        .errors
        .iter()
        .filter(|e| e.suggestion.is_some())
        .count();
    assert_eq!(suggested, 16);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, failure_persistence: None, ..Default::default() })]

    /// Arbitrary token soup parses into some tree (with error nodes) that checks without panicking.
    #[test]
    fn token_soup_never_panics(parts in proptest::collection::vec(proptest::sample::select(vec![
        "object", ".", "spec", "?", "[", "]", "(", ")", "{", "}", ",", ":", "1", "2u", "'a'", "+",
        "==", "&&", "!", "has", "all", "x", "map", "optional", "none", "Object", "size", "in",
        "-", "null", "true", "[?", ".?", "cel", "bind", "sortBy", "transformMap", "k", "v",
    ]), 0..40)) {
        let src = parts.join(" ");
        let parsed = parse(&src);
        let checked = check(&parsed.ast, &env());
        proptest::prop_assert_eq!(checked.types.len(), parsed.ast.len());
    }
}
