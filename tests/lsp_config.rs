//! The project configuration file `.admission-ls.yaml` in the server, driven over stdio as an
//! editor would: its settings apply to the open documents, an editor setting overrides it, its
//! problems are published on it as `config` diagnostics, and a change on disk
//! (`workspace/didChangeWatchedFiles`) applies at once.

#[path = "support/lsp_client.rs"]
mod lsp_client;
#[path = "support/tempdir.rs"]
mod tempdir;

use lsp_client::{Client, file_uri};
use serde_json::{Value, json};
use tempdir::TempDir;

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

/// Clean at Kubernetes 1.31; at 1.34 and newer its API version is not served, and its
/// misspelled `failurPolicy` is an `unknown-field` warning unless the code is turned off.
const OLD_POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1beta1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit.example.com
spec:
  failurPolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [\"apps\"]
      apiVersions: [\"v1\"]
      operations: [\"CREATE\", \"UPDATE\"]
      resources: [\"deployments\"]
  validations:
  - expression: \"object.spec.replicas <= 5\"
";

const PINNED: &str = "kubernetesVersion: \"1.31\"\ndiagnostics:\n  disabled: [unknown-field]\n";

fn open(client: &mut Client, uri: &str, text: &str) {
    let document = json!({"uri": uri, "languageId": "yaml", "version": 1, "text": text});
    client.notify("textDocument/didOpen", json!({"textDocument": document}));
}

fn codes(published: &Value) -> Vec<String> {
    published["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["code"].as_str().map(str::to_owned))
        .collect()
}

/// The first line of the server's log holding `needle`, waited for.
fn log_line(client: &Client, needle: &str) -> String {
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(20) {
        let log = client.stderr();
        if let Some(line) = log.lines().find(|l| l.contains(needle)) {
            return line.to_owned();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("no log line with {needle:?}: {}", client.stderr());
}

fn watching() -> Value {
    json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}})
}

#[test]
fn the_file_applies_and_an_editor_setting_overrides_it() {
    let dir = TempDir::new("lsp-config");
    dir.write(".admission-ls.yaml", PINNED);
    let policy = dir.write("policy.yaml", OLD_POLICY);
    let uri = file_uri(&policy);

    // The file alone: 1.31 serves v1beta1, unknown-field is off.
    let mut client = Client::spawn(BINARY);
    client.initialize(json!({}), json!(file_uri(dir.path())), Value::Null);
    open(&mut client, &uri, OLD_POLICY);
    let pinned = client.diagnostics_at(&uri, 1);
    assert_eq!(codes(&pinned), Vec::<String>::new(), "{pinned}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));

    // The editor's kubernetesVersion wins over the file's; the file's disabled codes stay.
    let mut client = Client::spawn(BINARY);
    let options = json!({"admissionLs": {"kubernetesVersion": "1.35"}});
    client.initialize(json!({}), json!(file_uri(dir.path())), options);
    open(&mut client, &uri, OLD_POLICY);
    let overridden = client.diagnostics_at(&uri, 1);
    assert_eq!(codes(&overridden), ["not-supported"], "{overridden}");

    // A settings change that turns the file's disabled codes back on.
    let settings = json!({"settings": {"admissionLs": {"kubernetesVersion": "1.31",
        "diagnostics": {"disabled": []}}}});
    client.notify("workspace/didChangeConfiguration", settings);
    let enabled = client.diagnostics_where(&uri, |p| codes(p) == ["unknown-field"]);
    assert_eq!(codes(&enabled), ["unknown-field"], "{enabled}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn problems_are_published_on_the_file_and_a_change_on_disk_applies() {
    let dir = TempDir::new("lsp-config-watch");
    let config = dir.write(
        ".admission-ls.yaml",
        "kubernetesVersion: \"1.31\"\nstrict: maybe\n",
    );
    let config_uri = file_uri(&config);
    let policy = dir.write("policy.yaml", OLD_POLICY);
    let uri = file_uri(&policy);
    let mut client = Client::spawn(BINARY);
    client.initialize(watching(), json!(file_uri(dir.path())), Value::Null);

    let problems = client.diagnostics_where(&config_uri, |p| !codes(p).is_empty());
    assert_eq!(codes(&problems), ["config"], "{problems}");
    let first = &problems["diagnostics"][0];
    assert_eq!(
        first["range"],
        json!({"start": {"line": 1, "character": 8}, "end": {"line": 1, "character": 13}})
    );
    assert_eq!(
        first["message"],
        "expected true or false for strict, found string"
    );

    // The version of the file applies even though another key is wrong.
    open(&mut client, &uri, OLD_POLICY);
    let pinned = client.diagnostics_at(&uri, 1);
    assert_eq!(codes(&pinned), ["unknown-field"], "{pinned}");

    // Saved with a newer version and the typo fixed: the policy is checked again, the file's
    // problems are cleared.
    std::fs::write(&config, "kubernetesVersion: \"1.35\"\nstrict: false\n").expect("rewrite");
    let event = json!({"changes": [{"uri": config_uri, "type": 2}]});
    client.notify("workspace/didChangeWatchedFiles", event);
    let newer = client.diagnostics_where(&uri, |p| codes(p).contains(&"not-supported".to_owned()));
    assert_eq!(codes(&newer), ["not-supported", "unknown-field"], "{newer}");
    let cleared = client.diagnostics_where(&config_uri, |p| codes(p).is_empty());
    assert_eq!(cleared["diagnostics"], json!([]));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

#[test]
fn an_open_configuration_file_shows_the_problems_of_its_text() {
    let dir = TempDir::new("lsp-config-open");
    let config = dir.write(".admission-ls.yaml", PINNED);
    let uri = file_uri(&config);
    let mut client = Client::spawn(BINARY);
    client.initialize(json!({}), json!(file_uri(dir.path())), Value::Null);
    open(
        &mut client,
        &uri,
        "kubernetesVersion: \"1.31\"\nschemaPath: [crds]\n",
    );
    let typo = client.diagnostics_at(&uri, 1);
    assert_eq!(codes(&typo), ["config"], "{typo}");
    assert_eq!(
        typo["diagnostics"][0]["message"],
        "unknown configuration key 'schemaPath'; did you mean 'schemaPaths'?"
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// The `staticManifests` folders of the file: a binding there is checked by the API server's
/// manifest loader rules across the folder (its policy is in another file of the folder).
#[test]
fn a_static_manifests_folder_gets_the_loader_rules() {
    let dir = TempDir::new("lsp-config-static");
    dir.write(".admission-ls.yaml", "staticManifests: [static]\n");
    dir.write(
        "static/10-policy.yaml",
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n\
         metadata: {name: deny.static.k8s.io}\nspec:\n  matchConstraints:\n    resourceRules:\n\
         \x20   - {apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [pods]}\n\
         \x20 validations:\n  - expression: \"true\"\n",
    );
    let binding = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\n\
        metadata: {name: deny-binding}\nspec: {policyName: deny.static.k8s.io, validationActions: [Deny]}\n";
    let path = dir.write("static/20-binding.yaml", binding);
    let uri = file_uri(&path);
    let mut client = Client::spawn(BINARY);
    client.initialize(json!({}), json!(file_uri(dir.path())), Value::Null);
    open(&mut client, &uri, binding);
    // Once the workspace scan has read the policy file, only the binding's own name is wrong.
    let found = client.diagnostics_where(&uri, |p| codes(p) == ["static-manifest"]);
    assert_eq!(codes(&found), ["static-manifest"], "{found}");
    assert_eq!(
        found["diagnostics"][0]["message"],
        "ValidatingAdmissionPolicyBinding \"deny-binding\" must have a name ending with \".static.k8s.io\""
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// The file's `exclude` leaves files out of the workspace scan: a binding whose policy is only in
/// an excluded folder does not find it; when the glob is taken out of the file, it does.
#[test]
fn excluded_files_are_not_inputs_of_the_workspace() {
    let dir = TempDir::new("lsp-config-exclude");
    let config = dir.write(".admission-ls.yaml", "exclude: [vendor]\n");
    dir.write(
        "vendor/policy.yaml",
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\n\
         metadata: {name: vendored}\nspec:\n  matchConstraints:\n    resourceRules:\n\
         \x20   - {apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [pods]}\n\
         \x20 validations:\n  - expression: \"true\"\n",
    );
    let binding = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\n\
        metadata: {name: vendored}\nspec: {policyName: vendored, validationActions: [Deny]}\n";
    let path = dir.write("binding.yaml", binding);
    let uri = file_uri(&path);
    let mut client = Client::spawn(BINARY);
    client.initialize(watching(), json!(file_uri(dir.path())), Value::Null);
    open(&mut client, &uri, binding);
    let unresolved = client.diagnostics_at(&uri, 1);
    assert_eq!(codes(&unresolved), ["unresolved-reference"], "{unresolved}");
    // The scan read the binding only (the log line follows the exclusion).
    let scanned = log_line(&client, "workspace scan: ");
    assert!(scanned.contains(", 1 admission or CRD files"), "{scanned}");

    std::fs::write(&config, "exclude: []\n").expect("rewrite");
    let event = json!({"changes": [{"uri": file_uri(&config), "type": 2}]});
    client.notify("workspace/didChangeWatchedFiles", event);
    let resolved = client.diagnostics_where(&uri, |p| codes(p).is_empty());
    assert_eq!(resolved["diagnostics"], json!([]));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}
