//! Benchmark of `check`: the release binary on a generated workspace of 1,000 policy documents (wall
//! time, target < 1 s on 2 cores), and the in-process throughput of the diagnostics.
//! Run with `cargo bench --bench check`.

#[path = "support/policies.rs"]
mod policies;
#[path = "support/stats.rs"]
mod stats;
#[path = "../tests/support/tempdir.rs"]
mod tempdir;

use std::process::Command;
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
