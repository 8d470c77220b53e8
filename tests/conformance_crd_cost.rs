//! Calibration of CRD rule costs against the API server's own figures: the cases of
//! `tests/conformance/crd_cost_cases.json` (apiextensions-apiserver
//! `pkg/apiserver/schema/cel/compilation_test.go` `TestCostEstimation`), each a one-rule schema
//! placed as a property of a CRD's root, so that the editor's cost hint (the rule's estimate times
//! its node's cardinality, 1 here) is the `MaxCost` the API server computes. Each case is run
//! without a bound and with the case's `maxItems`/`maxProperties`/`maxLength`; an expected figure
//! must be met exactly. Prints the pass rate and fails below `tests/conformance/crd_cost_baseline.json`.

mod conformance_support;
mod ide_support;

use admission_ls::ide::{TextRange, TextSize};
use conformance_support::against_flat_baseline;
use serde_json::{Value as Json, json};

const BASELINE: &str = "crd_cost_baseline.json";

/// The JSON schema of an element type name of the upstream test (`parseRuleType`).
fn element(name: &str) -> Json {
    match name {
        "duration" | "date" | "date-time" => json!({"type": "string", "format": name}),
        "int-or-string" => json!({"x-kubernetes-int-or-string": true}),
        other => json!({"type": other}),
    }
}

/// The schema a case's generator builds, with `max` as its bound when given.
fn schema(case: &Json, max: Option<u64>) -> Option<Json> {
    let rule = case["rule"].as_str()?;
    let rules = json!([{"rule": rule}]);
    let mut node = match case["generator"].as_str()? {
        "genArrayWithRule" => json!({"type": "array", "items": element(case["element"].as_str()?)}),
        "genMapWithRule" => json!({"type": "object",
            "additionalProperties": element(case["element"].as_str()?)}),
        "genStringWithRule" => json!({"type": "string"}),
        _ => return None,
    };
    let bound = match node["type"].as_str()? {
        "array" => "maxItems",
        "object" => "maxProperties",
        _ => "maxLength",
    };
    let fields = node.as_object_mut()?;
    if let Some(max) = max {
        fields.insert(bound.to_owned(), json!(max));
    }
    fields.insert("x-kubernetes-validations".to_owned(), rules);
    Some(node)
}

/// A CRD whose root has the single property `f` of schema `node`, as YAML (JSON is YAML).
fn crd(node: &Json) -> String {
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"kind": "Widget", "plural": "widgets"},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {
                "openAPIV3Schema": {"type": "object", "properties": {"f": node}}
            }}]
        }
    });
    format!("$0{crd}\n")
}

/// The cost the editor hints for the one rule of `text`, if it has a bounded estimate.
fn hinted_cost(text: &str) -> Option<u64> {
    let loaded = ide_support::load(text);
    let whole = TextRange::new(TextSize::from(0), TextSize::of(text));
    let hints = loaded
        .analysis
        .inlay_hints(loaded.file, whole, &loaded.config);
    let label = hints.iter().find_map(|h| h.label.strip_prefix(" cost "))?;
    label.replace(',', "").parse().ok()
}

#[test]
fn crd_rule_costs_equal_the_api_servers() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/conformance/crd_cost_cases.json"
    );
    let data: Json = serde_json::from_str(&std::fs::read_to_string(path).expect("the case file"))
        .expect("the case file is JSON");
    let cases = data["cases"].as_array().expect("a list of cases");
    let (mut passed, mut total) = (0, 0);
    for case in cases {
        let runs = [
            (None, case["expectedCalcCost"].as_u64()),
            (
                case["setMaxElements"].as_u64(),
                case["expectedSetCost"].as_u64(),
            ),
        ];
        for (max, expected) in runs {
            // Upstream checks a figure only when it is non-zero.
            let Some(expected) = expected.filter(|&e| e > 0) else {
                continue;
            };
            total += 1;
            let actual = schema(case, max).map(|node| hinted_cost(&crd(&node)));
            if actual == Some(Some(expected)) {
                passed += 1;
            } else {
                println!(
                    "{} (max {max:?}): expected {expected}, got {actual:?}",
                    case["name"]
                );
            }
        }
    }
    let failure = against_flat_baseline(BASELINE, "TestCostEstimation", passed, total);
    assert!(failure.is_none(), "{failure:?}");
}
