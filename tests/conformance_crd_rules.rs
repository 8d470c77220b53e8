//! Conformance runner for CRD validation rules: the 790 cases of
//! `../shared/conformance/kubernetes-cel-library/crd_validation_rules.json` (apiextensions-apiserver
//! `pkg/apiserver/schema/cel/validation_test.go`, `TestValidationExpressions`), each compiled for
//! its group's schema and evaluated with `self` (and `oldSelf`) bound to the group's object
//! through `admission_ls::policy::families::crd_rules`. A valid rule must compile and hold (or be skipped
//! where the group expects a skipped transition rule); an error rule must fail to compile or
//! evaluate with a message containing the expected text. Prints the pass rate per group and fails
//! below the baseline in `tests/conformance/crd_rules_baseline.json`.

mod conformance_support;
mod crd_rules_support;

use admission_ls::policy::families::crd_rules::{RuleOptions, RuleOutcome, compile_node_rule};
use conformance_support::{against_flat_baseline, array_at, crd_rule_groups};
use serde_json::Value as Json;

const BASELINE: &str = "crd_rules_baseline.json";

/// The newest Kubernetes minor version the bundle has (rules are compiled for it).
fn newest_minor() -> u32 {
    admission_ls::schema::bundled::versions()
        .last()
        .copied()
        .unwrap_or(33)
}

/// A group's schema, object and old object translated from Go, or why not.
struct Group {
    schema: Json,
    object: Json,
    old: Option<Json>,
    resource_root: bool,
    expect_skipped: bool,
}

fn translate(group: &Json) -> Result<Group, String> {
    let go = |key: &str| group.get(key).and_then(Json::as_str);
    let parse = |text: &str| crd_rules_support::parse(text);
    let schema = crd_rules_support::schema(&parse(go("schema_go").ok_or("no schema_go")?)?)?;
    let object = crd_rules_support::value(&parse(go("obj_go").ok_or("no obj_go")?)?)?;
    let old = match go("oldObj_go") {
        Some(text) => match crd_rules_support::value(&parse(text)?)? {
            Json::Null => None,
            old => Some(old),
        },
        None => None,
    };
    let flag = |key: &str| {
        group.get(key).and_then(Json::as_str) == Some("true")
            || group.get(key).and_then(Json::as_bool) == Some(true)
    };
    Ok(Group {
        schema,
        object,
        old,
        resource_root: flag("isRoot"),
        expect_skipped: flag("expectSkipped"),
    })
}

/// The rule text of a case: `rule`, or `rule_go` built as the Go test builds it.
fn rule_text(case: &Json) -> Result<String, String> {
    if let Some(rule) = case.get("rule").and_then(Json::as_str) {
        return Ok(rule.to_string());
    }
    let go = case
        .get("rule_go")
        .and_then(Json::as_str)
        .ok_or("no rule")?;
    crd_rules_support::rule(&crd_rules_support::parse(go)?)
}

/// Runs a rule: `Ok(outcome)` or the compile or runtime error message.
fn run(group: &Group, rule: &str) -> Result<RuleOutcome, String> {
    let options = RuleOptions {
        minor: newest_minor(),
        resource_root: group.resource_root,
        optional_old_self: false,
    };
    // The Go test reports compile errors as `compile error: <message>`.
    let compiled = compile_node_rule(&group.schema, rule, options)
        .map_err(|message| format!("compile error: {message}"))?;
    compiled.evaluate(&group.object, group.old.as_ref())
}

fn score_valid(group: &Group, case: &Json) -> Result<(), String> {
    let rule = rule_text(case)?;
    let want = if group.expect_skipped {
        RuleOutcome::Skipped
    } else {
        RuleOutcome::Pass
    };
    match run(group, &rule) {
        Ok(got) if got == want => Ok(()),
        other => Err(format!("{rule}: {other:?}")),
    }
}

fn score_error(group: &Group, case: &Json) -> Result<(), String> {
    let rule = rule_text(case)?;
    let contains = case
        .get("error_contains")
        .and_then(Json::as_str)
        .unwrap_or("");
    match run(group, &rule) {
        Err(message) if message.contains(contains) => Ok(()),
        other => Err(format!(
            "{rule}: want error containing {contains:?}, got {other:?}"
        )),
    }
}

#[test]
fn crd_validation_rules() {
    let Some(groups) = crd_rule_groups() else {
        return;
    };
    let (mut passed, mut total) = (0u64, 0u64);
    for group in &groups {
        let name = group.get("name").and_then(Json::as_str).unwrap_or("?");
        let cases = |key: &str| array_at(group, key);
        let (valid, errors) = (cases("valid"), cases("errors"));
        let n = (valid.len() + errors.len()) as u64;
        total += n;
        let translated = match translate(group) {
            Ok(g) => g,
            Err(why) => {
                println!("{name}: 0/{n} (not translated: {why})");
                continue;
            }
        };
        let mut ok = 0;
        let results = valid
            .iter()
            .map(|c| score_valid(&translated, c))
            .chain(errors.iter().map(|c| score_error(&translated, c)));
        let mut failures = Vec::new();
        for result in results {
            match result {
                Ok(()) => ok += 1,
                Err(why) => failures.push(why),
            }
        }
        println!("{name}: {ok}/{n}");
        for failure in failures {
            println!("  FAIL {failure}");
        }
        passed += ok;
    }
    println!("CRD validation rules: {passed}/{total}");
    let regression = against_flat_baseline(BASELINE, "TestValidationExpressions", passed, total);
    assert!(regression.is_none(), "{regression:?}");
}
