//! Benchmark of `check`: the release binary on a generated workspace of 1,000 policy documents (wall
//! time, target < 1 s on 2 cores) and on 10,000 in 10 files of 1,000 (target ≤ 0.35 s on 2 cores,
//! with the CPU time, since the wall time of a loaded machine says little), and the in-process
//! throughput of the diagnostics.
//! Run with `cargo bench --bench check`.

#[path = "support/policies.rs"]
mod policies;
#[path = "support/stats.rs"]
mod stats;
#[path = "../tests/support/tempdir.rs"]
mod tempdir;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use admission_ls::ide::{DiagnosticsConfig, diagnostics_for_text};
use stats::{Stats, header, row};

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");
/// Files of four documents each: 1,000 documents.
const N_FILES: usize = 250;
const RUNS: usize = 15;

fn main() {
    let dir = tempdir::TempDir::new("bench-check");
    let texts: Vec<String> = (0..N_FILES).map(policies::workspace_file).collect();
    for (i, text) in texts.iter().enumerate() {
        dir.write(&format!("team-{}/policy-{i}.yaml", i % 10), text);
    }
    let n_docs = texts
        .iter()
        .map(|t| t.matches("\napiVersion:").count() + 1)
        .sum::<usize>();
    let n_bytes: usize = texts.iter().map(String::len).sum();
    println!(
        "workspace: {N_FILES} files, {n_docs} documents, {} KiB",
        n_bytes / 1024
    );
    header();

    let mut samples = Vec::new();
    for _ in 0..RUNS {
        let start = Instant::now();
        let output = Command::new(BINARY)
            .args(["check", "--format", "json"])
            .arg(dir.path())
            .output()
            .expect("run check");
        samples.push(start.elapsed());
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "check failed: {output:?}"
        );
    }
    row(
        "check: 1,000 documents (release binary, wall)",
        &Stats::of(samples),
        "< 1 s",
    );
    large_files();

    let config = DiagnosticsConfig::default();
    let mut samples = Vec::new();
    for _ in 0..RUNS {
        let start = Instant::now();
        for text in &texts {
            std::hint::black_box(diagnostics_for_text(text, &config));
        }
        samples.push(start.elapsed());
    }
    let stats = Stats::of(samples);
    row("ide diagnostics: 1,000 documents (1 thread)", &stats, "");
    let per_doc = stats.median / n_docs as u32;
    let per_sec = n_docs as f64 / stats.median.max(Duration::from_nanos(1)).as_secs_f64();
    println!(
        "ide throughput: {:.1} µs per document, {per_sec:.0} documents/s",
        per_doc.as_secs_f64() * 1e6
    );
}

/// Files of 1,000 documents each (250 of `policies::workspace_file` joined): 10,000 documents.
const N_LARGE_FILES: usize = 10;

/// `check` of 10,000 documents in 10 files: the wall time, and the CPU time the process and its
/// threads used (from `getrusage` of the children, through `/usr/bin/time` when installed).
fn large_files() {
    let dir = tempdir::TempDir::new("bench-check-large");
    for f in 0..N_LARGE_FILES {
        let documents: Vec<String> = (0..250)
            .map(|k| policies::workspace_file(f * 250 + k))
            .collect();
        dir.write(&format!("policies-{f}.yaml"), documents.join("---\n"));
    }
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    for _ in 0..RUNS.min(10) {
        let start = Instant::now();
        let output = timed_check(dir.path());
        walls.push(start.elapsed());
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "check failed: {output:?}"
        );
        if let Some(cpu) = cpu_time(&output) {
            cpus.push(cpu);
        }
    }
    row(
        "check: 10,000 documents in 10 files (wall)",
        &Stats::of(walls),
        "≤ 0.35 s",
    );
    if !cpus.is_empty() {
        row(
            "check: 10,000 documents in 10 files (CPU, user + sys)",
            &Stats::of(cpus),
            "≤ 0.7 s",
        );
    }
}

/// `check --format json` of `dir`, under `/usr/bin/time -f` when it is there.
fn timed_check(dir: &std::path::Path) -> Output {
    let time = std::path::Path::new("/usr/bin/time");
    let mut command = if time.exists() {
        let mut command = Command::new(time);
        command.args(["-f", "cpu %U %S"]).arg(BINARY);
        command
    } else {
        Command::new(BINARY)
    };
    command.args(["check", "--format", "json"]).arg(dir);
    command.output().expect("run check")
}

/// The user + system time `/usr/bin/time` printed last on standard error.
fn cpu_time(output: &Output) -> Option<Duration> {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = stderr.lines().rev().find(|l| l.starts_with("cpu "))?;
    let mut seconds = line.split_whitespace().skip(1).map(str::parse::<f64>);
    let (user, system) = (seconds.next()?.ok()?, seconds.next()?.ok()?);
    Some(Duration::from_secs_f64(user + system))
}
