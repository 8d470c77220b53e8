//! `eval --explain` end to end: the trace of every expression an evaluation ran, as text and as
//! JSON: comparisons with their operands' values, short-circuits and ternary branches that never
//! ran, `all`/`exists` with the element they ended on, variables, an error with the node that
//! raised it, and where an expression that ran out of cost stopped; `test -v` prints the trace
//! of a failing case. The same for Kyverno's ValidatingPolicy and MutatingPolicy (`eval`, text and
//! JSON, and a failing row of a `kyverno-test.yaml` suite), for its GeneratingPolicy (each
//! `generate` expression), DeletingPolicy (each condition, the delete or keep decision) and
//! ImageValidatingPolicy (the images, `matchImageReferences` per image, the validations), and for Gatekeeper's
//! K8sNativeValidation templates (`eval` with the Constraint as params, a failing gator case).

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
              generator  →  (not evaluated)
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
              generator  →  (not evaluated)
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
