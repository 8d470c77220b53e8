//! `admission-ls validate`: custom resources against their CRDs, as the API server validates them
//! on create and update (apiextensions-apiserver `pkg/registry/customresource/strategy.go`,
//! `pkg/apiserver/validation/validation.go`, `pkg/apiserver/schema/cel/validation.go`), run
//! through the built binary on the fixtures in `tests/cli_fixtures/validate/`.

#[path = "support/cli.rs"]
mod cli;

use cli::run;
use expect_test::{Expect, expect};

const CRD: &str = "tests/cli_fixtures/validate/widgets.crd.yaml";

fn fixture(name: &str) -> String {
    format!("tests/cli_fixtures/validate/{name}")
}

#[track_caller]
fn check(args: &[&str], status: i32, stdout: Expect) {
    let (code, out, err) = run(args);
    assert_eq!(code, status, "stdout: {out}\nstderr: {err}");
    stdout.assert_eq(&out);
}

#[test]
fn a_valid_object_passes_with_its_defaults() {
    let object = fixture("widget-valid.yaml");
    check(
        &["validate", &object, "--crd", CRD],
        0,
        expect![[r#"
            Widget/w2 (CREATE): valid
        "#]],
    );
}

#[test]
fn schema_errors_in_the_api_servers_words() {
    let object = fixture("widget-schema.yaml");
    check(
        &["validate", &object, "--crd", CRD],
        1,
        expect![[r#"
            Widget/w3 (CREATE): invalid (7 errors)
              spec.mode: Unsupported value: "medium": supported values: "fast", "slow"
              spec.name: Too long: may not be more than 8 bytes
              spec.name: Invalid value: "Web-Server": spec.name in body should match '^[a-z]+$'
              spec.ports[1]: Duplicate value: map[string]interface {}{"name":"http"}
              spec.ports[2].name: Required value
              spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"
              <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation
        "#]],
    );
}

#[test]
fn failed_rules_with_message_expression_reason_and_field_path() {
    let object = fixture("widget.yaml");
    check(
        &["validate", &object, "--crd", CRD],
        1,
        expect![[r#"
            Widget/w1 (CREATE): invalid (3 errors)
              spec.tags[2]: Duplicate value: "a"
              spec.size: Invalid value: size 7 needs mode slow
              spec: Forbidden: admin is reserved
              note: unknown field spec.extra pruned
        "#]],
    );
}

/// On update, transition rules run against the old object and unchanged values are not validated
/// again (the duplicate set item was already there).
#[test]
fn updates_run_transition_rules_and_ratchet() {
    let object = fixture("widget.yaml");
    let old = fixture("widget-old.yaml");
    check(
        &["validate", &object, "--crd", CRD, "--old", &old],
        1,
        expect![[r#"
            Widget/w1 (UPDATE): invalid (3 errors)
              spec.size: Invalid value: size 7 needs mode slow
              spec: Forbidden: admin is reserved
              spec.ports[0]: Invalid value: port is immutable
              note: unknown field spec.extra pruned
        "#]],
    );
}

#[test]
fn json_output_carries_the_decoded_object() {
    let object = fixture("widget-valid.yaml");
    check(
        &["validate", &object, "--crd", CRD, "--format", "json"],
        0,
        expect![[r#"
            {
              "apiVersion": "example.com/v1",
              "defaulted": [
                "spec.mode"
              ],
              "errors": [],
              "kind": "Widget",
              "name": "w2",
              "object": {
                "apiVersion": "example.com/v1",
                "kind": "Widget",
                "metadata": {
                  "creationTimestamp": null,
                  "name": "w2"
                },
                "spec": {
                  "mode": "fast",
                  "name": "web",
                  "ports": [
                    {
                      "name": "http",
                      "port": 80
                    }
                  ],
                  "size": 3,
                  "tags": [
                    "a",
                    "b"
                  ]
                }
              },
              "operation": "CREATE",
              "pruned": [],
              "valid": true
            }
        "#]],
    );
}

#[test]
fn an_object_no_crd_serves_is_a_usage_error() {
    let (code, _, err) = run(&["validate", CRD, "--crd", CRD]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no CustomResourceDefinition in the --crd files serves apiextensions.k8s.io/v1, Kind=CustomResourceDefinition"),
        "{err}"
    );
}

/// A schema `pattern` is a Go regular expression (kube-openapi compiles it with `regexp`), so
/// `\w` is ASCII: `café` does not match `^\w+$`.
#[test]
fn patterns_are_go_regular_expressions() {
    let object = fixture("gadget-unicode.yaml");
    let crd = fixture("gadgets.crd.yaml");
    check(
        &["validate", &object, "--crd", &crd],
        1,
        expect![[r#"
            Gadget/g1 (CREATE): invalid (1 error)
              spec.code: Invalid value: "café": spec.code in body should match '^\w+$'
        "#]],
    );
}

/// How many items a list and properties an object may hold: both maxima are `field.TooMany`
/// ("must have at most N items", apimachinery `field/errors.go`), the minima kube-openapi's
/// "should have at least N items|properties".
#[test]
fn item_and_property_counts_are_bounded() {
    let object = fixture("thing-counts.yaml");
    let crd = fixture("things.crd.yaml");
    check(
        &["validate", &object, "--crd", &crd],
        1,
        expect![[r#"
            Thing/t (CREATE): invalid (4 errors)
              spec.big: Too many: 2: must have at most 1 items
              spec.few: Invalid value: 1: spec.few in body should have at least 3 items
              spec.many: Too many: 2: must have at most 1 items
              spec.small: Invalid value: 1: spec.small in body should have at least 2 properties
        "#]],
    );
}

/// Values are typed as go-yaml v2 types them for kubectl (go.yaml.in/yaml/v2 `resolve.go`, YAML
/// 1.1): `yes` is a boolean and `0755` the integer 493, so a string-valued map refuses them, while
/// the quoted `"on"` stays a string.
#[test]
fn yaml_1_1_scalars_are_typed_as_kubectl_types_them() {
    let object = fixture("thing-yaml11.yaml");
    let crd = fixture("things.crd.yaml");
    check(
        &["validate", &object, "--crd", &crd],
        1,
        expect![[r#"
            Thing/t (CREATE): invalid (3 errors)
              spec.small.b: Invalid value: "boolean": spec.small.b in body must be of type string: "boolean"
              spec.small.c: Invalid value: "integer": spec.small.c in body must be of type string: "integer"
              <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation
        "#]],
    );
}
