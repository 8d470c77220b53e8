//! `eval --explain` end to end: the trace of every expression an evaluation ran, as text and as
//! JSON: comparisons with their operands' values, short-circuits and ternary branches that never
//! ran, `all`/`exists` with the element they ended on, variables, an error with the node that
//! raised it, and where an expression that ran out of cost stopped; `test -v` prints the trace
//! of a failing case.

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
