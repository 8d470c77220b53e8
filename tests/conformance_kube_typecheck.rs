//! Conformance: the API server's status type-check table (`TestTypeCheck`, `TestExtractTypeNames`
//! of `typechecking_test.go`, transcribed in `../shared/conformance/kubernetes-typecheck/`).
//!
//! Each `TestTypeCheck` case goes through data, as a user would write it: the case's schema becomes
//! a CustomResourceDefinition in a second file for every kind the policy names (the upstream fake
//! resolver returns the schema for every kind, the paramKind included; a core-group paramKind is
//! moved to `example.com` because a CRD cannot be in the core group), `schema: null` ("not found")
//! moves the rule to a group nothing serves. The warnings are our diagnostics (both checks) on
//! `validations[i].expression` and `messageExpression`, the only fields the status reports.
//! Prints pass rates; fails under the baseline in `tests/conformance/typecheck_baseline.json`;
//! skips with a notice when the data is absent.

mod conformance_support;

use admission_ls::ide::{AnalysisHost, DiagnosticsConfig, FileId};
use admission_ls::policy::{PolicyDocument, Workspace, matched_kinds, read_file, yaml_to_json};
use conformance_support::{against_flat_baseline, data_path, read_text};
use serde_json::{Value, json};

/// A CRD serving `group/version` `kind` with `schema` as its root schema.
fn crd(group: &str, version: &str, kind: &str, plural: &str, schema: &Value) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{plural}.{group}")},
        "spec": {
            "group": group,
            "names": {"kind": kind, "plural": plural},
            "scope": "Namespaced",
            "versions": [{"name": version, "served": true, "storage": true,
                          "schema": {"openAPIV3Schema": schema}}]
        }
    })
}

/// The upstream REST mapper's kinds, plus the CRD group of the `additionalProperties` case.
fn kind_of(group: &str, resource: &str) -> Option<&'static str> {
    match (group, resource) {
        ("apps", "deployments") => Some("Deployment"),
        ("", "pods") => Some("Pod"),
        ("example.com", "reproducers") => Some("Reproducer"),
        _ => None,
    }
}

/// The policy and CRD files of one `TestTypeCheck` case.
fn case_files(case: &Value) -> (Value, Vec<Value>) {
    let mut policy = case["policy"].clone();
    policy["metadata"] = json!({"name": "case"});
    let schema = &case["schema"];
    let mut crds = Vec::new();
    let rules = policy["spec"]["matchConstraints"]["resourceRules"]
        .as_array_mut()
        .map(std::mem::take)
        .unwrap_or_default();
    let mut new_rules = Vec::new();
    for mut rule in rules {
        if schema.is_null() {
            rule["apiGroups"] = json!(["not-served.example.com"]);
        }
        for group in rule["apiGroups"].as_array().cloned().unwrap_or_default() {
            for resource in rule["resources"].as_array().cloned().unwrap_or_default() {
                let (g, r) = (
                    group.as_str().unwrap_or(""),
                    resource.as_str().unwrap_or(""),
                );
                for version in rule["apiVersions"].as_array().cloned().unwrap_or_default() {
                    if let Some(kind) = kind_of(g, r).filter(|_| !schema.is_null()) {
                        crds.push(crd(g, version.as_str().unwrap_or(""), kind, r, schema));
                    }
                }
            }
        }
        new_rules.push(rule);
    }
    if !new_rules.is_empty() {
        policy["spec"]["matchConstraints"]["resourceRules"] = json!(new_rules);
    }
    if let Some(kind) = policy["spec"]["paramKind"]["kind"]
        .as_str()
        .map(str::to_string)
    {
        policy["spec"]["paramKind"]["apiVersion"] = json!("example.com/v1");
        if !schema.is_null() {
            let plural = format!("{}s", kind.to_lowercase());
            crds.push(crd("example.com", "v1", &kind, &plural, schema));
        }
    }
    (policy, crds)
}

/// The field paths our diagnostics land on, in order, for the fields the status reports.
fn warnings(case: &Value) -> Vec<String> {
    let (policy, crds) = case_files(case);
    let mut host = AnalysisHost::new();
    let policy_text = policy.to_string();
    host.set_file(FileId(0), policy_text.as_str().into());
    for (i, crd) in crds.iter().enumerate() {
        host.set_file(FileId(i as u32 + 1), crd.to_string().as_str().into());
    }
    let diagnostics = host
        .snapshot()
        .diagnostics(FileId(0), &DiagnosticsConfig::default());
    let mut refs: Vec<(String, String)> = Vec::new();
    for d in diagnostics {
        let Some((path, _)) = d.message.split_once(": ") else {
            continue;
        };
        let reported = path.starts_with("spec.validations[")
            && (path.ends_with("].expression") || path.ends_with("].messageExpression"));
        if reported {
            refs.push((path.to_string(), d.message.clone()));
        }
    }
    // One warning per field, as the status has.
    refs.dedup_by(|a, b| a.0 == b.0);
    refs.into_iter().map(|(p, m)| format!("{p}\t{m}")).collect()
}

fn type_check_case(case: &Value) -> Result<(), String> {
    let found = warnings(case);
    let expect = &case["expect"];
    let paths: Vec<&str> = found
        .iter()
        .map(|w| w.split('\t').next().unwrap_or(""))
        .collect();
    let fail = |why: &str| Err(format!("{why}; got {found:?}"));
    if expect["empty"] == json!(true) && !found.is_empty() {
        return fail("expected no warnings");
    }
    if let Some(count) = expect["count"].as_u64()
        && found.len() as u64 != count
    {
        return fail(&format!("expected {count} warnings"));
    }
    if let Some(refs) = expect["fieldRefs"].as_array() {
        let want: Vec<&str> = refs.iter().filter_map(Value::as_str).collect();
        if want != paths {
            return fail(&format!("expected fieldRefs {want:?}"));
        }
    }
    if let Some(text) = expect["every_warning_contains"].as_str()
        && (found.is_empty() || !found.iter().all(|w| w.contains(text)))
    {
        return fail(&format!("expected every warning to contain {text:?}"));
    }
    Ok(())
}

fn extract_case(case: &Value) -> Result<(), String> {
    let policy = json!({
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingAdmissionPolicy",
        "metadata": {"name": "case"},
        "spec": {"matchConstraints": case["matchConstraints"]},
    });
    let text = policy.to_string();
    let yaml = admission_ls::yaml::parse(&text);
    let documents = read_file(&text, &yaml);
    let Some(PolicyDocument::ValidatingPolicy(_, spec)) = documents.first() else {
        return Err("policy not read".to_string());
    };
    let newest = admission_ls::schema::bundled::newest();
    let kinds = matched_kinds(newest, &spec.value.match_constraints, &Workspace::new());
    let got: Vec<Value> = kinds
        .iter()
        .map(|k| json!({"group": k.group, "version": k.version, "kind": k.kind}))
        .collect();
    let want = case["expected"].as_array().cloned().unwrap_or_default();
    if got == want {
        Ok(())
    } else {
        Err(format!("expected {want:?}, got {got:?}"))
    }
}

/// Runs the cases of table `name`; a failure line if fewer pass than the baseline records.
fn run(table: &Value, name: &str, check: fn(&Value) -> Result<(), String>) -> Option<String> {
    let cases = table[name].as_array().cloned().unwrap_or_default();
    let mut passed = 0;
    for case in &cases {
        match check(case) {
            Ok(()) => passed += 1,
            Err(why) => println!("  FAIL {name} / {}: {why}", case["name"]),
        }
    }
    let total = cases.len() as u64;
    against_flat_baseline("typecheck_baseline.json", name, passed, total)
}

#[test]
fn status_type_check_table() {
    let Some(path) = data_path("kubernetes-typecheck/typechecking_test_cases.yaml") else {
        return;
    };
    let text = read_text(&path);
    let yaml = admission_ls::yaml::parse(&text);
    let table = yaml
        .documents
        .first()
        .and_then(|d| d.root.as_ref())
        .and_then(yaml_to_json)
        .unwrap_or(Value::Null);
    let tables = [
        (
            "TestTypeCheck",
            type_check_case as fn(&Value) -> Result<(), String>,
        ),
        ("TestExtractTypeNames", extract_case),
    ];
    let regressions: Vec<String> = tables
        .into_iter()
        .filter_map(|(name, check)| run(&table, name, check))
        .collect();
    assert!(regressions.is_empty(), "below baseline: {regressions:?}");
}
