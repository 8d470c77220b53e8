//! The full soak of issue 15: 10,000 random edits across 20 open files (typing in CEL, lines
//! inserted and deleted, policies and bindings renamed, so that edits cross files), sent in bursts
//! of 100 with the server left to catch up between bursts. Reports the resident set after the
//! first 1,000 edits and at the end (their ratio; the target is within 10%), the time per burst,
//! and whether the final diagnostics of every file equal a fresh server's. The short version runs
//! in `cargo test --test lsp_soak`. Run with `cargo bench --bench soak`; see benches/README.md.

#[path = "../tests/support/lsp_client.rs"]
mod lsp_client;
#[path = "../tests/support/soak.rs"]
mod soak;
#[path = "support/stats.rs"]
mod stats;

use std::time::{Duration, Instant};

use lsp_client::Client;
use serde_json::{Value, json};
use soak::{Random, Workspace};
use stats::{Stats, ms};

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");
const EDITS: usize = 10_000;
const BURST: usize = 100;

fn main() {
    let mut client = Client::spawn(BINARY);
    client.initialize(json!({}), Value::Null, Value::Null);
    let mut workspace = Workspace::new();
    workspace.open_all(&mut client);
    let mut random = Random::new(15);
    let quiet = Duration::from_millis(200);
    let mut bursts = Vec::new();
    let mut rss_at_1000 = None;
    for burst in 0..EDITS / BURST {
        let start = Instant::now();
        for _ in 0..BURST {
            workspace.edit(&mut random, &mut client);
        }
        // Until the server has published for every file edited: idle for `quiet`.
        while client.next_within(quiet).is_some() {}
        bursts.push(start.elapsed().saturating_sub(quiet));
        if (burst + 1) * BURST == 1_000 {
            rss_at_1000 = soak::rss_kb(client.pid());
        }
    }
    let edited = soak::settled(&mut client, &workspace.files, Duration::from_millis(300));
    let rss_end = soak::rss_kb(client.pid());
    let _ = client.request("shutdown", Value::Null);
    let fresh = soak::fresh(BINARY, &workspace.files);
    let equal = fresh.iter().all(|(uri, d)| edited.get(uri) == Some(d));
    let unresolved: usize = edited
        .values()
        .flat_map(|d| d.as_array().cloned().unwrap_or_default())
        .filter(|d| d["code"] == "unresolved-reference")
        .count();
    let bursts = Stats::of(bursts);
    println!(
        "soak: {EDITS} edits across {} files, bursts of {BURST}",
        soak::FILES
    );
    println!(
        "burst of {BURST} edits → idle: median {} / p95 {}",
        ms(bursts.median),
        ms(bursts.p95)
    );
    let mb =
        |kb: Option<u64>| kb.map_or("n/a".into(), |kb| format!("{:.1} MB", kb as f64 / 1024.0));
    println!("RSS after 1,000 edits: {}", mb(rss_at_1000));
    println!("RSS after {EDITS} edits: {}", mb(rss_end));
    if let (Some(a), Some(b)) = (rss_at_1000, rss_end) {
        println!(
            "RSS end / after 1,000: {:.3} (target ≤ 1.10)",
            b as f64 / a as f64
        );
    }
    println!("unresolved references at the end: {unresolved}");
    println!("final diagnostics equal a fresh server's: {equal}");
    assert!(equal, "the soaked server disagrees with a fresh one");
}
