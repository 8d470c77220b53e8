//! The `check` and `explain` command lines, run as the built binary on temporary folders: exit
//! statuses, the text and JSON output, the folder walk, and bad input (a missing path, a non-UTF-8
//! file, a bad `--kube-version`).

#[path = "support/tempdir.rs"]
mod tempdir;

use std::path::Path;
use std::process::Command;

use admission_ls::ide::{DiagnosticsConfig, Severity, diagnostics_for_text};
use expect_test::{Expect, expect};
use tempdir::TempDir;

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

const POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit.example.com
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [\"apps\"]
      apiVersions: [\"v1\"]
      operations: [\"CREATE\", \"UPDATE\"]
      resources: [\"deployments\"]
  validations:
  - expression: \"object.spec.replicas <= 5\"
    message: \"too many replicas\"
";

/// What a run printed, and how it ended.
struct Run {
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(dir: &Path, args: &[&str]) -> Run {
    let output = Command::new(BINARY)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run binary");
    Run {
        status: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn check_output(run: &Run, status: i32, stdout: Expect, stderr: Expect) {
    stdout.assert_eq(&run.stdout);
    stderr.assert_eq(&run.stderr);
    assert_eq!(run.status, Some(status));
}

#[test]
fn a_clean_policy_passes() {
    let dir = TempDir::new("cli-clean");
    dir.write("policy.yaml", POLICY);
    let run = run(dir.path(), &["check", "policy.yaml"]);
    check_output(
        &run,
        0,
        expect![[r#"
        checked 1 file: 0 errors, 0 warnings
    "#]],
        expect![""],
    );
}

#[test]
fn json_lists_every_checked_file_with_a_summary() {
    let dir = TempDir::new("cli-json");
    dir.write("a.yaml", POLICY);
    dir.write("b.yml", POLICY);
    let run = run(dir.path(), &["check", "--format", "json"]);
    check_output(
        &run,
        0,
        expect![[r#"
            {
              "files": [
                {
                  "path": "a.yaml",
                  "diagnostics": [
                    {
                      "range": {
                        "start": {
                          "line": 3,
                          "character": 8
                        },
                        "end": {
                          "line": 3,
                          "character": 33
                        }
                      },
                      "severity": "warning",
                      "code": "duplicate",
                      "prediction": "advice",
                      "message": "metadata.name: 2 ValidatingAdmissionPolicy objects in the workspace are named 'replica-limit.example.com'; the API server keeps one object per name, so applying them all leaves only the last one applied (kubectl create refuses the others as AlreadyExists); rename one",
                      "source": "admission-ls"
                    }
                  ]
                },
                {
                  "path": "b.yml",
                  "diagnostics": [
                    {
                      "range": {
                        "start": {
                          "line": 3,
                          "character": 8
                        },
                        "end": {
                          "line": 3,
                          "character": 33
                        }
                      },
                      "severity": "warning",
                      "code": "duplicate",
                      "prediction": "advice",
                      "message": "metadata.name: 2 ValidatingAdmissionPolicy objects in the workspace are named 'replica-limit.example.com'; the API server keeps one object per name, so applying them all leaves only the last one applied (kubectl create refuses the others as AlreadyExists); rename one",
                      "source": "admission-ls"
                    }
                  ]
                }
              ],
              "summary": {
                "files": 2,
                "errors": 0,
                "warnings": 2,
                "policyFiles": 2,
                "unreadable": 0
              }
            }
        "#]],
        expect![""],
    );
}

#[test]
fn folders_are_walked_in_order_skipping_hidden_and_build_folders() {
    let dir = TempDir::new("cli-walk");
    for path in [
        "z.yaml",
        "b/c.yml",
        "b/a.yaml",
        "a/deep/er/x.yaml",
        "notes.txt",
        ".hidden.yaml",
    ] {
        dir.write(path, "a: 1\n");
    }
    for path in [
        ".git/x.yaml",
        "node_modules/m.yaml",
        "target/t.yaml",
        "b/.cache/y.yaml",
    ] {
        dir.write(path, "a: 1\n");
    }
    let run = run(dir.path(), &["check", "--format", "json", ".", "b/a.yaml"]);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let paths: Vec<&str> = report["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["path"].as_str())
        .collect();
    expect![[r#"["a/deep/er/x.yaml", "b/a.yaml", "b/c.yml", "z.yaml", "b/a.yaml"]"#]]
        .assert_eq(&format!("{paths:?}"));
    assert_eq!(run.status, Some(0));
}

#[test]
fn a_missing_path_is_an_io_error_but_the_rest_is_checked() {
    let dir = TempDir::new("cli-missing");
    dir.write("policy.yaml", POLICY);
    let run = run(dir.path(), &["check", "missing.yaml", "policy.yaml"]);
    check_output(
        &run,
        2,
        expect![[r#"
        checked 1 file: 0 errors, 0 warnings; 1 path could not be read
    "#]],
        expect![[r#"
        missing.yaml: error: no such file or directory
    "#]],
    );
}

/// A folder with nothing to check (empty, only `.json`, only hidden folders) fails the run with
/// status 2 and says so in every format: a CI job pointed at the wrong folder must not pass.
#[test]
fn a_folder_with_nothing_to_check_fails_in_every_format() {
    let dir = TempDir::new("cli-nothing");
    dir.write("json/a.json", "{}\n");
    dir.write("hidden/.git/policy.yaml", POLICY);
    std::fs::create_dir_all(dir.path().join("empty")).expect("mkdir");
    let mut seen = String::new();
    for folder in ["empty", "json", "hidden"] {
        for format in ["text", "json", "sarif", "github"] {
            let run = run(dir.path(), &["check", "--format", format, folder]);
            assert_eq!(run.status, Some(2), "{folder} {format}: {}", run.stdout);
            // Text says it on stderr beside its summary; the machine formats in their output too.
            let in_output = format == "text" || run.stdout.contains("nothing to check");
            let said = in_output && run.stderr.contains("nothing to check");
            seen.push_str(&format!("{folder} {format}: {said}\n"));
        }
    }
    assert!(!seen.contains("false"), "{seen}");
    let run = run(dir.path(), &["check", "empty"]);
    check_output(
        &run,
        2,
        expect![[r#"
        checked 0 files: 0 errors, 0 warnings; 1 path could not be read
    "#]],
        expect![[r#"
        empty: error: nothing to check: no .yaml or .yml file in the folder (hidden folders, node_modules and target are skipped)
    "#]],
    );
}

#[test]
fn a_non_utf8_file_is_an_io_error() {
    let dir = TempDir::new("cli-utf8");
    dir.write("latin1.yaml", b"name: caf\xe9\n");
    let run = run(dir.path(), &["check", "--format", "json"]);
    check_output(
        &run,
        2,
        expect![[r#"
            {
              "files": [
                {
                  "path": "latin1.yaml",
                  "diagnostics": [
                    {
                      "range": {
                        "start": {
                          "line": 0,
                          "character": 0
                        },
                        "end": {
                          "line": 0,
                          "character": 0
                        }
                      },
                      "severity": "error",
                      "code": "io-error",
                      "message": "not valid UTF-8 (invalid byte at offset 9)",
                      "source": "admission-ls"
                    }
                  ]
                }
              ],
              "summary": {
                "files": 0,
                "errors": 0,
                "warnings": 0,
                "policyFiles": 0,
                "unreadable": 1
              }
            }
        "#]],
        expect![[r#"
        latin1.yaml: error: not valid UTF-8 (invalid byte at offset 9)
    "#]],
    );
}

#[test]
fn a_yaml_error_fails_with_a_snippet_and_utf16_json_columns() {
    let dir = TempDir::new("cli-yaml");
    dir.write("broken.yaml", "name: \"é😀x\" }\nok: 1\n");
    dir.write("clean.yaml", POLICY);
    let text = run(dir.path(), &["check"]);
    check_output(
        &text,
        1,
        expect![[r#"
            broken.yaml:1:13: error[yaml-syntax] (refused on create): invalid trailing content after double-quoted scalar
              |
            1 | name: "é😀x" }
              |             ^

            checked 2 files: 1 error, 0 warnings
        "#]],
        expect![""],
    );
    let json = run(dir.path(), &["check", "--format", "json", "broken.yaml"]);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    let compact = serde_json::to_string(&report["files"][0]["diagnostics"]).expect("json");
    expect![[r#"[{"code":"yaml-syntax","message":"invalid trailing content after double-quoted scalar","prediction":"refused-on-create","range":{"end":{"character":14,"line":0},"start":{"character":13,"line":0}},"severity":"error","source":"admission-ls"}]"#]]
        .assert_eq(&compact);
    assert_eq!(json.status, Some(1));
}

#[test]
fn the_exit_status_and_json_follow_the_diagnostics() {
    let dir = TempDir::new("cli-errors");
    let broken = format!("{POLICY}  - expression: \"object.spec.\"\n    message: [\n");
    dir.write("broken.yaml", &broken);
    let diagnostics = diagnostics_for_text(&broken, &DiagnosticsConfig::default());
    let has_errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
    let run = run(dir.path(), &["check", "--format", "json", "broken.yaml"]);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    let codes: Vec<&str> = report["files"][0]["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["code"].as_str())
        .collect();
    let expected: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, expected);
    assert_eq!(report["summary"]["files"], 1);
    assert_eq!(run.status, Some(if has_errors { 1 } else { 0 }));
}

#[test]
fn explain_prints_the_documentation_of_a_code() {
    let dir = TempDir::new("cli-explain");
    let run = run(dir.path(), &["explain", "cel-undefined-field"]);
    assert_eq!(run.status, Some(0));
    assert!(!run.stdout.trim().is_empty());
    let unknown = self::run(dir.path(), &["explain", "no-such-code"]);
    assert_eq!(unknown.status, Some(2));
    assert!(
        unknown
            .stderr
            .starts_with("error: unknown diagnostic code `no-such-code`")
    );
    assert!(
        unknown.stderr.contains("\n  cel-undefined-field\n"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn a_bad_kube_version_is_a_usage_error() {
    let dir = TempDir::new("cli-kube");
    dir.write("policy.yaml", POLICY);
    let run = run(dir.path(), &["check", "--kube-version", "1.x"]);
    check_output(
        &run,
        2,
        expect![""],
        expect![[r#"
            error: invalid value '1.x' for '--kube-version <1.NN>': expected a Kubernetes version like 1.37, got `1.x`

            For more information, try '--help'.
        "#]],
    );
    let unbundled = self::run(dir.path(), &["check", "--kube-version", "1.29"]);
    check_output(
        &unbundled,
        2,
        expect![""],
        expect![[r#"
        error: invalid value '1.29' for '--kube-version <1.NN>': Kubernetes 1.29 is not supported: the bundled versions are 1.30 to 1.37

        For more information, try '--help'.
    "#]],
    );
    for good in ["1.30", "v1.30"] {
        let run = self::run(dir.path(), &["check", "--kube-version", good]);
        assert_eq!(run.status, Some(0), "{good}");
    }
}

#[test]
fn an_unknown_flag_is_a_usage_error() {
    let dir = TempDir::new("cli-usage");
    let run = run(dir.path(), &["check", "--frobnicate"]);
    assert_eq!(run.status, Some(2));
    assert!(run.stderr.contains("--frobnicate"));
}

const WIDGET_POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: widgets}
spec:
  paramKind: {apiVersion: example.com/v1, kind: Widget}
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: object.spec.replicas <= params.spec.maxReplica
";

const WIDGET_CRD: &str = "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              maxReplicas: {type: integer}
";

#[test]
fn files_checked_together_and_schema_files_type_params() {
    let dir = TempDir::new("cli-schema");
    dir.write("policy.yaml", WIDGET_POLICY);
    dir.write("crds/widget.yaml", WIDGET_CRD);
    // Alone, the paramKind is unknown: a warning, and params is untyped.
    let alone = run(dir.path(), &["check", "policy.yaml"]);
    assert_eq!(alone.status, Some(0), "{}", alone.stdout);
    assert!(
        alone.stdout.contains("warning[unresolved-reference]"),
        "{}",
        alone.stdout
    );
    // With the CRD given by --schema (not reported on) or as an input, params is typed.
    for args in [
        &["check", "policy.yaml", "--schema", "crds/widget.yaml"][..],
        &["check", "."][..],
    ] {
        let typed = run(dir.path(), args);
        assert_eq!(typed.status, Some(1), "{}", typed.stdout);
        assert!(
            typed
                .stdout
                .contains("undefined field 'maxReplica'; did you mean 'maxReplicas'?"),
            "{}",
            typed.stdout
        );
    }
}

/// A bare `admission-ls` on a terminal prints a short help and exits instead of waiting silently
/// for LSP input; `script` gives the binary a pseudo-terminal as stdin. Without the fix the
/// binary waits, the timeout kills it and the help is missing.
#[cfg(target_os = "linux")]
#[test]
fn no_arguments_on_a_terminal_print_a_short_help() {
    let mut child = Command::new("script")
        .args(["-qec", BINARY, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run script (util-linux)");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while child.try_wait().expect("poll").is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let finished = child.try_wait().expect("poll").is_some();
    if !finished {
        let _ = child.kill();
    }
    let output = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(finished, "admission-ls waited on a terminal: {stdout}");
    assert!(stdout.contains("admission-ls check [PATH…]"), "{stdout}");
    assert!(stdout.contains("admission-ls serve"), "{stdout}");
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn a_schema_folder_gives_every_crd_in_it() {
    let dir = TempDir::new("cli-schema-dir");
    dir.write("policy.yaml", WIDGET_POLICY);
    dir.write("crds/nested/widget.yaml", WIDGET_CRD);
    dir.write("crds/readme.txt", "not yaml, not read");
    let typed = run(dir.path(), &["check", "policy.yaml", "--schema", "crds"]);
    assert_eq!(typed.status, Some(1), "{}", typed.stdout);
    assert!(
        typed
            .stdout
            .contains("undefined field 'maxReplica'; did you mean 'maxReplicas'?"),
        "{}",
        typed.stdout
    );
    assert!(typed.stdout.contains("checked 1 file:"), "{}", typed.stdout);
}

#[test]
fn exclude_leaves_out_what_a_walk_finds() {
    let dir = TempDir::new("cli-exclude");
    dir.write("policy.yaml", POLICY);
    dir.write("vendor/broken.yaml", "a: [\n");
    dir.write("deploy/x.test.yaml", "a: [\n");
    let all = run(dir.path(), &["check", "."]);
    assert_eq!(all.status, Some(1), "{}", all.stdout);
    let excluded = run(
        dir.path(),
        &[
            "check",
            ".",
            "--exclude",
            "vendor",
            "--exclude",
            "**/*.test.yaml",
        ],
    );
    check_output(
        &excluded,
        0,
        expect![[r#"
            checked 1 file: 0 errors, 0 warnings
        "#]],
        expect![""],
    );
}

#[test]
fn a_dash_reads_standard_input_reported_as_stdin() {
    use std::io::Write as _;
    let dir = TempDir::new("cli-stdin");
    let mut child = Command::new(BINARY)
        .args(["check", "-", "--format", "json"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run binary");
    let broken = POLICY.replace("<= 5", "<= ");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(broken.as_bytes())
        .expect("write stdin");
    let output = child.wait_with_output().expect("wait");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(report["files"][0]["path"], "<stdin>", "{stdout}");
    assert_eq!(
        report["files"][0]["diagnostics"][0]["code"], "cel-syntax",
        "{stdout}"
    );
}

/// A repository with a Helm chart and a kustomization: the chart's templates are checked with
/// their actions masked (no syntax error), a `.tpl` named on the command line, a template that
/// cannot be read once masked and a JSON 6902 patch are each reported once as skipped with the
/// reason, in the text and the JSON output, and the run passes.
#[test]
fn chart_templates_and_kustomize_patches_are_read_or_skipped_with_a_reason() {
    let dir = TempDir::new("cli-helm");
    dir.write(
        "chart/Chart.yaml",
        "apiVersion: v2\nname: c\nversion: 1.0.0\n",
    );
    let template = format!(
        "{{{{- if .Values.enabled }}}}\n{}{{{{- end }}}}\n",
        POLICY.replace("replica-limit.example.com", "{{ .Release.Name }}")
    );
    dir.write("chart/templates/policy.yaml", &template);
    dir.write(
        "chart/templates/broken.yaml",
        "metadata:\n  name: x\n {{ .Values.k }}: y\n",
    );
    dir.write(
        "chart/templates/_helpers.tpl",
        "{{- define \"c.name\" }}c{{ end }}\n",
    );
    dir.write(
        "config/kustomization.yaml",
        "resources: [crd.yaml]\npatches:\n- path: patches/group.yaml\n- path: patches/ops.yaml\n",
    );
    dir.write(
        "config/patches/group.yaml",
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n\
         metadata:\n  name: widgets.example.com\nspec:\n  conversion:\n    strategy: None\n",
    );
    dir.write("config/patches/ops.yaml", "- op: remove\n  path: /spec/x\n");
    let run = run(dir.path(), &["check", ".", "chart/templates/_helpers.tpl"]);
    check_output(
        &run,
        0,
        expect![[r#"
            chart/templates/broken.yaml: note: skipped: a Helm template whose YAML does not parse once its template actions are masked (line 3: while parsing a block mapping, did not find expected key)
            config/patches/ops.yaml: note: skipped: a JSON 6902 patch a kustomization names (a list of operations on another document)
            chart/templates/_helpers.tpl: note: skipped: a Helm helper template (.tpl): Go template text, not YAML

            checked 7 files: 0 errors, 0 warnings; 3 files skipped
        "#]],
        expect![""],
    );
    let json = self::run(dir.path(), &["check", "--format", "json", "."]);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    let skipped: Vec<String> = report["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f.get("skipped").is_some())
        .map(|f| format!("{} {}", f["path"], f["skipped"]))
        .collect();
    expect![[r#"
        "chart/templates/broken.yaml" "a Helm template whose YAML does not parse once its template actions are masked (line 3: while parsing a block mapping, did not find expected key)"
        "config/patches/ops.yaml" "a JSON 6902 patch a kustomization names (a list of operations on another document)""#]].assert_eq(&skipped.join("\n"));
    expect![[r#"{"errors":0,"files":6,"policyFiles":1,"skipped":2,"unreadable":0,"warnings":0}"#]]
        .assert_eq(&report["summary"].to_string());
}
