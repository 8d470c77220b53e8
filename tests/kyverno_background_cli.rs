//! Kyverno's background kinds end to end: `eval` of a GeneratingPolicy (the generated resources
//! in text and JSON, the notes on what only a cluster does, a lookup read from `--context`, the
//! errors) and `test` of suites with `generatedResource` rows, passing as recorded and failing
//! when an expectation is wrong, in text, JSON and JUnit.

use expect_test::{Expect, expect};

#[path = "support/cli.rs"]
mod cli;

fn check(args: &[&str], status: i32, expected: Expect) {
    let (code, stdout, stderr) = cli::run_with(args, "", &[]);
    assert_eq!(code, status, "stdout:\n{stdout}\nstderr:\n{stderr}");
    expected.assert_eq(&cli::timeless(&format!("{stdout}{stderr}")));
}

const GENERATE: &str = "tests/suites/kyverno_generate/policies.yaml";
const NAMESPACE: &str = "tests/cli_fixtures/kyverno/team-a-namespace.yaml";
const DEPLOYMENT: &str = "tests/cli_fixtures/kyverno/web-deployment.yaml";

#[test]
fn eval_generating_policy_prints_the_generated_resources_and_notes() {
    check(
        &[
            "eval",
            GENERATE,
            "--policy",
            "default-deny",
            "--object",
            NAMESPACE,
        ],
        0,
        expect![[r#"
            GeneratingPolicy default-deny: pass
              decision: allow
              message: policy evaluated successfully
              note: synchronize: Kyverno keeps the generated resources in sync with the policy and the trigger in a cluster; nothing changes offline
              generated: 1 resource(s)
                {
                  "apiVersion": "networking.k8s.io/v1",
                  "kind": "NetworkPolicy",
                  "metadata": {
                    "name": "default-deny",
                    "namespace": "team-a"
                  },
                  "spec": {
                    "podSelector": {},
                    "policyTypes": [
                      "Ingress",
                      "Egress"
                    ]
                  }
                }
        "#]],
    );
}

#[test]
fn eval_generating_policy_json_reads_lookups_from_context() {
    let context = "tests/suites/kyverno_generate/context.yaml";
    check(
        &[
            "eval",
            GENERATE,
            "--policy",
            "copy-settings",
            "--object",
            DEPLOYMENT,
            "--context",
            context,
            "--format",
            "json",
        ],
        0,
        expect![[r#"
            [
              {
                "decision": "allow",
                "generated": [
                  {
                    "apiVersion": "v1",
                    "data": {
                      "level": "strict"
                    },
                    "kind": "ConfigMap",
                    "metadata": {
                      "name": "web-settings",
                      "namespace": "team-a"
                    }
                  },
                  {
                    "apiVersion": "rbac.authorization.k8s.io/v1",
                    "kind": "ClusterRole",
                    "metadata": {
                      "name": "web-reader"
                    },
                    "rules": [
                      {
                        "apiGroups": [
                          ""
                        ],
                        "resources": [
                          "configmaps"
                        ],
                        "verbs": [
                          "get"
                        ]
                      }
                    ]
                  }
                ],
                "kind": "GeneratingPolicy",
                "message": "policy evaluated successfully",
                "policy": "copy-settings",
                "result": "pass"
              }
            ]
        "#]],
    );
}

#[test]
fn eval_generating_policy_errors_and_no_match() {
    check(
        &[
            "eval",
            GENERATE,
            "--policy",
            "copy-settings",
            "--object",
            DEPLOYMENT,
            "--exit-code",
        ],
        1,
        expect![[r#"
            GeneratingPolicy copy-settings: error
              decision: error
              message: failed to evaluate policy: composited variable "source" fails to evaluate: resource.Get('v1', 'configmaps', 'platform', 'settings'): no data; give it in a context file: `eval --context FILE`, or the `context` field of a kyverno-test.yaml (a cli.kyverno.io/v1alpha1 Context with spec.resources and spec.images)
        "#]],
    );
    check(
        &[
            "eval",
            GENERATE,
            "--policy",
            "namespace-maker",
            "--object",
            DEPLOYMENT,
        ],
        0,
        expect![[r#"
            NamespacedGeneratingPolicy namespace-maker: error
              decision: error
              message: failed to evaluate policy: failed to generate resources: cross-scope generation denied: a policy scoped to namespace "team-a" cannot generate cluster-scoped resource v1/Namespace
        "#]],
    );
    check(
        &[
            "eval",
            GENERATE,
            "--policy",
            "default-deny",
            "--object",
            DEPLOYMENT,
        ],
        0,
        expect![[r#"
            GeneratingPolicy default-deny: no match
              decision: skip
              note: synchronize: Kyverno keeps the generated resources in sync with the policy and the trigger in a cluster; nothing changes offline
        "#]],
    );
}

#[test]
fn test_compares_generated_resources() {
    check(
        &["test", "tests/suites/kyverno_generate"],
        0,
        expect![[r#"
            tests/suites/kyverno_generate/kyverno-test.yaml (generate)
              ok    default-deny Namespace/team-a: pass (…ms)
              ok    copy-settings Deployment/team-a/web: pass (…ms)
              ok    broken-generate Deployment/web: error (…ms)
              ok    namespace-maker Deployment/web: error (…ms)
            4 passed, 0 failed in …ms
        "#]],
    );
}

#[test]
fn test_fails_wrong_generated_resources_in_every_format() {
    check(
        &["test", "tests/suites/kyverno_generate_flipped"],
        1,
        expect![[r#"
            tests/suites/kyverno_generate_flipped/kyverno-test.yaml (generate-flipped)
              FAIL  default-deny Namespace/team-a: pass (…ms)
                    generated NetworkPolicy/default-deny: the generated resource differs from wrong.yaml (patch from expected to actual: {"op":"add","path":"/spec/policyTypes/-","value":"Egress"})
              FAIL  copy-settings Deployment/web: pass (…ms)
                    generated ConfigMap/web-settings: the generated resource differs from wrong.yaml (patch from expected to actual: {"op":"replace","path":"/data/level","value":"strict"})
                    generated ClusterRole/web-reader: generatedResource: resource with name web-reader not found in manifest wrong.yaml
              FAIL  default-deny Namespace/opted-out: pass (…ms)
                    Namespace/opted-out: not found: the policy does not apply to it (want pass)
              FAIL  broken-generate Deployment/web: pass (…ms)
                    Deployment/web: want pass, got error: failed to evaluate policy: no such key: missing
              FAIL  default-deny Namespace/team-a: pass (…ms)
                    generated NetworkPolicy/default-deny: it matches none of the expected generated resources; the last: the generated resource differs from wrong.yaml (patch from expected to actual: {"op":"add","path":"/spec/policyTypes/-","value":"Egress"})
            0 passed, 5 failed in …ms
        "#]],
    );
    let (code, json, _) = cli::run_with(
        &[
            "test",
            "tests/suites/kyverno_generate_flipped",
            "--format",
            "json",
        ],
        "",
        &[],
    );
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(json["summary"]["failed"], 5);
    assert_eq!(json["summary"]["passed"], 0);
    let (code, junit, _) = cli::run_with(
        &[
            "test",
            "tests/suites/kyverno_generate_flipped",
            "--format",
            "junit",
        ],
        "",
        &[],
    );
    assert_eq!(code, 1);
    assert!(
        junit.contains("the generated resource differs from wrong.yaml"),
        "{junit}"
    );
    assert_eq!(junit.matches("<failure").count(), 5, "{junit}");
}
