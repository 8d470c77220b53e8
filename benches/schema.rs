//! Benchmark of the bundled schemas' load time for one kind (issue 4 "Measure"): a fresh process
//! per sample, because the bundle is decoded once per process. Each sample times, in its own
//! process, inflating the bundle, decoding the newest version's index, decoding the Deployment
//! definition, and converting its types down to a container (`object.spec.template.spec
//! .containers[0].image`), as the first typed check of a file does. Run with
//! `cargo bench --bench schema`.

#[path = "support/stats.rs"]
mod stats;

use std::process::Command;
use std::time::{Duration, Instant};

use admission_ls::cel::types::TypeProvider;
use admission_ls::schema::{Gvk, SchemaTypes, bundled};
use stats::{Stats, header, row};

const RUNS: usize = 31;
/// Set in the child processes: do one cold load, print its timings, exit.
const CHILD: &str = "ADMISSION_LS_SCHEMA_BENCH_CHILD";

/// One cold load, in nanoseconds per step: inflate + index, the kind's definition, conversion.
fn cold_load() -> [u128; 3] {
    let start = Instant::now();
    let minor = bundled::newest();
    std::hint::black_box(bundled::kinds(minor).len());
    let indexed = start.elapsed();
    let kind = bundled::lookup_kind(minor, "apps", "v1", "Deployment");
    std::hint::black_box(kind.is_some());
    let decoded = start.elapsed();
    let types = SchemaTypes::new(minor);
    let _ = types.kind_type(&Gvk::new("apps", "v1", "Deployment"));
    let mut name = String::from("apps.v1.Deployment");
    for field in ["spec", "template", "spec", "containers", "image"] {
        std::hint::black_box(types.field(&name, field));
        name.push('.');
        name.push_str(field);
    }
    let converted = start.elapsed();
    [
        indexed.as_nanos(),
        (decoded - indexed).as_nanos(),
        (converted - decoded).as_nanos(),
    ]
}

fn main() {
    if std::env::var_os(CHILD).is_some() {
        let [a, b, c] = cold_load();
        println!("{a} {b} {c}");
        return;
    }
    let exe = std::env::current_exe().expect("the bench knows its own path");
    let mut steps: [Vec<Duration>; 4] = Default::default();
    for _ in 0..RUNS {
        let output = Command::new(&exe)
            .env(CHILD, "1")
            .output()
            .expect("run one cold load");
        let text = String::from_utf8_lossy(&output.stdout);
        let nanos: Vec<u64> = text
            .split_whitespace()
            .filter_map(|n| n.parse().ok())
            .collect();
        assert_eq!(nanos.len(), 3, "child output: {text:?}");
        for (i, n) in nanos.iter().enumerate() {
            steps[i].push(Duration::from_nanos(*n));
        }
        steps[3].push(Duration::from_nanos(nanos.iter().sum()));
    }
    header();
    let [index, kind, convert, total] = steps;
    row(
        "schema: inflate bundle + version index",
        &Stats::of(index),
        "",
    );
    row("schema: decode Deployment definition", &Stats::of(kind), "");
    row(
        "schema: convert Deployment to containers",
        &Stats::of(convert),
        "",
    );
    row("schema: one kind, cold (total)", &Stats::of(total), "lazy");
}
