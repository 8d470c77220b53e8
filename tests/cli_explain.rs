//! `eval --explain` end to end: the trace of every expression an evaluation ran, as text and as
//! JSON: comparisons with their operands' values, short-circuits and ternary branches that never
//! ran, `all`/`exists` with the element they ended on, variables, an error with the node that
//! raised it, and where an expression that ran out of cost stopped; `test -v` prints the trace
//! of a failing case. The same for Kyverno's ValidatingPolicy and MutatingPolicy (`eval`, text and
//! JSON, and a failing row of a `kyverno-test.yaml` suite), for its GeneratingPolicy (each
//! `generate` expression), DeletingPolicy (each condition, the delete or keep decision) and
//! ImageValidatingPolicy (the images, `matchImageReferences` per image, the validations), and for Gatekeeper's
//! K8sNativeValidation templates (`eval` with the Constraint as params, a failing gator case).
//! DRA device selectors keep each device's traces (which selector rejected it, and why), and an
//! AuthenticationConfiguration's run the traces of its mappings and rules, in text and JSON;
//! `validate --explain` the traces of the CRD rules (and failed rules' messageExpressions) it ran,
//! and `test -v` those of a failing custom-resource case.

use std::process::Command;

use expect_test::{Expect, expect};

#[path = "support/cli.rs"]
mod cli;

fn check(args: &[&str], expected: Expect) {
    check_status(args, 0, expected);
}

fn check_status(args: &[&str], status: i32, expected: Expect) {
    let output = Command::new(env!("CARGO_BIN_EXE_admission-ls"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(status), "{stdout}{stderr}");
    expected.assert_eq(&cli::timeless(&format!("{stdout}{stderr}")));
}

#[test]
fn explain_text_every_kind_of_node() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/explain/policy.yaml",
            "--object",
            "tests/cli_fixtures/explain/pod.yaml",
            "--no-defaults",
            "--explain",
        ],
        expect![[r#"
            ValidatingAdmissionPolicy explained: deny
              note: no binding: the API server never enforces a policy without one; evaluated as a binding with validationActions [Deny] would
              matchCondition not-kube-system: true
              validation[0]: false: failed expression: size(object.spec.containers) <= variables.maxContainers
              validation[1]: true
              validation[2]: false: failed expression: has(object.metadata.labels) ? 'app' in object.metadata.labels : false
              validation[3]: false: failed expression: object.spec.containers.all(c, c.image.contains(':'))
              validation[4]: false: failed expression: object.spec.containers.exists(c, c.name == 'sidecar')
              validation[5]: error: expression 'object.spec.priority > 0' resulted in error: no such key: priority
              message: pods "web" is forbidden: ValidatingAdmissionPolicy 'explained' denied request: failed expression: size(object.spec.containers) <= variables.maxContainers
              explain matchCondition not-kube-system:
                object.metadata.namespace != 'kube-system'  →  "shop" != "kube-system"  →  true
                  object.metadata.namespace  →  "shop"
              explain variables.maxContainers:
                object.metadata.namespace == 'shop' ? 1 : 3  →  1
                  object.metadata.namespace == 'shop'  →  "shop" == "shop"  →  true
                    object.metadata.namespace  →  "shop"
                  3  →  (not evaluated)
              explain validation[0]:
                size(object.spec.containers) <= variables.maxContainers  →  2 <= 1  →  false
                  size(object.spec.containers)  →  2
                    object.spec.containers  →  [{"image": "registry.example/app:1.2", "name": "app"}, {"image": "registry.examp…
                  variables.maxContainers  →  1
              explain validation[1]:
                !has(object.spec.hostNetwork) || object.spec.hostNetwork == false  →  true
                  !has(object.spec.hostNetwork)  →  true
                    has(object.spec.hostNetwork)  →  false
                  object.spec.hostNetwork == false  →  (not evaluated)
              explain validation[2]:
                has(object.metadata.labels) ? 'app' in object.metadata.labels : false  →  false
                  has(object.metadata.labels)  →  false
                  'app' in object.metadata.labels  →  (not evaluated)
              explain validation[3]:
                object.spec.containers.all(c, c.image.contains(':'))  →  false  (last iteration: index 1: c = {"image": "registry.example/proxy", "name": "proxy"})
                  object.spec.containers  →  [{"image": "registry.example/app:1.2", "name": "app"}, {"image": "registry.examp…
                  c.image.contains(':')  →  false
                    c.image  →  "registry.example/proxy"
              explain validation[4]:
                object.spec.containers.exists(c, c.name == 'sidecar')  →  false  (last iteration: index 1: c = {"image": "registry.example/proxy", "name": "proxy"})
                  object.spec.containers  →  [{"image": "registry.example/app:1.2", "name": "app"}, {"image": "registry.examp…
                  c.name == 'sidecar'  →  "proxy" == "sidecar"  →  false
                    c.name  →  "proxy"
              explain validation[5]:
                object.spec.priority > 0  →  error: no such key: priority
                  object.spec.priority  →  error raised here: no such key: priority
                    object.spec  →  {"containers": [{"image": "registry.example/app:1.2", "name": "app"}, {"image": …
        "#]],
    );
}

#[test]
fn explain_shows_where_the_cost_limit_stopped_evaluation() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/explain/costly.yaml",
            "--object",
            "tests/cli_fixtures/explain/pod.yaml",
            "--no-defaults",
            "--explain",
        ],
        expect![[r#"
            ValidatingAdmissionPolicy costly: error
              note: no binding: the API server never enforces a policy without one; evaluated as a binding with validationActions [Deny] would
              validation[0]: error: expression '[0,1,2,3,4,5,6,7,8,9].all(a, [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, a + b + c + d + e + f >= 0))))))' resulted in error: operation cancelled: actual cost limit exceeded
              message: pods "web" is forbidden: ValidatingAdmissionPolicy 'costly' denied request: expression '[0,1,2,3,4,5,6,7,8,9].all(a, [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, a + b + c + d + e + f >= 0))))))' resulted in error: operation cancelled: actual cost limit exceeded
              explain validation[0]:
                [0,1,2,3,4,5,6,7,8,9].all(a, [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1…  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 0: a = 0)
                  [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                  [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1…  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 6: b = 6)
                    [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                    [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, a + …  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 0: c = 0)
                      [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                      [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, a + b + c + d + e + f >= 0)))  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 4: d = 4)
                        [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                        [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, a + b + c + d + e + f >= 0))  →  stopped here: operation cancelled: actual cost limit exceeded
                          [0,1,2,3,4,5,6,7,8,9]  →  stopped here: operation cancelled: actual cost limit exceeded
                          [0,1,2,3,4,5,6,7,8,9].all(f, a + b + c + d + e + f >= 0)  →  (not evaluated)
        "#]],
    );
}

#[test]
fn explain_json_carries_the_trace_as_data() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/max-replicas.yaml",
            "--object",
            "tests/cli_fixtures/deployment-big.yaml",
            "--no-defaults",
            "--explain",
            "--format",
            "json",
        ],
        expect![[r#"
            {
              "auditAnnotations": {},
              "binding": null,
              "decision": "deny",
              "defaulted": [],
              "explain": [
                {
                  "expression": "object.spec.replicas <= 5",
                  "label": "validation[0]",
                  "trace": [
                    {
                      "depth": 0,
                      "end": 25,
                      "operands": "12 <= 5",
                      "start": 0,
                      "text": "object.spec.replicas <= 5",
                      "value": "false"
                    },
                    {
                      "depth": 1,
                      "end": 20,
                      "start": 0,
                      "text": "object.spec.replicas",
                      "value": "12"
                    }
                  ]
                }
              ],
              "kind": "ValidatingAdmissionPolicy",
              "matchConditions": [],
              "messages": [
                "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'max-replicas' denied request: at most five replicas"
              ],
              "note": "no binding: the API server never enforces a policy without one; evaluated as a binding with validationActions [Deny] would",
              "policy": "max-replicas",
              "pruned": [],
              "status": {
                "code": 422,
                "reason": "Invalid"
              },
              "validations": [
                {
                  "index": 0,
                  "message": "at most five replicas",
                  "reason": "Invalid",
                  "result": false
                }
              ],
              "warnings": []
            }
        "#]],
    );
}

#[test]
fn without_explain_no_trace_is_printed() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/max-replicas.yaml",
            "--object",
            "tests/cli_fixtures/deployment-big.yaml",
            "--no-defaults",
        ],
        expect![[r#"
            ValidatingAdmissionPolicy max-replicas: deny
              note: no binding: the API server never enforces a policy without one; evaluated as a binding with validationActions [Deny] would
              validation[0]: false: at most five replicas
              message: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'max-replicas' denied request: at most five replicas
        "#]],
    );
}

#[test]
fn explain_mutation_and_reinvoked_match_conditions() {
    check(
        &[
            "eval",
            "examples/sidecar-injection.yaml",
            "--object",
            "tests/cli_fixtures/pod.yaml",
            "--namespace",
            "tests/cli_fixtures/namespace.yaml",
            "--no-defaults",
            "--explain",
        ],
        expect![[r#"
            MutatingAdmissionPolicy logging-sidecar (binding logging-sidecar): allow
              matchCondition no-sidecar-yet: true
              matchCondition no-sidecar-yet: false
              patch: {"op":"add","path":"/spec/containers/-","value":{"image":"registry.example.com/log-shipper:1.4","name":"log-shipper"}}
              explain matchCondition no-sidecar-yet:
                !object.spec.containers.exists(c, c.name == 'log-shipper')  →  true
                  object.spec.containers.exists(c, c.name == 'log-shipper')  →  false  (last iteration: index 0: c = {"image": "nginx", "name": "app"})
                    object.spec.containers  →  [{"image": "nginx", "name": "app"}]
                    c.name == 'log-shipper'  →  "app" == "log-shipper"  →  false
                      c.name  →  "app"
              explain applyConfiguration:
                Object{ spec: Object.spec{ containers: [ Object.spec.containers{ name: "log-shipper", image: "registry.example.com/log-s…  →  Object{spec: Object.spec{containers: [Object.spec.containers{name: "log-shipper"…
                  Object.spec{ containers: [ Object.spec.containers{ name: "log-shipper", image: "registry.example.com/log-shipper:1.4" } …  →  Object.spec{containers: [Object.spec.containers{name: "log-shipper", image: "reg…
                    [ Object.spec.containers{ name: "log-shipper", image: "registry.example.com/log-shipper:1.4" } ]  →  [Object.spec.containers{name: "log-shipper", image: "registry.example.com/log-sh…
                      Object.spec.containers{ name: "log-shipper", image: "registry.example.com/log-shipper:1.4" }  →  Object.spec.containers{name: "log-shipper", image: "registry.example.com/log-shi…
              explain matchCondition no-sidecar-yet:
                !object.spec.containers.exists(c, c.name == 'log-shipper')  →  false
                  object.spec.containers.exists(c, c.name == 'log-shipper')  →  true  (last iteration: index 1: c = {"image": "registry.example.com/log-shipper:1.4", "name": "log-shipper"})
                    object.spec.containers  →  [{"image": "nginx", "name": "app"}, {"image": "registry.example.com/log-shipper:…
                    c.name == 'log-shipper'  →  "log-shipper" == "log-shipper"  →  true
                      c.name  →  "log-shipper"
        "#]],
    );
}

#[test]
fn test_verbose_explains_only_the_failing_case() {
    check_status(
        &[
            "test",
            "tests/cli_fixtures/explain/max-replicas.test.yaml",
            "-v",
        ],
        1,
        expect![[r#"
            tests/cli_fixtures/explain/max-replicas.test.yaml (max-replicas-explained)
              ok    three replicas are allowed (…ms)
                    decision: allow
              FAIL  twelve replicas are wrongly expected to be allowed (…ms)
                    expected allow, got deny: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'max-replicas' denied request: at most five replicas
                    decision: deny
                    message: deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'max-replicas' denied request: at most five replicas
                    explain validation[0]:
                      object.spec.replicas <= 5  →  12 <= 5  →  false
                        object.spec.replicas  →  12
            1 passed, 1 failed in …ms
        "#]],
    );
}

const KYVERNO: &str = "tests/cli_fixtures/explain/kyverno.yaml";
const POD: &str = "tests/cli_fixtures/explain/pod.yaml";

#[test]
fn explain_kyverno_validating_policy() {
    let args = [
        "eval",
        KYVERNO,
        "--policy",
        "tagged-images",
        "--object",
        POD,
    ];
    check(
        &[&args[..], &["--explain"]].concat(),
        expect![[r#"
        ValidatingPolicy tagged-images: fail
          decision: deny
          message: container proxy has no tag
          validationActions: Deny
          explain matchCondition not-kube-system:
            object.metadata.namespace != 'kube-system'  →  "shop" != "kube-system"  →  true
              object.metadata.namespace  →  "shop"
          explain validation[0]:
            !has(object.spec.hostNetwork) || object.spec.hostNetwork == false  →  true
              !has(object.spec.hostNetwork)  →  true
                has(object.spec.hostNetwork)  →  false
              object.spec.hostNetwork == false  →  (not evaluated)
          explain variables.maxContainers:
            object.metadata.namespace == 'shop' ? 3 : 1  →  3
              object.metadata.namespace == 'shop'  →  "shop" == "shop"  →  true
                object.metadata.namespace  →  "shop"
              1  →  (not evaluated)
          explain validation[1]:
            size(object.spec.containers) <= variables.maxContainers  →  2 <= 3  →  true
              size(object.spec.containers)  →  2
                object.spec.containers  →  [{"image": "registry.example/app:1.2", "name": "app"}, {"image": "registry.examp…
              variables.maxContainers  →  3
          explain validation[2]:
            object.spec.containers.all(c, c.image.contains(':'))  →  false  (last iteration: index 1: c = {"image": "registry.example/proxy", "name": "proxy"})
              object.spec.containers  →  [{"image": "registry.example/app:1.2", "name": "app"}, {"image": "registry.examp…
              c.image.contains(':')  →  false
                c.image  →  "registry.example/proxy"
          explain messageExpression[2]:
            'container ' + object.spec.containers.filter(c, !c.image.contains(':'))[0].name + ' has no tag'  →  "container proxy" + " has no tag"  →  "container proxy has no tag"
              'container ' + object.spec.containers.filter(c, !c.image.contains(':'))[0].name  →  "container " + "proxy"  →  "container proxy"
                object.spec.containers.filter(c, !c.image.contains(':'))[0].name  →  "proxy"
    "#]],
    );
}

#[test]
fn explain_kyverno_error_in_a_subexpression() {
    let args = ["eval", KYVERNO, "--policy", "priority-set", "--object", POD];
    check(
        &[&args[..], &["--explain"]].concat(),
        expect![[r#"
        ValidatingPolicy priority-set: error
          decision: error
          message: error: no such key: priority
          validationActions: Deny
          explain validation[0]:
            object.spec.containers.size() > 0 && object.spec.priority > 0  →  error: no such key: priority
              object.spec.containers.size() > 0  →  2 > 0  →  true
                object.spec.containers.size()  →  2
                  object.spec.containers  →  [{"image": "registry.example/app:1.2", "name": "app"}, {"image": "registry.examp…
              object.spec.priority > 0  →  error: no such key: priority
                object.spec.priority  →  error raised here: no such key: priority
                  object.spec  →  {"containers": [{"image": "registry.example/app:1.2", "name": "app"}, {"image": …
    "#]],
    );
}

#[test]
fn explain_kyverno_mutating_policy() {
    let args = ["eval", KYVERNO, "--policy", "pull-always", "--object", POD];
    check(
        &[&args[..], &["--explain"]].concat(),
        expect![[r#"
        MutatingPolicy pull-always: pass
          decision: allow
          message: success
          patch:
            {"op":"add","path":"/spec/containers/0/imagePullPolicy","value":"Always"}
            {"op":"add","path":"/spec/containers/1/imagePullPolicy","value":"Always"}
          object:
            {
              "apiVersion": "v1",
              "kind": "Pod",
              "metadata": {
                "name": "web",
                "namespace": "shop"
              },
              "spec": {
                "containers": [
                  {
                    "image": "registry.example/app:1.2",
                    "imagePullPolicy": "Always",
                    "name": "app"
                  },
                  {
                    "image": "registry.example/proxy",
                    "imagePullPolicy": "Always",
                    "name": "proxy"
                  }
                ]
              }
            }
          explain matchCondition some-untagged:
            object.spec.containers.exists(c, !c.image.contains(':'))  →  true  (last iteration: index 1: c = {"image": "registry.example/proxy", "name": "proxy"})
              object.spec.containers  →  [{"image": "registry.example/app:1.2", "name": "app"}, {"image": "registry.examp…
              !c.image.contains(':')  →  true
                c.image.contains(':')  →  false
                  c.image  →  "registry.example/proxy"
          explain applyConfiguration:
            Object{spec: Object.spec{containers: object.spec.containers.map(c, Object.spec.containers{name: c.name, imagePullPolicy:…  →  Object{spec: Object.spec{containers: [Object.spec.containers{name: "app", imageP…
              Object.spec{containers: object.spec.containers.map(c, Object.spec.containers{name: c.name, imagePullPolicy: "Always"})}  →  Object.spec{containers: [Object.spec.containers{name: "app", imagePullPolicy: "A…
                object.spec.containers.map(c, Object.spec.containers{name: c.name, imagePullPolicy: "Always"})  →  [Object.spec.containers{name: "app", imagePullPolicy: "Always"}, Object.spec.con…  (last iteration: index 1: c = {"image": "registry.example/proxy", "name": "proxy"})
                  object.spec.containers  →  [{"image": "registry.example/app:1.2", "name": "app"}, {"image": "registry.examp…
                  Object.spec.containers{name: c.name, imagePullPolicy: "Always"}  →  Object.spec.containers{name: "proxy", imagePullPolicy: "Always"}
                    c.name  →  "proxy"
    "#]],
    );
}

#[test]
fn explain_kyverno_json_carries_the_trace_as_data() {
    let args = ["eval", KYVERNO, "--policy", "priority-set", "--object", POD];
    let json = ["--format", "json", "--explain"];
    check(
        &[&args[..], &json[..]].concat(),
        expect![[r#"
        [
          {
            "decision": "error",
            "explain": [
              {
                "expression": "object.spec.containers.size() > 0 && object.spec.priority > 0",
                "label": "validation[0]",
                "trace": [
                  {
                    "depth": 0,
                    "end": 61,
                    "error": "no such key: priority",
                    "start": 0,
                    "text": "object.spec.containers.size() > 0 && object.spec.priority > 0"
                  },
                  {
                    "depth": 1,
                    "end": 33,
                    "operands": "2 > 0",
                    "start": 0,
                    "text": "object.spec.containers.size() > 0",
                    "value": "true"
                  },
                  {
                    "depth": 2,
                    "end": 29,
                    "start": 0,
                    "text": "object.spec.containers.size()",
                    "value": "2"
                  },
                  {
                    "depth": 3,
                    "end": 22,
                    "start": 0,
                    "text": "object.spec.containers",
                    "value": "[{\"image\": \"registry.example/app:1.2\", \"name\": \"app\"}, {\"image\": \"registry.examp…"
                  },
                  {
                    "depth": 1,
                    "end": 61,
                    "error": "no such key: priority",
                    "start": 37,
                    "text": "object.spec.priority > 0"
                  },
                  {
                    "depth": 2,
                    "end": 57,
                    "raised": "no such key: priority",
                    "start": 37,
                    "text": "object.spec.priority"
                  },
                  {
                    "depth": 3,
                    "end": 48,
                    "start": 37,
                    "text": "object.spec",
                    "value": "{\"containers\": [{\"image\": \"registry.example/app:1.2\", \"name\": \"app\"}, {\"image\": …"
                  }
                ]
              }
            ],
            "kind": "ValidatingPolicy",
            "message": "error: no such key: priority",
            "policy": "priority-set",
            "result": "error",
            "validationActions": [
              "Deny"
            ]
          }
        ]
    "#]],
    );
}

#[test]
fn kyverno_without_explain_no_trace_is_printed() {
    let args = [
        "eval",
        KYVERNO,
        "--policy",
        "tagged-images",
        "--object",
        POD,
    ];
    check(
        &args,
        expect![[r#"
        ValidatingPolicy tagged-images: fail
          decision: deny
          message: container proxy has no tag
          validationActions: Deny
    "#]],
    );
}

#[test]
fn test_verbose_explains_a_failing_kyverno_row() {
    let args = ["test", "tests/suites/kyverno_flipped", "-v"];
    check_status(
        &args,
        1,
        expect![[r#"
            tests/suites/kyverno_flipped/kyverno-test.yaml (flipped)
              FAIL  require-team Pod/good-pod: fail (…ms)
                    Pod/good-pod: want fail, got pass: success
                    explain matchCondition not-system:
                      object.metadata.?namespace.orValue('') != 'kube-system'  →  "default" != "kube-system"  →  true
                        object.metadata.?namespace.orValue('')  →  "default"
                          object.metadata.?namespace  →  optional.of("default")
                    explain variables.labels:
                      object.metadata.?labels.orValue({})  →  {"team": "payments"}
                        object.metadata.?labels  →  optional.of({"team": "payments"})
                        {}  →  {}
                    explain validation[0]:
                      object.spec.containers.orValue([]).size() > 0 && 'team' in variables.labels  →  true && true  →  true
                        object.spec.containers.orValue([]).size() > 0  →  1 > 0  →  true
                          object.spec.containers.orValue([]).size()  →  1
                            object.spec.containers.orValue([])  →  [{"image": "nginx", "name": "app"}]
                              object.spec.containers  →  [{"image": "nginx", "name": "app"}]
                              []  →  []
                        'team' in variables.labels  →  "team" in {"team": "payments"}  →  true
                          variables.labels  →  {"team": "payments"}
                    explain validation[1]:
                      variables.labels.team != 'nobody'  →  "payments" != "nobody"  →  true
                        variables.labels.team  →  "payments"
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
}

#[test]
fn explain_gatekeeper_template_with_its_constraint() {
    let args = [
        "eval",
        "tests/suites/gatekeeper/template.yaml",
        "--params",
        "tests/suites/gatekeeper/constraint.yaml",
        "--object",
        "tests/suites/gatekeeper/missing-both.yaml",
        "--explain",
    ];
    check(
        &args,
        expect![[r#"
        ValidatingAdmissionPolicy gatekeeper-k8srequiredlabels (binding gatekeeper-k8srequiredlabels-must-have-owner): deny
          validation[0]: false: missing required label, requires all of: owner, team
          validation[1]: true
          message: missing required label, requires all of: owner, team
          explain variables.anyObject:
            has(request.operation) && request.operation == "DELETE" && object == null ? oldObject : object  →  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "unlabelled", "namespac…
              has(request.operation) && request.operation == "DELETE" && object == null  →  false
                has(request.operation) && request.operation == "DELETE"  →  true && false  →  false
                  has(request.operation)  →  true
                  request.operation == "DELETE"  →  "CREATE" == "DELETE"  →  false
                    request.operation  →  "CREATE"
                object == null  →  (not evaluated)
              oldObject  →  (not evaluated)
              object  →  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "unlabelled", "namespac…
          explain matchCondition not-kube-system:
            variables.anyObject.metadata.?namespace.orValue("") != "kube-system"  →  "apps" != "kube-system"  →  true
              variables.anyObject.metadata.?namespace.orValue("")  →  "apps"
                variables.anyObject.metadata.?namespace  →  optional.of("apps")
                ""  →  (not evaluated)
          explain variables.params:
            !has(params.spec) ? null : !has(params.spec.parameters) ? null: params.spec.parameters  →  {"labels": [{"allowedRegex": "^[a-z]+$", "key": "owner"}, {"key": "team"}]}
              !has(params.spec)  →  false
                has(params.spec)  →  true
              null  →  (not evaluated)
              !has(params.spec.parameters) ? null: params.spec.parameters  →  {"labels": [{"allowedRegex": "^[a-z]+$", "key": "owner"}, {"key": "team"}]}
                !has(params.spec.parameters)  →  false
                  has(params.spec.parameters)  →  true
                null  →  (not evaluated)
                params.spec.parameters  →  {"labels": [{"allowedRegex": "^[a-z]+$", "key": "owner"}, {"key": "team"}]}
          explain variables.anyObject:
            has(request.operation) && request.operation == "DELETE" && object == null ? oldObject : object  →  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "unlabelled", "namespac…
              has(request.operation) && request.operation == "DELETE" && object == null  →  false
                has(request.operation) && request.operation == "DELETE"  →  true && false  →  false
                  has(request.operation)  →  true
                  request.operation == "DELETE"  →  "CREATE" == "DELETE"  →  false
                    request.operation  →  "CREATE"
                object == null  →  (not evaluated)
              oldObject  →  (not evaluated)
              object  →  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "unlabelled", "namespac…
          explain variables.labels:
            has(variables.anyObject.metadata.labels) ? variables.anyObject.metadata.labels : {}  →  {}
              has(variables.anyObject.metadata.labels)  →  false
              variables.anyObject.metadata.labels  →  (not evaluated)
              {}  →  {}
          explain validation[0]:
            variables.params.labels.all(entry, entry.key in variables.labels)  →  false  (last iteration: index 0: entry = {"allowedRegex": "^[a-z]+$", "key": "owner"})
              variables.params.labels  →  [{"allowedRegex": "^[a-z]+$", "key": "owner"}, {"key": "team"}]
              entry.key in variables.labels  →  "owner" in {}  →  false
                entry.key  →  "owner"
                variables.labels  →  {}
          explain validation[1]:
            variables.params.labels.all(entry, !(entry.key in variables.labels) || !has(entry.allowedRegex) || variables.labels[entr…  →  true  (last iteration: index 1: entry = {"key": "team"})
              variables.params.labels  →  [{"allowedRegex": "^[a-z]+$", "key": "owner"}, {"key": "team"}]
              !(entry.key in variables.labels) || !has(entry.allowedRegex) || variables.labels[entry.key].matches(entry.allowedRegex)  →  true
                !(entry.key in variables.labels) || !has(entry.allowedRegex)  →  true
                  !(entry.key in variables.labels)  →  true
                    (entry.key in variables.labels)  →  "team" in {}  →  false
                      entry.key  →  "team"
                      variables.labels  →  {}
                  !has(entry.allowedRegex)  →  (not evaluated)
                variables.labels[entry.key].matches(entry.allowedRegex)  →  (not evaluated)
          explain messageExpression[0]:
            "missing required label, requires all of: " + variables.params.labels.map(entry, entry.key).join(", ")  →  "missing required label, requires all of: " + "owner, team"  →  "missing required label, requires all of: owner, team"
              variables.params.labels.map(entry, entry.key).join(", ")  →  "owner, team"
                variables.params.labels.map(entry, entry.key)  →  ["owner", "team"]  (last iteration: index 1: entry = {"key": "team"})
                  variables.params.labels  →  [{"allowedRegex": "^[a-z]+$", "key": "owner"}, {"key": "team"}]
                  entry.key  →  "team"
    "#]],
    );
}

#[test]
fn test_verbose_explains_a_failing_gator_case() {
    let args = [
        "test",
        "tests/suites/gatekeeper_failing",
        "--run",
        "allowed-expected-to-violate",
        "-v",
    ];
    check_status(
        &args,
        1,
        expect![[r#"
        tests/suites/gatekeeper_failing/failing.test.yaml (failing)
          FAIL  wrong-expectations/allowed-expected-to-violate (…ms)
                got 0 violations but want at least 1: got messages []
                decision: allow
                explain variables.anyObject:
                  has(request.operation) && request.operation == "DELETE" && object == null ? oldObject : object  →  {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"owner": "alice", "t…
                    has(request.operation) && request.operation == "DELETE" && object == null  →  false
                      has(request.operation) && request.operation == "DELETE"  →  true && false  →  false
                        has(request.operation)  →  true
                        request.operation == "DELETE"  →  "CREATE" == "DELETE"  →  false
                          request.operation  →  "CREATE"
                      object == null  →  (not evaluated)
                    oldObject  →  (not evaluated)
                    object  →  {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"owner": "alice", "t…
                explain matchCondition not-kube-system:
                  variables.anyObject.metadata.?namespace.orValue("") != "kube-system"  →  "apps" != "kube-system"  →  true
                    variables.anyObject.metadata.?namespace.orValue("")  →  "apps"
                      variables.anyObject.metadata.?namespace  →  optional.of("apps")
                      ""  →  (not evaluated)
                explain variables.params:
                  !has(params.spec) ? null : !has(params.spec.parameters) ? null: params.spec.parameters  →  {"labels": [{"allowedRegex": "^[a-z]+$", "key": "owner"}, {"key": "team"}]}
                    !has(params.spec)  →  false
                      has(params.spec)  →  true
                    null  →  (not evaluated)
                    !has(params.spec.parameters) ? null: params.spec.parameters  →  {"labels": [{"allowedRegex": "^[a-z]+$", "key": "owner"}, {"key": "team"}]}
                      !has(params.spec.parameters)  →  false
                        has(params.spec.parameters)  →  true
                      null  →  (not evaluated)
                      params.spec.parameters  →  {"labels": [{"allowedRegex": "^[a-z]+$", "key": "owner"}, {"key": "team"}]}
                explain variables.anyObject:
                  has(request.operation) && request.operation == "DELETE" && object == null ? oldObject : object  →  {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"owner": "alice", "t…
                    has(request.operation) && request.operation == "DELETE" && object == null  →  false
                      has(request.operation) && request.operation == "DELETE"  →  true && false  →  false
                        has(request.operation)  →  true
                        request.operation == "DELETE"  →  "CREATE" == "DELETE"  →  false
                          request.operation  →  "CREATE"
                      object == null  →  (not evaluated)
                    oldObject  →  (not evaluated)
                    object  →  {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"owner": "alice", "t…
                explain variables.labels:
                  has(variables.anyObject.metadata.labels) ? variables.anyObject.metadata.labels : {}  →  {"owner": "alice", "team": "web"}
                    has(variables.anyObject.metadata.labels)  →  true
                    variables.anyObject.metadata.labels  →  {"owner": "alice", "team": "web"}
                    {}  →  (not evaluated)
                explain validation[0]:
                  variables.params.labels.all(entry, entry.key in variables.labels)  →  true  (last iteration: index 1: entry = {"key": "team"})
                    variables.params.labels  →  [{"allowedRegex": "^[a-z]+$", "key": "owner"}, {"key": "team"}]
                    entry.key in variables.labels  →  "team" in {"owner": "alice", "team": "web"}  →  true
                      entry.key  →  "team"
                      variables.labels  →  {"owner": "alice", "team": "web"}
                explain validation[1]:
                  variables.params.labels.all(entry, !(entry.key in variables.labels) || !has(entry.allowedRegex) || variables.labels[entr…  →  true  (last iteration: index 1: entry = {"key": "team"})
                    variables.params.labels  →  [{"allowedRegex": "^[a-z]+$", "key": "owner"}, {"key": "team"}]
                    !(entry.key in variables.labels) || !has(entry.allowedRegex) || variables.labels[entry.key].matches(entry.allowedRegex)  →  true
                      !(entry.key in variables.labels) || !has(entry.allowedRegex)  →  false || true  →  true
                        !(entry.key in variables.labels)  →  false
                          (entry.key in variables.labels)  →  "team" in {"owner": "alice", "team": "web"}  →  true
                            entry.key  →  "team"
                            variables.labels  →  {"owner": "alice", "team": "web"}
                        !has(entry.allowedRegex)  →  true
                          has(entry.allowedRegex)  →  false
                      variables.labels[entry.key].matches(entry.allowedRegex)  →  (not evaluated)
                explain messageExpression[0]:
                  "missing required label, requires all of: " + variables.params.labels.map(entry, entry.key).join(", ")  →  "missing required label, requires all of: " + "owner, team"  →  "missing required label, requires all of: owner, team"
                    variables.params.labels.map(entry, entry.key).join(", ")  →  "owner, team"
                      variables.params.labels.map(entry, entry.key)  →  ["owner", "team"]  (last iteration: index 1: entry = {"key": "team"})
                        variables.params.labels  →  [{"allowedRegex": "^[a-z]+$", "key": "owner"}, {"key": "team"}]
                        entry.key  →  "team"
        0 passed, 1 failed in …ms
    "#]],
    );
}

const DRA_CLAIMS: &str = "tests/cli_fixtures/dra/gpu-claims.yaml";
const DRA_SLICE: &str = "tests/cli_fixtures/explain/dra-slice.yaml";
const DRA_SLICES: &str = "tests/cli_fixtures/dra/gpu-slices.yaml";

#[test]
fn explain_dra_selectors_per_device() {
    check(
        &[
            "eval",
            DRA_CLAIMS,
            "--object",
            DRA_SLICES,
            "--policy",
            "big-gpu",
            "--explain",
        ],
        expect![[r#"
            error: tests/cli_fixtures/dra/gpu-slices.yaml:40:3: ResourceSlice node-2-gpu.example.com has no devices (spec.devices is empty): nothing to select from
            ResourceClaimTemplate big-gpu request gpu/latest (with DeviceClass gpu.example.com): 1 of 4 devices match
              gpu-0 (slice node-1-gpu.example.com): match
                explain DeviceClass gpu.example.com spec.selectors[0].cel.expression:
                  device.driver == 'gpu.example.com'  →  "gpu.example.com" == "gpu.example.com"  →  true
                    device.driver  →  "gpu.example.com"
                explain spec.spec.devices.requests[0].firstAvailable[0].selectors[0].cel.expression:
                  device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'  →  "LATEST-GPU-MODEL" == "LATEST-GPU-MODEL"  →  true
                    device.attributes['gpu.example.com'].model  →  "LATEST-GPU-MODEL"
                explain spec.spec.devices.requests[0].firstAvailable[0].selectors[1].cel.expression:
                  device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0  →  1 >= 0  →  true
                    device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi'))  →  1
                      device.capacity['gpu.example.com'].memory  →  quantity("80Gi")
                      quantity('40Gi')  →  quantity("40Gi")
              gpu-1 (slice node-1-gpu.example.com): no match: spec.spec.devices.requests[0].firstAvailable[0].selectors[1].cel.expression is false
                explain DeviceClass gpu.example.com spec.selectors[0].cel.expression:
                  device.driver == 'gpu.example.com'  →  "gpu.example.com" == "gpu.example.com"  →  true
                    device.driver  →  "gpu.example.com"
                explain spec.spec.devices.requests[0].firstAvailable[0].selectors[0].cel.expression:
                  device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'  →  "LATEST-GPU-MODEL" == "LATEST-GPU-MODEL"  →  true
                    device.attributes['gpu.example.com'].model  →  "LATEST-GPU-MODEL"
                explain spec.spec.devices.requests[0].firstAvailable[0].selectors[1].cel.expression:
                  device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0  →  -1 >= 0  →  false
                    device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi'))  →  -1
                      device.capacity['gpu.example.com'].memory  →  quantity("16Gi")
                      quantity('40Gi')  →  quantity("40Gi")
              gpu-2 (slice node-1-gpu.example.com): no match: spec.spec.devices.requests[0].firstAvailable[0].selectors[0].cel.expression is false
                explain DeviceClass gpu.example.com spec.selectors[0].cel.expression:
                  device.driver == 'gpu.example.com'  →  "gpu.example.com" == "gpu.example.com"  →  true
                    device.driver  →  "gpu.example.com"
                explain spec.spec.devices.requests[0].firstAvailable[0].selectors[0].cel.expression:
                  device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'  →  "OLD-GPU-MODEL" == "LATEST-GPU-MODEL"  →  false
                    device.attributes['gpu.example.com'].model  →  "OLD-GPU-MODEL"
              gpu-3 (slice node-1-gpu.example.com): error: spec.spec.devices.requests[0].firstAvailable[0].selectors[0].cel.expression: no such key: model
                explain DeviceClass gpu.example.com spec.selectors[0].cel.expression:
                  device.driver == 'gpu.example.com'  →  "gpu.example.com" == "gpu.example.com"  →  true
                    device.driver  →  "gpu.example.com"
                explain spec.spec.devices.requests[0].firstAvailable[0].selectors[0].cel.expression:
                  device.attributes['gpu.example.com'].model == 'LATEST-GPU-MODEL'  →  error: no such key: model
                    device.attributes['gpu.example.com'].model  →  error raised here: no such key: model
                      device.attributes['gpu.example.com']  →  {"driverVersion": semver("1.3.0")}
                        device.attributes  →  {"gpu.example.com": {"driverVersion": semver("1.3.0")}}
            ResourceClaimTemplate big-gpu request gpu/any-new-driver (with DeviceClass gpu.example.com): 2 of 4 devices match
              gpu-0 (slice node-1-gpu.example.com): match
                explain DeviceClass gpu.example.com spec.selectors[0].cel.expression:
                  device.driver == 'gpu.example.com'  →  "gpu.example.com" == "gpu.example.com"  →  true
                    device.driver  →  "gpu.example.com"
                explain spec.spec.devices.requests[0].firstAvailable[1].selectors[0].cel.expression:
                  device.attributes['gpu.example.com'].driverVersion.isGreaterThan(semver('1.1.0'))  →  true
                    device.attributes['gpu.example.com'].driverVersion  →  semver("1.2.0")
                    semver('1.1.0')  →  semver("1.1.0")
                explain spec.spec.devices.requests[0].firstAvailable[1].selectors[1].cel.expression:
                  !has(device.attributes['vendor.example.com'].legacy) || !device.attributes['vendor.example.com'].legacy  →  true
                    !has(device.attributes['vendor.example.com'].legacy)  →  true
                      has(device.attributes['vendor.example.com'].legacy)  →  false
                    !device.attributes['vendor.example.com'].legacy  →  (not evaluated)
              gpu-1 (slice node-1-gpu.example.com): no match: spec.spec.devices.requests[0].firstAvailable[1].selectors[0].cel.expression is false
                explain DeviceClass gpu.example.com spec.selectors[0].cel.expression:
                  device.driver == 'gpu.example.com'  →  "gpu.example.com" == "gpu.example.com"  →  true
                    device.driver  →  "gpu.example.com"
                explain spec.spec.devices.requests[0].firstAvailable[1].selectors[0].cel.expression:
                  device.attributes['gpu.example.com'].driverVersion.isGreaterThan(semver('1.1.0'))  →  false
                    device.attributes['gpu.example.com'].driverVersion  →  semver("1.0.0")
                    semver('1.1.0')  →  semver("1.1.0")
              gpu-2 (slice node-1-gpu.example.com): no match: spec.spec.devices.requests[0].firstAvailable[1].selectors[1].cel.expression is false
                explain DeviceClass gpu.example.com spec.selectors[0].cel.expression:
                  device.driver == 'gpu.example.com'  →  "gpu.example.com" == "gpu.example.com"  →  true
                    device.driver  →  "gpu.example.com"
                explain spec.spec.devices.requests[0].firstAvailable[1].selectors[0].cel.expression:
                  device.attributes['gpu.example.com'].driverVersion.isGreaterThan(semver('1.1.0'))  →  true
                    device.attributes['gpu.example.com'].driverVersion  →  semver("1.3.0")
                    semver('1.1.0')  →  semver("1.1.0")
                explain spec.spec.devices.requests[0].firstAvailable[1].selectors[1].cel.expression:
                  !has(device.attributes['vendor.example.com'].legacy) || !device.attributes['vendor.example.com'].legacy  →  false || false  →  false
                    !has(device.attributes['vendor.example.com'].legacy)  →  false
                      has(device.attributes['vendor.example.com'].legacy)  →  true
                    !device.attributes['vendor.example.com'].legacy  →  false
                      device.attributes['vendor.example.com'].legacy  →  true
              gpu-3 (slice node-1-gpu.example.com): match
                explain DeviceClass gpu.example.com spec.selectors[0].cel.expression:
                  device.driver == 'gpu.example.com'  →  "gpu.example.com" == "gpu.example.com"  →  true
                    device.driver  →  "gpu.example.com"
                explain spec.spec.devices.requests[0].firstAvailable[1].selectors[0].cel.expression:
                  device.attributes['gpu.example.com'].driverVersion.isGreaterThan(semver('1.1.0'))  →  true
                    device.attributes['gpu.example.com'].driverVersion  →  semver("1.3.0")
                    semver('1.1.0')  →  semver("1.1.0")
                explain spec.spec.devices.requests[0].firstAvailable[1].selectors[1].cel.expression:
                  !has(device.attributes['vendor.example.com'].legacy) || !device.attributes['vendor.example.com'].legacy  →  true
                    !has(device.attributes['vendor.example.com'].legacy)  →  true
                      has(device.attributes['vendor.example.com'].legacy)  →  false
                    !device.attributes['vendor.example.com'].legacy  →  (not evaluated)
        "#]],
    );
}

#[test]
fn explain_dra_selector_stopped_by_the_cost_limit() {
    check_status(
        &[
            "eval",
            "tests/cli_fixtures/explain/dra-costly.yaml",
            "--object",
            DRA_SLICE,
            "--explain",
            "--exit-code",
        ],
        1,
        expect![[r#"
            DeviceClass costly.example.com: 0 of 1 devices match
              gpu-0 (slice node-1-gpu.example.com): error: spec.selectors[0].cel.expression: operation cancelled: actual cost limit exceeded
                explain spec.selectors[0].cel.expression:
                  [0,1,2,3,4,5,6,7,8,9].all(a, [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1…  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 0: a = 0)
                    [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                    [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1…  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 6: b = 6)
                      [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                      [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, a + …  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 0: c = 0)
                        [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                        [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, a + b + c + d + e + f >= 0)))  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 4: d = 4)
                          [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                          [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, a + b + c + d + e + f >= 0))  →  stopped here: operation cancelled: actual cost limit exceeded
                            [0,1,2,3,4,5,6,7,8,9]  →  stopped here: operation cancelled: actual cost limit exceeded
                            [0,1,2,3,4,5,6,7,8,9].all(f, a + b + c + d + e + f >= 0)  →  (not evaluated)
        "#]],
    );
}

#[test]
fn explain_dra_json_per_device() {
    check(
        &[
            "eval",
            DRA_CLAIMS,
            "--object",
            DRA_SLICE,
            "--policy",
            "gpu.example.com",
            "--format",
            "json",
            "--explain",
        ],
        expect![[r#"
            {
              "errors": [],
              "selectors": [
                {
                  "kind": "DeviceClass",
                  "name": "gpu.example.com",
                  "requests": [
                    {
                      "classSelectorsRun": null,
                      "deviceClassName": null,
                      "devices": [
                        {
                          "device": "gpu-0",
                          "error": null,
                          "explain": [
                            {
                              "expression": "device.driver == 'gpu.example.com'",
                              "label": "spec.selectors[0].cel.expression",
                              "trace": [
                                {
                                  "depth": 0,
                                  "end": 34,
                                  "operands": "\"gpu.example.com\" == \"gpu.example.com\"",
                                  "start": 0,
                                  "text": "device.driver == 'gpu.example.com'",
                                  "value": "true"
                                },
                                {
                                  "depth": 1,
                                  "end": 13,
                                  "start": 0,
                                  "text": "device.driver",
                                  "value": "\"gpu.example.com\""
                                }
                              ]
                            }
                          ],
                          "result": "match",
                          "selector": null,
                          "slice": "node-1-gpu.example.com"
                        }
                      ],
                      "request": null,
                      "selectors": [
                        "spec.selectors[0].cel.expression"
                      ]
                    }
                  ]
                }
              ]
            }
        "#]],
    );
}

const AUTHN_CLAIMS: &str = "tests/cli_fixtures/authn/claims.json";

#[test]
fn explain_authentication_mappings_and_rules() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/authn/authentication-config.yaml",
            "--object",
            AUTHN_CLAIMS,
            "--explain",
        ],
        expect![[r#"
            AuthenticationConfiguration (issuer https://issuer.example.com): authenticated
              username: oidc:jane
              uid: 119abc
              groups: [admin, dev]
              extra example.com/tenant: [blue]
              explain jwt[0].claimMappings.username.expression:
                "oidc:" + claims.username  →  "oidc:" + "jane"  →  "oidc:jane"
                  claims.username  →  "jane"
              explain jwt[0].claimMappings.groups.expression:
                claims.roles.split(",")  →  ["admin", "dev"]
                  claims.roles  →  "admin,dev"
              explain jwt[0].claimMappings.uid.expression:
                claims.sub  →  "119abc"
              explain jwt[0].claimMappings.extra[0].valueExpression:
                claims.tenant  →  "blue"
              explain jwt[0].claimValidationRules[0].expression:
                claims.hd == "example.com"  →  "example.com" == "example.com"  →  true
                  claims.hd  →  "example.com"
              explain jwt[0].claimValidationRules[1].expression:
                claims.exp - claims.nbf <= 86400  →  3600 <= 86400  →  true
                  claims.exp - claims.nbf  →  1700003600 - 1700000000  →  3600
                    claims.exp  →  1700003600
                    claims.nbf  →  1700000000
              explain jwt[0].userValidationRules[0].expression:
                !user.username.startsWith('system:')  →  true
                  user.username.startsWith('system:')  →  false
                    user.username  →  "oidc:jane"
              explain jwt[0].userValidationRules[1].expression:
                user.groups.all(group, !group.startsWith('system:'))  →  true  (last iteration: index 1: group = "dev")
                  user.groups  →  ["admin", "dev"]
                  !group.startsWith('system:')  →  true
                    group.startsWith('system:')  →  false
                      group  →  "dev"
        "#]],
    );
}

#[test]
fn explain_authentication_error_raised_mid_expression() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/explain/authn-error.yaml",
            "--object",
            AUTHN_CLAIMS,
            "--explain",
        ],
        expect![[r#"
            AuthenticationConfiguration: refused: oidc: error evaluating claim validation expression: expression 'claims.hd == "example.com" && claims.email.endsWith("@example.com")' resulted in error: no such key: email
              explain jwt[0].claimMappings.username.expression:
                "oidc:" + claims.username  →  "oidc:" + "jane"  →  "oidc:jane"
                  claims.username  →  "jane"
              explain jwt[0].claimValidationRules[0].expression:
                claims.exp - claims.nbf <= 86400  →  3600 <= 86400  →  true
                  claims.exp - claims.nbf  →  1700003600 - 1700000000  →  3600
                    claims.exp  →  1700003600
                    claims.nbf  →  1700000000
              explain jwt[0].claimValidationRules[1].expression:
                claims.hd == "example.com" && claims.email.endsWith("@example.com")  →  error: no such key: email
                  claims.hd == "example.com"  →  "example.com" == "example.com"  →  true
                    claims.hd  →  "example.com"
                  claims.email.endsWith("@example.com")  →  error: no such key: email
                    claims.email  →  error raised here: no such key: email
                      claims  →  {"aud": "my-app", "exp": 1700003600, "hd": "example.com", "iss": "https://issuer…
        "#]],
    );
}

#[test]
fn explain_authentication_stopped_by_the_cost_limit() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/explain/authn-costly.yaml",
            "--object",
            AUTHN_CLAIMS,
            "--explain",
        ],
        expect![[r#"
            AuthenticationConfiguration: refused: oidc: error evaluating user info validation rule: expression '[0,1,2,3,4,5,6,7,8,9].all(a, [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, user.groups.size() + a + b + c + d + e + f >= 0))))))' resulted in error: operation cancelled: actual cost limit exceeded (admission-ls stops at a cost of 1000000; the API server sets no cost limit on these expressions)
              explain jwt[0].claimMappings.username.expression:
                "oidc:" + claims.username  →  "oidc:" + "jane"  →  "oidc:jane"
                  claims.username  →  "jane"
              explain jwt[0].claimMappings.groups.expression:
                claims.roles.split(",")  →  ["admin", "dev"]
                  claims.roles  →  "admin,dev"
              explain jwt[0].userValidationRules[0].expression:
                [0,1,2,3,4,5,6,7,8,9].all(a, [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1…  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 0: a = 0)
                  [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                  [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1…  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 4: b = 4)
                    [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                    [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, user…  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 8: c = 8)
                      [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                      [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, user.groups.size() + a + b + c + …  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 6: d = 6)
                        [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                        [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, user.groups.size() + a + b + c + d + e + f >= 0))  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 4: e = 4)
                          [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                          [0,1,2,3,4,5,6,7,8,9].all(f, user.groups.size() + a + b + c + d + e + f >= 0)  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 7: f = 7)
                            [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                            user.groups.size() + a + b + c + d + e + f >= 0  →  stopped here: operation cancelled: actual cost limit exceeded
                              user.groups.size() + a + b + c + d + e + f  →  stopped here: operation cancelled: actual cost limit exceeded
                                user.groups.size() + a + b + c + d + e  →  stopped here: operation cancelled: actual cost limit exceeded
                                  user.groups.size() + a + b + c + d  →  stopped here: operation cancelled: actual cost limit exceeded
                                    user.groups.size() + a + b + c  →  stopped here: operation cancelled: actual cost limit exceeded
                                      user.groups.size() + a + b  →  stopped here: operation cancelled: actual cost limit exceeded
                                        user.groups.size() + a  →  stopped here: operation cancelled: actual cost limit exceeded
                                          user.groups.size()  →  stopped here: operation cancelled: actual cost limit exceeded
                                            user.groups  →  stopped here: operation cancelled: actual cost limit exceeded
                                              user  →  {"username": "oidc:jane", "uid": "", "groups": ["admin", "dev"], "extra": {}}
                                          a  →  (not evaluated)
                                        b  →  (not evaluated)
                                      c  →  (not evaluated)
                                    d  →  (not evaluated)
                                  e  →  (not evaluated)
                                f  →  (not evaluated)
                              0  →  (not evaluated)
        "#]],
    );
}

#[test]
fn explain_authentication_json() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/explain/authn-error.yaml",
            "--object",
            AUTHN_CLAIMS,
            "--format",
            "json",
            "--explain",
        ],
        expect![[r#"
            {
              "authenticated": false,
              "error": "oidc: error evaluating claim validation expression: expression 'claims.hd == \"example.com\" && claims.email.endsWith(\"@example.com\")' resulted in error: no such key: email",
              "explain": [
                {
                  "expression": "\"oidc:\" + claims.username",
                  "label": "jwt[0].claimMappings.username.expression",
                  "trace": [
                    {
                      "depth": 0,
                      "end": 25,
                      "operands": "\"oidc:\" + \"jane\"",
                      "start": 0,
                      "text": "\"oidc:\" + claims.username",
                      "value": "\"oidc:jane\""
                    },
                    {
                      "depth": 1,
                      "end": 25,
                      "start": 10,
                      "text": "claims.username",
                      "value": "\"jane\""
                    }
                  ]
                },
                {
                  "expression": "claims.exp - claims.nbf <= 86400",
                  "label": "jwt[0].claimValidationRules[0].expression",
                  "trace": [
                    {
                      "depth": 0,
                      "end": 32,
                      "operands": "3600 <= 86400",
                      "start": 0,
                      "text": "claims.exp - claims.nbf <= 86400",
                      "value": "true"
                    },
                    {
                      "depth": 1,
                      "end": 23,
                      "operands": "1700003600 - 1700000000",
                      "start": 0,
                      "text": "claims.exp - claims.nbf",
                      "value": "3600"
                    },
                    {
                      "depth": 2,
                      "end": 10,
                      "start": 0,
                      "text": "claims.exp",
                      "value": "1700003600"
                    },
                    {
                      "depth": 2,
                      "end": 23,
                      "start": 13,
                      "text": "claims.nbf",
                      "value": "1700000000"
                    }
                  ]
                },
                {
                  "expression": "claims.hd == \"example.com\" && claims.email.endsWith(\"@example.com\")",
                  "label": "jwt[0].claimValidationRules[1].expression",
                  "trace": [
                    {
                      "depth": 0,
                      "end": 67,
                      "error": "no such key: email",
                      "start": 0,
                      "text": "claims.hd == \"example.com\" && claims.email.endsWith(\"@example.com\")"
                    },
                    {
                      "depth": 1,
                      "end": 26,
                      "operands": "\"example.com\" == \"example.com\"",
                      "start": 0,
                      "text": "claims.hd == \"example.com\"",
                      "value": "true"
                    },
                    {
                      "depth": 2,
                      "end": 9,
                      "start": 0,
                      "text": "claims.hd",
                      "value": "\"example.com\""
                    },
                    {
                      "depth": 1,
                      "end": 67,
                      "error": "no such key: email",
                      "start": 30,
                      "text": "claims.email.endsWith(\"@example.com\")"
                    },
                    {
                      "depth": 2,
                      "end": 42,
                      "raised": "no such key: email",
                      "start": 30,
                      "text": "claims.email"
                    },
                    {
                      "depth": 3,
                      "end": 36,
                      "start": 30,
                      "text": "claims",
                      "value": "{\"aud\": \"my-app\", \"exp\": 1700003600, \"hd\": \"example.com\", \"iss\": \"https://issuer…"
                    }
                  ]
                }
              ]
            }
        "#]],
    );
}

#[test]
fn explain_crd_rules_error_and_cost_limit() {
    check_status(
        &[
            "validate",
            "tests/cli_fixtures/explain/gizmo.yaml",
            "--crd",
            "tests/cli_fixtures/explain/gizmos.crd.yaml",
            "--explain",
        ],
        1,
        expect![[r#"
            Gizmo/g1 (CREATE): invalid (2 errors)
              spec: Invalid value: no such key: cpu evaluating rule: self.limits['cpu'] <= 4
              spec: Invalid value: 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: [0,1,2,3,4,5,6,7,8,9].all(a, [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, a + b + c + d + e + f >= 0))))))
              explain spec x-kubernetes-validations[0].rule:
                self.limits['cpu'] <= 4  →  error: no such key: cpu
                  self.limits['cpu']  →  error raised here: no such key: cpu
                    self.limits  →  {"memory": 2}
              explain spec x-kubernetes-validations[1].rule:
                !has(self.replicas) || self.replicas >= 1  →  false || true  →  true
                  !has(self.replicas)  →  false
                    has(self.replicas)  →  true
                  self.replicas >= 1  →  3 >= 1  →  true
                    self.replicas  →  3
              explain spec x-kubernetes-validations[2].rule:
                [0,1,2,3,4,5,6,7,8,9].all(a, [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1…  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 0: a = 0)
                  [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                  [0,1,2,3,4,5,6,7,8,9].all(b, [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1…  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 6: b = 6)
                    [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                    [0,1,2,3,4,5,6,7,8,9].all(c, [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, a + …  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 0: c = 0)
                      [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                      [0,1,2,3,4,5,6,7,8,9].all(d, [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, a + b + c + d + e + f >= 0)))  →  stopped here: operation cancelled: actual cost limit exceeded  (last iteration: index 4: d = 4)
                        [0,1,2,3,4,5,6,7,8,9]  →  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                        [0,1,2,3,4,5,6,7,8,9].all(e, [0,1,2,3,4,5,6,7,8,9].all(f, a + b + c + d + e + f >= 0))  →  stopped here: operation cancelled: actual cost limit exceeded
                          [0,1,2,3,4,5,6,7,8,9]  →  stopped here: operation cancelled: actual cost limit exceeded
                          [0,1,2,3,4,5,6,7,8,9].all(f, a + b + c + d + e + f >= 0)  →  (not evaluated)
        "#]],
    );
}

#[test]
fn explain_crd_rules_json_with_message_expression() {
    check_status(
        &[
            "validate",
            "tests/cli_fixtures/validate/widget.yaml",
            "--crd",
            "tests/cli_fixtures/validate/widgets.crd.yaml",
            "--format",
            "json",
            "--explain",
        ],
        1,
        expect![[r#"
            {
              "apiVersion": "example.com/v1",
              "defaulted": [
                "spec.mode"
              ],
              "errors": [
                {
                  "field": "spec.tags[2]",
                  "message": "spec.tags[2]: Duplicate value: \"a\"",
                  "type": "FieldValueDuplicate"
                },
                {
                  "field": "spec.size",
                  "message": "spec.size: Invalid value: size 7 needs mode slow",
                  "type": "FieldValueInvalid"
                },
                {
                  "field": "spec",
                  "message": "spec: Forbidden: admin is reserved",
                  "type": "FieldValueForbidden"
                }
              ],
              "explain": [
                {
                  "expression": "self.size <= 5 || self.mode == 'slow'",
                  "label": "spec x-kubernetes-validations[0].rule",
                  "trace": [
                    {
                      "depth": 0,
                      "end": 37,
                      "operands": "false || false",
                      "start": 0,
                      "text": "self.size <= 5 || self.mode == 'slow'",
                      "value": "false"
                    },
                    {
                      "depth": 1,
                      "end": 14,
                      "operands": "7 <= 5",
                      "start": 0,
                      "text": "self.size <= 5",
                      "value": "false"
                    },
                    {
                      "depth": 2,
                      "end": 9,
                      "start": 0,
                      "text": "self.size",
                      "value": "7"
                    },
                    {
                      "depth": 1,
                      "end": 37,
                      "operands": "\"fast\" == \"slow\"",
                      "start": 18,
                      "text": "self.mode == 'slow'",
                      "value": "false"
                    },
                    {
                      "depth": 2,
                      "end": 27,
                      "start": 18,
                      "text": "self.mode",
                      "value": "\"fast\""
                    }
                  ]
                },
                {
                  "expression": "'size ' + string(self.size) + ' needs mode slow'",
                  "label": "spec x-kubernetes-validations[0].messageExpression",
                  "trace": [
                    {
                      "depth": 0,
                      "end": 48,
                      "operands": "\"size 7\" + \" needs mode slow\"",
                      "start": 0,
                      "text": "'size ' + string(self.size) + ' needs mode slow'",
                      "value": "\"size 7 needs mode slow\""
                    },
                    {
                      "depth": 1,
                      "end": 27,
                      "operands": "\"size \" + \"7\"",
                      "start": 0,
                      "text": "'size ' + string(self.size)",
                      "value": "\"size 7\""
                    },
                    {
                      "depth": 2,
                      "end": 27,
                      "start": 10,
                      "text": "string(self.size)",
                      "value": "\"7\""
                    },
                    {
                      "depth": 3,
                      "end": 26,
                      "start": 17,
                      "text": "self.size",
                      "value": "7"
                    }
                  ]
                },
                {
                  "expression": "!has(self.name) || self.name != 'admin'",
                  "label": "spec x-kubernetes-validations[1].rule",
                  "trace": [
                    {
                      "depth": 0,
                      "end": 39,
                      "operands": "false || false",
                      "start": 0,
                      "text": "!has(self.name) || self.name != 'admin'",
                      "value": "false"
                    },
                    {
                      "depth": 1,
                      "end": 15,
                      "start": 0,
                      "text": "!has(self.name)",
                      "value": "false"
                    },
                    {
                      "depth": 2,
                      "end": 15,
                      "start": 1,
                      "text": "has(self.name)",
                      "value": "true"
                    },
                    {
                      "depth": 1,
                      "end": 39,
                      "operands": "\"admin\" != \"admin\"",
                      "start": 19,
                      "text": "self.name != 'admin'",
                      "value": "false"
                    },
                    {
                      "depth": 2,
                      "end": 28,
                      "start": 19,
                      "text": "self.name",
                      "value": "\"admin\""
                    }
                  ]
                }
              ],
              "kind": "Widget",
              "name": "w1",
              "object": {
                "apiVersion": "example.com/v1",
                "kind": "Widget",
                "metadata": {
                  "creationTimestamp": null,
                  "name": "w1"
                },
                "spec": {
                  "mode": "fast",
                  "name": "admin",
                  "ports": [
                    {
                      "name": "http",
                      "port": 81
                    }
                  ],
                  "size": 7,
                  "tags": [
                    "a",
                    "b",
                    "a"
                  ]
                }
              },
              "operation": "CREATE",
              "pruned": [
                "spec.extra"
              ],
              "valid": false
            }
        "#]],
    );
}

#[test]
fn test_verbose_explains_a_failing_custom_resource_case() {
    check_status(
        &[
            "test",
            "tests/cli_fixtures/explain/widgets-flipped.test.yaml",
            "-v",
        ],
        1,
        expect![[r#"
            tests/cli_fixtures/explain/widgets-flipped.test.yaml (widgets-flipped)
              ok    a valid widget (…ms)
              FAIL  a big widget is expected valid (…ms)
                    expected valid, got invalid: spec.size: Invalid value: size 7 needs mode slow
                    explain spec x-kubernetes-validations[0].rule:
                      self.size <= 5 || self.mode == 'slow'  →  false || false  →  false
                        self.size <= 5  →  7 <= 5  →  false
                          self.size  →  7
                        self.mode == 'slow'  →  "fast" == "slow"  →  false
                          self.mode  →  "fast"
                    explain spec x-kubernetes-validations[0].messageExpression:
                      'size ' + string(self.size) + ' needs mode slow'  →  "size 7" + " needs mode slow"  →  "size 7 needs mode slow"
                        'size ' + string(self.size)  →  "size " + "7"  →  "size 7"
                          string(self.size)  →  "7"
                            self.size  →  7
                    explain spec x-kubernetes-validations[1].rule:
                      !has(self.name) || self.name != 'admin'  →  true
                        !has(self.name)  →  true
                          has(self.name)  →  false
                        self.name != 'admin'  →  (not evaluated)
            1 passed, 1 failed in …ms
        "#]],
    );
}

const KYVERNO_MORE: &str = "tests/cli_fixtures/explain/kyverno-more.yaml";

fn explain_more(policy: &str, format: &[&str], expected: Expect) {
    let args = ["eval", KYVERNO_MORE, "--policy", policy, "--object", POD];
    check(&[&args[..], format, &["--explain"]].concat(), expected);
}

#[test]
fn explain_kyverno_generating_policy() {
    explain_more(
        "pod-settings",
        &[],
        expect![[r#"
            GeneratingPolicy pod-settings: pass
              decision: allow
              message: policy evaluated successfully
              generated: 1 resource(s)
                {
                  "apiVersion": "v1",
                  "data": {
                    "containers": "2"
                  },
                  "kind": "ConfigMap",
                  "metadata": {
                    "name": "web-settings",
                    "namespace": "shop"
                  }
                }
              explain matchCondition in-shop:
                object.metadata.namespace == 'shop'  →  "shop" == "shop"  →  true
                  object.metadata.namespace  →  "shop"
              explain variables.target:
                object.metadata.name + '-settings'  →  "web" + "-settings"  →  "web-settings"
                  object.metadata.name  →  "web"
              explain generate[0]:
                generator.Apply(object.metadata.namespace, [{"apiVersion": dyn("v1"), "kind": dyn("ConfigMap"), "metadata": dyn({"name":…  →  true
                  object.metadata.namespace  →  "shop"
                  [{"apiVersion": dyn("v1"), "kind": dyn("ConfigMap"), "metadata": dyn({"name": variables.target}), "data": dyn({"containe…  →  [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "web-settings"},…
                    {"apiVersion": dyn("v1"), "kind": dyn("ConfigMap"), "metadata": dyn({"name": variables.target}), "data": dyn({"container…  →  {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "web-settings"}, …
                      dyn("v1")  →  "v1"
                      dyn("ConfigMap")  →  "ConfigMap"
                      dyn({"name": variables.target})  →  {"name": "web-settings"}
                        {"name": variables.target}  →  {"name": "web-settings"}
                          variables.target  →  "web-settings"
                      dyn({"containers": string(size(object.spec.containers))})  →  {"containers": "2"}
                        {"containers": string(size(object.spec.containers))}  →  {"containers": "2"}
                          string(size(object.spec.containers))  →  "2"
                            size(object.spec.containers)  →  2
                              object.spec.containers  →  [{"image": "registry.example/app:1.2", "name": "app"}, {"image": "registry.examp…
        "#]],
    );
}

#[test]
fn explain_kyverno_generating_error_in_a_subexpression() {
    explain_more(
        "pod-owner",
        &[],
        expect![[r#"
            GeneratingPolicy pod-owner: error
              decision: error
              message: failed to evaluate policy: no such key: labels
              explain generate[0]:
                generator.Apply(object.metadata.namespace, [{"apiVersion": dyn("v1"), "kind": dyn("ConfigMap"), "metadata": dyn({"name":…  →  error: no such key: labels
                  object.metadata.namespace  →  "shop"
                  [{"apiVersion": dyn("v1"), "kind": dyn("ConfigMap"), "metadata": dyn({"name": object.metadata.labels.owner})}]  →  error: no such key: labels
                    {"apiVersion": dyn("v1"), "kind": dyn("ConfigMap"), "metadata": dyn({"name": object.metadata.labels.owner})}  →  error: no such key: labels
                      dyn("v1")  →  "v1"
                      dyn("ConfigMap")  →  "ConfigMap"
                      dyn({"name": object.metadata.labels.owner})  →  error: no such key: labels
                        {"name": object.metadata.labels.owner}  →  error: no such key: labels
                          object.metadata.labels.owner  →  error: no such key: labels
                            object.metadata.labels  →  error raised here: no such key: labels
                              object.metadata  →  {"name": "web", "namespace": "shop"}
        "#]],
    );
}

#[test]
fn explain_kyverno_deleting_policy_would_delete() {
    explain_more(
        "untagged-pods",
        &[],
        expect![[r#"
        DeletingPolicy untagged-pods: pass
          decision: delete
          message: resource matched
          note: schedule: @hourly (the cleanup controller deletes what matches at those times; offline, each object given is judged once)
          explain condition in-shop:
            object.metadata.namespace == 'shop'  →  "shop" == "shop"  →  true
              object.metadata.namespace  →  "shop"
          explain condition some-untagged:
            object.spec.containers.exists(c, !c.image.contains(':'))  →  true  (last iteration: index 1: c = {"image": "registry.example/proxy", "name": "proxy"})
              object.spec.containers  →  [{"image": "registry.example/app:1.2", "name": "app"}, {"image": "registry.examp…
              !c.image.contains(':')  →  true
                c.image.contains(':')  →  false
                  c.image  →  "registry.example/proxy"
    "#]],
    );
}

#[test]
fn explain_kyverno_deleting_json_with_an_error_in_a_condition() {
    explain_more(
        "old-pods",
        &["--format", "json"],
        expect![[r#"
        [
          {
            "decision": "error",
            "explain": [
              {
                "expression": "object.metadata.namespace == 'shop'",
                "label": "condition in-shop",
                "trace": [
                  {
                    "depth": 0,
                    "end": 35,
                    "operands": "\"shop\" == \"shop\"",
                    "start": 0,
                    "text": "object.metadata.namespace == 'shop'",
                    "value": "true"
                  },
                  {
                    "depth": 1,
                    "end": 25,
                    "start": 0,
                    "text": "object.metadata.namespace",
                    "value": "\"shop\""
                  }
                ]
              },
              {
                "expression": "object.metadata.labels.age > 30",
                "label": "condition old",
                "trace": [
                  {
                    "depth": 0,
                    "end": 31,
                    "error": "no such key: labels",
                    "start": 0,
                    "text": "object.metadata.labels.age > 30"
                  },
                  {
                    "depth": 1,
                    "end": 26,
                    "error": "no such key: labels",
                    "start": 0,
                    "text": "object.metadata.labels.age"
                  },
                  {
                    "depth": 2,
                    "end": 22,
                    "raised": "no such key: labels",
                    "start": 0,
                    "text": "object.metadata.labels"
                  },
                  {
                    "depth": 3,
                    "end": 15,
                    "start": 0,
                    "text": "object.metadata",
                    "value": "{\"name\": \"web\", \"namespace\": \"shop\"}"
                  }
                ]
              }
            ],
            "kind": "DeletingPolicy",
            "message": "no such key: labels",
            "notes": [
              "schedule: @hourly (the cleanup controller deletes what matches at those times; offline, each object given is judged once)"
            ],
            "policy": "old-pods",
            "result": "error"
          }
        ]
    "#]],
    );
}

#[test]
fn explain_kyverno_image_validating_policy() {
    explain_more(
        "registry-images",
        &[],
        expect![[r#"
        ImageValidatingPolicy registry-images: fail
          decision: deny
          message: untagged: registry.example/proxy
          validationActions: Deny
          explain matchCondition in-shop:
            object.metadata.namespace == 'shop'  →  "shop" == "shop"  →  true
              object.metadata.namespace  →  "shop"
          explain images containers:
            (object != null ? object : oldObject).spec.?containers.orValue([]).map(e, e.image)  →  ["registry.example/app:1.2", "registry.example/proxy"]  (last iteration: index 1: e = {"image": "registry.example/proxy", "name": "proxy"})
              (object != null ? object : oldObject).spec.?containers.orValue([])  →  [{"image": "registry.example/app:1.2", "name": "app"}, {"image": "registry.examp…
                (object != null ? object : oldObject).spec.?containers  →  optional.of([{"image": "registry.example/app:1.2", "name": "app"}, {"image": "re…
                []  →  []
              e.image  →  "registry.example/proxy"
          explain matchImageReferences[0] registry.example/app:1.2:
            ref.startsWith('registry.example/')  →  true
              ref  →  "registry.example/app:1.2"
          explain matchImageReferences[0] registry.example/proxy:
            ref.startsWith('registry.example/')  →  true
              ref  →  "registry.example/proxy"
          explain images initContainers:
            (object != null ? object : oldObject).spec.?initContainers.orValue([]).map(e, e.image)  →  []
              (object != null ? object : oldObject).spec.?initContainers.orValue([])  →  []
                (object != null ? object : oldObject).spec.?initContainers  →  optional.none()
                []  →  []
              e.image  →  (not evaluated)
          explain images ephemeralContainers:
            (object != null ? object : oldObject).spec.?ephemeralContainers.orValue([]).map(e, e.image)  →  []
              (object != null ? object : oldObject).spec.?ephemeralContainers.orValue([])  →  []
                (object != null ? object : oldObject).spec.?ephemeralContainers  →  optional.none()
                []  →  []
              e.image  →  (not evaluated)
          explain validation[0]:
            images.containers.all(i, i.contains(':'))  →  false  (last iteration: index 1: i = "registry.example/proxy")
              images.containers  →  ["registry.example/app:1.2", "registry.example/proxy"]
              i.contains(':')  →  false
                i  →  "registry.example/proxy"
          explain messageExpression[0]:
            'untagged: ' + images.containers.filter(i, !i.contains(':')).join(', ')  →  "untagged: " + "registry.example/proxy"  →  "untagged: registry.example/proxy"
              images.containers.filter(i, !i.contains(':')).join(', ')  →  "registry.example/proxy"
                images.containers.filter(i, !i.contains(':'))  →  ["registry.example/proxy"]  (last iteration: index 1: i = "registry.example/proxy")
                  images.containers  →  ["registry.example/app:1.2", "registry.example/proxy"]
                  !i.contains(':')  →  true
                    i.contains(':')  →  false
                      i  →  "registry.example/proxy"
    "#]],
    );
}

#[test]
fn test_verbose_explains_a_failing_deleting_row() {
    let args = ["test", "tests/suites/kyverno_delete_flipped", "-v"];
    check_status(
        &args,
        1,
        expect![[r#"
        tests/suites/kyverno_delete_flipped/kyverno-test.yaml (delete-flipped)
          FAIL  expired-previews Deployment/preview-web: fail (…ms)
                Deployment/preview-web: want fail, got pass: resource matched
                explain variables.labels:
                  object.metadata.?labels.orValue({})  →  {"env": "preview"}
                    object.metadata.?labels  →  optional.of({"env": "preview"})
                    {}  →  {}
                explain condition is-preview:
                  variables.labels.?env.orValue('') == 'preview'  →  "preview" == "preview"  →  true
                    variables.labels.?env.orValue('')  →  "preview"
                      variables.labels.?env  →  optional.of("preview")
                explain condition in-a-team-namespace:
                  namespaceObject.metadata.name.startsWith('team-')  →  true
                    namespaceObject.metadata.name  →  "team-a"
          FAIL  expired-previews Deployment/prod-web: pass (…ms)
                Deployment/prod-web: want pass, got fail: resource did not match: condition 'is-preview' is false
                explain variables.labels:
                  object.metadata.?labels.orValue({})  →  {"env": "prod"}
                    object.metadata.?labels  →  optional.of({"env": "prod"})
                    {}  →  {}
                explain condition is-preview:
                  variables.labels.?env.orValue('') == 'preview'  →  "prod" == "preview"  →  false
                    variables.labels.?env.orValue('')  →  "prod"
                      variables.labels.?env  →  optional.of("prod")
          FAIL  expired-previews Namespace/scratch: pass (…ms)
                Namespace/scratch: not found: the policy does not apply to it (want pass)
          ERROR empty-namespaces Namespace/(every resource): pass (…ms)
                the result names no resources: Kyverno's CLI judges it on every resource, which admission-ls does not do yet (name them in `resources`)
        0 passed, 3 failed, 1 errored in …ms
    "#]],
    );
}
