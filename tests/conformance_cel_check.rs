//! Conformance of the CEL type checker against upstream data in `../shared/conformance/`:
//! (a) cel-go's checker table — result types, and for error cases that an error is reported (and
//! where); (b) cel-spec — deduced types (`type_deduction`) and, for every expression expected to
//! evaluate successfully without protobuf types, that the checker reports no error (the
//! false-positive guard). Pass counts are compared with `tests/conformance/check_baseline.json`: a
//! drop fails, a rise prints a notice. Skips when the data is absent. (c) The Kubernetes library
//! cases and the CRD validation rules: every one expected to evaluate checks clean in the newest
//! stored environment (`self`, `oldSelf` as `dyn`); the compile-error cases report an error.
//!
//! Exclusions (listed with their reasons in `EXCLUDED_FILES` and `excluded`): protobuf message
//! types, libraries Kubernetes never enables, parameterised abstract types, expected errors.

use std::path::PathBuf;

use admission_ls::cel::check::{CustomFunction, Env, check};
use admission_ls::cel::library::{Library, Overload, libraries_for};
use admission_ls::cel::types::Type;
use admission_ls::cel::{ParseOptions, parse_with};
use serde_json::Value;

mod conformance_support;

use conformance_support::{data_dir, line_col, read_json};

/// Compares `passed` with this runner's recorded baseline for `key`.
fn against_baseline(section: &str, key: &str, passed: u64, total: u64) -> Option<String> {
    conformance_support::against_baseline("check_baseline.json", section, key, passed, total)
}

// ---------------------------------------------------------------------------------------------
// Type texts.

/// Splits `a, b(c, d), e` at top-level commas.
fn split_top(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0usize, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = text[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// A cel-spec TYPE text (`list(int)`, `map(string, T)`…); `None` for what the checker does not
/// model (protobuf messages, wrappers, `any`, abstract types).
fn spec_type(text: &str) -> Option<Type> {
    let text = text.trim();
    let simple = match text {
        "int" => Some(Type::Int),
        "uint" => Some(Type::Uint),
        "double" => Some(Type::Double),
        "bool" => Some(Type::Bool),
        "string" => Some(Type::String),
        "bytes" => Some(Type::Bytes),
        "null_type" => Some(Type::Null),
        "dyn" => Some(Type::Dyn),
        "timestamp" | "google.protobuf.Timestamp" => Some(Type::Timestamp),
        "duration" | "google.protobuf.Duration" => Some(Type::Duration),
        "type" => Some(Type::TypeOf(None)),
        _ => None,
    };
    if simple.is_some() {
        return simple;
    }
    if text.len() == 1 && text.chars().all(|c| c.is_ascii_uppercase()) {
        return Some(Type::param(text));
    }
    let (name, rest) = text.split_once('(')?;
    let args: Vec<Type> = split_top(rest.strip_suffix(')')?)
        .into_iter()
        .map(spec_type)
        .collect::<Option<_>>()?;
    match (name, args.as_slice()) {
        ("list", [elem]) => Some(Type::list(elem.clone())),
        ("map", [k, v]) => Some(Type::map(k.clone(), v.clone())),
        ("type", [t]) => Some(Type::type_of(t.clone())),
        ("optional_type", [t]) => Some(Type::optional(t.clone())),
        _ => None,
    }
}

/// A cel-go `types.*` Go expression; `None` for protobuf, opaque, nullable and `any` types.
fn go_type(text: &str) -> Option<Type> {
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let text = text.trim_end_matches(',');
    let simple = match text {
        "types.StringType" => Some(Type::String),
        "types.IntType" => Some(Type::Int),
        "types.UintType" => Some(Type::Uint),
        "types.BoolType" => Some(Type::Bool),
        "types.DoubleType" => Some(Type::Double),
        "types.NullType" => Some(Type::Null),
        "types.BytesType" => Some(Type::Bytes),
        "types.DynType" => Some(Type::Dyn),
        "types.ErrorType" => Some(Type::Error),
        "types.TimestampType" => Some(Type::Timestamp),
        "types.DurationType" => Some(Type::Duration),
        _ => None,
    };
    if simple.is_some() {
        return simple;
    }
    let (name, rest) = text.split_once('(')?;
    let inner = rest.strip_suffix(')')?;
    let args: Vec<&str> = split_top(inner);
    let arg = |i: usize| args.get(i).and_then(|a| go_type(a));
    match name {
        "types.NewListType" => Some(Type::list(arg(0)?)),
        "types.NewMapType" => Some(Type::map(arg(0)?, arg(1)?)),
        "types.NewOptionalType" => Some(Type::optional(arg(0)?)),
        "types.NewTypeTypeWithParam" => Some(Type::type_of(arg(0)?)),
        "types.NewTypeParamType" => Some(Type::param(inner.trim_matches('"'))),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// cel-go checker table.

/// The Go string literals in `text`, in order.
fn go_strings(text: &str) -> Vec<String> {
    text.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The arguments of every call of `callee` in `text`.
fn calls_of<'t>(text: &'t str, callee: &str) -> Vec<Vec<&'t str>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(callee) {
        let after = &rest[at + callee.len()..];
        let Some(body) = after.strip_prefix('(') else {
            rest = after;
            continue;
        };
        let mut depth = 1;
        let end = body
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '(' | '{' | '[' => 1,
                    ')' | '}' | ']' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map_or(body.len(), |(i, _)| i);
        out.push(split_top(&body[..end]));
        rest = &body[end..];
    }
    out
}

/// An overload from `decls.Overload("id", []*types.Type{…}, result)`.
fn go_overload(args: &[&str], member: bool) -> Option<Overload> {
    let id = args.first()?.trim_matches('"').to_string();
    let params_text = args.get(1)?;
    let inner = params_text.split_once('{')?.1.rsplit_once('}')?.0;
    let params: Vec<Type> = split_top(inner)
        .into_iter()
        .map(go_type)
        .collect::<Option<_>>()?;
    let result = go_type(args.get(2)?)?;
    Some(overload(id, member, params, result))
}

fn overload(id: String, member: bool, params: Vec<Type>, result: Type) -> Overload {
    let mut type_params = Vec::new();
    for ty in params.iter().chain(std::iter::once(&result)) {
        ty.collect_params(&mut type_params);
    }
    Overload {
        id: id.into(),
        member,
        params,
        result,
        type_params,
    }
}

/// The environment of a cel-go case, or why it is excluded.
fn cel_go_env(case: &Value) -> Result<Env, &'static str> {
    let env_go = case["env_go"].as_str().unwrap_or("");
    let opts = case["opts_go"].as_str().unwrap_or("");
    let container = case["container"].as_str().unwrap_or("");
    let expr = case["expr"].as_str().unwrap_or("");
    let proto = ["google.expr", "google.protobuf", "TestAllTypes"];
    if proto
        .iter()
        .any(|p| env_go.contains(p) || container.contains(p) || expr.contains(p))
    {
        return Err("protobuf message types");
    }
    if env_go.contains("NewOpaqueType") || env_go.contains("NewNullableType") {
        return Err("parameterised opaque or nullable (wrapper) types");
    }
    if env_go.contains("jsonFieldNames") {
        return Err("JSON field names of protobuf messages");
    }
    let mut libraries = vec![Library::Standard, Library::OptionalV2];
    if opts.contains("CrossTypeNumericComparisons(true)") {
        libraries.push(Library::CrossTypeNumericComparisons);
    }
    let mut env = Env::new(libraries);
    env.container = container.to_string();
    if env_go.contains("testEnvs(t)[\"default\"]") {
        for (name, ty) in [
            ("is", Type::String),
            ("ii", Type::Int),
            ("iu", Type::Uint),
            ("iz", Type::Bool),
            ("ib", Type::Bytes),
            ("id", Type::Double),
            ("ix", Type::Null),
        ] {
            env.declare(name, ty, None);
        }
        env.add_function(CustomFunction {
            name: "fg_s".into(),
            overloads: vec![overload("fg_s_0".into(), false, vec![], Type::String)],
            doc: None,
        });
        env.add_function(CustomFunction {
            name: "fi_s_s".into(),
            overloads: vec![overload(
                "fi_s_s_0".into(),
                true,
                vec![Type::String],
                Type::String,
            )],
            doc: None,
        });
    }
    for args in calls_of(env_go, "decls.NewVariable") {
        let name = go_strings(args.first().ok_or("bad variable")?)
            .pop()
            .ok_or("bad variable")?;
        let ty = go_type(args.get(1).ok_or("bad variable")?).ok_or("unsupported variable type")?;
        env.declare(&name, ty, None);
    }
    for args in calls_of(env_go, "testFunction") {
        let name = args
            .get(1)
            .ok_or("bad function")?
            .trim_matches('"')
            .to_string();
        let mut overloads = Vec::new();
        for text in args.iter().skip(2) {
            let member = text.starts_with("decls.MemberOverload");
            let callee = if member {
                "decls.MemberOverload"
            } else {
                "decls.Overload"
            };
            let call = calls_of(text, callee)
                .into_iter()
                .next()
                .ok_or("bad overload")?;
            overloads.push(go_overload(&call, member).ok_or("unsupported overload type")?);
        }
        env.add_function(CustomFunction {
            name,
            overloads,
            doc: None,
        });
    }
    Ok(env)
}

/// The (line, column) of every `ERROR: <input>:L:C:` in an expected error text.
fn error_positions(text: &str) -> Vec<(usize, usize)> {
    text.split("<input>:")
        .skip(1)
        .filter_map(|rest| {
            let mut parts = rest.split(':');
            Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
        })
        .collect()
}

#[test]
fn cel_go_checker_cases() {
    let Some(dir) = data_dir() else { return };
    let data = read_json(&dir.join("cel-go/checker_cases.json"));
    let (mut types_ok, mut types_total) = (0, 0);
    let (mut errors_ok, mut errors_total, mut positions_ok) = (0, 0, 0);
    let mut excluded = 0;
    for case in data["cases"].as_array().into_iter().flatten() {
        let expr = case["expr"].as_str().unwrap_or("");
        let env = match cel_go_env(case) {
            Ok(env) => env,
            Err(reason) => {
                excluded += 1;
                println!("  excluded ({reason}): {expr:?}");
                continue;
            }
        };
        let parsed = parse_with(expr, &ParseOptions::default());
        let checked = check(&parsed.ast, &env);
        if let Some(expected) = case["error"].as_str() {
            errors_total += 1;
            if checked.errors.is_empty() {
                println!("  FAIL no error: {expr:?}");
                continue;
            }
            errors_ok += 1;
            let ours: Vec<(usize, usize)> = checked
                .errors
                .iter()
                .map(|e| line_col(expr, usize::from(e.anchor)))
                .collect();
            if error_positions(expected) == ours {
                positions_ok += 1;
            } else {
                println!(
                    "  position {expr:?}: expected {:?}, got {ours:?} {:?}",
                    error_positions(expected),
                    checked
                        .errors
                        .iter()
                        .map(|e| &e.message)
                        .collect::<Vec<_>>()
                );
            }
        } else if let Some(out) = case["out_type_go"].as_str() {
            let Some(expected) = go_type(out) else {
                excluded += 1;
                println!("  excluded (result type not modelled): {expr:?}");
                continue;
            };
            types_total += 1;
            if checked.errors.is_empty() && checked.result == expected {
                types_ok += 1;
            } else {
                println!(
                    "  FAIL type {expr:?}: expected {expected}, got {} {:?}",
                    checked.result,
                    checked
                        .errors
                        .iter()
                        .map(|e| &e.message)
                        .collect::<Vec<_>>()
                );
            }
        }
    }
    println!("cel-go checker: {excluded} cases excluded");
    let failures: Vec<String> = [
        against_baseline("cel-go", "result_types", types_ok, types_total),
        against_baseline("cel-go", "errors_reported", errors_ok, errors_total),
        against_baseline("cel-go", "error_positions", positions_ok, errors_total),
    ]
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "below baseline: {failures:#?}");
}

// ---------------------------------------------------------------------------------------------
// cel-spec.

/// Files left out entirely, with the reason.
const EXCLUDED_FILES: &[(&str, &str)] = &[
    (
        "block_ext.json",
        "cel.block is not in the admission environment",
    ),
    (
        "encoders_ext.json",
        "ext.Encoders is not in the admission environment",
    ),
    (
        "math_ext.json",
        "ext.Math is not in the admission environment",
    ),
    (
        "network_ext.json",
        "cel-go's network extension differs from the Kubernetes IP/CIDR library",
    ),
    ("proto2.json", "protobuf message types"),
    ("proto2_ext.json", "protobuf message types"),
    ("proto3.json", "protobuf message types"),
    ("wrappers.json", "protobuf wrapper types"),
    ("enums.json", "protobuf enums"),
    ("unknowns.json", "no tests"),
];

/// Why a cel-spec test is left out, if it is.
fn excluded(test: &Value) -> Option<&'static str> {
    let expr = test["expr"].as_str().unwrap_or("");
    if test["disable_check"].as_bool().unwrap_or(false) {
        return Some("disable_check");
    }
    if test["expect"]["kind"] == "error" {
        return Some("expected to fail (at check or evaluation time)");
    }
    let proto_names = [
        "TestAllTypes",
        "google.protobuf",
        "cel.expr.conformance",
        "NestedEnum",
        "GlobalEnum",
        "NestedMessage",
        "TestRequired",
    ];
    let container = test["container"].as_str().unwrap_or("");
    if container.starts_with("google.protobuf") || container.starts_with("cel.expr") {
        return Some("protobuf message types (container)");
    }
    if proto_names.iter().any(|p| expr.contains(p)) {
        return Some("protobuf message types");
    }
    let env_types = test["type_env"].as_array().into_iter().flatten();
    for decl in env_types {
        let unsupported = match &decl["ident"] {
            Value::String(t) => spec_type(t).is_none(),
            _ => decl["function"].as_array().into_iter().flatten().any(|o| {
                spec_type(o["result"].as_str().unwrap_or("")).is_none()
                    || o["params"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .any(|p| spec_type(p.as_str().unwrap_or("")).is_none())
            }),
        };
        if unsupported {
            return Some("protobuf or abstract types in the environment");
        }
    }
    if test["expect"]["kind"] == "typed"
        && spec_type(test["expect"]["type"].as_str().unwrap_or("")).is_none()
    {
        return Some("protobuf or abstract result type");
    }
    EXCLUDED_TESTS
        .iter()
        .find(|(id, _)| test["id"] == *id)
        .map(|(_, reason)| *reason)
}

/// Single tests left out, with the reason.
const EXCLUDED_TESTS: &[(&str, &str)] = &[
    (
        "string_ext/reverse/empty",
        "string reverse() is ext.Strings v3, which Kubernetes does not enable",
    ),
    (
        "string_ext/reverse/single_character",
        "string reverse() is ext.Strings v3, which Kubernetes does not enable",
    ),
    (
        "string_ext/reverse/multiple",
        "string reverse() is ext.Strings v3, which Kubernetes does not enable",
    ),
    (
        "type_deductions/legacy_nullable_types/null_assignable_to_abstract_parameter_candidate",
        "cel-go (the API server's checker) skips it: its join of optional and null gives null",
    ),
];

fn spec_env(file: &str, test: &Value) -> Env {
    let mut env = Env::new(libraries_for(37, true));
    env.bindings = file == "bindings_ext.json";
    env.container = test["container"].as_str().unwrap_or("").to_string();
    for decl in test["type_env"].as_array().into_iter().flatten() {
        let name = decl["name"].as_str().unwrap_or("");
        if let Some(ty) = decl["ident"].as_str().and_then(spec_type) {
            env.declare(name, ty, None);
            continue;
        }
        let overloads = decl["function"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|o| {
                let params = o["params"]
                    .as_array()?
                    .iter()
                    .map(|p| spec_type(p.as_str()?))
                    .collect::<Option<Vec<_>>>()?;
                let result = spec_type(o["result"].as_str()?)?;
                let id = o["id"].as_str()?.to_string();
                Some(overload(id, o["member"].as_bool()?, params, result))
            })
            .collect();
        env.add_function(CustomFunction {
            name: name.to_string(),
            overloads,
            doc: None,
        });
    }
    env
}

#[test]
fn cel_spec_checks() {
    let Some(dir) = data_dir() else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("cel-spec/json"))
        .expect("cel-spec/json")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some((_, reason)) = EXCLUDED_FILES.iter().find(|(f, _)| *f == name) {
            println!("cel-spec/{name}: excluded ({reason})");
            continue;
        }
        let file = read_json(&path);
        let (mut passed, mut total, mut skipped) = (0, 0, 0);
        for test in file["tests"].as_array().into_iter().flatten() {
            if excluded(test).is_some() {
                skipped += 1;
                continue;
            }
            total += 1;
            let expr = test["expr"].as_str().unwrap_or("");
            let options = ParseOptions {
                macros: !test["disable_macros"].as_bool().unwrap_or(false),
                ident_escape_syntax: true,
                ..ParseOptions::default()
            };
            let parsed = parse_with(expr, &options);
            let checked = check(&parsed.ast, &spec_env(&name, test));
            let expected = (test["expect"]["kind"] == "typed")
                .then(|| spec_type(test["expect"]["type"].as_str().unwrap_or("")))
                .flatten();
            let type_ok = expected.as_ref().is_none_or(|t| *t == checked.result);
            if parsed.errors.is_empty() && checked.errors.is_empty() && type_ok {
                passed += 1;
            } else {
                println!(
                    "  FAIL {}: {expr:?}: {} (expected {expected:?}) {:?}",
                    test["id"],
                    checked.result,
                    checked
                        .errors
                        .iter()
                        .map(|e| &e.message)
                        .collect::<Vec<_>>()
                );
            }
        }
        println!("cel-spec/{name}: {skipped} excluded");
        failures.extend(against_baseline("cel-spec", &name, passed, total));
    }
    assert!(failures.is_empty(), "below baseline: {failures:#?}");
}

// ---------------------------------------------------------------------------------------------
// Kubernetes library cases and CRD validation rules.

/// The newest stored Kubernetes environment, with the CRD rule variables `self` and `oldSelf`
/// as `dyn`.
fn kubernetes_env() -> Env {
    let mut env = Env::kubernetes(admission_ls::cel::library::NEWEST_MINOR, true);
    env.declare("self", Type::Dyn, None);
    env.declare("oldSelf", Type::Dyn, None);
    env
}

#[test]
fn kubernetes_library_cases() {
    let Some(dir) = data_dir() else { return };
    let data = read_json(&dir.join("kubernetes-cel-library/library_cases.json"));
    let env = kubernetes_env();
    let (mut clean_ok, mut clean_total, mut errors_ok, mut errors_total) = (0, 0, 0, 0);
    for case in data["cases"].as_array().into_iter().flatten() {
        let expr = case["expr"].as_str().unwrap_or("");
        let checked = check(&parse_with(expr, &ParseOptions::default()).ast, &env);
        let messages: Vec<&String> = checked.errors.iter().map(|e| &e.message).collect();
        if case["expect"]["kind"] == "compile_error" {
            errors_total += 1;
            if checked.errors.is_empty() {
                println!("  FAIL no error: {expr:?}");
            } else {
                errors_ok += 1;
            }
        } else {
            clean_total += 1;
            if checked.errors.is_empty() {
                clean_ok += 1;
            } else {
                println!("  FAIL false positive: {expr:?}: {messages:?}");
            }
        }
    }
    let failures: Vec<String> = [
        against_baseline("kubernetes", "library_clean", clean_ok, clean_total),
        against_baseline(
            "kubernetes",
            "library_compile_errors",
            errors_ok,
            errors_total,
        ),
    ]
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "below baseline: {failures:#?}");
}

#[test]
fn crd_validation_rules_check_clean() {
    let Some(dir) = data_dir() else { return };
    let data = read_json(&dir.join("kubernetes-cel-library/crd_validation_rules.json"));
    let env = kubernetes_env();
    let (mut passed, mut total) = (0, 0);
    for group in data["groups"].as_array().into_iter().flatten() {
        for rule in group["valid"].as_array().into_iter().flatten() {
            // Rules built by Go code (`rule_go`) are not plain text.
            let Some(expr) = rule["rule"].as_str() else {
                continue;
            };
            total += 1;
            let parsed = parse_with(expr, &ParseOptions::default());
            let checked = check(&parsed.ast, &env);
            if parsed.errors.is_empty() && checked.errors.is_empty() {
                passed += 1;
            } else {
                println!(
                    "  FAIL {expr:?}: {:?} {:?}",
                    parsed.errors,
                    checked
                        .errors
                        .iter()
                        .map(|e| &e.message)
                        .collect::<Vec<_>>()
                );
            }
        }
    }
    let failure = against_baseline("kubernetes", "crd_valid_rules", passed, total);
    assert!(failure.is_none(), "below baseline: {failure:?}");
}

/// Every expression of the conformance data, including the parser's error cases (trees with error
/// nodes), checks without panicking in the Kubernetes environment; the result has a type per node.
#[test]
fn every_tree_checks_without_panicking() {
    let Some(dir) = data_dir() else { return };
    let mut sources: Vec<String> = Vec::new();
    for file in ["cel-go/parser_cases.json", "cel-go/checker_cases.json"] {
        let data = read_json(&dir.join(file));
        for case in data["cases"].as_array().into_iter().flatten() {
            sources.extend(case["expr"].as_str().map(str::to_string));
        }
    }
    let index = std::fs::read_to_string(dir.join("cel-spec/index.jsonl")).unwrap_or_default();
    for line in index.lines() {
        if let Ok(test) = serde_json::from_str::<Value>(line) {
            sources.extend(test["expr"].as_str().map(str::to_string));
        }
    }
    let env = kubernetes_env();
    for src in &sources {
        let parsed = parse_with(src, &ParseOptions::default());
        let checked = check(&parsed.ast, &env);
        assert_eq!(checked.types.len(), parsed.ast.len(), "{src:?}");
    }
    println!("checked {} trees without panicking", sources.len());
}
