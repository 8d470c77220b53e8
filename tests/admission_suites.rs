//! The PolicyTest suites in `tests/suites/` and `examples/tests/`: every case of the good suites
//! passes, and every bad-input case fails with a message naming what is wrong while the others run.

use std::path::{Path, PathBuf};

use admission_ls::ide::run::{SuiteReport, run_tests, tests_json};

fn suite_files(dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            suite_files(&path, out);
        } else if path.to_string_lossy().ends_with(".test.yaml") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            out.push((path.display().to_string(), text));
        }
    }
}

fn run(relative: &str) -> Vec<SuiteReport> {
    let mut files = Vec::new();
    suite_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(relative),
        &mut files,
    );
    assert!(!files.is_empty(), "no suites under {relative}");
    let load = |p: &str| std::fs::read_to_string(p).map_err(|e| e.to_string());
    run_tests(&files, &load)
}

fn assert_all_pass(relative: &str, at_least: usize) {
    let reports = run(relative);
    let cases: usize = reports.iter().map(|r| r.cases.len()).sum();
    let failing: Vec<String> = reports
        .iter()
        .flat_map(|r| {
            let errors = r.errors.iter().map(move |e| format!("{}: {e}", r.path));
            let cases = r.cases.iter().filter(|c| !c.passed).map(move |c| {
                format!(
                    "{}: {}: {:?}\n{}",
                    r.path,
                    c.name,
                    c.error,
                    c.failures.join("\n")
                )
            });
            errors.chain(cases)
        })
        .collect();
    println!("{relative}: {} cases", cases);
    assert!(failing.is_empty(), "{}", failing.join("\n\n"));
    assert!(
        cases >= at_least,
        "expected at least {at_least} cases, ran {cases}"
    );
}

#[test]
fn validating_suites_pass() {
    assert_all_pass("tests/suites/validating", 18);
}

#[test]
fn mutating_suites_pass() {
    assert_all_pass("tests/suites/mutating", 26);
}

#[test]
fn dispatch_suites_pass() {
    assert_all_pass("tests/suites/dispatch", 9);
}

/// A binding the API server would refuse to create errors the case that uses it, with what
/// `check` reports (k/k `pkg/apis/admissionregistration/validation/validation.go`
/// `validateValidationActions`), whether the case names it or it is found by its policyName.
#[test]
fn a_refused_binding_errors_the_case() {
    let reports = run("tests/suites/refused");
    let errors: Vec<String> = reports
        .iter()
        .flat_map(|r| &r.cases)
        .map(|c| format!("{}: {}", c.name, c.error.clone().unwrap_or_default()))
        .map(|e| e.replace(concat!(env!("CARGO_MANIFEST_DIR"), "/"), ""))
        .collect();
    expect_test::expect![[r#"
        [
            "the binding found by its policyName: binding 'deny-and-warn' has errors: tests/suites/refused/policies.yaml:22:22: spec.validationActions: Invalid value: [\"Deny\",\"Warn\"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
            "the binding named by the case: binding 'deny-and-warn' has errors: tests/suites/refused/policies.yaml:22:22: spec.validationActions: Invalid value: [\"Deny\",\"Warn\"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
        ]
    "#]].assert_debug_eq(&errors);
}

#[test]
fn defaulting_suites_pass() {
    assert_all_pass("tests/suites/defaults", 7);
}

#[test]
fn example_suites_pass() {
    assert_all_pass("examples/tests", 5);
}

#[test]
fn bad_input_names_the_problem_and_other_cases_still_run() {
    let reports = run("tests/suites/bad");
    let [report] = reports.as_slice() else {
        panic!("one bad suite expected, got {}", reports.len());
    };
    let errors = report.errors.join("\n");
    assert!(
        errors.contains("cannot read policy file missing-policies.yaml"),
        "{errors}"
    );
    assert!(
        errors.contains("cannot read resource file missing-resources.yaml"),
        "{errors}"
    );
    let message = |name: &str| {
        let case = report.cases.iter().find(|c| c.name == name).map(|c| {
            let text = c
                .error
                .iter()
                .chain(&c.failures)
                .cloned()
                .collect::<Vec<_>>();
            (c.passed, text.join("\n"))
        });
        case.unwrap_or_else(|| panic!("no case {name}"))
    };
    let expectations = [
        (
            "names a policy that does not exist",
            "policy 'nowhere' not found",
        ),
        (
            "names a resource that does not exist",
            "object Deployment/ghost not found",
        ),
        ("a policy with errors", "policy 'broken' has errors: "),
        (
            "an object without apiVersion and kind",
            "the object has no apiVersion or kind",
        ),
        (
            "an object of a kind without a schema cannot be mutated",
            "Resource kind example.com/v1, Kind=Widget not found",
        ),
    ];
    for (name, expected) in expectations {
        let (passed, text) = message(name);
        assert!(!passed, "{name} should fail");
        assert!(text.contains(expected), "{name}: {text}");
    }
    assert!(message("the other cases still run").0);
    let json = tests_json(&reports);
    // Cases that could not run are counted apart from those that ran and failed.
    assert_eq!(json["summary"]["failed"], 1);
    assert_eq!(json["summary"]["errored"], 4);
    assert_eq!(json["summary"]["passed"], 1);
}

/// The editor shows failing cases as `test-failed` diagnostics on the case; this renders them the
/// way the CLI renders diagnostics, for the bad-input suite.
#[test]
fn failing_cases_become_test_failed_diagnostics_on_the_case() {
    let reports = run("tests/suites/bad");
    let mut rendered = String::new();
    for report in &reports {
        let text = std::fs::read_to_string(&report.path).unwrap_or_default();
        let mut problems = admission_ls::ide::lenses::case_problems(report);
        problems.truncate(2);
        let options = admission_ls::ide::RenderOptions { snippets: true };
        rendered.push_str(&admission_ls::ide::render_diagnostics(
            "bad.test.yaml",
            &text,
            &problems,
            options,
        ));
    }
    expect_test::expect![[r#"
        bad.test.yaml:12:5: error[test-failed] (test case): test case 'names a policy that does not exist' failed: policy 'nowhere' not found in the suite's policy files
           |
        12 |   - name: names a policy that does not exist
           |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        bad.test.yaml:16:5: error[test-failed] (test case): test case 'names a resource that does not exist' failed: object Deployment/ghost not found in the suite's resources
           |
        16 |   - name: names a resource that does not exist
           |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
    "#]].assert_eq(&rendered);
}

/// `kubeVersion` read as written: an unquoted YAML `1.30` is 1.30 (not the float 1.3), `v1.31`
/// works, and a version without bundled schemas stops the suite with the bundled range.
#[test]
fn suite_kube_versions_are_read_as_written() {
    let suite = |version: &str| {
        format!(
            "apiVersion: admission-ls.dev/v1alpha1\nkind: PolicyTest\nmetadata: {{name: v}}\n\
             kubeVersion: {version}\npolicies: []\ncases: []\n"
        )
    };
    let load = |_: &str| Err("no files".to_string());
    for (version, error) in [
        ("1.30", None),
        ("v1.31", None),
        ("\"1.32\"", None),
        (
            "1.29",
            Some(
                "kubeVersion: Kubernetes 1.29 is not supported: the bundled versions are 1.30 to 1.37",
            ),
        ),
        (
            "1.3",
            Some(
                "kubeVersion: Kubernetes 1.3 is not supported: the bundled versions are 1.30 to 1.37",
            ),
        ),
    ] {
        let files = vec![("v.test.yaml".to_string(), suite(version))];
        let reports = run_tests(&files, &load);
        let errors: Vec<&str> = reports[0].errors.iter().map(String::as_str).collect();
        assert_eq!(errors, error.into_iter().collect::<Vec<_>>(), "{version}");
    }
}

/// Custom-resource cases (`expect.valid`): objects validated against the suite's CRDs as the API
/// server validates them, with their exact errors (issue 16).
#[test]
fn custom_resource_suites_pass() {
    assert_all_pass("tests/suites/custom_resources", 4);
}

/// A custom-resource case whose expectation is wrong fails and says what differs; an object no
/// CRD serves cannot run.
#[test]
fn custom_resource_cases_fail_with_what_differs() {
    let reports = run("tests/suites/custom_resources_failing");
    let lines: Vec<String> = reports
        .iter()
        .flat_map(|r| &r.cases)
        .map(|c| {
            let text: Vec<String> = c.error.iter().chain(&c.failures).cloned().collect();
            format!("{} passed={}: {}", c.name, c.passed, text.join(" | "))
        })
        .collect();
    expect_test::expect![[r#"
        expected valid but a rule fails passed=false: expected valid, got invalid: spec.size: Invalid value: size 7 needs mode slow
        expected other errors passed=false: expected invalid, got valid | errors: expected ["spec: Required value"], got []
        a kind no CRD serves passed=false: no CustomResourceDefinition in the suite's resources serves example.com/v2, Kind=Widget"#]]
    .assert_eq(&lines.join("\n"));
}

/// gator suites (`test.gatekeeper.sh/v1alpha1` `Suite`) judged as `gator verify` does: counts,
/// message regular expressions, excluded namespaces, the template's match conditions (which see
/// its variables), a kind the Constraint does not match, an AdmissionReview of a DELETE (the old
/// object is reviewed), an `invalid` test; skipped cases are left out.
#[test]
fn gator_suites_pass() {
    assert_all_pass("tests/suites/gatekeeper", 13);
}

/// gator suites whose expectations are wrong fail with gator's wording; cases gator refuses (a bad
/// `violations`, a bad regular expression, a file of two objects, no assertions) and cases of
/// another engine or of an expansion error; the other cases still run.
#[test]
fn gator_failures_and_refusals_name_the_problem() {
    let reports = run("tests/suites/gatekeeper_failing");
    let lines: Vec<String> = reports
        .iter()
        .flat_map(|r| &r.cases)
        .map(|c| {
            let text = c
                .error
                .iter()
                .chain(&c.failures)
                .cloned()
                .collect::<Vec<_>>();
            let verdict = if c.passed { "ok" } else { "not ok" };
            format!("{verdict} {}: {}", c.name, text.join("; "))
        })
        .collect();
    expect_test::expect![[r#"
        [
            "not ok wrong-expectations/allowed-expected-to-violate: got 0 violations but want at least 1: got messages []",
            "not ok wrong-expectations/wrong-count: got 1 violations but want exactly 3: got messages [\"missing required label, requires all of: owner, team\"]",
            "not ok wrong-expectations/message-not-found: got 0 violations containing \"^forbidden\" but want exactly 1: got messages [\"missing required label, requires all of: owner, team\"]",
            "not ok wrong-expectations/bad-violations: assertion.violation, if set, must be a nonnegative integer, \"yes\", or \"no\"",
            "not ok wrong-expectations/bad-regex: invalid regex: regex parse error:\n    (\n    ^\nerror: unclosed group",
            "not ok wrong-expectations/two-objects: \"two-objects.yaml\" defines 2 objects",
            "not ok wrong-expectations/no-assertions: invalid case: assertions must be non-empty",
            "ok wrong-expectations/still-runs: ",
            "not ok constraint-is-valid (invalid constraint): the constraint fits its template's schema, but the test expects it to be invalid",
            "not ok rego-only/not-this-engine: the template has no K8sNativeValidation code (its Rego is not evaluated here)",
            "not ok expansion/not-supported: expansion tests (ExpansionTemplate) are not supported",
        ]
    "#]].assert_debug_eq(&lines);
    let json = tests_json(&reports);
    assert_eq!(json["summary"]["passed"], 1);
}
