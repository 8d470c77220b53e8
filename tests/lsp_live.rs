//! Live verdicts end to end over stdio: a policy's modeline names sample objects; after the
//! diagnostics of each edit (never before them), the server evaluates the policy, asks the client
//! to refresh its inlay hints, and answers `textDocument/inlayHint` with the result after each
//! validation and mutation and at the modeline, the trace as the tooltip (a Kyverno
//! MutatingPolicy's mutations and a DeletingPolicy's conditions too). Bad samples (missing,
//! unparsable, not matched) are named at the modeline; `liveVerdicts: false` turns it off.
//! An expression error and an exhausted cost budget show as `⚠ error` with the trace of where
//! they stopped. A sample or a suite edited in the editor or changed on disk runs the verdicts of the open
//! policies that read it again, and a suite created or deleted on disk joins or leaves them. A DRA
//! claim's modeline names ResourceSlices, an AuthenticationConfiguration's a token's claims.

#[path = "support/lsp_client.rs"]
mod lsp_client;
#[path = "support/tempdir.rs"]
mod tempdir;

use std::time::Duration;

use lsp_client::{Client, file_uri};
use serde_json::{Value, json};
use tempdir::TempDir;

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

const POLICY: &str = "\
# admission-ls: object=samples/small.yaml object=samples/big.yaml
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: object.spec.replicas <= 5
    message: at most 5 replicas
";

const SMALL: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: small, namespace: n}\nspec: {replicas: 2}\n";
const BIG: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: big, namespace: n}\nspec: {replicas: 9}\n";

const REFRESH: &str = "workspace/inlayHint/refresh";

fn capabilities() -> Value {
    json!({"workspace": {"inlayHint": {"refreshSupport": true}}})
}

fn open(client: &mut Client, uri: &str, text: &str) {
    let document = json!({"uri": uri, "languageId": "yaml", "version": 1, "text": text});
    client.notify("textDocument/didOpen", json!({"textDocument": document}));
}

fn refreshes(client: &Client) -> usize {
    let of_refresh = |r: &&Value| r["method"] == REFRESH;
    client.server_requests.iter().filter(of_refresh).count()
}

/// Waits until the server has asked for more than `seen` inlay hint refreshes.
fn wait_refresh(client: &mut Client, seen: usize) {
    let deadline = std::time::Instant::now() + lsp_client::TIMEOUT;
    while refreshes(client) <= seen {
        assert!(std::time::Instant::now() < deadline, "no {REFRESH}");
        // The messages read meanwhile are not needed: each test waits for its diagnostics first.
        let _ = client.next_within(Duration::from_millis(100));
    }
}

/// Waits until the server has been quiet for a while: no run of an earlier version (a re-check
/// after the workspace scan) is left to send a refresh.
fn settle(client: &mut Client) {
    while client.next_within(Duration::from_millis(600)).is_some() {}
}

/// Opens `uri` with `text` in a fresh session and returns the verdicts of its first run, once
/// its diagnostics are out and the first refresh came.
fn first_verdicts(client: &mut Client, uri: &str, text: &str) -> (Vec<String>, Vec<String>) {
    open(client, uri, text);
    client.diagnostics_at(uri, 1);
    wait_refresh(client, 0);
    verdicts(client, uri)
}

/// Every inlay hint of `uri` whose label is not a type or cost: `line:label`, and the tooltips.
fn verdicts(client: &mut Client, uri: &str) -> (Vec<String>, Vec<String>) {
    let whole = json!({"start": {"line": 0, "character": 0}, "end": {"line": 999, "character": 0}});
    let answer = client.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": uri}, "range": whole}),
    );
    let hints = answer["result"].as_array().cloned().unwrap_or_default();
    let live = hints.iter().filter(|h| h.get("tooltip").is_some());
    let mut labels = Vec::new();
    let mut tooltips = Vec::new();
    for hint in live {
        let label = hint["label"].as_str().unwrap_or("");
        labels.push(format!("{}:{label}", hint["position"]["line"]));
        tooltips.push(hint["tooltip"]["value"].as_str().unwrap_or("").to_string());
    }
    (labels, tooltips)
}

fn start(dir: &TempDir, options: Value) -> (Client, String) {
    let policy = dir.write("policy.yaml", POLICY);
    dir.write("samples/small.yaml", SMALL);
    dir.write("samples/big.yaml", BIG);
    let mut client = Client::spawn(BINARY);
    client.initialize(capabilities(), json!(file_uri(dir.path())), options);
    let uri = file_uri(&policy);
    (client, uri)
}

#[test]
fn each_validation_shows_the_verdict_of_each_sample_with_its_trace() {
    let dir = TempDir::new("live-verdicts");
    let (mut client, uri) = start(&dir, Value::Null);
    let (labels, tooltips) = first_verdicts(&mut client, &uri, POLICY);
    assert_eq!(
        labels,
        [
            "0: samples/small.yaml: ✓ allow  ·  samples/big.yaml: ✗ deny: at most 5 replicas",
            "9: samples/small.yaml: ✓ allow  ·  samples/big.yaml: ✗ deny: at most 5 replicas",
        ]
    );
    assert!(
        tooltips[1].contains("object.spec.replicas <= 5  →  9 <= 5  →  false"),
        "{}",
        tooltips[1]
    );
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn an_edit_publishes_its_diagnostics_before_its_verdicts() {
    let dir = TempDir::new("live-order");
    let (mut client, uri) = start(&dir, Value::Null);
    open(&mut client, &uri, POLICY);
    client.diagnostics_at(&uri, 1);
    wait_refresh(&mut client, 0);
    settle(&mut client);
    let seen = refreshes(&client);
    let edited = POLICY.replace("<= 5", "<= 10");
    let change = json!({"textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"text": edited}]});
    client.notify("textDocument/didChange", change);
    client.diagnostics_at(&uri, 2);
    assert_eq!(
        refreshes(&client),
        seen,
        "a refresh came before the diagnostics"
    );
    wait_refresh(&mut client, seen);
    let (labels, _) = verdicts(&mut client, &uri);
    assert_eq!(
        labels,
        [
            "0: samples/small.yaml: ✓ allow  ·  samples/big.yaml: ✓ allow",
            "9: samples/small.yaml: ✓ allow  ·  samples/big.yaml: ✓ allow",
        ]
    );
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn a_burst_of_edits_is_evaluated_once_for_its_last_version() {
    let dir = TempDir::new("live-burst");
    let (mut client, uri) = start(&dir, Value::Null);
    open(&mut client, &uri, POLICY);
    client.diagnostics_at(&uri, 1);
    wait_refresh(&mut client, 0);
    settle(&mut client);
    let seen = refreshes(&client);
    for (version, limit) in [(2, 6), (3, 7), (4, 8), (5, 9)] {
        let edited = POLICY.replace("<= 5", &format!("<= {limit}"));
        let change = json!({"textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": edited}]});
        client.notify("textDocument/didChange", change);
    }
    client.diagnostics_at(&uri, 5);
    wait_refresh(&mut client, seen);
    let (labels, _) = verdicts(&mut client, &uri);
    assert_eq!(
        labels[1],
        "9: samples/small.yaml: ✓ allow  ·  samples/big.yaml: ✓ allow"
    );
    // Nothing else comes: the older versions' runs ended in nothing.
    settle(&mut client);
    assert_eq!(refreshes(&client), seen + 1);
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn bad_samples_are_named_at_the_modeline() {
    let dir = TempDir::new("live-bad");
    let (mut client, uri) = start(&dir, Value::Null);
    dir.write("samples/broken.yaml", "kind: [\n");
    dir.write(
        "samples/pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: n}\n",
    );
    let text = POLICY.replace(
        "object=samples/small.yaml object=samples/big.yaml",
        "object=samples/gone.yaml object=samples/broken.yaml object=samples/pod.yaml",
    );
    open(&mut client, &uri, &text);
    client.diagnostics_at(&uri, 1);
    wait_refresh(&mut client, 0);
    let (labels, _) = verdicts(&mut client, &uri);
    assert_eq!(labels.len(), 1, "{labels:?}");
    let parts: Vec<&str> = labels[0].split("  ·  ").collect();
    assert!(
        parts[0].starts_with("0: samples/gone.yaml: ⚠ object=samples/gone.yaml: "),
        "{parts:?}"
    );
    assert!(
        parts[1].starts_with(
            "samples/broken.yaml: ⚠ object=samples/broken.yaml: does not parse: YAML syntax error"
        ),
        "{parts:?}"
    );
    assert_eq!(
        parts[2],
        "samples/pod.yaml: skip: the object is not matched (matchConstraints or the binding's matchResources)"
    );
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn a_mutation_shows_the_fields_it_changed() {
    let dir = TempDir::new("live-mutation");
    let (mut client, _) = start(&dir, Value::Null);
    let text = "\
# admission-ls: object=samples/small.yaml
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: label}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: \"Object{spec: Object.spec{replicas: 3}}\"
";
    let uri = file_uri(&dir.write("mutating.yaml", text));
    let (labels, _) = first_verdicts(&mut client, &uri, text);
    assert_eq!(
        labels,
        [
            "0: samples/small.yaml: ✓ allow, mutates replace /spec/replicas",
            "12: ✓ mutates replace /spec/replicas",
        ]
    );
    assert!(client.shutdown_and_exit().success());
}

/// A Kyverno MutatingPolicy's mutations each show what they changed (kyverno/kyverno
/// pkg/cel/policies/mpol/compiler/policy.go `evaluate`: in order, each on the previous result).
#[test]
fn each_kyverno_mutation_shows_the_fields_it_changed() {
    let dir = TempDir::new("live-kyverno-mutation");
    let (mut client, _) = start(&dir, Value::Null);
    let text = "\
# admission-ls: object=samples/small.yaml
apiVersion: policies.kyverno.io/v1
kind: MutatingPolicy
metadata: {name: label}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: \"Object{spec: Object.spec{replicas: 3}}\"
  - patchType: JSONPatch
    jsonPatch:
      expression: \"[JSONPatch{op: 'add', path: '/metadata/labels', value: {'a': 'b'}}]\"
";
    let uri = file_uri(&dir.write("mutating.yaml", text));
    let (labels, tooltips) = first_verdicts(&mut client, &uri, text);
    assert_eq!(
        labels,
        [
            "0: samples/small.yaml: ✓ allow, mutates add /metadata/labels, replace /spec/replicas",
            "11: ✓ mutates replace /spec/replicas",
            "14: ✓ mutates add /metadata/labels",
        ]
    );
    assert!(
        tooltips[2].contains("`jsonPatch`:"),
        "the mutation's trace is its tooltip: {}",
        tooltips[2]
    );
    assert!(client.shutdown_and_exit().success());
}

/// A DeletingPolicy shows whether each condition held and, at the modeline, whether the object
/// would be deleted (kyverno/kyverno pkg/cel/policies/dpol/compiler/policy.go `Evaluate`).
#[test]
fn a_kyverno_deleting_policy_shows_each_condition() {
    let dir = TempDir::new("live-kyverno-deleting");
    let (mut client, _) = start(&dir, Value::Null);
    let text = "\
# admission-ls: object=samples/small.yaml object=samples/big.yaml
apiVersion: policies.kyverno.io/v1
kind: DeletingPolicy
metadata: {name: small}
spec:
  schedule: \"@daily\"
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], resources: [deployments]}
  conditions:
  - name: few
    expression: object.spec.replicas < 5
";
    let uri = file_uri(&dir.write("deleting.yaml", text));
    let (labels, _) = first_verdicts(&mut client, &uri, text);
    assert_eq!(
        labels,
        [
            "0: samples/small.yaml: would delete  ·  samples/big.yaml: would keep: resource did not match: condition 'few' is false",
            "11: samples/small.yaml: ✓ true  ·  samples/big.yaml: ✗ false: would keep",
        ]
    );
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn the_setting_turns_the_verdicts_off() {
    let dir = TempDir::new("live-off");
    let (mut client, uri) = start(&dir, json!({"liveVerdicts": false}));
    open(&mut client, &uri, POLICY);
    client.diagnostics_at(&uri, 1);
    settle(&mut client);
    assert_eq!(refreshes(&client), 0);
    let (labels, _) = verdicts(&mut client, &uri);
    assert!(labels.is_empty(), "{labels:?}");
    // On again: the open document's verdicts come.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"admissionLs": {"liveVerdicts": true}}}),
    );
    wait_refresh(&mut client, 0);
    let (labels, _) = verdicts(&mut client, &uri);
    assert_eq!(labels.len(), 2, "{labels:?}");
    assert!(client.shutdown_and_exit().success());
}

const SUITE: &str = "\
apiVersion: admission-ls.dev/v1alpha1
kind: PolicyTest
policies: [../policy.yaml]
cases:
  - name: two replicas
    object: {apiVersion: apps/v1, kind: Deployment, metadata: {name: a, namespace: n}, spec: {replicas: 2}}
    expect: {decision: allow}
";

const KAPTEST: &str = "\
version: v1alpha1
policies: [policy.yaml]
resources: [samples/big.yaml]
vapTestSuites:
- policy: replicas
  tests:
  - object: {kind: Deployment, name: big, namespace: n}
    expect: deny
";

#[test]
fn cases_of_the_suites_that_test_the_policy_are_samples_too() {
    let dir = TempDir::new("live-suites");
    dir.write("tests/replicas.test.yaml", SUITE);
    dir.write("kaptest.yaml", KAPTEST);
    // A suite of another policy file is not run.
    dir.write(
        "other/suite.test.yaml",
        SUITE.replace("../policy.yaml", "other.yaml"),
    );
    let (mut client, uri) = start(&dir, Value::Null);
    let text = POLICY.replace("object=samples/small.yaml ", "");
    // After the scan, so that the suites are known.
    client.diagnostics_where(&file_uri(&dir.path().join("policy.yaml")), |_| true);
    open(&mut client, &uri, &text);
    client.diagnostics_at(&uri, 1);
    let seen = refreshes(&client);
    wait_refresh(&mut client, seen);
    let (labels, tooltips) = verdicts(&mut client, &uri);
    assert_eq!(
        labels,
        [
            "0: samples/big.yaml: ✗ deny: at most 5 replicas",
            "9: samples/big.yaml: ✗ deny: at most 5 replicas  ·  case replicas: object=Deployment/big → deny: ✗ deny: at most 5 replicas  ·  case two replicas: ✓ allow",
        ]
    );
    assert!(
        tooltips[1].contains("**case two replicas**"),
        "{}",
        tooltips[1]
    );
    assert!(client.shutdown_and_exit().success());
}

const TEMPLATE: &str = "\
apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: {name: k8sreplicalimit}
spec:
  crd:
    spec:
      names: {kind: K8sReplicaLimit}
      validation:
        openAPIV3Schema:
          type: object
          properties: {max: {type: integer}}
  targets:
  - target: admission.k8s.gatekeeper.sh
    code:
    - engine: K8sNativeValidation
      source:
        validations:
        - expression: object.spec.replicas <= variables.params.max
          message: too many replicas
";

const GATOR_SUITE: &str = "\
apiVersion: test.gatekeeper.sh/v1alpha1
kind: Suite
tests:
- name: replicas
  template: ../template.yaml
  constraint: constraint.yaml
  cases:
  - name: big
    object: ../samples/big.yaml
    assertions: [{violations: yes}]
  - name: small
    object: ../samples/small.yaml
    assertions: [{violations: no}]
";

const CONSTRAINT: &str = "\
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sReplicaLimit
metadata: {name: limit}
spec:
  match: {kinds: [{apiGroups: [apps], kinds: [Deployment]}]}
  parameters: {max: 5}
";

/// A gator case names its template by path in each test, not in a list of policy files; and a
/// library of many suites (one per template) keeps the one that tests the open template.
#[test]
fn the_cases_of_a_gator_suite_are_samples_of_its_template() {
    let dir = TempDir::new("live-gator");
    for i in 0..100 {
        let other = GATOR_SUITE.replace("../template.yaml", &format!("t{i}.yaml"));
        dir.write(&format!("a-{i:03}/suite.yaml"), &other);
    }
    dir.write("z/suite.yaml", GATOR_SUITE);
    dir.write("z/constraint.yaml", CONSTRAINT);
    let (mut client, _) = start(&dir, Value::Null);
    let template = dir.write("template.yaml", TEMPLATE);
    let uri = file_uri(&template);
    client.diagnostics_where(&uri, |_| true);
    open(&mut client, &uri, TEMPLATE);
    client.diagnostics_at(&uri, 1);
    let seen = refreshes(&client);
    wait_refresh(&mut client, seen);
    let (labels, _) = verdicts(&mut client, &uri);
    assert_eq!(
        labels,
        ["17: case replicas/big: ✗ deny: too many replicas  ·  case replicas/small: ✓ allow"]
    );
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn a_policy_without_samples_costs_no_refresh() {
    let dir = TempDir::new("live-none");
    let (mut client, uri) = start(&dir, Value::Null);
    let text = POLICY.replace(
        "# admission-ls: object=samples/small.yaml object=samples/big.yaml\n",
        "",
    );
    open(&mut client, &uri, &text);
    client.diagnostics_at(&uri, 1);
    let change = json!({"textDocument": {"uri": uri, "version": 2},
        "contentChanges": [{"text": text.replace("<= 5", "<= 6")}]});
    client.notify("textDocument/didChange", change);
    client.diagnostics_at(&uri, 2);
    settle(&mut client);
    assert_eq!(refreshes(&client), 0);
    assert!(verdicts(&mut client, &uri).0.is_empty());
    assert!(client.shutdown_and_exit().success());
}

/// Opens the policy with its modeline and waits, after the scan, for its first verdicts.
fn open_policy(client: &mut Client, dir: &TempDir, uri: &str, text: &str) {
    client.diagnostics_where(&file_uri(&dir.path().join("policy.yaml")), |_| true);
    open(client, uri, text);
    client.diagnostics_at(uri, 1);
    wait_refresh(client, 0);
    settle(client);
}

fn change(client: &mut Client, uri: &str, version: i64, text: &str) {
    let change = json!({"textDocument": {"uri": uri, "version": version},
        "contentChanges": [{"text": text}]});
    client.notify("textDocument/didChange", change);
}

/// `workspace/didChangeWatchedFiles` for one file (1 created, 2 changed, 3 deleted).
fn changed_on_disk(client: &mut Client, uri: &str, typ: u8) {
    let changes = json!({"changes": [{"uri": uri, "type": typ}]});
    client.notify("workspace/didChangeWatchedFiles", changes);
}

const BOTH_ALLOW: &str = "samples/small.yaml: ✓ allow  ·  samples/big.yaml: ✓ allow";

#[test]
fn an_edit_of_an_open_sample_runs_the_verdicts_again() {
    let dir = TempDir::new("live-sample-edit");
    let (mut client, uri) = start(&dir, Value::Null);
    open_policy(&mut client, &dir, &uri, POLICY);
    let big = file_uri(&dir.path().join("samples/big.yaml"));
    open(&mut client, &big, BIG);
    client.diagnostics_at(&big, 1);
    let seen = refreshes(&client);
    change(
        &mut client,
        &big,
        2,
        &BIG.replace("replicas: 9", "replicas: 3"),
    );
    client.diagnostics_at(&big, 2);
    wait_refresh(&mut client, seen);
    let (labels, _) = verdicts(&mut client, &uri);
    assert_eq!(
        labels,
        [format!("0: {BOTH_ALLOW}"), format!("9: {BOTH_ALLOW}")]
    );
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn a_sample_changed_on_disk_runs_the_verdicts_again() {
    let dir = TempDir::new("live-sample-disk");
    let (mut client, uri) = start(&dir, Value::Null);
    open_policy(&mut client, &dir, &uri, POLICY);
    let seen = refreshes(&client);
    let big = dir.write(
        "samples/big.yaml",
        BIG.replace("replicas: 9", "replicas: 3"),
    );
    changed_on_disk(&mut client, &file_uri(&big), 2);
    wait_refresh(&mut client, seen);
    let (labels, _) = verdicts(&mut client, &uri);
    assert_eq!(
        labels,
        [format!("0: {BOTH_ALLOW}"), format!("9: {BOTH_ALLOW}")]
    );
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn an_edit_of_an_open_suite_runs_the_verdicts_again() {
    let dir = TempDir::new("live-suite-edit");
    let suite = dir.write("tests/replicas.test.yaml", SUITE);
    let (mut client, uri) = start(&dir, Value::Null);
    open_policy(&mut client, &dir, &uri, POLICY);
    let (labels, _) = verdicts(&mut client, &uri);
    assert!(
        labels[1].ends_with("case two replicas: ✓ allow"),
        "{labels:?}"
    );
    let suite = file_uri(&suite);
    open(&mut client, &suite, SUITE);
    client.diagnostics_at(&suite, 1);
    let seen = refreshes(&client);
    change(
        &mut client,
        &suite,
        2,
        &SUITE.replace("replicas: 2", "replicas: 9"),
    );
    client.diagnostics_at(&suite, 2);
    wait_refresh(&mut client, seen);
    let (labels, _) = verdicts(&mut client, &uri);
    assert!(
        labels[1].ends_with("case two replicas: ✗ deny: at most 5 replicas"),
        "{labels:?}"
    );
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn a_suite_created_then_deleted_on_disk_joins_then_leaves_the_verdicts() {
    let dir = TempDir::new("live-suite-disk");
    let (mut client, uri) = start(&dir, Value::Null);
    open_policy(&mut client, &dir, &uri, POLICY);
    let seen = refreshes(&client);
    let suite = dir.write("tests/replicas.test.yaml", SUITE);
    changed_on_disk(&mut client, &file_uri(&suite), 1);
    wait_refresh(&mut client, seen);
    let (labels, _) = verdicts(&mut client, &uri);
    assert!(
        labels[1].ends_with("case two replicas: ✓ allow"),
        "{labels:?}"
    );
    settle(&mut client);
    let seen = refreshes(&client);
    std::fs::remove_file(&suite).expect("the suite is removed");
    changed_on_disk(&mut client, &file_uri(&suite), 3);
    wait_refresh(&mut client, seen);
    let (labels, _) = verdicts(&mut client, &uri);
    assert!(!labels[1].contains("case"), "{labels:?}");
    assert!(client.shutdown_and_exit().success());
}

#[test]
fn an_expression_error_and_an_exhausted_budget_show_as_errors_with_where_they_stopped() {
    let dir = TempDir::new("live-error");
    let (mut client, uri) = start(&dir, Value::Null);
    let nested = "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, [1,2,3,4,5,6,7,8,9,10].all(g, a > 0)))))))";
    let text = POLICY
        .replace(" object=samples/big.yaml", "")
        .replace("object.spec.replicas <= 5", "object.spec.replicas / 0 < 5")
        + &format!("  - expression: '{nested}'\n");
    open(&mut client, &uri, &text);
    client.diagnostics_at(&uri, 1);
    wait_refresh(&mut client, 0);
    let (labels, tooltips) = verdicts(&mut client, &uri);
    assert_eq!(labels.len(), 3, "{labels:?}");
    assert!(
        labels[0].starts_with("0: samples/small.yaml: ⚠ error: "),
        "{labels:?}"
    );
    assert_eq!(
        labels[1],
        "9: ⚠ error: expression 'object.spec.replicas / 0 < 5' resulted in error: division by zero"
    );
    assert!(
        tooltips[1]
            .contains("object.spec.replicas / 0  →  2 / 0  →  error raised here: division by zero"),
        "{}",
        tooltips[1]
    );
    assert!(
        labels[2].starts_with("11: ⚠ error: expression '[1,2,3"),
        "{labels:?}"
    );
    assert!(
        tooltips[2]
            .contains("a > 0  →  stopped here: operation cancelled: actual cost limit exceeded"),
        "{}",
        tooltips[2]
    );
    assert!(client.shutdown_and_exit().success());
}

const DRA_CLAIM: &str = "\
# admission-ls: object=slices.yaml
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: gpu}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel:
            expression: device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0
";

const DRA_SLICES: &str = "\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    capacity:
      memory: {value: 80Gi}
  - name: gpu-1
    capacity:
      memory: {value: 16Gi}
";

const AUTHN: &str = "\
# admission-ls: object=claims.json
apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: https://issuer.example.com
    audiences: [my-app]
  claimValidationRules:
  - expression: 'claims.hd == \"example.com\"'
    message: the hd claim must be set to example.com
  claimMappings:
    username:
      expression: '\"oidc:\" + claims.username'
";

const CLAIMS: &str = r#"{"iss": "https://issuer.example.com", "aud": "my-app", "hd": "other.example", "username": "jane"}"#;

/// The live hints of `text` (at `name` in a fresh workspace with `files`), once they are ready.
fn live_hints_of(name: &str, text: &str, files: &[(&str, &str)]) -> (Vec<String>, Vec<String>) {
    let dir = TempDir::new("live-against");
    let path = dir.write(name, text);
    for (file, content) in files {
        dir.write(file, content);
    }
    let mut client = Client::spawn(BINARY);
    client.initialize(capabilities(), json!(file_uri(dir.path())), Value::Null);
    let uri = file_uri(&path);
    open(&mut client, &uri, text);
    client.diagnostics_at(&uri, 1);
    wait_refresh(&mut client, 0);
    let hints = verdicts(&mut client, &uri);
    assert!(client.shutdown_and_exit().success());
    hints
}

#[test]
fn a_device_selector_shows_the_devices_it_rejects() {
    let (labels, tooltips) = live_hints_of("claim.yaml", DRA_CLAIM, &[("slices.yaml", DRA_SLICES)]);
    assert_eq!(
        labels,
        [
            "0: slices.yaml: ✓ gpu: 1/2 devices",
            "12: ✓ 1 device(s), ✗ rejects gpu-1",
        ]
    );
    assert!(
        tooltips[1].contains("memory  →  quantity(\"16Gi\")"),
        "{}",
        tooltips[1]
    );
}

#[test]
fn an_authentication_configuration_shows_why_a_token_is_refused() {
    let (labels, tooltips) = live_hints_of("authn.yaml", AUTHN, &[("claims.json", CLAIMS)]);
    assert_eq!(
        labels,
        [
            "0: claims.json: ✗ refused: oidc: error evaluating claim validation expression: validation expression 'claim…",
            "8: ✗ false",
            "12: → \"oidc:jane\"",
        ]
    );
    assert!(
        tooltips[1].contains("\"other.example\" == \"example.com\"  →  false"),
        "{}",
        tooltips[1]
    );
}
