//! `admission-ls init` end to end: the suite is the only file written (created new, never through
//! a symlink, dangling or not), file names YAML would misread are quoted, and the templates for a
//! MutatingAdmissionPolicy (a case with the expected object), a policy with a `paramKind` (a params
//! object) and a custom resource (its CRD from the policy's folder in `resources:`, a `spec` with
//! the required fields) give suites that pass under `admission-ls test` as written.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/tempdir.rs"]
mod tempdir;

use std::path::Path;

use cli::{run, timeless};
use expect_test::{Expect, expect};
use tempdir::TempDir;

/// `init` on `policy` (a path in `dir`), then `test` on the suite it wrote: both must succeed.
fn init_and_test(policy: &Path) -> (String, String) {
    let policy = policy.display().to_string();
    let (code, stdout, stderr) = run(&["init", &policy]);
    assert_eq!(code, 0, "init {policy}: {stdout}{stderr}");
    let suite = stdout
        .strip_prefix("wrote ")
        .and_then(|rest| rest.split(" (2 cases").next())
        .expect("init names the suite it wrote")
        .to_owned();
    let (code, out, err) = run(&["test", &suite]);
    assert_eq!(code, 0, "test {suite}: {out}{err}");
    (
        std::fs::read_to_string(&suite).expect("the suite"),
        timeless(&out),
    )
}

#[cfg(unix)]
#[test]
fn init_writes_through_no_symlink_dangling_or_not() {
    let dir = TempDir::new("init-symlink");
    let policy = dir.path().join("policy.yaml");
    std::fs::copy("examples/required-labels.yaml", &policy).expect("copy");
    let elsewhere = TempDir::new("init-symlink-target");
    let target = elsewhere.path().join("created-by-init.yaml");
    std::os::unix::fs::symlink(&target, dir.path().join("policy.test.yaml")).expect("link");
    let (code, _, stderr) = run(&["init", &policy.display().to_string()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("policy.test.yaml is a symbolic link; it is not written through"),
        "{stderr}"
    );
    assert!(!target.exists(), "init created the link's target");

    let existing = elsewhere.write("existing.yaml", "keep: me\n");
    std::fs::remove_file(dir.path().join("policy.test.yaml")).expect("unlink");
    std::os::unix::fs::symlink(&existing, dir.path().join("policy.test.yaml")).expect("link");
    let (code, _, stderr) = run(&["init", &policy.display().to_string()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("is a symbolic link"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&existing).expect("read"),
        "keep: me\n"
    );
}

/// File names with YAML's indicators give suites that name the right file.
#[test]
fn init_quotes_file_names_yaml_would_misread() {
    let dir = TempDir::new("init-names");
    for name in [
        "team #1.yaml",
        "a: b.yaml",
        "[x].yaml",
        "{y}.yaml",
        "\"quoted\".yaml",
        "'single'.yaml",
        "- dash.yaml",
        "& * ! | > % @ `.yaml",
    ] {
        let policy = dir.path().join(name);
        std::fs::copy("examples/required-labels.yaml", &policy).expect("copy");
        let (suite, report) = init_and_test(&policy);
        assert!(
            report.ends_with("2 passed, 0 failed in …ms\n"),
            "{name}: {report}"
        );
        let listed = suite
            .lines()
            .skip_while(|line| *line != "policies:")
            .nth(1)
            .unwrap_or_default()
            .to_owned();
        assert!(listed.starts_with("  - \""), "{name}: {listed}");
    }
}

#[track_caller]
fn check_template(example: &str, extra: &[&str], expect: Expect) {
    let dir = TempDir::new("init-template");
    let policy = dir
        .path()
        .join(Path::new(example).file_name().expect("a file"));
    std::fs::copy(example, &policy).expect("copy");
    for file in extra {
        let to = dir
            .path()
            .join(Path::new(file).file_name().expect("a file"));
        std::fs::copy(file, to).expect("copy");
    }
    let (suite, report) = init_and_test(&policy);
    assert!(report.ends_with("2 passed, 0 failed in …ms\n"), "{report}");
    expect.assert_eq(&suite);
}

#[test]
fn init_of_a_mutating_policy_expects_the_mutated_object() {
    check_template(
        "examples/sidecar-injection.yaml",
        &[],
        expect![[r##"
            # A test suite for the MutatingAdmissionPolicy 'logging-sidecar', written by `admission-ls init`.
            # Schema: schemas/policytest.schema.json in the admission-ls repository.
            apiVersion: admission-ls.dev/v1alpha1
            kind: PolicyTest
            metadata:
              name: logging-sidecar
            policies:
              - sidecar-injection.yaml
            cases:
              - name: a mutated Pod
                policy: logging-sidecar
                object:
                  apiVersion: "v1"
                  kind: "Pod"
                  metadata:
                    labels:
                      logging: "enabled"
                    name: "example"
                    namespace: "default"
                  spec:
                    containers: [{"image":"registry.example.com/app:1.0","name":"app"}]
                namespace:
                  apiVersion: "v1"
                  kind: "Namespace"
                  metadata:
                    labels:
                      environment: "true"
                    name: "default"
                expect:
                  decision: allow
                  object:
                    apiVersion: "v1"
                    kind: "Pod"
                    metadata:
                      creationTimestamp: null
                      labels:
                        logging: "enabled"
                      name: "example"
                      namespace: "default"
                    spec:
                      containers: [{"image":"registry.example.com/app:1.0","imagePullPolicy":"IfNotPresent","name":"app","terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"},{"image":"registry.example.com/log-shipper:1.4","imagePullPolicy":"IfNotPresent","name":"log-shipper","terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}]
                      dnsPolicy: "ClusterFirst"
                      enableServiceLinks: true
                      restartPolicy: "Always"
                      schedulerName: "default-scheduler"
                      securityContext: {}
                      terminationGracePeriodSeconds: 30
              - name: a Pod left alone
                # This skeleton object is answered `allow` today: edit it until the policy
                # answers `skip`, then set the decision below to `skip`.
                policy: logging-sidecar
                object:
                  apiVersion: "v1"
                  kind: "Pod"
                  metadata:
                    labels:
                      logging: "enabled"
                    name: "example"
                    namespace: "default"
                  spec:
                    containers: [{"image":"registry.example.com/app:1.0","name":"app"}]
                namespace:
                  apiVersion: "v1"
                  kind: "Namespace"
                  metadata:
                    labels:
                      environment: "true"
                    name: "default"
                expect:
                  decision: allow
        "##]],
    );
}

#[test]
fn init_of_a_policy_with_params_writes_a_params_object() {
    check_template(
        "examples/replica-limit.yaml",
        &["examples/crds/replicalimits.example.com.yaml"],
        expect![[r##"
            # A test suite for the ValidatingAdmissionPolicy 'replica-limit.example.com', written by `admission-ls init`.
            # Schema: schemas/policytest.schema.json in the admission-ls repository.
            apiVersion: admission-ls.dev/v1alpha1
            kind: PolicyTest
            metadata:
              name: replica-limit.example.com
            policies:
              - replica-limit.yaml
            cases:
              - name: an allowed Deployment
                # This skeleton object is answered `error` today: edit it until the policy
                # answers `allow`, then set the decision below to `allow`.
                policy: replica-limit.example.com
                object:
                  apiVersion: "apps/v1"
                  kind: "Deployment"
                  metadata:
                    name: "example"
                    namespace: "default"
                  spec:
                    selector:
                      matchLabels:
                        app: "example"
                    template:
                      metadata:
                        labels:
                          app: "example"
                      spec:
                        containers: [{"image":"registry.example.com/app:1.0","name":"app"}]
                params:
                  apiVersion: "policy.example.com/v1"
                  kind: "ReplicaLimit"
                  metadata:
                    name: "example-params"
                    namespace: "default"
                  spec: {}
                namespace:
                  apiVersion: "v1"
                  kind: "Namespace"
                  metadata:
                    labels:
                      environment: "production"
                    name: "default"
                expect:
                  decision: error
              - name: a denied Deployment
                # This skeleton object is answered `error` today: edit it until the policy
                # answers `deny`, then set the decision below to `deny`.
                policy: replica-limit.example.com
                object:
                  apiVersion: "apps/v1"
                  kind: "Deployment"
                  metadata:
                    name: "example"
                    namespace: "default"
                  spec:
                    selector:
                      matchLabels:
                        app: "example"
                    template:
                      metadata:
                        labels:
                          app: "example"
                      spec:
                        containers: [{"image":"registry.example.com/app:1.0","name":"app"}]
                params:
                  apiVersion: "policy.example.com/v1"
                  kind: "ReplicaLimit"
                  metadata:
                    name: "example-params"
                    namespace: "default"
                  spec: {}
                namespace:
                  apiVersion: "v1"
                  kind: "Namespace"
                  metadata:
                    labels:
                      environment: "production"
                    name: "default"
                expect:
                  decision: error
        "##]],
    );
}

#[test]
fn init_of_a_custom_resource_policy_lists_the_crd_and_writes_a_spec() {
    check_template(
        "tests/cli_fixtures/widget-policy.yaml",
        &["tests/cli_fixtures/widget-crd.yaml"],
        expect![[r##"
            # A test suite for the ValidatingAdmissionPolicy 'small-widgets', written by `admission-ls init`.
            # Schema: schemas/policytest.schema.json in the admission-ls repository.
            apiVersion: admission-ls.dev/v1alpha1
            kind: PolicyTest
            metadata:
              name: small-widgets
            policies:
              - widget-policy.yaml
            resources:
              - widget-crd.yaml
            cases:
              - name: an allowed Widget
                policy: small-widgets
                object:
                  apiVersion: "example.com/v1"
                  kind: "Widget"
                  metadata:
                    name: "example"
                    namespace: "default"
                  spec: {}
                expect:
                  decision: allow
              - name: a denied Widget
                # This skeleton object is answered `allow` today: edit it until the policy
                # answers `deny`, then set the decision below to `deny`.
                policy: small-widgets
                object:
                  apiVersion: "example.com/v1"
                  kind: "Widget"
                  metadata:
                    name: "example"
                    namespace: "default"
                  spec: {}
                expect:
                  decision: allow
        "##]],
    );
}
