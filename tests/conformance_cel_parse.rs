//! Conformance of the CEL parser against upstream data in `../shared/conformance/`: every cel-spec
//! test expression must parse, and cel-go's parser table must fail (at the same line:column, with
//! the same first message: ANTLR's `mismatched input … expecting {…}`, `extraneous input`, `no
//! viable alternative`, `token recognition error`) or succeed as cel-go does. Pass counts are compared with `tests/conformance/baseline.json`: a drop
//! fails the test, a rise prints a notice to raise the baseline. Skips when the data is absent.

use std::path::PathBuf;

use admission_ls::cel::{ParseOptions, parse_with};
use serde_json::Value;

mod conformance_support;

use conformance_support::{data_dir, line_col, read_json};

/// Compares `passed` with this runner's recorded baseline for `key`.
fn against_baseline(section: &str, key: &str, passed: u64, total: u64) -> Option<String> {
    conformance_support::against_baseline("baseline.json", section, key, passed, total)
}

#[test]
fn cel_spec_expressions_parse() {
    let Some(dir) = data_dir() else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("cel-spec/json"))
        .expect("cel-spec/json")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    let (mut all_passed, mut all_total, mut failures) = (0, 0, Vec::new());
    for path in files {
        let file = read_json(&path);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (mut passed, mut total) = (0, 0);
        for test in file["tests"].as_array().into_iter().flatten() {
            let expr = test["expr"].as_str().unwrap_or("");
            let options = ParseOptions {
                macros: !test["disable_macros"].as_bool().unwrap_or(false),
                ident_escape_syntax: true,
                ..ParseOptions::default()
            };
            let parsed = parse_with(expr, &options);
            total += 1;
            if parsed.errors.is_empty() {
                passed += 1;
            } else {
                println!("  FAIL {}: {expr:?}: {:?}", test["id"], parsed.errors);
            }
        }
        all_passed += passed;
        all_total += total;
        failures.extend(against_baseline("cel-spec", &name, passed, total));
    }
    println!("cel-spec total: {all_passed}/{all_total}");
    assert!(
        failures.is_empty(),
        "below baseline:\n{}",
        failures.join("\n")
    );
}

/// The options cel-go's parser test harness uses, plus the case's own options.
fn cel_go_options(case: &Value) -> ParseOptions {
    let extra = case["parser_options_go"].as_str().unwrap_or("");
    let mut options = ParseOptions {
        max_depth: 32,
        optional_syntax: extra.contains("EnableOptionalSyntax(true)"),
        ident_escape_syntax: extra.contains("EnableIdentEscapeSyntax(true)"),
        ..ParseOptions::default()
    };
    if extra.contains("ErrorReportingLimit(2)") {
        options.max_errors = 2;
    }
    options
}

/// The expected first error position, `None` for cel-go's location-less `-1:0` errors.
fn expected_position(error: &str) -> Option<(usize, usize)> {
    let first = error.trim_start().lines().next()?;
    let rest = first.strip_prefix("ERROR: <input>:")?;
    let mut parts = rest.splitn(3, ':');
    let line = parts.next()?.parse().ok()?;
    let col = parts.next()?.parse().ok()?;
    Some((line, col))
}

#[test]
fn cel_go_parser_cases() {
    let Some(dir) = data_dir() else { return };
    let table = read_json(&dir.join("cel-go/parser_cases.json"));
    let (mut errors_ok, mut errors_total, mut success_ok, mut success_total) = (0, 0, 0, 0);
    let mut messages_ok = 0;
    for case in table["cases"].as_array().into_iter().flatten() {
        let expr = case["expr"].as_str().unwrap_or("");
        let parsed = parse_with(expr, &cel_go_options(case));
        let Some(error) = case["error"].as_str() else {
            success_total += 1;
            if parsed.errors.is_empty() {
                success_ok += 1;
            } else {
                println!("  FAIL (should parse) {expr:?}: {:?}", parsed.errors);
            }
            continue;
        };
        errors_total += 1;
        let first = parsed.errors.first();
        let got = first.map(|e| line_col(expr, usize::from(e.span.start())));
        let ok = match expected_position(error) {
            Some(want) => got == Some(want),
            None => got.is_some(),
        };
        if ok {
            errors_ok += 1;
        } else {
            println!("  FAIL (error position) {expr:?}: want {error:?}, got {got:?} {first:?}");
        }
        let want = expected_message(error);
        let ours = first.map_or("", |e| e.message.as_str());
        if want == ours {
            messages_ok += 1;
        } else {
            println!("  FAIL (wording) {expr:?}: cel-go {want:?} | ours {ours:?}");
        }
    }
    println!(
        "cel-go error positions: {errors_ok}/{errors_total}, messages: {messages_ok}/{errors_total}"
    );
    let failures: Vec<String> = [
        against_baseline("cel-go", "error_positions", errors_ok, errors_total),
        against_baseline("cel-go", "error_messages", messages_ok, errors_total),
        against_baseline("cel-go", "successes", success_ok, success_total),
    ]
    .into_iter()
    .flatten()
    .collect();
    assert!(
        failures.is_empty(),
        "below baseline:\n{}",
        failures.join("\n")
    );
}

/// cel-go's first message without its `ERROR: <input>:line:col: ` prefix.
fn expected_message(error: &str) -> &str {
    let first = error.trim_start().lines().next().unwrap_or("");
    first.splitn(5, ':').nth(4).unwrap_or("").trim()
}

/// The tree without spans, to compare trees parsed from different texts.
fn shape(ast: &admission_ls::cel::Ast) -> String {
    let tree = ast.debug_tree();
    let lines: Vec<&str> = tree
        .lines()
        .map(|line| line.split(" @").next().unwrap_or(""))
        .collect();
    lines.join("\n")
}

/// Every cel-spec expression and every cel-go success case: parse, print, parse again, and the
/// two trees must be the same.
#[test]
fn printed_expressions_parse_to_the_same_tree() {
    let Some(dir) = data_dir() else { return };
    let options = ParseOptions {
        ident_escape_syntax: true,
        ..ParseOptions::default()
    };
    let mut exprs = Vec::new();
    for entry in std::fs::read_dir(dir.join("cel-spec/json"))
        .expect("cel-spec/json")
        .flatten()
    {
        let file = read_json(&entry.path());
        let tests = file["tests"].as_array().cloned().unwrap_or_default();
        exprs.extend(
            tests
                .iter()
                .filter_map(|t| t["expr"].as_str().map(String::from)),
        );
    }
    let table = read_json(&dir.join("cel-go/parser_cases.json"));
    for case in table["cases"].as_array().into_iter().flatten() {
        if case["error"].is_null() {
            exprs.extend(case["expr"].as_str().map(String::from));
        }
    }
    let mut failures = Vec::new();
    for expr in &exprs {
        let first = parse_with(expr, &options);
        let printed = first.ast.to_cel_string();
        let second = parse_with(&printed, &options);
        if !second.errors.is_empty() || shape(&first.ast) != shape(&second.ast) {
            failures.push(format!(
                "{expr:?} printed as {printed:?}: {:?}",
                second.errors.first()
            ));
        }
    }
    println!(
        "round trip: {}/{}",
        exprs.len() - failures.len(),
        exprs.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
