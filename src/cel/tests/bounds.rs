//! Bounds: deep nesting and long chains end with a clear error (or parse, for long chains under
//! the depth limit), never with a stack overflow — checked on a 2 MiB thread in the debug profile.
//! Expression size is bounded by the code point limit.

use expect_test::expect;

use super::check_errors_with;
use crate::cel::{ParseOptions, Parsed, parse_with};

const N: usize = 100_000;

/// Parses on a thread with the default 2 MiB stack, as a language server worker would.
fn parse_on_small_stack(src: String, options: ParseOptions) -> Parsed {
    let worker = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || parse_with(&src, &options))
        .expect("spawn parser thread");
    worker.join().expect("parser thread panicked")
}

fn unbounded() -> ParseOptions {
    ParseOptions {
        max_depth: u32::MAX,
        max_code_points: usize::MAX,
        ..ParseOptions::default()
    }
}

fn first_message(parsed: &Parsed) -> &str {
    parsed.errors.first().map_or("", |e| e.message.as_str())
}

#[test]
fn deep_nesting_hits_the_recursion_limit() {
    let inputs = [
        "(".repeat(N) + "a" + &")".repeat(N),
        "[".repeat(N),
        "{1:".repeat(N),
        "f(".repeat(N),
        "a ? b : ".repeat(N) + "c",
        "a[".repeat(N),
        "x.map(y, ".repeat(N),
    ];
    for src in inputs {
        let default_depth = ParseOptions {
            max_code_points: usize::MAX,
            ..ParseOptions::default()
        };
        for options in [default_depth, unbounded()] {
            let parsed = parse_on_small_stack(src.clone(), options);
            assert!(
                first_message(&parsed).starts_with("expression recursion limit exceeded"),
                "{parsed:?}"
            );
        }
    }
}

#[test]
fn unary_runs_do_not_nest() {
    for op in ["-", "!"] {
        let parsed = parse_on_small_stack(op.repeat(N) + "a", unbounded());
        assert!(parsed.errors.is_empty());
        assert_eq!(parsed.ast.len(), 1, "an even run of {op} cancels out");
    }
}

#[test]
fn long_chains_are_loops() {
    let chains = [
        "a".to_string() + &".x".repeat(N),
        "a".to_string() + &" + a".repeat(N),
        "a".to_string() + &"[0]".repeat(N),
        "a".to_string() + &" || a && a".repeat(N),
        "a".to_string() + &".f()".repeat(N),
    ];
    for src in chains {
        let parsed = parse_on_small_stack(src.clone(), unbounded());
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors.first());
        assert_eq!(parsed.ast.preorder(parsed.ast.root).len(), parsed.ast.len());
        let limited = parse_on_small_stack(
            src,
            ParseOptions {
                max_code_points: usize::MAX,
                ..ParseOptions::default()
            },
        );
        assert_eq!(first_message(&limited), "max recursion depth exceeded");
    }
}

#[test]
fn tree_height_is_bounded() {
    let options = ParseOptions {
        max_depth: 3,
        ..ParseOptions::default()
    };
    check_errors_with("a.b.c", &options, expect![[""]]);
    check_errors_with(
        "a.b.c.d",
        &options,
        expect![[r#"
        1:1: max recursion depth exceeded
          | a.b.c.d
          | ^^^^^^^
    "#]],
    );
    check_errors_with(
        "[[[1]]]",
        &options,
        expect![[r#"
        1:4: expression recursion limit exceeded: 3
          | [[[1]]]
          |    ^
    "#]],
    );
}

#[test]
fn code_point_limit() {
    let options = ParseOptions {
        max_code_points: 5,
        ..ParseOptions::default()
    };
    check_errors_with(
        "'ééééé'",
        &options,
        expect![[r#"
        1:1: expression code point size exceeds limit: size: 7, limit 5
          | 'ééééé'
          | ^
    "#]],
    );
    check_errors_with("'éé'", &options, expect![[""]]);
    let parsed = parse_on_small_stack("a+".repeat(N), ParseOptions::default());
    assert!(first_message(&parsed).starts_with("expression code point size exceeds limit"));
}

#[test]
fn garbage_never_panics() {
    let garbage = "ó\u{a0}¢\n\t\tó\u{a0}0\u{a0}\n\t\t\u{7f}0\"\"\"\\\"\"\\\"\"\"\\\"\"\\\"\"\"\\\"";
    let parsed = parse_on_small_stack(garbage.to_string(), ParseOptions::default());
    assert!(!parsed.errors.is_empty());
}
