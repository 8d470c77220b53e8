//! Hostile files on disk, through the built binary: a link to `/dev/zero` or `/dev/stdin`, a FIFO,
//! a file over the size cap, a folder-symlink loop, a link out of the workspace, and URIs of other
//! hosts or schemes. Every read must end (each run has a deadline, so a read that blocks fails the
//! test instead of hanging it), read nothing unbounded, and say what it skipped and why: the CLI on
//! its error and warning lines, the server in its log.

#![cfg(unix)]

#[path = "support/lsp_client.rs"]
mod lsp_client;
#[path = "support/tempdir.rs"]
mod tempdir;

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use expect_test::expect;
use lsp_client::{Client, file_uri};
use serde_json::{Value, json};
use tempdir::TempDir;

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

/// How long a command may take here; the fixed binary answers in well under a second.
const DEADLINE: Duration = Duration::from_secs(20);

const POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: max-replicas
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [deployments]
  validations:
  - expression: object.spec.replicas <= 5
";

const SUITE: &str = "\
apiVersion: admission-ls.dev/v1alpha1
kind: PolicyTest
metadata:
  name: replicas
policies:
  - ../policy.yaml
cases:
  - name: small
    policy: max-replicas
    object:
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: default}
      spec: {replicas: 1}
    expect:
      decision: allow
";

/// Exit status, stdout and stderr of `admission-ls ARGS` run in `dir`, with standard input left
/// open (a read of `/dev/stdin` would wait on it); killed at the deadline, which fails the test.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut child = Command::new(BINARY)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("admission-ls {args:?} did not end within {DEADLINE:?}: a read blocked");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // The outputs are short: the child has written them all into the pipes before it ended.
    let output = child.wait_with_output().expect("the outputs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    (status.code().unwrap_or(-1), stdout, stderr)
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// A sparse file of `len` bytes (zeros): nothing is written, the length says what a read would get.
fn sparse(path: &Path, len: u64) {
    let file = std::fs::File::create(path).expect("create");
    file.set_len(len).expect("set length");
}

/// A folder with every kind of hostile file next to a good policy.
fn hostile_folder(label: &str) -> TempDir {
    let dir = TempDir::new(label);
    dir.write("policy.yaml", POLICY);
    symlink("/dev/zero", dir.path().join("zero.yaml")).expect("link");
    symlink("/dev/stdin", dir.path().join("stdin.yaml")).expect("link");
    mkfifo(&dir.path().join("fifo.yaml"));
    sparse(&dir.path().join("big.yaml"), (64 << 20) + 1);
    dir
}

#[test]
fn check_refuses_devices_fifos_and_files_over_the_cap_and_checks_the_rest() {
    let dir = hostile_folder("check-hostile");
    let (code, stdout, stderr) = run_in(
        dir.path(),
        &[
            "check",
            "zero.yaml",
            "stdin.yaml",
            "fifo.yaml",
            "big.yaml",
            "policy.yaml",
        ],
    );
    assert_eq!(code, 2, "{stdout}{stderr}");
    expect![[r#"
        zero.yaml: error: is a character device, not a regular file
        stdin.yaml: error: is a FIFO (named pipe), not a regular file
        fifo.yaml: error: is a FIFO (named pipe), not a regular file
        big.yaml: error: is larger than 64 MiB
    "#]]
    .assert_eq(&stderr);
    assert!(
        stdout.contains("checked 1 file: 0 errors, 0 warnings; 4 paths could not be read"),
        "{stdout}"
    );
}

/// In a folder, entries that are not regular files (links to devices, FIFOs) are never opened, and
/// a regular file over the cap is named with the reason.
#[test]
fn check_of_a_folder_opens_no_special_file_and_names_the_file_over_the_cap() {
    let dir = hostile_folder("check-hostile-folder");
    let (code, stdout, stderr) = run_in(dir.path(), &["check", "."]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    expect![[r#"
        big.yaml: error: is larger than 64 MiB
    "#]]
    .assert_eq(&stderr);
    assert!(stdout.contains("checked 1 file"), "{stdout}");
}

#[test]
fn eval_and_validate_refuse_devices_and_fifos() {
    let dir = hostile_folder("eval-hostile");
    let (code, _, stderr) = run_in(
        dir.path(),
        &["eval", "policy.yaml", "--object", "fifo.yaml"],
    );
    assert_eq!(code, 2, "{stderr}");
    expect![[r#"
        admission-ls eval: error: cannot read --object fifo.yaml: is a FIFO (named pipe), not a regular file
    "#]]
    .assert_eq(&stderr);
    let (code, _, stderr) = run_in(
        dir.path(),
        &["validate", "policy.yaml", "--crd", "zero.yaml"],
    );
    assert_eq!(code, 2, "{stderr}");
    expect![[r#"
        admission-ls validate: error: cannot read zero.yaml: is a character device, not a regular file
    "#]]
    .assert_eq(&stderr);
}

#[test]
fn init_refuses_a_fifo_as_the_policy() {
    let dir = hostile_folder("init-hostile");
    let (code, _, stderr) = run_in(dir.path(), &["init", "fifo.yaml"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("cannot read fifo.yaml: is a FIFO (named pipe), not a regular file"),
        "{stderr}"
    );
}

/// `test DIR` walks as `check` does: a link to a parent folder (`a/up -> ..`) is not followed (it
/// ran every suite once per level of the loop), hidden folders and `node_modules` are skipped, and
/// a file found in the walk that cannot be read is a warning, not the end of the run.
#[test]
fn test_walk_follows_no_folder_symlink_and_skips_what_check_skips() {
    let dir = TempDir::new("test-walk");
    dir.write("policy.yaml", POLICY);
    dir.write("tests/replicas.test.yaml", SUITE);
    dir.write(".git/replicas.test.yaml", SUITE);
    dir.write("node_modules/pkg/replicas.test.yaml", SUITE);
    std::fs::create_dir_all(dir.path().join("tests/a")).expect("mkdir");
    symlink("..", dir.path().join("tests/a/up")).expect("link");
    symlink("../..", dir.path().join("tests/a/top")).expect("link");
    mkfifo(&dir.path().join("tests/fifo.yaml"));
    symlink("/dev/zero", dir.path().join("tests/zero.yaml")).expect("link");
    sparse(&dir.path().join("tests/big.yaml"), (64 << 20) + 1);
    let (code, stdout, stderr) = run_in(dir.path(), &["test", "."]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    expect![[r#"
        admission-ls test: warning: tests/big.yaml: is larger than 64 MiB; skipped
    "#]]
    .assert_eq(&stderr);
    let timeless = regex::Regex::new(r"\(\d+\.\d+m?s\)| in \d+\.\d+m?s").expect("regex");
    expect![[r#"
        tests/replicas.test.yaml (replicas)
          ok    small …
        1 passed, 0 failed…
    "#]]
    .assert_eq(&timeless.replace_all(&stdout, "…"));
}

#[test]
fn test_suite_resources_are_bounded_reads() {
    let dir = hostile_folder("test-resources");
    let suite = SUITE.replace(
        "  - ../policy.yaml",
        "  - policy.yaml\nresources:\n  - fifo.yaml",
    );
    dir.write("replicas.test.yaml", suite);
    let (code, stdout, stderr) = run_in(dir.path(), &["test", "replicas.test.yaml"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("is a FIFO (named pipe), not a regular file"),
        "{stdout}"
    );
}

// The server.

/// A CRD of `kind` (plural `plural`) whose spec has one integer field, `field`.
fn crd(kind: &str, plural: &str, field: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: {plural}.example.com}}\nspec:\n  group: example.com\n  names: {{kind: {kind}, plural: {plural}}}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              {field}: {{type: integer}}\n"
    )
}

/// A policy whose params are of `kind`, reading `params.spec.size`.
fn param_policy(name: &str, kind: &str) -> String {
    format!(
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {{name: {name}}}\nspec:\n  paramKind: {{apiVersion: example.com/v1, kind: {kind}}}\n  matchConstraints:\n    resourceRules:\n    - {{apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [pods]}}\n  validations:\n  - expression: params.spec.size <= 10\n"
    )
}

fn codes(published: &Value) -> Vec<String> {
    published["diagnostics"]
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|d| d["code"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Waits until the server's log holds `needle`.
fn log_holds(client: &Client, needle: &str) -> bool {
    let start = Instant::now();
    while start.elapsed() < DEADLINE {
        if client.stderr().contains(needle) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

fn watching_client(root: &Path) -> Client {
    let mut client = Client::spawn(BINARY);
    let capabilities =
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    client.initialize(capabilities, json!(file_uri(root)), Value::Null);
    client
}

fn open(client: &mut Client, uri: &str, text: &str) {
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}),
    );
}

/// Watched-file events for hostile files: each is skipped with its reason in the log, the server
/// does not read its own protocol input from `/dev/stdin`, and a good file in the same batch is
/// read (so the batch ended).
#[test]
fn server_skips_hostile_watched_files_with_a_reason_and_keeps_serving() {
    let dir = hostile_folder("lsp-watch-hostile");
    sparse(&dir.path().join("big.yaml"), (8 << 20) + 1);
    let outside = TempDir::new("lsp-watch-outside");
    let outside_crd = outside.write("gadgets.yaml", crd("Gadget", "gadgets", "count"));
    symlink(&outside_crd, dir.path().join("outside.yaml")).expect("link");
    let inside_crd = dir.write("crds/gizmos.yaml", crd("Gizmo", "gizmos", "count"));
    let mut client = watching_client(dir.path());
    let gizmo_policy = file_uri(&dir.path().join("gizmo-policy.yaml"));
    open(&mut client, &gizmo_policy, &param_policy("gizmo", "Gizmo"));
    let untyped = client.diagnostics_where(&gizmo_policy, |p| !codes(p).is_empty());
    assert_eq!(codes(&untyped), ["unresolved-reference"], "{untyped}");

    let hostile = [
        "zero.yaml",
        "stdin.yaml",
        "fifo.yaml",
        "big.yaml",
        "outside.yaml",
    ];
    let mut changes: Vec<Value> = hostile
        .iter()
        .map(|name| json!({"uri": file_uri(&dir.path().join(name)), "type": 1}))
        .collect();
    changes.push(json!({"uri": file_uri(&inside_crd), "type": 1}));
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": changes}),
    );
    let typed = client.diagnostics_where(&gizmo_policy, |p| codes(p) == ["cel-undefined-field"]);
    assert_eq!(codes(&typed), ["cel-undefined-field"], "{typed}");

    let path = |name: &str| dir.path().join(name).display().to_string();
    for (name, reason) in [
        ("zero.yaml", "is a character device, not a regular file"),
        ("stdin.yaml", "is a FIFO (named pipe), not a regular file"),
        ("fifo.yaml", "is a FIFO (named pipe), not a regular file"),
        ("big.yaml", "is larger than 8 MiB"),
        ("outside.yaml", "outside the workspace folder"),
    ] {
        let line = format!("admission-ls: skipped {}: ", path(name));
        assert!(
            log_holds(&client, &line) && client.stderr().contains(reason),
            "no `{line}{reason}` in the log:\n{}",
            client.stderr()
        );
    }
    // The link out of the workspace was not read: its CRD types nothing.
    let gadget_policy = file_uri(&dir.path().join("gadget-policy.yaml"));
    open(
        &mut client,
        &gadget_policy,
        &param_policy("gadget", "Gadget"),
    );
    let gadget = client.diagnostics_where(&gadget_policy, |_| true);
    assert_eq!(codes(&gadget), ["unresolved-reference"], "{gadget}");
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// The scan at startup: hostile entries in the workspace and in `schemaPaths` are not read, and
/// the good policy's diagnostics are published.
#[test]
fn server_scan_ends_beside_hostile_files() {
    let dir = hostile_folder("lsp-scan-hostile");
    let outside = TempDir::new("lsp-scan-outside");
    outside.write("policy.yaml", POLICY);
    symlink(outside.path(), dir.path().join("outside")).expect("link");
    let mut client = Client::spawn(BINARY);
    let options = json!({"schemaPaths": ["zero.yaml", "fifo.yaml", "stdin.yaml"]});
    client.initialize(json!({}), json!(file_uri(dir.path())), options);
    let policy = file_uri(&dir.path().join("policy.yaml"));
    let published = client.diagnostics_where(&policy, |p| p["version"].is_null());
    assert_eq!(published["diagnostics"], json!([]));
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// A `file:` URI naming another host, or a URI of another scheme, is never read from this disk:
/// not as a command's document, not as a command's file argument, not as a watched file.
#[test]
fn server_reads_no_uri_of_another_host_or_scheme() {
    let dir = TempDir::new("lsp-uri-hosts");
    let policy = dir.write("policy.yaml", POLICY);
    let object = dir.write(
        "object.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default}\nspec: {replicas: 9}\n",
    );
    let mut client = watching_client(dir.path());
    let evaluate = |client: &mut Client, uri: String, object: String| {
        let args = json!({"uri": uri, "object": object});
        client.request(
            "workspace/executeCommand",
            json!({"command": "admission-ls.evaluate", "arguments": [args]}),
        )
    };
    let local = evaluate(&mut client, file_uri(&policy), file_uri(&object));
    assert_eq!(local["result"]["decision"], "deny", "{local}");
    let remote_policy = format!("file://build-server{}", policy.display());
    for (uri, object_arg) in [
        (remote_policy.clone(), file_uri(&object)),
        (
            format!("https://example.com{}", policy.display()),
            file_uri(&object),
        ),
        (
            file_uri(&policy),
            format!("file://build-server{}", object.display()),
        ),
        (
            file_uri(&policy),
            format!("vscode-remote://ssh{}", object.display()),
        ),
    ] {
        let answer = evaluate(&mut client, uri.clone(), object_arg.clone());
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("is not a local file"),
            "{uri} {object_arg}: {answer}"
        );
    }
    let crd_path = dir.write("crds/gadgets.yaml", crd("Gadget", "gadgets", "count"));
    let remote_crd = format!("file://build-server{}", crd_path.display());
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": remote_crd, "type": 1}]}),
    );
    assert!(
        log_holds(&client, &format!("skipped {remote_crd}: not a local file")),
        "{}",
        client.stderr()
    );
    assert_eq!(client.shutdown_and_exit().code(), Some(0));
}

/// A linked file in a folder that resolves outside the folder named is not read (a cloned
/// repository's `leak.yaml -> ~/.aws/credentials` would otherwise be printed in `check`'s
/// snippets); a link that stays inside is checked as before.
#[test]
fn folder_walks_read_no_link_out_of_the_folder() {
    let dir = TempDir::new("walk-link-out");
    let outside = TempDir::new("walk-link-outside");
    let secret = outside.write("secret.yaml", "password: [hunter2\n");
    dir.write("repo/policy.yaml", POLICY);
    dir.write("repo/tests/replicas.test.yaml", SUITE);
    symlink(&secret, dir.path().join("repo/leak.yaml")).expect("link");
    symlink("policy.yaml", dir.path().join("repo/alias.yaml")).expect("link");
    let (code, stdout, stderr) = run_in(dir.path(), &["check", "repo"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    let real = secret.canonicalize().expect("real path");
    let root = dir.path().join("repo").canonicalize().expect("real path");
    assert_eq!(
        stderr,
        format!(
            "repo/leak.yaml: error: is a link to {}, outside {}\n",
            real.display(),
            root.display()
        )
    );
    assert!(!stdout.contains("hunter2"), "{stdout}");
    assert!(stdout.contains("checked 3 files"), "{stdout}");

    let (code, stdout, stderr) = run_in(dir.path(), &["test", "repo"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.starts_with("admission-ls test: warning: repo/leak.yaml: is a link to "),
        "{stderr}"
    );
    assert!(stderr.ends_with("; skipped\n"), "{stderr}");
}
