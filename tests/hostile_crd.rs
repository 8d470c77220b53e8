//! Hostile CRDs (issue 4 "Bad input"): a schema nested 200 levels deep, a recursive-looking `$ref`,
//! an enum of 100,000 values and a broken schema, each in a CRD used as a policy's `paramKind` and
//! matched kind. Each CRD gets a diagnostic on itself (too deep: `invalid`; `$ref`: `forbidden`, as
//! the API server refuses it; a huge enum: a `too-many` warning; wrongly-typed schema fields:
//! `invalid`), the policy next to it is still checked (its own mistake is reported), and
//! everything comes back on a default 2 MiB stack within a generous hang guard.

use std::sync::{Arc, mpsc};
use std::time::Duration;

use admission_ls::ide::{DiagnosticsConfig, diagnostics_for_files};
use expect_test::expect;

/// A CRD of kind `Hostile` in `hostile.example.com/v1` whose `spec` schema is `spec_schema`
/// (indented YAML, starting at column 14).
fn crd(spec_schema: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: hostiles.hostile.example.com
spec:
  group: hostile.example.com
  names: {{kind: Hostile, plural: hostiles}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
{spec_schema}"
    )
}

/// A policy on `Hostile` objects with Hostile params, whose second validation is misspelt.
const POLICY: &str = "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: hostile
spec:
  paramKind: {apiVersion: hostile.example.com/v1, kind: Hostile}
  matchConstraints:
    resourceRules:
    - {apiGroups: [hostile.example.com], apiVersions: [v1], resources: [hostiles], operations: [CREATE]}
  validations:
  - expression: has(object.spec) && has(params.spec)
  - expresion: object.spec == params.spec
";

/// The codes reported for the policy file and for the CRD file, checked together.
fn codes(crd_text: String) -> (Vec<String>, Vec<String>) {
    let (sender, receiver) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let files: Vec<Arc<str>> = vec![Arc::from(POLICY), Arc::from(crd_text.as_str())];
        let found = diagnostics_for_files(&files, &[], &DiagnosticsConfig::default());
        let names = |i: usize| -> Vec<String> {
            found[i]
                .iter()
                .map(|d| d.code.as_str().to_string())
                .collect()
        };
        let _ = sender.send((names(0), names(1)));
    });
    let result = receiver
        .recv_timeout(Duration::from_secs(120))
        .expect("the worker panicked, overflowed or hung");
    let _ = worker.join();
    result
}

fn policy_still_checked(policy: &[String]) {
    assert!(
        policy
            .iter()
            .any(|c| c == "unknown-field" || c == "required"),
        "the policy's own mistake is still reported: {policy:?}"
    );
}

#[test]
fn a_schema_nested_200_deep() {
    let mut schema = String::new();
    for depth in 0..200 {
        let pad = " ".repeat(12 + depth * 4);
        schema.push_str(&format!("{pad}type: object\n{pad}properties:\n{pad}  a:\n"));
    }
    schema.push_str(&format!("{}type: string\n", " ".repeat(12 + 200 * 4)));
    let (policy, crd) = codes(crd(&schema));
    policy_still_checked(&policy);
    expect![[r#"
        [
            "invalid",
        ]
    "#]]
    .assert_debug_eq(&crd);
}

#[test]
fn a_recursive_looking_ref() {
    let schema = "            type: object
            properties:
              self: {$ref: '#/properties/spec'}
              loop: {$ref: '#'}
";
    let (policy, crd) = codes(crd(schema));
    policy_still_checked(&policy);
    expect![[r#"
        [
            "forbidden",
            "forbidden",
        ]
    "#]]
    .assert_debug_eq(&crd);
}

#[test]
fn an_enum_of_100_000_values() {
    let values: Vec<String> = (0..100_000).map(|n| format!("v{n}")).collect();
    let schema = format!(
        "            type: object\n            properties:\n              mode: {{type: string, enum: [{}]}}\n",
        values.join(", ")
    );
    let (policy, crd) = codes(crd(&schema));
    policy_still_checked(&policy);
    expect![[r#"
        [
            "too-many",
        ]
    "#]]
    .assert_debug_eq(&crd);
}

#[test]
fn a_broken_schema() {
    let schema = "            type: [object, 7]
            properties: not-a-map
            items: {type: {nested: wrong}}
            x-kubernetes-preserve-unknown-fields: maybe
";
    let (policy, crd) = codes(crd(schema));
    policy_still_checked(&policy);
    expect![[r#"
        [
            "invalid",
            "invalid",
            "invalid",
            "invalid",
        ]
    "#]]
    .assert_debug_eq(&crd);
}

/// A rule at every level of a schema nested 60 deep (below the depth the API server accepts, so
/// every rule is compiled), each reading `oldSelf` under a list: every level gets its
/// diagnostic, on a 2 MiB stack, without a hang (issue 16).
#[test]
fn rules_at_every_level_of_a_deep_schema() {
    let mut schema = String::new();
    for depth in 0..60 {
        let pad = " ".repeat(12 + depth * 6);
        schema.push_str(&format!(
            "{pad}type: array\n{pad}maxItems: 2\n{pad}x-kubernetes-validations:\n{pad}- rule: size(self) == size(oldSelf)\n{pad}items:\n"
        ));
    }
    schema.push_str(&format!("{}type: string\n", " ".repeat(12 + 60 * 6)));
    let (policy, crd) = codes(crd(&schema));
    policy_still_checked(&policy);
    let uncorrelatable = crd.iter().filter(|c| *c == "invalid").count();
    // The top list's rule is correlatable; each deeper one sits under a non-map list.
    assert_eq!(uncorrelatable, 59, "{crd:?}");
}

/// 5,000 rules on one node, one of them misspelt: every rule is compiled, the misspelt one is
/// reported, and nothing hangs (issue 16).
#[test]
fn five_thousand_rules_on_one_node() {
    let mut schema = String::from(
        "            type: object\n            properties:\n              size: {type: integer}\n            x-kubernetes-validations:\n",
    );
    for n in 0..5_000 {
        schema.push_str(&format!("            - rule: self.size != {n}\n"));
    }
    schema.push_str("            - rule: self.sise > 0\n");
    let (policy, crd) = codes(crd(&schema));
    policy_still_checked(&policy);
    expect![[r#"
        [
            "cel-undefined-field",
        ]
    "#]]
    .assert_debug_eq(&crd);
}
