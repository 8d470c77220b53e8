//! The project configuration file `.admission-ls.yaml` with `check`, run as the built binary on
//! temporary folders holding one: found upward from the checked path (not above a `.git`
//! folder), every key applied, flags overriding it, and its typos, wrong types and YAML errors
//! reported at their line and column.

#[path = "support/tempdir.rs"]
mod tempdir;

use std::path::Path;
use std::process::Command;

use expect_test::{Expect, expect};
use tempdir::TempDir;

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

/// A policy at an API version Kubernetes 1.34 and newer no longer serve: clean at 1.31 only.
const OLD_POLICY: &str = "\
apiVersion: admissionregistration.k8s.io/v1beta1
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
";

/// A policy whose params are typed by the Widget CRD below: `maxReplica` is a typo.
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

#[track_caller]
fn check_output(run: &Run, status: i32, stdout: Expect) {
    stdout.assert_eq(&run.stdout);
    assert_eq!(run.status, Some(status), "{}{}", run.stdout, run.stderr);
}

/// A repository whose configuration pins 1.31, turns a code off, leaves `vendor` out and names a
/// CRD folder: every key is applied, also when `check` runs in a subfolder.
fn pinned_repository() -> TempDir {
    let dir = TempDir::new("config-pinned");
    dir.write(
        ".admission-ls.yaml",
        "kubernetesVersion: \"1.31\"\nschemaPaths: [schemas]\nexclude: [vendor]\n\
         diagnostics:\n  disabled: [unknown-field]\n",
    );
    // An unknown field: a warning unless the code is turned off.
    let old = OLD_POLICY.replace("spec:\n", "spec:\n  failurPolicy: Fail\n");
    dir.write("policies/old.yaml", old);
    dir.write("policies/widgets.yaml", WIDGET_POLICY);
    dir.write("policies/vendor/broken.yaml", "a: [\n");
    dir.write("schemas/widget.yaml", WIDGET_CRD);
    dir
}

#[test]
fn every_key_of_the_file_found_upward_is_applied() {
    let dir = pinned_repository();
    // From the subfolder: the file is found one folder up, its paths are relative to it.
    let run = run(&dir.path().join("policies"), &["check", "."]);
    check_output(
        &run,
        1,
        expect![[r#"
            widgets.yaml:10:53: error[cel-undefined-field] (fails at admission): spec.validations[0].expression: undefined field 'maxReplica'; did you mean 'maxReplicas'? (in apps/v1, Kind=Deployment)
               |
            10 |   - expression: object.spec.replicas <= params.spec.maxReplica
               |                                                     ^^^^^^^^^^

            checked 2 files: 1 error, 0 warnings
        "#]],
    );
}

#[test]
fn flags_override_the_file_and_no_config_ignores_it() {
    let dir = pinned_repository();
    let newer = run(
        dir.path(),
        &["check", "policies/old.yaml", "--kube-version", "1.34"],
    );
    assert_eq!(newer.status, Some(1), "{}", newer.stdout);
    assert!(
        newer.stdout.contains("is not served by Kubernetes 1.34"),
        "{}",
        newer.stdout
    );
    let ignored = run(dir.path(), &["check", "policies", "--no-config"]);
    assert_eq!(ignored.status, Some(1), "{}", ignored.stdout);
    assert!(ignored.stdout.contains("broken.yaml"), "{}", ignored.stdout);
    assert!(
        ignored.stdout.contains("warning[unknown-field]"),
        "{}",
        ignored.stdout
    );
    assert!(
        ignored.stdout.contains("warning[unresolved-reference]"),
        "the CRD folder of the file is not read: {}",
        ignored.stdout
    );
    // --config names another file; its settings replace the one found.
    dir.write("strict.yaml", "kubernetesVersion: \"1.35\"\n");
    let named = run(
        dir.path(),
        &["check", "policies/old.yaml", "--config", "strict.yaml"],
    );
    assert!(
        named.stdout.contains("is not served by Kubernetes 1.35"),
        "{}",
        named.stdout
    );
}

#[test]
fn typos_and_wrong_types_are_errors_with_line_and_column() {
    let dir = TempDir::new("config-typos");
    dir.write(
        ".admission-ls.yaml",
        "kubernetesVersoin: \"1.31\"\nstrict: maybe\nexclude:\n- vendor\n- 3\n",
    );
    dir.write("policy.yaml", OLD_POLICY);
    let run = run(dir.path(), &["check", "policy.yaml"]);
    check_output(
        &run,
        1,
        expect![[r#"
            .admission-ls.yaml:1:1: error[config] (configuration): unknown configuration key 'kubernetesVersoin'; did you mean 'kubernetesVersion'?
              |
            1 | kubernetesVersoin: "1.31"
              | ^^^^^^^^^^^^^^^^^
            .admission-ls.yaml:2:9: error[config] (configuration): expected true or false for strict, found string
              |
            2 | strict: maybe
              |         ^^^^^
            .admission-ls.yaml:5:3: error[config] (configuration): expected a non-empty string in exclude, found integer
              |
            5 | - 3
              |   ^
            policy.yaml:1:13: error[not-supported] (refused on create): apiVersion: Unsupported value: "admissionregistration.k8s.io/v1beta1": ValidatingAdmissionPolicy v1beta1 is not served by Kubernetes 1.37; it was last served by 1.33
              |
            1 | apiVersion: admissionregistration.k8s.io/v1beta1
              |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^

            checked 2 files: 4 errors, 0 warnings
        "#]],
    );
}

#[test]
fn a_file_that_is_not_yaml_is_an_error_at_its_position() {
    let dir = TempDir::new("config-yaml");
    dir.write(".admission-ls.yml", "exclude: [vendor\n");
    dir.write("policy.yaml", OLD_POLICY.replace("v1beta1", "v1"));
    let run = run(dir.path(), &["check", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(
        report["files"][0]["path"], ".admission-ls.yml",
        "{}",
        run.stdout
    );
    let first = &report["files"][0]["diagnostics"][0];
    assert_eq!(first["code"], "config");
    assert!(
        first["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("not valid YAML: ")),
        "{first}"
    );
    assert_eq!(first["range"]["start"]["line"], 1, "{first}");
    assert_eq!(run.status, Some(1));
}

#[test]
fn the_search_stops_at_the_repository_root() {
    let dir = TempDir::new("config-git");
    dir.write(".admission-ls.yaml", "kubernetesVersion: \"1.31\"\n");
    dir.write("repo/.git/HEAD", "ref: refs/heads/main\n");
    dir.write("repo/policy.yaml", OLD_POLICY);
    let inside = run(&dir.path().join("repo"), &["check", "policy.yaml"]);
    assert!(
        inside.stdout.contains("is not served by Kubernetes 1.37"),
        "a setting above the repository must not apply: {}",
        inside.stdout
    );
    dir.write("repo/.admission-ls.yaml", "kubernetesVersion: \"1.31\"\n");
    let pinned = run(&dir.path().join("repo"), &["check", "policy.yaml"]);
    check_output(
        &pinned,
        0,
        expect![[r#"
            checked 1 file: 0 errors, 0 warnings
        "#]],
    );
}

#[test]
fn a_linked_configuration_outside_its_folder_is_not_read() {
    let dir = TempDir::new("config-link");
    dir.write("elsewhere/settings.yaml", "kubernetesVersion: \"1.31\"\n");
    dir.write("repo/policy.yaml", OLD_POLICY);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            dir.path().join("elsewhere/settings.yaml"),
            dir.path().join("repo/.admission-ls.yaml"),
        )
        .expect("symlink");
        let run = run(&dir.path().join("repo"), &["check", "policy.yaml"]);
        assert_eq!(run.status, Some(2), "{}", run.stdout);
        assert!(
            run.stderr
                .starts_with(".admission-ls.yaml: error: is a link to "),
            "{}",
            run.stderr
        );
    }
}

/// A policy and a binding for a static manifests folder, with what the loader refuses across its
/// files: a name without the suffix, a duplicate name, a binding to a policy not in the folder, a
/// webhook configuration in the folder of the policy plugin.
const STATIC_FILES: [(&str, &str); 4] = [
    (
        "static/10-policy.yaml",
        "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: deny-privileged.static.k8s.io}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: \"true\"
",
    ),
    (
        "static/20-bindings.yaml",
        "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: deny-privileged}
spec: {policyName: deny-privileged.static.k8s.io, validationActions: [Deny]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: audit.static.k8s.io}
spec: {policyName: audit.static.k8s.io, validationActions: [Audit]}
",
    ),
    (
        "static/30-again.yaml",
        "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: deny-privileged.static.k8s.io}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  validations:
  - expression: \"true\"
",
    ),
    (
        "static/40-webhook.yaml",
        "\
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: hooks.static.k8s.io}
webhooks:
- name: hook.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig: {url: \"https://hook.example.com/validate\"}
",
    ),
];

#[test]
fn a_static_manifests_folder_gets_the_loader_rules_across_its_files() {
    let dir = TempDir::new("config-static");
    dir.write(".admission-ls.yaml", "staticManifests: [static]\n");
    for (path, text) in STATIC_FILES {
        dir.write(path, text);
    }
    // A subfolder is not read by the API server: an ordinary policy file.
    dir.write(
        "static/old/policy.yaml",
        STATIC_FILES[0].1.replace(".static.k8s.io", ""),
    );
    let folder = run(dir.path(), &["check", "static", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&folder.stdout).expect("json");
    let found: Vec<String> = report["files"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|file| {
            let path = file["path"].as_str().unwrap_or("").to_owned();
            file["diagnostics"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .filter(|d| d["code"] == "static-manifest")
                .map(move |d| {
                    let line = &d["range"]["start"]["line"];
                    format!("{path}:{line}: {}", d["message"].as_str().unwrap_or(""))
                })
        })
        .collect();
    expect![[r#"
        static/20-bindings.yaml:2: ValidatingAdmissionPolicyBinding "deny-privileged" must have a name ending with ".static.k8s.io"
        static/20-bindings.yaml:8: ValidatingAdmissionPolicyBinding "audit.static.k8s.io" references policy "audit.static.k8s.io" which does not exist in the manifest directory
        static/30-again.yaml:2: duplicate ValidatingAdmissionPolicy name "deny-privileged.static.k8s.io" found in file "static/30-again.yaml" (previously seen in "static/10-policy.yaml")
        static/40-webhook.yaml:1: unsupported resource type admissionregistration.k8s.io/v1, Kind=ValidatingWebhookConfiguration: each admission plugin has its own staticManifestsDir, and this folder holds the ValidatingAdmissionPolicy plugin's manifests (first in "static/10-policy.yaml")"#]]
    .assert_eq(&found.join("\n"));
    assert_eq!(folder.status, Some(1));
    // At 1.35 the API server has no static manifests.
    let old = run(
        dir.path(),
        &["check", "static/10-policy.yaml", "--kube-version", "1.35"],
    );
    assert!(
        old.stdout.contains(
            "staticManifestsDir requires the ManifestBasedAdmissionControlConfig feature gate"
        ),
        "{}",
        old.stdout
    );
}
