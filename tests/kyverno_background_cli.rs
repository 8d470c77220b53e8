//! Kyverno's background kinds end to end: `eval` of a GeneratingPolicy (the generated resources
//! in text and JSON, the notes on what only a cluster does, a lookup read from `--context`, the
//! errors) and `test` of suites with `generatedResource` rows, passing as recorded and failing
//! when an expectation is wrong, in text, JSON and JUnit; `eval` and `test` of a DeletingPolicy
//! (would delete, would keep, error, the schedule); mutate-existing MutatingPolicies (`eval` on
//! the targets of `--context`, suites with `targetResources`).

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
              ERROR templated Namespace/team-a: pass (…ms)
                    GeneratingPolicy templated: a generate entry written as a `template` (Kyverno 1.18, pkg/cel/policies/gpol/template) is not evaluated by admission-ls yet; write it as an expression calling generator.Apply
            0 passed, 5 failed, 1 errored in …ms
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
    assert_eq!(json["summary"]["errored"], 1);
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
    assert_eq!(junit.matches("<error").count(), 1, "{junit}");
}

const DELETE: &str = "tests/suites/kyverno_delete/policies.yaml";

#[test]
fn eval_deleting_policy_would_delete_or_keep_and_shows_the_schedule() {
    let preview = "tests/cli_fixtures/kyverno/team-a-preview.yaml";
    check(
        &[
            "eval",
            DELETE,
            "--policy",
            "expired-previews",
            "--object",
            preview,
            "--namespace",
            NAMESPACE,
        ],
        0,
        expect![[r#"
            DeletingPolicy expired-previews: pass
              decision: delete
              message: resource matched
              note: schedule: 0 */6 * * * (the cleanup controller deletes what matches at those times; offline, each object given is judged once)
              note: deletionPropagationPolicy: Background
        "#]],
    );
    check(
        &[
            "eval",
            DELETE,
            "--policy",
            "expired-previews",
            "--object",
            DEPLOYMENT,
            "--namespace",
            NAMESPACE,
            "--format",
            "json",
        ],
        0,
        expect![[r#"
            [
              {
                "decision": "keep",
                "kind": "DeletingPolicy",
                "message": "resource did not match: condition 'is-preview' is false",
                "notes": [
                  "schedule: 0 */6 * * * (the cleanup controller deletes what matches at those times; offline, each object given is judged once)",
                  "deletionPropagationPolicy: Background"
                ],
                "policy": "expired-previews",
                "result": "fail"
              }
            ]
        "#]],
    );
    check(
        &[
            "eval",
            DELETE,
            "--policy",
            "expired-previews",
            "--object",
            preview,
            "--exit-code",
        ],
        1,
        expect![[r#"
            DeletingPolicy expired-previews: error
              decision: error
              message: no such overload: field selection on null_type
              note: schedule: 0 */6 * * * (the cleanup controller deletes what matches at those times; offline, each object given is judged once)
              note: deletionPropagationPolicy: Background
        "#]],
    );
    check(
        &[
            "eval",
            DELETE,
            "--policy",
            "expired-previews",
            "--object",
            NAMESPACE,
        ],
        0,
        expect![[r#"
            DeletingPolicy expired-previews: no match
              decision: skip
              note: schedule: 0 */6 * * * (the cleanup controller deletes what matches at those times; offline, each object given is judged once)
              note: deletionPropagationPolicy: Background
        "#]],
    );
}

#[test]
fn test_judges_deleting_policies() {
    check(
        &["test", "tests/suites/kyverno_delete"],
        0,
        expect![[r#"
            tests/suites/kyverno_delete/kyverno-test.yaml (delete)
              ok    expired-previews Deployment/team-a/preview-web: pass (…ms)
              ok    expired-previews Deployment/prod-web: fail (…ms)
              ok    empty-namespaces Namespace/scratch: error (…ms)
              ok    empty-namespaces Namespace/keep-me: fail (…ms)
            4 passed, 0 failed in …ms
        "#]],
    );
    check(
        &["test", "tests/suites/kyverno_delete_flipped"],
        1,
        expect![[r#"
            tests/suites/kyverno_delete_flipped/kyverno-test.yaml (delete-flipped)
              FAIL  expired-previews Deployment/preview-web: fail (…ms)
                    Deployment/preview-web: want fail, got pass: resource matched
              FAIL  expired-previews Deployment/prod-web: pass (…ms)
                    Deployment/prod-web: want pass, got fail: resource did not match: condition 'is-preview' is false
              FAIL  expired-previews Namespace/scratch: pass (…ms)
                    Namespace/scratch: not found: the policy does not apply to it (want pass)
              ERROR empty-namespaces Namespace/(every resource): pass (…ms)
                    the result names no resources: Kyverno's CLI judges it on every resource, which admission-ls does not do yet (name them in `resources`)
            0 passed, 3 failed, 1 errored in …ms
        "#]],
    );
}

const EXISTING: &str = "tests/suites/kyverno_mutate_existing/policies.yaml";

#[test]
fn eval_mutate_existing_mutates_the_targets_of_the_context() {
    let targets = "tests/suites/kyverno_mutate_existing/targets.yaml";
    check(
        &[
            "eval",
            EXISTING,
            "--policy",
            "label-team-configmaps",
            "--object",
            DEPLOYMENT,
            "--context",
            targets,
        ],
        0,
        expect![[r#"
            MutatingPolicy label-team-configmaps: error
              decision: error
              message: failed to evaluate policy: no such key: object
              note: evaluation.admission.enabled is false: a cluster does not run this policy on admission requests (Kyverno's CLI, and this result, still do)
            MutatingPolicy label-team-configmaps (mutate-existing ConfigMap/team-a/settings): pass
              decision: allow
              message: success
              patch:
                {"op":"add","path":"/metadata/labels","value":{"deployed-by":"web"}}
              object:
                {
                  "apiVersion": "v1",
                  "data": {
                    "level": "strict"
                  },
                  "kind": "ConfigMap",
                  "metadata": {
                    "labels": {
                      "deployed-by": "web"
                    },
                    "name": "settings",
                    "namespace": "team-a"
                  }
                }
            MutatingPolicy label-team-configmaps (mutate-existing ConfigMap/team-b/elsewhere): skip
              decision: skip
              message: skip
        "#]],
    );
    check(
        &[
            "eval",
            EXISTING,
            "--policy",
            "annotate-settings",
            "--object",
            DEPLOYMENT,
            "--format",
            "json",
        ],
        0,
        expect![[r#"
            [
              {
                "decision": "error",
                "kind": "MutatingPolicy",
                "message": "failed to evaluate policy: JSON Patch: add operation does not apply: doc is missing path: \"/data/touched\": missing value",
                "policy": "annotate-settings",
                "result": "error"
              },
              {
                "decision": "error",
                "kind": "MutatingPolicy",
                "message": "failed to evaluate CEL expression for policy annotate-settings: resource.Get('v1', 'configmaps', 'team-a', 'settings'): no data; give it in a context file: `eval --context FILE`, or the `context` field of a kyverno-test.yaml (a cli.kyverno.io/v1alpha1 Context with spec.resources and spec.images)",
                "policy": "annotate-settings",
                "result": "error",
                "variant": "mutate-existing"
              }
            ]
        "#]],
    );
}

#[test]
fn test_judges_target_resources() {
    check(
        &["test", "tests/suites/kyverno_mutate_existing"],
        0,
        expect![[r#"
            tests/suites/kyverno_mutate_existing/kyverno-test.yaml (mutate-existing)
              ok    label-team-configmaps ConfigMap/team-a/settings: pass (…ms)
              ok    annotate-settings ConfigMap/settings: pass (…ms)
            2 passed, 0 failed in …ms
        "#]],
    );
    check(
        &["test", "tests/suites/kyverno_mutate_existing_flipped"],
        1,
        expect![[r#"
            tests/suites/kyverno_mutate_existing_flipped/kyverno-test.yaml (mutate-existing-flipped)
              FAIL  label-team-configmaps ConfigMap/settings: pass (…ms)
                    ConfigMap/settings (label-team-configmaps): the patched resource differs from ../kyverno_mutate_existing/targets.yaml (patch from expected to actual: {"op":"add","path":"/data/touched","value":"yes"}, {"op":"add","path":"/metadata/labels/deployed-by","value":"web"})
                    ConfigMap/settings (annotate-settings): the patched resource differs from ../kyverno_mutate_existing/targets.yaml (patch from expected to actual: {"op":"add","path":"/data/touched","value":"yes"}, {"op":"add","path":"/metadata/labels/deployed-by","value":"web"})
              FAIL  annotate-settings ConfigMap/settings: skip (…ms)
                    ConfigMap/settings (label-team-configmaps): want skip, got pass
                    ConfigMap/settings (annotate-settings): want skip, got pass
              ERROR label-team-configmaps ConfigMap/elsewhere: pass (…ms)
                    target 'elsewhere' was not mutated by any mutate-existing policy of the suite (Kyverno's CLI then judges this result on every resource)
            0 passed, 2 failed, 1 errored in …ms
        "#]],
    );
}
