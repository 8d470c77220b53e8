//! Kyverno's CEL policies end to end: `eval` of a ValidatingPolicy (the verdict, the message,
//! validationActions, autogen for Pod controllers, skip and error) and `test` of Kyverno CLI
//! suites (`kyverno-test.yaml` in a hidden `.kyverno-test` folder, found by the folder walk),
//! passing as recorded and failing when a result is flipped, in text, JSON and JUnit; `eval` of a
//! MutatingPolicy (the patch and the mutated object, an error) and suites comparing
//! `patchedResources`.

use std::process::Command;

use expect_test::{Expect, expect};

#[path = "support/cli.rs"]
mod cli;

fn run(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_admission-ls"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        output.status.code().unwrap_or(-1),
        text(&output.stdout),
        text(&output.stderr),
    )
}

fn check(args: &[&str], status: i32, expected: Expect) {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, status, "stdout:\n{stdout}\nstderr:\n{stderr}");
    expected.assert_eq(&cli::timeless(&format!("{stdout}{stderr}")));
}

const POLICY: &str = "tests/suites/kyverno/require-team.yaml";
const RESOURCES: &str = "tests/suites/kyverno/resources.yaml";

#[test]
fn eval_fail_with_message_expression_and_actions() {
    let object = "tests/cli_fixtures/kyverno/bad-pod.yaml";
    check(
        &[
            "eval",
            POLICY,
            "--policy",
            "require-team",
            "--object",
            object,
        ],
        0,
        expect![[r#"
            ValidatingPolicy require-team: fail
              decision: allow
              message: pod bad-pod has no team label
              validationActions: Audit, Warn
              warning: pod bad-pod has no team label
              note: Audit: the failure is recorded in the policy report
        "#]],
    );
}

#[test]
fn eval_autogen_on_a_deployment_and_exit_code() {
    let object = "tests/cli_fixtures/kyverno/bad-deployment.yaml";
    check(
        &[
            "eval",
            POLICY,
            "--policy",
            "require-team",
            "--object",
            object,
            "--format",
            "json",
        ],
        0,
        expect![[r#"
            [
              {
                "decision": "allow",
                "kind": "ValidatingPolicy",
                "message": "failed to evaluate message expression: no such key: name",
                "notes": [
                  "Audit: the failure is recorded in the policy report"
                ],
                "policy": "require-team",
                "result": "fail",
                "validationActions": [
                  "Audit",
                  "Warn"
                ],
                "variant": "autogen-defaults",
                "warnings": [
                  "failed to evaluate message expression: no such key: name"
                ]
              }
            ]
        "#]],
    );
    let (code, _, _) = run(&[
        "eval",
        POLICY,
        "--policy",
        "broken-expression",
        "--object",
        object,
        "--exit-code",
    ]);
    assert_eq!(
        code, 1,
        "the autogen variant runs on the Deployment and errors"
    );
    let pod = "tests/cli_fixtures/kyverno/bad-pod.yaml";
    check(
        &[
            "eval",
            POLICY,
            "--policy",
            "broken-expression",
            "--object",
            pod,
            "--exit-code",
        ],
        1,
        expect![[r#"
            ValidatingPolicy broken-expression: error
              decision: error
              message: error: no such key: missing
              validationActions: Deny
        "#]],
    );
}

#[test]
fn eval_several_objects_skip_and_no_match() {
    check(
        &[
            "eval",
            POLICY,
            "--policy",
            "require-team",
            "--object",
            RESOURCES,
        ],
        0,
        expect![[r#"
            ValidatingPolicy require-team: pass
              decision: allow
              message: success
              validationActions: Audit, Warn

            ValidatingPolicy require-team: fail
              decision: allow
              message: pod bad-pod has no team label
              validationActions: Audit, Warn
              warning: pod bad-pod has no team label
              note: Audit: the failure is recorded in the policy report

            ValidatingPolicy require-team: fail
              decision: allow
              message: CEL expression validation failed at index 1
              validationActions: Audit, Warn
              warning: CEL expression validation failed at index 1
              note: Audit: the failure is recorded in the policy report

            ValidatingPolicy require-team: skip
              decision: skip
              message: skip
              validationActions: Audit, Warn

            ValidatingPolicy require-team (autogen-defaults): fail
              decision: allow
              message: failed to evaluate message expression: no such key: name
              validationActions: Audit, Warn
              warning: failed to evaluate message expression: no such key: name
              note: Audit: the failure is recorded in the policy report

            ValidatingPolicy require-team (autogen-cronjobs): pass
              decision: allow
              message: success
              validationActions: Audit, Warn

            ValidatingPolicy require-team: no match
              decision: skip
              validationActions: Audit, Warn

            ValidatingPolicy require-team (autogen-cronjobs): fail
              decision: allow
              message: failed to evaluate message expression: no such overload: field selection on null_type
              validationActions: Audit, Warn
              warning: failed to evaluate message expression: no such overload: field selection on null_type
              note: Audit: the failure is recorded in the policy report
        "#]],
    );
}

#[test]
fn eval_bad_input() {
    check(
        &["eval", POLICY, "--object", RESOURCES],
        2,
        expect![[r#"
            admission-ls eval: error: tests/suites/kyverno/require-team.yaml defines several policies (require-team, broken-expression): choose one with --policy
        "#]],
    );
}

#[test]
fn test_finds_hidden_kyverno_suites_and_passes() {
    check(
        &["test", "tests/suites/kyverno"],
        0,
        expect![[r#"
            tests/suites/kyverno/.kyverno-test/kyverno-test.yaml (require-team)
              ok    require-team Pod/good-pod: pass (…ms)
              ok    require-team Pod/default/good-pod: pass (…ms)
              ok    require-team Pod/bad-pod: fail (…ms)
              ok    require-team Pod/nobody-pod: fail (…ms)
              ok    require-team Pod/kube-system/system-pod: skip (…ms)
              ok    require-team Deployment/bad-deployment: fail (…ms)
              ok    require-team CronJob/good-cronjob: pass (…ms)
              ok    require-team CronJob/bare-cronjob: fail (…ms)
              ok    broken-expression Pod/good-pod: error (…ms)
            9 passed, 0 failed in …ms
        "#]],
    );
}

#[test]
fn test_fails_a_flipped_result_and_errors_what_is_missing() {
    check(
        &["test", "tests/suites/kyverno_flipped"],
        1,
        expect![[r#"
            tests/suites/kyverno_flipped/kyverno-test.yaml (flipped)
              FAIL  require-team Pod/good-pod: fail (…ms)
                    Pod/good-pod: want fail, got pass: success
              ERROR require-team Pod/no-such-pod: pass (…ms)
                    resource 'no-such-pod' is not among the suite's resources
              ERROR no-such-policy Pod/good-pod: pass (…ms)
                    policy 'no-such-policy' is not among the suite's policies
              ok    require-team ConfigMap/settings: skip (…ms)
              ERROR require-team Pod/bad-pod: fail (…ms)
                    the suite uses cloneSourceResource, which admission-ls does not run yet
            1 passed, 1 failed, 3 errored in …ms
        "#]],
    );
    let (code, json, _) = run(&["test", "tests/suites/kyverno_flipped", "--format", "json"]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(json["suites"][0]["format"], "KyvernoTest");
    assert_eq!(json["summary"]["failed"], 1);
    assert_eq!(json["summary"]["errored"], 3);
    let (code, junit, _) = run(&["test", "tests/suites/kyverno_flipped", "--format", "junit"]);
    assert_eq!(code, 1);
    assert!(junit.contains("require-team Pod/good-pod: fail"), "{junit}");
    assert!(junit.contains("<failure"), "{junit}");
}

#[test]
fn test_supplies_context_values_and_userinfo() {
    check(
        &["test", "tests/suites/kyverno_context"],
        0,
        expect![[r#"
            tests/suites/kyverno_context/kyverno-test.yaml (lookups)
              ok    lookups Pod/good: pass (…ms)
              ok    lookups Pod/root-image: fail (…ms)
              ok    lookups Pod/elsewhere: fail (…ms)
              ok    lookups Pod/unknown-image: error (…ms)
            4 passed, 0 failed in …ms
        "#]],
    );
}

#[test]
fn eval_reads_lookups_from_context_and_names_the_flag_without_it() {
    let policy = "tests/suites/kyverno_context/policy.yaml";
    let pod = "tests/cli_fixtures/kyverno/root-image-pod.yaml";
    let request = [
        "eval",
        policy,
        "--object",
        pod,
        "--operation",
        "UPDATE",
        "--namespace",
        "tests/cli_fixtures/kyverno/team-a.yaml",
        "--user",
        "system:serviceaccount:ci:deployer",
    ];
    let with_context = [
        &request[..],
        &["--context", "tests/suites/kyverno_context/context.yaml"],
    ]
    .concat();
    check(
        &with_context,
        0,
        expect![[r#"
        ValidatingPolicy lookups: fail
          decision: deny
          message: image runs as root
          validationActions: Deny
    "#]],
    );
    check(
        &request,
        0,
        expect![[r#"
        ValidatingPolicy lookups: error
          decision: error
          message: error: composited variable "allowed" fails to evaluate: resource.Get('v1', 'configmaps', 'team-a', 'registries'): no data; give it in a context file: `eval --context FILE`, or the `context` field of a kyverno-test.yaml (a cli.kyverno.io/v1alpha1 Context with spec.resources and spec.images)
          validationActions: Deny
    "#]],
    );
}

const MUTATING: &str = "tests/suites/kyverno_mutate/policies.yaml";

#[test]
fn eval_mutating_policy_prints_the_patch_and_the_object() {
    let object = "tests/cli_fixtures/kyverno/bad-pod.yaml";
    check(
        &[
            "eval",
            MUTATING,
            "--policy",
            "pull-always",
            "--object",
            object,
        ],
        0,
        expect![[r#"
            MutatingPolicy pull-always: pass
              decision: allow
              message: success
              patch:
                {"op":"add","path":"/spec/containers/0/imagePullPolicy","value":"Always"}
              object:
                {
                  "apiVersion": "v1",
                  "kind": "Pod",
                  "metadata": {
                    "name": "bad-pod"
                  },
                  "spec": {
                    "containers": [
                      {
                        "image": "nginx",
                        "imagePullPolicy": "Always",
                        "name": "app"
                      }
                    ]
                  }
                }
        "#]],
    );
    let pods = "tests/suites/kyverno_mutate/resources.yaml";
    check(
        &[
            "eval",
            MUTATING,
            "--policy",
            "add-team-label",
            "--object",
            pods,
            "--format",
            "json",
        ],
        0,
        expect![[r#"
            [
              [
                {
                  "decision": "allow",
                  "kind": "MutatingPolicy",
                  "message": "success",
                  "object": {
                    "apiVersion": "v1",
                    "kind": "Pod",
                    "metadata": {
                      "labels": {
                        "app": "web",
                        "team": "platform"
                      },
                      "name": "web",
                      "namespace": "default"
                    },
                    "spec": {
                      "containers": [
                        {
                          "image": "nginx:1.27",
                          "name": "nginx"
                        },
                        {
                          "image": "busybox",
                          "name": "sidecar"
                        }
                      ]
                    }
                  },
                  "patch": [
                    {
                      "op": "add",
                      "path": "/metadata/labels/team",
                      "value": "platform"
                    }
                  ],
                  "policy": "add-team-label",
                  "result": "pass"
                }
              ],
              [
                {
                  "decision": "skip",
                  "kind": "MutatingPolicy",
                  "message": "skip",
                  "policy": "add-team-label",
                  "result": "skip"
                }
              ]
            ]
        "#]],
    );
}

#[test]
fn eval_mutating_policy_errors() {
    let object = "tests/cli_fixtures/kyverno/bad-pod.yaml";
    check(
        &[
            "eval",
            MUTATING,
            "--policy",
            "wrong-type-name",
            "--object",
            object,
            "--exit-code",
        ],
        1,
        expect![[r#"
            MutatingPolicy wrong-type-name: error
              decision: error
              message: failed to evaluate policy: type mismatch: unexpected type name "Object.meta", expected "Object.metadata", which matches field name path from root Object type
        "#]],
    );
    // A Pod without a namespace: its matchCondition fails, so the policy errors.
    check(
        &[
            "eval",
            MUTATING,
            "--policy",
            "add-team-label",
            "--object",
            object,
        ],
        0,
        expect![[r#"
            MutatingPolicy add-team-label: error
              decision: error
              message: failed to evaluate policy: no such key: namespace
        "#]],
    );
}
#[test]
fn eval_mutating_policy_autogen_on_a_deployment() {
    let policy = "tests/suites/kyverno_mutate/autogen.yaml";
    let object = "tests/cli_fixtures/kyverno/bad-deployment.yaml";
    check(
        &["eval", policy, "--object", object, "--format", "json"],
        0,
        expect![[r#"
            [
              {
                "decision": "allow",
                "kind": "MutatingPolicy",
                "message": "success",
                "object": {
                  "apiVersion": "apps/v1",
                  "kind": "Deployment",
                  "metadata": {
                    "name": "bad-deployment"
                  },
                  "spec": {
                    "selector": {
                      "matchLabels": {
                        "app": "web"
                      }
                    },
                    "template": {
                      "metadata": {
                        "labels": {
                          "app": "web"
                        }
                      },
                      "spec": {
                        "containers": [
                          {
                            "image": "nginx",
                            "name": "app"
                          }
                        ],
                        "priorityClassName": "standard"
                      }
                    }
                  }
                },
                "patch": [
                  {
                    "op": "add",
                    "path": "/spec/template/spec/priorityClassName",
                    "value": "standard"
                  }
                ],
                "policy": "standard-priority",
                "result": "pass",
                "variant": "autogen-defaults"
              }
            ]
        "#]],
    );
}

#[test]
fn test_compares_patched_resources_after_every_mutating_policy() {
    check(
        &["test", "tests/suites/kyverno_mutate"],
        0,
        expect![[r#"
            tests/suites/kyverno_mutate/kyverno-test.yaml (mutate)
              ok    add-team-label Pod/web: pass (…ms)
              ok    pull-always Pod/web: pass (…ms)
              ok    add-team-label Pod/kube-system/dns: skip (…ms)
              ok    wrong-type-name Pod/web: error (…ms)
              ok    ignore-still-errors Pod/web: error (…ms)
            5 passed, 0 failed in …ms
        "#]],
    );
}

#[test]
fn test_fails_a_wrong_patched_resource_and_errors_a_missing_one() {
    check(
        &["test", "tests/suites/kyverno_mutate_flipped"],
        1,
        expect![[r#"
            tests/suites/kyverno_mutate_flipped/kyverno-test.yaml (mutate-flipped)
              FAIL  add-team-label Pod/web: pass (…ms)
                    the patched resource differs from wrong.yaml (patch from expected to actual: {"op":"replace","path":"/metadata/labels/team","value":"platform"})
              FAIL  pull-always Pod/web: skip (…ms)
                    Pod/web: want skip, got pass: success
              ERROR add-team-label Pod/kube-system/dns: skip (…ms)
                    patchedResources: resource with name dns not found in manifest wrong.yaml (Kyverno's CLI drops this row unless failOnMissingResources is set)
              FAIL  add-team-label Pod/kube-system/dns: skip (…ms)
                    patchedResources: resource with name dns not found in manifest wrong.yaml
            0 passed, 3 failed, 1 errored in …ms
        "#]],
    );
}

#[test]
fn test_evaluates_the_pure_library_functions() {
    check(
        &["test", "tests/suites/kyverno_libs"],
        0,
        expect![[r#"
            tests/suites/kyverno_libs/kyverno-test.yaml (pure-libraries)
              ok    pure-libraries Pod/pinned: pass (…ms)
              ok    pure-libraries Pod/docker-hub: fail (…ms)
              ok    pure-libraries Pod/tagged: fail (…ms)
              ok    pure-libraries Pod/too-many: fail (…ms)
              ok    pure-libraries Pod/wrong-hash: fail (…ms)
              ok    pure-libraries Pod/long-name: fail (…ms)
              ok    pure-libraries Pod/bad-image: error (…ms)
              ok    pure-libraries Pod/bad-json: error (…ms)
            8 passed, 0 failed in …ms
        "#]],
    );
}

#[test]
fn eval_gives_image_and_json_results_and_kyverno_s_parse_error() {
    let policy = "tests/suites/kyverno_libs/policy.yaml";
    let pod = "tests/cli_fixtures/kyverno/too-many-replicas-pod.yaml";
    check(
        &["eval", policy, "--object", pod],
        0,
        expect![[r#"
            ValidatingPolicy pure-libraries: fail
              decision: deny
              message: too many replicas: {"replicas":5}
              validationActions: Deny
        "#]],
    );
    let pod = "tests/cli_fixtures/kyverno/bad-image-pod.yaml";
    check(
        &["eval", policy, "--object", pod],
        0,
        expect![[r#"
            ValidatingPolicy pure-libraries: error
              decision: error
              message: error: could not parse reference: Corp.reg.com/App:
              validationActions: Deny
        "#]],
    );
}
