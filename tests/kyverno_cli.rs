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

/// A row whose policy calls a lookup the suite gives no data for is an ERROR case (admission-ls
/// could not evaluate it), not a FAIL: the evaluation records the call that found no data, and the
/// judge reads that record, whatever the row expected besides an error.
#[test]
fn test_rows_without_lookup_data_are_errors_not_failures() {
    check(
        &["test", "tests/suites/kyverno_no_data"],
        1,
        expect![[r#"
            tests/suites/kyverno_no_data/kyverno-test.yaml (no-data)
              ERROR allowed-registries Pod/trusted: pass (…ms)
                    not evaluated offline: resource.Get('v1', 'configmaps', 'kyverno', 'registries'): no data; give it in a context file: `eval --context FILE`, or the `context` field of a kyverno-test.yaml (a cli.kyverno.io/v1alpha1 Context with spec.resources and spec.images)
              ERROR allowed-registries Pod/untrusted: fail (…ms)
                    not evaluated offline: resource.Get('v1', 'configmaps', 'kyverno', 'registries'): no data; give it in a context file: `eval --context FILE`, or the `context` field of a kyverno-test.yaml (a cli.kyverno.io/v1alpha1 Context with spec.resources and spec.images)
              ERROR copy-tier Pod/trusted: pass (…ms)
                    not evaluated offline: resource.Get('v1', 'configmaps', 'kyverno', 'tiers'): no data; give it in a context file: `eval --context FILE`, or the `context` field of a kyverno-test.yaml (a cli.kyverno.io/v1alpha1 Context with spec.resources and spec.images)
            0 passed, 0 failed, 3 errored in …ms
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
              ok    encoded-libraries Pod/window-ok: pass (…ms)
              ok    encoded-libraries Pod/window-wrong-team: fail (…ms)
              ok    encoded-libraries Pod/window-docker-hub: fail (…ms)
              ok    encoded-libraries Pod/window-off-hour: fail (…ms)
              ok    encoded-libraries Pod/window-wrong-cron: fail (…ms)
              ok    encoded-libraries Pod/window-bad-gzip: error (…ms)
              ok    encoded-libraries Pod/pinned: skip (…ms)
              ok    certificate-libraries ConfigMap/ca-corp: pass (…ms)
              ok    certificate-libraries ConfigMap/ca-plain: fail (…ms)
              ok    certificate-libraries ConfigMap/ca-ec: error (…ms)
            18 passed, 0 failed in …ms
        "#]],
    );
}

/// The messages of the gzip, transform and time functions: the decompressed annotation, the
/// truncation and the cron line in the timestamp's own zone (Go's time fields), Go's error for
/// a value too short to be gzip.
#[test]
fn eval_gives_gzip_transform_and_time_results() {
    let policy = "tests/suites/kyverno_libs/encoded.yaml";
    let (code, stdout, stderr) = run(&[
        "eval",
        policy,
        "--object",
        "tests/suites/kyverno_libs/resources.yaml",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let messages: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  message: "))
        .filter(|m| *m != "skip")
        .collect();
    expect![[r#"
        [
            "success",
            "the compressed config names team b",
            "images must come from corp.reg.com",
            "the window must start on the hour, not at 2025-03-14T09:26:53+01:00",
            "the cron line of the window is 0 23 15 3 6",
            "error: composited variable \"config\" fails to evaluate: unexpected EOF",
        ]
    "#]]
    .assert_debug_eq(&messages);
}

/// `x509.decode` of a ConfigMap's certificate: Go's fields (a CA with path length 0, the key
/// usage bits, the alternative names and name constraints), and Kyverno's refusal of an EC key.
#[test]
fn eval_decodes_certificates_as_kyverno_does() {
    let policy = "tests/suites/kyverno_libs/certificates.yaml";
    let (code, stdout, stderr) = run(&[
        "eval",
        policy,
        "--object",
        "tests/suites/kyverno_libs/resources.yaml",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let messages: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  message: "))
        .collect();
    expect![[r#"
        [
            "success",
            "the certificate of plain is not a CA limited to one level",
            "error: composited variable \"cert\" fails to evaluate: certificate should use rsa algorithm",
        ]
    "#]]
    .assert_debug_eq(&messages);
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

/// ImageValidatingPolicy suites: signature and attestation checks read from the context's
/// `spec.verifications`, `matchImageReferences` by glob and CEL, the digest check and the
/// `required` check on by default, an image with no verification data an error.
#[test]
fn test_runs_image_validating_policies_from_context_verifications() {
    check(
        &["test", "tests/suites/kyverno_images"],
        0,
        expect![[r#"
            tests/suites/kyverno_images/kyverno-test.yaml (image-validating)
              ok    verify-signatures Pod/signed: pass (…ms)
              ok    verify-signatures Pod/not-selected: pass (…ms)
              ok    verify-signatures Pod/unsigned: fail (…ms)
              ok    verify-signatures Pod/no-sbom: fail (…ms)
              ok    verify-signatures Pod/unknown-image: error (…ms)
              ok    verify-signatures Pod/skipped-pod: skip (…ms)
              ok    verify-signatures Deployment/signed-deployment: pass (…ms)
              ok    verify-signatures Deployment/unsigned-deployment: fail (…ms)
              ok    require-digests Deployment/tagged: fail (…ms)
              ok    require-digests Deployment/pinned: fail (…ms)
            10 passed, 0 failed in …ms
        "#]],
    );
}

/// The messages of an ImageValidatingPolicy: Kyverno's for a missing digest and an unverified
/// image (`pkg/image/verification/evaluator/policy.go`), and a signature check with no data
/// naming the call and the flag.
#[test]
fn eval_gives_image_verification_messages_and_names_missing_data() {
    let policy = "tests/suites/kyverno_images/policies.yaml";
    let objects = "tests/suites/kyverno_images/resources.yaml";
    let messages = |args: &[&str]| {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, 0, "{stderr}");
        stdout
            .lines()
            .filter_map(|l| l.strip_prefix("  message: ").map(str::to_string))
            .collect::<Vec<_>>()
    };
    let context = "tests/suites/kyverno_images/context.yaml";
    expect![[r#"
        [
            "image corp.reg.com/team/app:v1 does not have a digest",
            "image corp.reg.com/team/app@sha256:6aefddb645ee6963afd681b1845c661d0ea4c3b20ab9db86d9e753b203d385f2 is not verified: no policy performed a signature or attestation check on it",
            "success",
            "success",
        ]
    "#]]
    .assert_debug_eq(&messages(&[
        "eval", policy, "--policy", "require-digests", "--object", objects, "--context", context,
    ]));
    let signed = "tests/cli_fixtures/kyverno/signed-image-pod.yaml";
    expect![[r#"
        [
            "failed to evaluate policy: verifyImageSignatures('ghcr.io/kyverno/test-verify-image:signed', …): signatures cannot be verified offline; give the outcome of its signature checks in a context file's spec.verifications (an admission-ls field: image, signatures, attestations, payloads): `eval --context FILE`, or the `context` field of a kyverno-test.yaml",
        ]
    "#]]
    .assert_debug_eq(&messages(&[
        "eval", policy, "--policy", "verify-signatures", "--object", signed,
    ]));
}

/// PolicyExceptions (`policies.kyverno.io`) from a suite's `exceptions` files: a full exemption
/// skips the ValidatingPolicy and the MutatingPolicy it names, `reportResult: pass` passes, a
/// partial one only fills `exceptions.allowedValues`, and one naming another kind does nothing.
#[test]
fn test_applies_policy_exceptions() {
    check(
        &["test", "tests/suites/kyverno_exceptions"],
        0,
        expect![[r#"
            tests/suites/kyverno_exceptions/kyverno-test.yaml (exceptions)
              ok    require-team Deployment/legacy-app: skip (…ms)
              ok    require-team Deployment/audited-app: pass (…ms)
              ok    require-team Deployment/batch-five: pass (…ms)
              ok    require-team Deployment/batch-six: fail (…ms)
              ok    require-team Deployment/plain-app: fail (…ms)
              ok    add-owner Deployment/legacy-app: skip (…ms)
              ok    add-owner Deployment/plain-app: pass (…ms)
            7 passed, 0 failed in …ms
        "#]],
    );
}

/// `eval --context` with PolicyException documents: Kyverno's messages naming the exceptions
/// (`pkg/cel/policies/vpol/engine/engine.go`), the namespace in the key when it has one.
#[test]
fn eval_names_the_exception_that_exempts() {
    let (code, stdout, stderr) = run(&[
        "eval",
        "tests/suites/kyverno_exceptions/policies.yaml",
        "--policy",
        "require-team",
        "--object",
        "tests/suites/kyverno_exceptions/resources.yaml",
        "--context",
        "tests/suites/kyverno_exceptions/exceptions.yaml",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let results: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("ValidatingPolicy") || l.starts_with("  message: "))
        .collect();
    expect![[r#"
        [
            "ValidatingPolicy require-team: skip",
            "  message: rule is skipped due to policy exception: tools/legacy",
            "ValidatingPolicy require-team: pass",
            "  message: rule is passed due to policy exception: audited",
            "ValidatingPolicy require-team: pass",
            "  message: success",
            "ValidatingPolicy require-team: fail",
            "  message: too many replicas: 6",
            "ValidatingPolicy require-team: fail",
            "  message: the deployment has no team label",
        ]
    "#]]
    .assert_debug_eq(&results);
}

/// `--kyverno-version`: `check` reports a call of a function a later Kyverno release added, and
/// `eval` refuses to evaluate a policy that release would not compile; the functions of the
/// chosen release pass.
#[test]
fn kyverno_version_gates_check_and_eval() {
    let (code, stdout, _) = run(&[
        "check",
        "tests/suites/kyverno_libs/policy.yaml",
        "--kyverno-version",
        "1.17",
    ]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("undeclared reference to 'hash.md5' (in container '') (Kyverno 1.18 and later; the project targets Kyverno 1.17)"),
        "{stdout}"
    );
    check(
        &[
            "check",
            "tests/suites/kyverno_libs/certificates.yaml",
            "--kyverno-version",
            "1.17",
        ],
        0,
        expect![[r#"
            checked 1 file: 0 errors, 0 warnings
        "#]],
    );
    check(
        &[
            "eval",
            "tests/suites/kyverno_libs/policy.yaml",
            "--object",
            "tests/cli_fixtures/kyverno/bad-pod.yaml",
            "--kyverno-version",
            "1.17",
        ],
        2,
        expect![[r#"
            admission-ls eval: error: the policy does not compile for Kyverno 1.17: spec.validations[4].expression: undeclared reference to 'hash.md5' (in container '') (Kyverno 1.18 and later; the project targets Kyverno 1.17)
        "#]],
    );
}

/// `test --kyverno-version`: the cases of a policy the chosen release would not compile are
/// errors naming the calls; the policies that compile there run as before.
#[test]
fn test_kyverno_version_makes_later_functions_errors() {
    let (code, stdout, stderr) = run(&[
        "test",
        "tests/suites/kyverno_libs",
        "--kyverno-version",
        "1.17",
    ]);
    assert_eq!(code, 1, "{stderr}");
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .map(|l| l.split(" (").next().unwrap_or(l))
        .collect();
    expect![[r#"
        [
            "  ERROR pure-libraries Pod/pinned: pass",
            "  ERROR pure-libraries Pod/docker-hub: fail",
            "  ERROR pure-libraries Pod/tagged: fail",
            "  ERROR pure-libraries Pod/too-many: fail",
            "  ERROR pure-libraries Pod/wrong-hash: fail",
            "  ERROR pure-libraries Pod/long-name: fail",
            "  ERROR pure-libraries Pod/bad-image: error",
            "  ERROR pure-libraries Pod/bad-json: error",
            "  ERROR encoded-libraries Pod/window-ok: pass",
            "  ERROR encoded-libraries Pod/window-wrong-team: fail",
            "  ERROR encoded-libraries Pod/window-docker-hub: fail",
            "  ERROR encoded-libraries Pod/window-off-hour: fail",
            "  ERROR encoded-libraries Pod/window-wrong-cron: fail",
            "  ERROR encoded-libraries Pod/window-bad-gzip: error",
            "  ERROR encoded-libraries Pod/pinned: skip",
            "  ok    certificate-libraries ConfigMap/ca-corp: pass",
            "  ok    certificate-libraries ConfigMap/ca-plain: fail",
            "  ok    certificate-libraries ConfigMap/ca-ec: error",
        ]
    "#]]
    .assert_debug_eq(&lines);
    assert!(
        stdout.contains("policy 'pure-libraries' does not compile for Kyverno 1.17: spec.validations[4].expression: undeclared reference to 'hash.md5'"),
        "{stdout}"
    );
}

/// HTTP responses and global context entries from a suite's `apiCallResponses` and
/// `globalContextEntries` (data with fieldPath and projections, resourceFiles), matched as the
/// CLI matches them (method and url, then url alone); a URL without a recorded response is an
/// error row.
#[test]
fn test_answers_http_and_global_context_from_the_suite() {
    check(
        &["test", "tests/suites/kyverno_http"],
        0,
        expect![[r#"
            tests/suites/kyverno_http/kyverno-test.yaml (external-data)
              ok    registries-from-config Pod/team-a/good: pass (…ms)
              ok    registries-from-config Pod/team-a/elsewhere: fail (…ms)
              ok    external-authz Pod/team-a/good: pass (…ms)
              ok    unrecorded-url Pod/team-a/good: error (…ms)
              ok    teams-from-global-context Pod/team-a/good: pass (…ms)
              ok    teams-from-global-context Pod/other/outsider: fail (…ms)
            6 passed, 0 failed in …ms
        "#]],
    );
}

/// `eval --context` reads the same lists under a Context's `spec`; without them a call names
/// itself and where its data goes.
#[test]
fn eval_reads_http_and_global_context_data_and_names_the_field_without_it() {
    let policy = "tests/suites/kyverno_http/policies.yaml";
    let pod = "tests/cli_fixtures/kyverno/root-image-pod.yaml";
    let context = "tests/cli_fixtures/kyverno/http-context.yaml";
    let eval = |name: &str, with_context: bool| {
        let mut args = vec!["eval", policy, "--policy", name, "--object", pod];
        if with_context {
            args.extend(["--context", context]);
        }
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 0, "{stderr}");
        stdout
    };
    expect![[r#"
        ValidatingPolicy registries-from-config: pass
          decision: allow
          message: success
          validationActions: Deny
    "#]]
    .assert_eq(&eval("registries-from-config", true));
    expect![[r#"
        ValidatingPolicy registries-from-config: error
          decision: error
          message: error: composited variable "config" fails to evaluate: http.Get('https://config.example/registries'): no data; give its response in the suite's apiCallResponses (url, method, response.body, response.statusCode), or in the spec.apiCallResponses of the Context given with `eval --context FILE` (an admission-ls field)
          validationActions: Deny
    "#]].assert_eq(&eval("registries-from-config", false));
    expect![[r#"
        ValidatingPolicy unrecorded-url: error
          decision: error
          message: error: http.Get('https://nowhere.example/'): no recorded response for GET https://nowhere.example/ in the spec.apiCallResponses of --context FILE
          validationActions: Deny
    "#]].assert_eq(&eval("unrecorded-url", true));
    expect![[r#"
        ValidatingPolicy teams-from-global-context: error
          decision: error
          message: error: composited variable "teams" fails to evaluate: globalContext.Get('teams', 'names'): no data; give the entry in the suite's globalContextEntries (name, data or resources, projections), or in the spec.globalContextEntries of the Context given with `eval --context FILE` (an admission-ls field)
          validationActions: Deny
    "#]].assert_eq(&eval("teams-from-global-context", false));
}

/// Lists the CLI refuses before a run (a url without a scheme) are a suite error in its words.
#[test]
fn test_reports_recorded_data_the_cli_refuses() {
    check(
        &["test", "tests/suites/kyverno_http_refused"],
        1,
        expect![[r#"
            tests/suites/kyverno_http_refused/kyverno-test.yaml (refused-data)
              error: apiCallResponses[0]: url "config.example/registries" must be an absolute https/http URL
              ok    registries-from-config Pod/team-a/good: error (…ms)
            1 passed, 0 failed in …ms
        "#]],
    );
}

/// cel-go's regex extension in Kyverno's environment (kyverno/kyverno
/// `pkg/cel/compiler/env.go`, `ext.Regex`; cel-go `ext/regex.go`): `regex.replace` with group
/// references in a mutation, `regex.extract` and `regex.extractAll` in a validation, and
/// cel-go's error for a replacement naming a group the pattern lacks.
#[test]
fn test_evaluates_cel_go_regex_extension() {
    check(
        &["test", "tests/suites/kyverno_regex"],
        0,
        expect![[r#"
            tests/suites/kyverno_regex/kyverno-test.yaml (regex-extension)
              ok    mirror-registry Pod/web-1: pass (…ms)
              ok    numbered-ports Pod/web-1: pass (…ms)
              ok    numbered-ports Pod/web: fail (…ms)
              ok    numbered-ports Pod/box-2: error (…ms)
            4 passed, 0 failed in …ms
        "#]],
    );
}

/// A suite whose values file maps a kind to a subresource (`subresources`) requests those
/// objects as the parent's subresource, as the CLI's processor does
/// (kyverno/kyverno `cmd/cli/kubectl-kyverno/processor/policy_processor.go`): policies on
/// `pods/binding` match a Binding, and see the parent's kind and resource.
#[test]
fn test_requests_values_subresources_as_the_parent_s() {
    check(
        &["test", "tests/suites/kyverno_subresource"],
        0,
        expect![[r#"
            tests/suites/kyverno_subresource/kyverno-test.yaml (subresource)
              ok    zone-on-binding Binding/default/to-node: pass (…ms)
              ok    nodes-only Binding/to-node: pass (…ms)
              ok    nodes-only Binding/to-other: fail (…ms)
            3 passed, 0 failed in …ms
        "#]],
    );
}

/// PolicyExceptions on a GeneratingPolicy run before its conditions; a full exemption gives a
/// skip, or a pass with `reportResult: pass`, and generates nothing (kyverno/kyverno
/// `pkg/cel/policies/gpol/compiler/policy.go` `Evaluate`, `gpol/engine/engine.go`).
#[test]
fn test_applies_exceptions_to_generating_policies() {
    check(
        &["test", "tests/suites/kyverno_generate_exceptions"],
        0,
        expect![[r#"
            tests/suites/kyverno_generate_exceptions/kyverno-test.yaml (generate-exceptions)
              ok    quota-per-namespace Namespace/team-b: pass (…ms)
              ok    quota-per-namespace Namespace/sandbox: skip (…ms)
              ok    quota-per-namespace Namespace/kube-extra: pass (…ms)
            3 passed, 0 failed in …ms
        "#]],
    );
}
