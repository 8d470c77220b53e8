//! Conformance: the Kubernetes CEL library cases
//! (`../shared/conformance/kubernetes-cel-library/library_cases.json`, from the API server's
//! `{quantity,semver,ip,cidr,format}_test.go`) scored against `cel::kube` before the evaluator
//! exists. A tiny interpreter (`kube_library_support`) covers what those expressions use — literals, lists, `==`,
//! `&&`, `all`, the library's global and member calls, `optional.of/none` — over the crate's
//! parser; anything else (type checks, compile errors, `type()`) is counted as not covered.
//! Prints coverage and pass rate per file; every covered case must pass. Skips with a notice when
//! the conformance data is absent.

use std::path::PathBuf;

use admission_ls::cel::kube::format::ALL;

mod kube_library_support;

use kube_library_support::{Fail, V, run};

/// Go `regexp.MatchString` for the patterns the non-exact files use: a literal text, optionally
/// followed by `.*` (`.` in the literal also matches itself, which is all these patterns need).
fn matches_pattern(pattern: &str, text: &str) -> bool {
    text.contains(pattern.strip_suffix(".*").unwrap_or(pattern))
}

fn json_equals(v: &V, want: &serde_json::Value, cel_type: Option<&str>) -> bool {
    match (v, want) {
        (V::Bool(b), serde_json::Value::Bool(w)) => b == w,
        (V::Str(s), serde_json::Value::String(w)) => s == w,
        (V::Int(i), serde_json::Value::Number(n)) => {
            cel_type.is_none_or(|t| t == "int") && n.as_i64() == Some(*i)
        }
        (V::Double(d), serde_json::Value::Number(n)) => {
            cel_type.is_none_or(|t| t == "double") && n.as_f64() == Some(*d)
        }
        _ => false,
    }
}

/// `Ok(passed)` when the case is covered, `Err(reason)` when this runner cannot score it.
fn score(case: &serde_json::Value) -> Result<Result<(), String>, String> {
    let text = |v: &serde_json::Value| v.as_str().map(str::to_owned).ok_or("malformed case");
    let expr = text(&case["expr"])?;
    let expect = &case["expect"];
    let exact_errors = matches!(
        case["source_file"].as_str(),
        Some("ip_test.go" | "cidr_test.go")
    );
    let got = match run(&expr) {
        Err(Fail::Unsupported(why)) => return Err(why),
        other => other,
    };
    let ok = match (text(&expect["kind"])?.as_str(), &got) {
        ("value", Ok(v)) => json_equals(v, &expect["value"], expect["cel_type"].as_str()),
        ("cel" | "value_optional_string_list", Ok(v)) => match run(&text(&expect["cel"])?) {
            Ok(want) => *v == want,
            Err(e) => return Err(format!("expected value: {e:?}")),
        },
        ("runtime_error", Err(Fail::Error(e))) => {
            let pattern = text(&expect["pattern"])?;
            if exact_errors {
                *e == pattern
            } else {
                matches_pattern(&pattern, e)
            }
        }
        ("compile_error", _) => return Err("compile errors need the checker".to_owned()),
        _ => false,
    };
    Ok(if ok {
        Ok(())
    } else {
        Err(format!("{expr}: got {got:?}, expected {expect}"))
    })
}

fn data_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/conformance/kubernetes-cel-library/library_cases.json")
}

#[test]
fn library_cases_agree_with_kube_modules() {
    let path = data_path();
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("conformance data not found at {}; skipping", path.display());
        return;
    };
    let json: serde_json::Value = serde_json::from_str(&text).expect("library_cases.json parses");
    let cases = json["cases"].as_array().expect("cases is a list");
    let mut per_file: std::collections::BTreeMap<String, (usize, usize, usize)> =
        Default::default();
    let mut failures = Vec::new();
    for case in cases {
        let file = case["source_file"].as_str().unwrap_or("?").to_owned();
        let entry = per_file.entry(file).or_default();
        entry.0 += 1;
        match score(case) {
            Ok(result) => {
                entry.1 += 1;
                match result {
                    Ok(()) => entry.2 += 1,
                    Err(e) => failures.push(e),
                }
            }
            Err(why) => println!("not covered: {} ({why})", case["expr"]),
        }
    }
    for (file, (total, covered, passed)) in &per_file {
        println!("{file}: {covered}/{total} covered, {passed}/{covered} pass");
    }
    let (covered, passed) = per_file
        .values()
        .fold((0, 0), |a, v| (a.0 + v.1, a.1 + v.2));
    println!(
        "total: {covered}/{} covered, {passed}/{covered} pass",
        cases.len()
    );
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
    assert!(covered >= 150, "coverage dropped to {covered}");
}

/// The CRD validation rules that do not use `self`, in the groups of these libraries: each must
/// evaluate to `true`.
#[test]
fn self_free_crd_rules_hold() {
    let path = data_path().with_file_name("crd_validation_rules.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("conformance data not found at {}; skipping", path.display());
        return;
    };
    let json: serde_json::Value =
        serde_json::from_str(&text).expect("crd_validation_rules.json parses");
    let groups = json["groups"].as_array().expect("groups is a list");
    let rules = groups
        .iter()
        .flat_map(|g| g["valid"].as_array().into_iter().flatten())
        .filter_map(|v| v["rule"].as_str())
        .filter(|r| !r.contains("self"));
    let (mut covered, mut failures) = (0, Vec::new());
    for rule in rules {
        match run(rule) {
            Err(Fail::Unsupported(_)) => continue,
            Ok(V::Bool(true)) => covered += 1,
            other => {
                covered += 1;
                failures.push(format!("{rule}: {other:?}"));
            }
        }
    }
    println!(
        "self-free CRD rules: {covered} covered, {} pass",
        covered - failures.len()
    );
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
    assert!(covered >= 50, "coverage dropped to {covered}");
}

/// The loop `format_test.go` runs over the constant formats (not in the JSON).
#[test]
fn every_constant_format_is_named_and_distinct() {
    for (name, f) in ALL {
        assert_eq!(
            run(&format!("format.named('{name}').hasValue()")).ok(),
            Some(V::Bool(true))
        );
        let same = format!("format.named('{name}').value() == format.{name}()");
        assert_eq!(run(&same).ok(), Some(V::Bool(true)), "{name}");
        for (other, g) in ALL {
            let differ = format!("format.{name}() == format.{other}()");
            assert_eq!(run(&differ).ok(), Some(V::Bool(f == g)), "{differ}");
        }
    }
}
