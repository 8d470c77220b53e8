//! The `eval` and `test` commands end to end: text and JSON snapshots, exit statuses, and bad input
//! (missing files, unknown policy, objects without a kind) reported with a clear message.

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

#[test]
fn eval_text_deny() {
    check(
        &[
            "eval",
            "examples/required-labels.yaml",
            "--object",
            "tests/cli_fixtures/deployment.yaml",
        ],
        0,
        expect![[r#"
            ValidatingAdmissionPolicy required-labels (binding required-labels): deny
              matchCondition not-kube-system: true
              matchCondition example.com/not-a-dry-run: true
              validation[0]: false: missing required labels: app.kubernetes.io/owner
              message: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'required-labels' with binding 'required-labels' denied request: missing required labels: app.kubernetes.io/owner
              defaulted: spec.strategy.type, spec.strategy.rollingUpdate, spec.strategy.rollingUpdate.maxUnavailable, spec.strategy.rollingUpdate.maxSurge, spec.revisionHistoryLimit, spec.progressDeadlineSeconds, spec.template.spec.dnsPolicy, spec.template.spec.restartPolicy, spec.template.spec.securityContext, spec.template.spec.terminationGracePeriodSeconds, spec.template.spec.schedulerName, metadata.creationTimestamp, metadata.uid, status, metadata.generation
        "#]],
    );
}

#[test]
fn eval_json_mutation() {
    check(
        &[
            "eval",
            "examples/sidecar-injection.yaml",
            "--object",
            "tests/cli_fixtures/pod.yaml",
            "--namespace",
            "tests/cli_fixtures/namespace.yaml",
            "--format",
            "json",
        ],
        0,
        expect![[r#"
            {
              "auditAnnotations": {},
              "binding": "logging-sidecar",
              "decision": "allow",
              "defaulted": [
                "spec.enableServiceLinks",
                "spec.dnsPolicy",
                "spec.restartPolicy",
                "spec.securityContext",
                "spec.terminationGracePeriodSeconds",
                "spec.schedulerName",
                "spec.containers[0].imagePullPolicy",
                "spec.containers[0].terminationMessagePath",
                "spec.containers[0].terminationMessagePolicy"
              ],
              "kind": "MutatingAdmissionPolicy",
              "matchConditions": [
                {
                  "error": null,
                  "name": "no-sidecar-yet",
                  "result": true
                },
                {
                  "error": null,
                  "name": "no-sidecar-yet",
                  "result": false
                }
              ],
              "messages": [],
              "object": {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {
                  "creationTimestamp": null,
                  "labels": {
                    "logging": "enabled"
                  },
                  "name": "web",
                  "namespace": "prod"
                },
                "spec": {
                  "containers": [
                    {
                      "image": "nginx",
                      "imagePullPolicy": "Always",
                      "name": "app",
                      "terminationMessagePath": "/dev/termination-log",
                      "terminationMessagePolicy": "File"
                    },
                    {
                      "image": "registry.example.com/log-shipper:1.4",
                      "imagePullPolicy": "IfNotPresent",
                      "name": "log-shipper",
                      "terminationMessagePath": "/dev/termination-log",
                      "terminationMessagePolicy": "File"
                    }
                  ],
                  "dnsPolicy": "ClusterFirst",
                  "enableServiceLinks": true,
                  "restartPolicy": "Always",
                  "schedulerName": "default-scheduler",
                  "securityContext": {},
                  "terminationGracePeriodSeconds": 30
                }
              },
              "patch": [
                {
                  "op": "add",
                  "path": "/spec/containers/-",
                  "value": {
                    "image": "registry.example.com/log-shipper:1.4",
                    "imagePullPolicy": "IfNotPresent",
                    "name": "log-shipper",
                    "terminationMessagePath": "/dev/termination-log",
                    "terminationMessagePolicy": "File"
                  }
                }
              ],
              "policy": "logging-sidecar",
              "pruned": [],
              "status": null,
              "validations": [],
              "warnings": []
            }
        "#]],
    );
}

#[test]
fn eval_json_skip_for_another_kind() {
    check(
        &[
            "eval",
            "examples/required-labels.yaml",
            "--object",
            "tests/cli_fixtures/pod.yaml",
            "--format",
            "json",
        ],
        0,
        expect![[r#"
            {
              "auditAnnotations": {},
              "binding": "required-labels",
              "decision": "skip",
              "defaulted": [
                "spec.enableServiceLinks",
                "spec.dnsPolicy",
                "spec.restartPolicy",
                "spec.securityContext",
                "spec.terminationGracePeriodSeconds",
                "spec.schedulerName",
                "spec.containers[0].imagePullPolicy",
                "spec.containers[0].terminationMessagePath",
                "spec.containers[0].terminationMessagePolicy",
                "metadata.creationTimestamp",
                "metadata.uid",
                "status",
                "metadata.generation"
              ],
              "kind": "ValidatingAdmissionPolicy",
              "matchConditions": [],
              "messages": [],
              "policy": "required-labels",
              "pruned": [],
              "status": null,
              "validations": [],
              "warnings": []
            }
        "#]],
    );
}

#[test]
fn eval_bad_input() {
    check(
        &[
            "eval",
            "examples/missing.yaml",
            "--object",
            "tests/cli_fixtures/pod.yaml",
        ],
        2,
        expect![[r#"
            admission-ls eval: error: cannot read policy file examples/missing.yaml: no such file or directory
        "#]],
    );
    check(
        &[
            "eval",
            "examples/required-labels.yaml",
            "--object",
            "tests/cli_fixtures/not-an-object.yaml",
        ],
        2,
        expect![[r#"
            admission-ls eval: error: --object: the document has no apiVersion or kind
        "#]],
    );
    check(
        &[
            "eval",
            "examples/required-labels.yaml",
            "--policy",
            "nope",
            "--object",
            "tests/cli_fixtures/pod.yaml",
        ],
        2,
        expect![[r#"
            admission-ls eval: error: policy 'nope' not found in examples/required-labels.yaml (it defines: required-labels)
        "#]],
    );
}

/// A binding `check` reports errors against is one the API server would refuse to create: `eval`
/// refuses it with the same error, as it refuses an invalid policy (k/k
/// `pkg/apis/admissionregistration/validation/validation.go` `validateValidationActions`,
/// `validateParamRef`).
#[test]
fn eval_refuses_a_binding_the_api_server_would_refuse() {
    let run = |binding: &str| {
        let args = [
            "eval",
            "tests/cli_fixtures/refused-bindings.yaml",
            "--binding",
            binding,
            "--object",
            "tests/cli_fixtures/deployment.yaml",
        ];
        let (code, stdout, stderr) = self::run(&args);
        format!("{code}\n{stdout}{stderr}")
    };
    expect![[r#"
        2
        admission-ls eval: error: binding 'no-actions' has errors: tests/cli_fixtures/refused-bindings.yaml:20:1: spec.validationActions: Required value: at least one validation action is required
    "#]].assert_eq(&run("no-actions"));
    expect![[r#"
        2
        admission-ls eval: error: binding 'no-not-found-action' has errors: tests/cli_fixtures/refused-bindings.yaml:31:3: spec.paramRef.parameterNotFoundAction: Required value
    "#]].assert_eq(&run("no-not-found-action"));
}

/// Without `--namespace`, a namespaced request's `namespaceObject` is the Namespace the API server
/// holds: named after the request's namespace, with the `kubernetes.io/metadata.name` label and
/// `status.phase: Active` every stored Namespace carries.
#[test]
fn eval_without_a_namespace_gives_the_stored_namespace() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/namespace-name.yaml",
            "--object",
            "tests/cli_fixtures/deployment.yaml",
            "--no-defaults",
        ],
        0,
        expect![[r#"
            ValidatingAdmissionPolicy namespace-name: allow
              note: no binding: the API server never enforces a policy without one; evaluated as a binding with validationActions [Deny] would
              validation[0]: true
        "#]],
    );
}

#[test]
fn eval_params_by_name_on_update() {
    check(
        &[
            "eval",
            "examples/replica-limit.yaml",
            "--binding",
            "replica-limit-production",
            "--object",
            "tests/cli_fixtures/deployment-big.yaml",
            "--old-object",
            "tests/cli_fixtures/deployment-old.yaml",
            "--params",
            "examples/crds/replicalimits.example.com.yaml",
            "--namespace",
            "tests/cli_fixtures/namespace-production.yaml",
            "--user",
            "alice",
            "--groups",
            "dev,ops",
        ],
        0,
        expect![[r#"
            ValidatingAdmissionPolicy replica-limit.example.com (binding replica-limit-production): deny
              validation[0]: false: replicas must be at most 10
              message: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'replica-limit.example.com' with binding 'replica-limit-production' denied request: replicas must be at most 10
              defaulted: spec.strategy.type, spec.strategy.rollingUpdate, spec.strategy.rollingUpdate.maxUnavailable, spec.strategy.rollingUpdate.maxSurge, spec.revisionHistoryLimit, spec.progressDeadlineSeconds, spec.template.spec.dnsPolicy, spec.template.spec.restartPolicy, spec.template.spec.securityContext, spec.template.spec.terminationGracePeriodSeconds, spec.template.spec.schedulerName, oldObject.spec.strategy.type, oldObject.spec.strategy.rollingUpdate, oldObject.spec.strategy.rollingUpdate.maxUnavailable, oldObject.spec.strategy.rollingUpdate.maxSurge, oldObject.spec.revisionHistoryLimit, oldObject.spec.progressDeadlineSeconds, oldObject.spec.template.spec.dnsPolicy, oldObject.spec.template.spec.restartPolicy, oldObject.spec.template.spec.securityContext, oldObject.spec.template.spec.terminationGracePeriodSeconds, oldObject.spec.template.spec.schedulerName, oldObject.metadata.uid, oldObject.metadata.creationTimestamp, oldObject.metadata.generation, metadata.generation, metadata.uid, metadata.creationTimestamp
        "#]],
    );
}

#[test]
fn eval_rejects_unsupported_versions_and_operations() {
    let base = [
        "eval",
        "examples/required-labels.yaml",
        "--object",
        "tests/cli_fixtures/deployment.yaml",
    ];
    check(
        &[&base[..], &["--kube-version", "1.12"]].concat(),
        2,
        expect![[r#"
            error: invalid value '1.12' for '--kube-version <1.NN>': Kubernetes 1.12 is not supported: the bundled versions are 1.30 to 1.37

            For more information, try '--help'.
        "#]],
    );
    check(
        &[&base[..], &["--operation", "PATCH"]].concat(),
        2,
        expect![[r#"
            admission-ls eval: error: --operation: expected CREATE, UPDATE, DELETE or CONNECT, got `PATCH`
        "#]],
    );
}

#[test]
fn test_text_and_status() {
    check(
        &["test", "examples/tests/required-labels.test.yaml"],
        0,
        expect![[r#"
            examples/tests/required-labels.test.yaml (required-labels)
              ok    a deployment with both labels is allowed (…ms)
              ok    the message names the missing labels (…ms)
              ok    kube-system is skipped by a matchCondition (…ms)
              ok    pods are not matched (…ms)
            4 passed, 0 failed in …ms
        "#]],
    );
    let (code, stdout, _) = run(&["test", "tests/suites/bad"]);
    assert_eq!(code, 1);
    assert!(
        cli::timeless(&stdout).ends_with("1 passed, 1 failed, 4 errored in …ms\n"),
        "{stdout}"
    );
}

#[test]
fn test_json_and_junit() {
    check(
        &[
            "test",
            "examples/tests/audit-privileged.test.yaml",
            "--format",
            "json",
        ],
        0,
        expect![[r#"
            {
              "suites": [
                {
                  "cases": [
                    {
                      "column": 5,
                      "decision": "allow",
                      "durationMs": 0,
                      "error": null,
                      "failures": [],
                      "line": 9,
                      "name": "a privileged container is annotated with the user",
                      "passed": true,
                      "policy": "audit-privileged"
                    },
                    {
                      "column": 5,
                      "decision": "allow",
                      "durationMs": 0,
                      "error": null,
                      "failures": [],
                      "line": 21,
                      "name": "an ordinary pod gets no annotation",
                      "passed": true,
                      "policy": "audit-privileged"
                    },
                    {
                      "column": 5,
                      "decision": "skip",
                      "durationMs": 0,
                      "error": null,
                      "failures": [],
                      "line": 30,
                      "name": "node-debugger is excluded by name",
                      "passed": true,
                      "policy": "audit-privileged"
                    }
                  ],
                  "errors": [],
                  "format": "PolicyTest",
                  "name": "audit-privileged",
                  "passed": true,
                  "path": "examples/tests/audit-privileged.test.yaml"
                }
              ],
              "summary": {
                "cases": 3,
                "durationMs": 0,
                "errored": 0,
                "failed": 0,
                "passed": 3,
                "suites": 1
              }
            }
        "#]],
    );
    check(
        &[
            "test",
            "tests/suites/bad/bad.test.yaml",
            "--format",
            "junit",
        ],
        1,
        expect![[r#"
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="admission-ls test" tests="7" failures="1" errors="5" time="…">
              <testsuite name="tests/suites/bad/bad.test.yaml (bad-input)" tests="7" failures="1" errors="5" skipped="0" time="…" file="tests/suites/bad/bad.test.yaml">
                <testcase name="tests/suites/bad/bad.test.yaml" classname="bad-input" time="…">
                  <error message="cannot read policy file missing-policies.yaml: no such file or directory" type="suite">cannot read policy file missing-policies.yaml: no such file or directory
            cannot read resource file missing-resources.yaml: no such file or directory</error>
                </testcase>
                <testcase name="names a policy that does not exist" classname="nowhere" time="…">
                  <error message="policy 'nowhere' not found in the suite's policy files" type="setup">policy 'nowhere' not found in the suite's policy files</error>
                </testcase>
                <testcase name="names a resource that does not exist" classname="fine" time="…">
                  <error message="object Deployment/ghost not found in the suite's resources" type="setup">object Deployment/ghost not found in the suite's resources</error>
                </testcase>
                <testcase name="a policy with errors" classname="broken" time="…">
                  <error message="policy 'broken' has errors: tests/suites/bad/policy.yaml:11:7: spec.validations[0].expression: Required value: expression is not specified" type="setup">policy 'broken' has errors: tests/suites/bad/policy.yaml:11:7: spec.validations[0].expression: Required value: expression is not specified</error>
                </testcase>
                <testcase name="an object without apiVersion and kind" classname="fine" time="…">
                  <error message="the object has no apiVersion or kind" type="setup">the object has no apiVersion or kind</error>
                </testcase>
                <testcase name="an object of a kind without a schema cannot be mutated" classname="label-it" time="…">
                  <failure message="expected allow, got error: Resource kind example.com/v1, Kind=Widget not found. There can be a delay between when CustomResourceDefinitions are created and when they are available." type="expectation">expected allow, got error: Resource kind example.com/v1, Kind=Widget not found. There can be a delay between when CustomResourceDefinitions are created and when they are available.</failure>
                </testcase>
                <testcase name="the other cases still run" classname="fine" time="…"/>
              </testsuite>
            </testsuites>
        "#]],
    );
}

#[test]
fn eval_with_a_mocked_authorizer() {
    let args = |rules: &'static str| {
        [
            "eval",
            "tests/cli_fixtures/authz-policy.yaml",
            "--object",
            "tests/cli_fixtures/deployment.yaml",
            "--authorizer",
            rules,
        ]
    };
    check(
        &args("tests/cli_fixtures/authorizer-allow.yaml"),
        0,
        expect![[r#"
            ValidatingAdmissionPolicy may-scale: allow
              note: no binding: the API server never enforces a policy without one; evaluated as a binding with validationActions [Deny] would
              validation[0]: true
              defaulted: spec.strategy.type, spec.strategy.rollingUpdate, spec.strategy.rollingUpdate.maxUnavailable, spec.strategy.rollingUpdate.maxSurge, spec.revisionHistoryLimit, spec.progressDeadlineSeconds, spec.template.spec.dnsPolicy, spec.template.spec.restartPolicy, spec.template.spec.securityContext, spec.template.spec.terminationGracePeriodSeconds, spec.template.spec.schedulerName, metadata.creationTimestamp, metadata.uid, status, metadata.generation
        "#]],
    );
    check(
        &args("tests/cli_fixtures/authorizer-deny.yaml"),
        0,
        expect![[r#"
            ValidatingAdmissionPolicy may-scale: deny
              note: no binding: the API server never enforces a policy without one; evaluated as a binding with validationActions [Deny] would
              validation[0]: false: you may not scale deployments here
              message: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'may-scale' denied request: you may not scale deployments here
              defaulted: spec.strategy.type, spec.strategy.rollingUpdate, spec.strategy.rollingUpdate.maxUnavailable, spec.strategy.rollingUpdate.maxSurge, spec.revisionHistoryLimit, spec.progressDeadlineSeconds, spec.template.spec.dnsPolicy, spec.template.spec.restartPolicy, spec.template.spec.securityContext, spec.template.spec.terminationGracePeriodSeconds, spec.template.spec.schedulerName, metadata.creationTimestamp, metadata.uid, status, metadata.generation
        "#]],
    );
    check(
        &args("tests/cli_fixtures/authorizer-bad.yaml"),
        2,
        expect![[r#"
            admission-ls eval: error: --authorizer: entry 1: decision must be allow, deny or noOpinion, got `maybe`
        "#]],
    );
    // Without --authorizer every check has no opinion.
    check(
        &args("tests/cli_fixtures/authorizer-deny.yaml")[..4],
        0,
        expect![[r#"
            ValidatingAdmissionPolicy may-scale: deny
              note: no binding: the API server never enforces a policy without one; evaluated as a binding with validationActions [Deny] would
              validation[0]: false: you may not scale deployments here
              message: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'may-scale' denied request: you may not scale deployments here
              defaulted: spec.strategy.type, spec.strategy.rollingUpdate, spec.strategy.rollingUpdate.maxUnavailable, spec.strategy.rollingUpdate.maxSurge, spec.revisionHistoryLimit, spec.progressDeadlineSeconds, spec.template.spec.dnsPolicy, spec.template.spec.restartPolicy, spec.template.spec.securityContext, spec.template.spec.terminationGracePeriodSeconds, spec.template.spec.schedulerName, metadata.creationTimestamp, metadata.uid, status, metadata.generation
        "#]],
    );
}

#[test]
fn eval_defaults_the_object_as_the_api_server_does() {
    // apps/v1 SetDefaults_Deployment sets spec.replicas to 1 before admission: allowed. Without
    // defaulting the field is absent and the expression fails with "no such key".
    check(
        &[
            "eval",
            "tests/cli_fixtures/max-replicas.yaml",
            "--object",
            "tests/cli_fixtures/deployment-no-replicas.yaml",
        ],
        0,
        expect![[r#"
            ValidatingAdmissionPolicy max-replicas: allow
              note: no binding: the API server never enforces a policy without one; evaluated as a binding with validationActions [Deny] would
              validation[0]: true
              defaulted: spec.replicas, spec.strategy.type, spec.strategy.rollingUpdate, spec.strategy.rollingUpdate.maxUnavailable, spec.strategy.rollingUpdate.maxSurge, spec.revisionHistoryLimit, spec.progressDeadlineSeconds, spec.template.spec.dnsPolicy, spec.template.spec.restartPolicy, spec.template.spec.securityContext, spec.template.spec.terminationGracePeriodSeconds, spec.template.spec.schedulerName, spec.template.spec.containers[0].imagePullPolicy, spec.template.spec.containers[0].terminationMessagePath, spec.template.spec.containers[0].terminationMessagePolicy, metadata.creationTimestamp, metadata.uid, status, metadata.generation
        "#]],
    );
    check(
        &[
            "eval",
            "tests/cli_fixtures/max-replicas.yaml",
            "--object",
            "tests/cli_fixtures/deployment-no-replicas.yaml",
            "--no-defaults",
        ],
        0,
        expect![[r#"
            ValidatingAdmissionPolicy max-replicas: error
              note: no binding: the API server never enforces a policy without one; evaluated as a binding with validationActions [Deny] would
              validation[0]: error: expression 'object.spec.replicas <= 5' resulted in error: no such key: replicas
              message: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'max-replicas' denied request: expression 'object.spec.replicas <= 5' resulted in error: no such key: replicas
        "#]],
    );
}

#[test]
fn eval_prunes_and_defaults_a_custom_resource_by_its_crd() {
    // apiextensions-apiserver: pruning (spec.colour is not in the schema) and structural defaults
    // (spec.size: 3) on decode; the CRD comes from --schema.
    check(
        &[
            "eval",
            "tests/cli_fixtures/widget-policy.yaml",
            "--schema",
            "tests/cli_fixtures/widget-crd.yaml",
            "--object",
            "tests/cli_fixtures/widget.yaml",
            "--format",
            "json",
        ],
        0,
        expect![[r#"
            {
              "auditAnnotations": {},
              "binding": null,
              "decision": "allow",
              "defaulted": [
                "spec.size",
                "metadata.creationTimestamp",
                "metadata.uid",
                "metadata.generation"
              ],
              "kind": "ValidatingAdmissionPolicy",
              "matchConditions": [],
              "messages": [],
              "note": "no binding: the API server never enforces a policy without one; evaluated as a binding with validationActions [Deny] would",
              "policy": "small-widgets",
              "pruned": [
                "spec.colour"
              ],
              "status": null,
              "validations": [
                {
                  "index": 0,
                  "message": null,
                  "reason": null,
                  "result": true
                }
              ],
              "warnings": []
            }
        "#]],
    );
    check(
        &[
            "eval",
            "tests/cli_fixtures/widget-policy.yaml",
            "--schema",
            "tests/cli_fixtures/missing.yaml",
            "--object",
            "tests/cli_fixtures/widget.yaml",
        ],
        2,
        expect![[r#"
            admission-ls eval: error: cannot read --schema tests/cli_fixtures/missing.yaml: no such file or directory
        "#]],
    );
}

#[test]
fn eval_refuses_an_object_the_api_server_cannot_decode() {
    // objectmeta/coerce.go: metadata of the wrong type fails the decode.
    check(
        &[
            "eval",
            "tests/cli_fixtures/widget-policy.yaml",
            "--schema",
            "tests/cli_fixtures/widget-crd.yaml",
            "--object",
            "tests/cli_fixtures/widget-bad-metadata.yaml",
        ],
        2,
        expect![[r#"
            admission-ls eval: error: the API server would refuse the object: metadata.labels.size: cannot decode number as a string
        "#]],
    );
}

/// A policy with a paramKind run without --params: evaluated with params null, as the API server
/// does for a binding without paramRef (apiserver `policy/generic/policy_dispatcher.go`
/// `CollectParams`), and the note says why `params.data` fails.
#[test]
fn eval_without_params_says_params_is_null() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/params-missing.yaml",
            "--object",
            "tests/cli_fixtures/deployment.yaml",
        ],
        0,
        expect![[r#"
            ValidatingAdmissionPolicy max-replicas (binding max-replicas): error
              note: no --params: the policy has paramKind v1 ConfigMap, so params is null, as when the binding has no paramRef; give the params object with --params FILE
              validation[0]: error: expression 'object.spec.replicas <= int(params.data.max)' resulted in error: no such overload: field selection on null_type
              message: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: expression 'object.spec.replicas <= int(params.data.max)' resulted in error: no such overload: field selection on null_type
              defaulted: spec.strategy.type, spec.strategy.rollingUpdate, spec.strategy.rollingUpdate.maxUnavailable, spec.strategy.rollingUpdate.maxSurge, spec.revisionHistoryLimit, spec.progressDeadlineSeconds, spec.template.spec.dnsPolicy, spec.template.spec.restartPolicy, spec.template.spec.securityContext, spec.template.spec.terminationGracePeriodSeconds, spec.template.spec.schedulerName, metadata.creationTimestamp, metadata.uid, status, metadata.generation
        "#]],
    );
}

/// `eval` of a Gatekeeper ConstraintTemplate with its Constraint as `--params`: the Constraint's
/// match, then the template's CEL (gatekeeper `pkg/drivers/k8scel/driver.go` `Query`); each
/// violation is a message; a kind the Constraint does not match is skipped; on DELETE
/// `variables.anyObject` is the old object; a template without its Constraint is bad input.
#[test]
fn eval_gatekeeper_template_and_constraint() {
    let dir = "tests/suites/gatekeeper";
    let template = format!("{dir}/template.yaml");
    let constraint = format!("{dir}/constraint.yaml");
    let eval = |extra: &[&str]| {
        let mut args = vec!["eval", template.as_str(), "--params", constraint.as_str()];
        args.extend_from_slice(extra);
        args.iter().map(|a| a.to_string()).collect::<Vec<_>>()
    };
    let missing = format!("{dir}/missing-both.yaml");
    let deployment = format!("{dir}/deployment.yaml");
    let allowed = format!("{dir}/allowed.yaml");
    let mut out = String::new();
    for extra in [
        vec!["--object", missing.as_str()],
        vec!["--object", deployment.as_str(), "--format", "json"],
        vec!["--old-object", missing.as_str(), "--operation", "DELETE"],
    ] {
        let args = eval(&extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 0, "{stderr}");
        let decision = if stdout.trim_start().starts_with('{') {
            let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
            format!("json decision: {}\n", json["decision"])
        } else {
            stdout
        };
        out.push_str(&decision);
    }
    let (code, _, stderr) = run(&["eval", template.as_str(), "--object", allowed.as_str()]);
    assert_eq!(code, 2);
    out.push_str(&stderr);
    expect![[r#"
        ValidatingAdmissionPolicy gatekeeper-k8srequiredlabels (binding gatekeeper-k8srequiredlabels-must-have-owner): deny
          validation[0]: false: missing required label, requires all of: owner, team
          validation[1]: true
          message: missing required label, requires all of: owner, team
        json decision: "skip"
        ValidatingAdmissionPolicy gatekeeper-k8srequiredlabels (binding gatekeeper-k8srequiredlabels-must-have-owner): deny
          validation[0]: false: missing required label, requires all of: owner, team
          validation[1]: true
          message: missing required label, requires all of: owner, team
        admission-ls eval: error: no K8sRequiredLabels Constraint: give the Constraint of the template with --params FILE (or put it in the template's file)
    "#]].assert_eq(&out);
}
