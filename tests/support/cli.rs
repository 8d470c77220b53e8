//! Running the built binary from the repository root, with optional standard input, and making its
//! timings comparable (durations vary from run to run; snapshots show them as `(…ms)`).

// Each test file uses a different part of this helper.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

/// Exit status, standard output and standard error of `admission-ls ARGS` run in the repository
/// root, with `stdin` on standard input.
pub fn run_with(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_admission-ls"));
    command
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("the binary runs");
    if let Some(mut input) = child.stdin.take() {
        input.write_all(stdin.as_bytes()).expect("stdin is written");
    }
    let output = child.wait_with_output().expect("the binary ends");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        output.status.code().unwrap_or(-1),
        text(&output.stdout),
        text(&output.stderr),
    )
}

/// [`run_with`] without input or environment.
pub fn run(args: &[&str]) -> (i32, String, String) {
    run_with(args, "", &[])
}

/// Durations replaced by a placeholder: `(1.2ms)` → `(…ms)`, `in 3.4ms` → `in …ms`, JSON
/// `"durationMs": 1.5` → `"durationMs": 0`, JUnit `time="0.001"` → `time="…"`.
pub fn timeless(text: &str) -> String {
    let patterns = [
        (r"\(\d+\.\d+m?s\)", "(…ms)"),
        (r" in \d+\.\d+m?s", " in …ms"),
        (r#""durationMs": [0-9.e-]+"#, r#""durationMs": 0"#),
        (r#"time="[0-9.]+""#, r#"time="…""#),
    ];
    let mut text = text.to_string();
    for (pattern, replacement) in patterns {
        let re = regex::Regex::new(pattern).expect("a valid pattern");
        text = re.replace_all(&text, replacement).into_owned();
    }
    text
}
