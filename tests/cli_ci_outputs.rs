//! The CI-facing outputs and behaviours of the command line: `check --format sarif` validated
//! against the rules of the SARIF 2.1.0 schema, `check --format github` workflow commands,
//! unreadable paths as entries of every machine format, the note for paths without a policy,
//! `eval` with several objects, standard input and `--exit-code`, `init` end to end, and every
//! subcommand stopping quietly when its reader closes the pipe.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/sarif_schema.rs"]
mod sarif_schema;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use cli::{run, run_with, timeless};

fn bad_utf8_file() -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("admission-ls-bad-{}.yaml", std::process::id()));
    std::fs::write(&path, b"\xff\xfe not text").expect("temp file");
    path
}

#[test]
fn sarif_validates_against_the_schema_rules() {
    let bad = bad_utf8_file();
    let bad = bad.display().to_string();
    let (code, stdout, _) = run(&["check", "examples/mistakes.yaml", &bad, "--format", "sarif"]);
    assert_eq!(code, 2, "an unreadable path is exit 2");
    let log: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let violations = sarif_schema::violations(&log);
    assert!(violations.is_empty(), "{violations:#?}");
    let results = log["runs"][0]["results"].as_array().expect("results");
    let first = &results[0];
    assert_eq!(first["ruleId"], "invalid");
    assert_eq!(first["level"], "error");
    let region = &first["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (region["startLine"].as_u64(), region["startColumn"].as_u64()),
        (Some(6), Some(9))
    );
    let io = results
        .iter()
        .find(|r| r["ruleId"] == "io-error")
        .expect("the unreadable file");
    assert_eq!(
        io["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        bad.as_str()
    );
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    assert!(
        results
            .iter()
            .all(|r| rules.iter().any(|rule| rule["id"] == r["ruleId"]))
    );
    // The checker rejects what the schema rejects.
    let wrong = serde_json::json!({"version": "2.0.0", "runs": [{"tool": {"driver": {}}, "results": [{"level": "fatal", "message": {}}]}]});
    assert_eq!(
        sarif_schema::violations(&wrong).len(),
        4,
        "{:?}",
        sarif_schema::violations(&wrong)
    );
    let _ = std::fs::remove_file(&bad);
}

#[test]
fn github_annotations_carry_the_range_and_escape_the_message() {
    let (code, stdout, _) = run(&["check", "examples/mistakes.yaml", "--format", "github"]);
    assert_eq!(code, 1);
    let first = stdout.lines().next().unwrap_or("");
    assert!(
        first.starts_with("::error file=examples/mistakes.yaml,line=6,col=9,endLine=6,endColumn=17,title=admission-ls invalid::metadata.name: Invalid value"),
        "{first}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("::warning file=examples/mistakes.yaml,line=45,")),
        "{stdout}"
    );
    assert!(
        stdout.lines().all(|l| l.starts_with("::")),
        "one command per line: {stdout}"
    );
}

#[test]
fn unreadable_files_are_entries_with_a_diagnostic_in_json() {
    let bad = bad_utf8_file();
    let bad = bad.display().to_string();
    let (code, stdout, stderr) = run(&[
        "check",
        &bad,
        "examples/required-labels.yaml",
        "--format",
        "json",
    ]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        format!("{bad}: error: not valid UTF-8 (invalid byte at offset 0)\n")
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let entry = json["files"]
        .as_array()
        .and_then(|files| files.iter().find(|f| f["path"] == bad.as_str()))
        .expect("an entry for the unreadable file");
    assert_eq!(entry["diagnostics"][0]["code"], "io-error");
    assert_eq!(
        entry["diagnostics"][0]["message"],
        "not valid UTF-8 (invalid byte at offset 0)"
    );
    assert_eq!(json["summary"]["unreadable"], 1);
    let _ = std::fs::remove_file(&bad);
}

#[test]
fn check_says_when_no_file_holds_a_policy() {
    let (code, stdout, _) = run(&["check", "tests/cli_fixtures/deployment.yaml"]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "checked 1 file: 0 errors, 0 warnings\nnote: none of these files holds an admission policy or binding (an admissionregistration.k8s.io apiVersion)\n"
    );
    let (_, stdout, _) = run(&["check", "examples/required-labels.yaml"]);
    assert!(!stdout.contains("note:"), "{stdout}");
}

/// A file of Kyverno policies holds policies: `check` checks them and adds no "none of these
/// files" note.
#[test]
fn check_counts_kyverno_policies_as_policies() {
    let (code, stdout, _) = run(&["check", "examples/kyverno/require-team-label.yaml"]);
    assert_eq!(code, 0);
    assert_eq!(stdout, "checked 1 file: 0 errors, 0 warnings\n");
}

#[test]
fn eval_evaluates_every_object_document_in_order() {
    let both = format!(
        "{}---\n{}",
        std::fs::read_to_string("tests/cli_fixtures/pod.yaml").expect("fixture"),
        std::fs::read_to_string("tests/cli_fixtures/deployment.yaml").expect("fixture")
    );
    let args = [
        "eval",
        "examples/required-labels.yaml",
        "--object",
        "-",
        "--format",
        "json",
    ];
    let (code, stdout, stderr) = run_with(&args, &both, &[]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let decisions: Vec<&str> = json
        .as_array()
        .expect("an array for two objects")
        .iter()
        .filter_map(|o| o["decision"].as_str())
        .collect();
    assert_eq!(decisions, ["skip", "deny"]);
    let (code, _, _) = run_with(&[&args[..], &["--exit-code"]].concat(), &both, &[]);
    assert_eq!(code, 1, "--exit-code: a deny is 1");
    let (code, stdout, _) = run(&[
        "eval",
        "examples/required-labels.yaml",
        "--object",
        "tests/cli_fixtures/pod.yaml",
        "--exit-code",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "a skip is 0 with --exit-code");
    assert!(
        stdout.trim_start().starts_with('{'),
        "one object is a JSON object: {stdout}"
    );
    let (code, _, stderr) = run_with(
        &["eval", "examples/required-labels.yaml", "--object", "-"],
        "kind: [",
        &[],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("--object: YAML syntax error"), "{stderr}");
}

#[test]
fn init_writes_a_suite_that_passes_and_never_overwrites() {
    let dir = std::env::temp_dir().join(format!("admission-ls-init-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for policy in [
        "required-labels",
        "sidecar-injection",
        "image-registry",
        "team-label",
    ] {
        let source = format!("examples/{policy}.yaml");
        let target = dir.join(format!("{policy}.yaml"));
        std::fs::copy(&source, &target).expect("copy");
        let target = target.display().to_string();
        let (code, stdout, stderr) = run(&["init", &target]);
        assert_eq!(code, 0, "{policy}: {stderr}");
        let suite = dir
            .join(format!("{policy}.test.yaml"))
            .display()
            .to_string();
        assert_eq!(
            stdout,
            format!("wrote {suite} (2 cases; run it with `admission-ls test {suite}`)\n")
        );
        let (code, stdout, stderr) = run(&["test", &suite]);
        assert_eq!(code, 0, "{policy}: {stdout}{stderr}");
        assert!(
            timeless(&stdout).ends_with("2 passed, 0 failed in …ms\n"),
            "{stdout}"
        );
        let before = std::fs::read_to_string(&suite).expect("the suite");
        let (code, _, stderr) = run(&["init", &target]);
        assert_eq!(code, 2);
        assert!(
            stderr.contains("already exists; it is not overwritten"),
            "{stderr}"
        );
        assert_eq!(std::fs::read_to_string(&suite).expect("the suite"), before);
    }
    let (code, _, stderr) = run(&["init", "tests/cli_fixtures/deployment.yaml"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("holds no ValidatingAdmissionPolicy or MutatingAdmissionPolicy"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder with enough output for any format to outrun the pipe's buffer (64 KiB on Linux): 20
/// copies of `examples/mistakes.yaml` and 60 of the kaptest fixture manifest beside its files.
fn big_workspace() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("admission-ls-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mistakes = std::fs::read_to_string("examples/mistakes.yaml").expect("fixture");
    for name in ["policies.yaml", "resources.yaml", "crd.yaml"] {
        std::fs::copy(format!("tests/kaptest_current/{name}"), dir.join(name)).expect("copy");
    }
    let manifest = std::fs::read_to_string("tests/kaptest_current/kaptest.yaml").expect("fixture");
    for i in 0..20 {
        std::fs::write(dir.join(format!("mistakes-{i}.yaml")), &mistakes).expect("write");
    }
    for i in 0..60 {
        std::fs::write(dir.join(format!("kaptest-{i}.yaml")), &manifest).expect("write");
    }
    dir
}

/// Runs the binary, reads one line of its output and closes the pipe; the status must be the
/// SIGPIPE-style 141 (or 0/1 when it finished writing first), never a panic. Returns the status.
fn close_after_first_line(args: &[&str], stdin: &str) -> Option<i32> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_admission-ls"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Written from a thread: a child that does not read its input must not block the test.
    let input = child.stdin.take();
    let stdin = stdin.to_string();
    let writer = std::thread::spawn(move || {
        if let Some(mut input) = input {
            use std::io::Write;
            let _ = input.write_all(stdin.as_bytes());
        }
    });
    let stdout = child.stdout.take().expect("stdout");
    let mut reader = BufReader::new(stdout);
    let mut line = String::new();
    let _ = reader.read_line(&mut line);
    drop(reader);
    let output = child.wait_with_output().expect("the binary ends");
    let _ = writer.join();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let code = output.status.code();
    assert!(
        matches!(code, Some(0 | 1 | 141)),
        "{args:?}: status {code:?}, stderr {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    code
}

#[test]
fn every_subcommand_stops_quietly_on_a_closed_pipe() {
    let dir = big_workspace();
    let big = dir.display().to_string();
    let deployment =
        std::fs::read_to_string("tests/cli_fixtures/deployment.yaml").expect("fixture");
    let objects = vec![deployment; 300].join("---\n");
    let outrun = [
        vec!["check", big.as_str()],
        vec!["check", big.as_str(), "--format", "json"],
        vec!["check", big.as_str(), "--format", "sarif"],
        vec!["check", big.as_str(), "--format", "github"],
        vec![
            "eval",
            "examples/required-labels.yaml",
            "--object",
            "-",
            "--format",
            "json",
        ],
        vec!["eval", "examples/required-labels.yaml", "--object", "-"],
        vec!["test", big.as_str(), "-v"],
        vec!["test", big.as_str(), "--format", "junit"],
        vec!["test", big.as_str(), "--format", "json"],
    ];
    for args in outrun {
        let input = if args[0] == "eval" {
            objects.as_str()
        } else {
            ""
        };
        let code = close_after_first_line(&args, input);
        assert_eq!(
            code,
            Some(141),
            "{args:?} outruns the pipe, so it must see it closed"
        );
    }
    // Short outputs may finish before the pipe closes; they must not panic either way.
    for args in [
        vec!["explain", "cel-cost"],
        vec!["--help"],
        vec!["check", "--help"],
        vec!["--version"],
    ] {
        close_after_first_line(&args, "");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
