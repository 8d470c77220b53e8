//! admission-ls next to what users would run instead, in one run (issue 9): `check` throughput on a
//! generated 1,000-policy workspace; LSP didOpen → diagnostics and didChange → diagnostics (p50/p95)
//! hover and completion p95, and peak RSS for admission-ls and yaml-language-server (configured with a JSON schema of the
//! policy structure) on the same two files (12 policies / ~360 lines and 1,000 policies / ~30,000
//! lines); typed-check and evaluation time per expression in-process. Prints a table and writes it
//! to `target/peers.md`. Run with `cargo bench --bench peers`; see benches/README.md.

#[path = "peers/inprocess.rs"]
mod inprocess;
#[path = "../tests/support/lsp_client.rs"]
mod lsp_client;
#[path = "support/policies.rs"]
mod policies;
#[path = "peers/schema.rs"]
mod schema;
#[path = "peers/servers.rs"]
mod servers;
#[path = "support/stats.rs"]
mod stats;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use lsp_client::{Client, file_uri};
use serde_json::{Value, json};
use servers::Server;
use stats::{Stats, ms};

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");

/// The allocator of the shipped binary (`src/main.rs`), so that the in-process rows measure the
/// checker as the server and the command line run it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The table: one row per measurement, one column per tool.
#[derive(Default)]
struct Table {
    rows: Vec<[String; 4]>,
}

impl Table {
    fn add(&mut self, what: &str, ours: String, peer: Option<String>, note: &str) {
        let peer = peer.unwrap_or_else(|| "—".to_string());
        self.rows.push([what.into(), ours, peer, note.into()]);
    }

    fn markdown(&self) -> String {
        let mut out =
            String::from("| measurement | admission-ls | yaml-language-server | note |\n");
        out.push_str("| --- | ---: | ---: | --- |\n");
        for [a, b, c, d] in &self.rows {
            out.push_str(&format!("| {a} | {b} | {c} | {d} |\n"));
        }
        out
    }
}

/// `n` policies in one file, one structural mistake in the last (both tools must report it). Each
/// document starts with yaml-language-server's schema modeline: the shared LSP client answers the
/// server's `workspace/configuration` pull with null, which resets its `yaml.schemas` setting, so
/// the modeline is what reliably binds the schema (admission-ls reads it as a comment).
fn policies_file(n: usize, schema: &Path) -> String {
    let modeline = format!("# yaml-language-server: $schema={}\n", file_uri(schema));
    let mut docs: Vec<String> = (0..n)
        .map(|i| modeline.clone() + &policies::validating_policy(&format!("p{i}"), 5))
        .collect();
    if let Some(last) = docs.last_mut() {
        *last = last.replace("failurePolicy: Fail", "failurePolicy: Sometimes");
    }
    docs.join("---\n")
}

fn main() {
    // `cargo bench --bench peers -- inprocess` prints the per-expression rows alone (seconds, no
    // servers), for work on the checker.
    if std::env::args().any(|a| a == "inprocess") {
        let mut table = Table::default();
        inprocess::rows(&mut |what, value, note| table.add(what, value, None, note));
        println!("\n{}", table.markdown());
        return;
    }
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let work = target.join("peers-bench");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("bench dir");
    let schema_path = work.join("validating-admission-policy.schema.json");
    let schema = serde_json::to_string_pretty(&schema::validating_admission_policy());
    std::fs::write(&schema_path, schema.expect("schema")).expect("write schema");
    let npm_dir = target.join("peers-npm");
    // `cargo bench --bench peers -- ours` measures admission-ls alone (quicker, for A/B runs).
    let alone = std::env::args().any(|a| a == "ours");
    let peer = (!alone)
        .then(|| servers::yaml_ls(&npm_dir, &work, &schema_path))
        .flatten();
    let ours = servers::admission_ls(BINARY);
    let mut table = Table::default();
    check_throughput(&work, &mut table);
    for (label, n, runs, keys) in [
        ("12 policies", 12, 10, 40),
        ("1,000 policies", 1_000, 5, 20),
    ] {
        let text = policies_file(n, &schema_path);
        let path = work.join(format!("policies-{n}.yaml"));
        std::fs::write(&path, &text).expect("write policies");
        let label = format!("{label}, {} lines", text.lines().count());
        let a = measure(&ours, &path, &text, runs, keys);
        let b = peer.as_ref().map(|p| measure(p, &path, &text, runs, keys));
        lsp_rows(&label, &a, b.as_ref(), &mut table);
    }
    inprocess::rows(&mut |what, value, note| table.add(what, value, None, note));
    let markdown = table.markdown();
    println!("\n{markdown}");
    let out = target.parent().unwrap_or(&target).join("peers.md");
    if std::fs::write(&out, &markdown).is_ok() {
        println!("written to {}", out.display());
    }
}

/// `check --format json` on 250 files × 4 documents (1,000 policy documents), 10 runs.
fn check_throughput(work: &Path, table: &mut Table) {
    let dir = work.join("workspace");
    for i in 0..250 {
        let path = dir.join(format!("team-{:02}/policies-{i:03}.yaml", i % 10));
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, policies::workspace_file(i)).expect("write");
    }
    let samples: Vec<Duration> = (0..10)
        .map(|_| {
            let start = Instant::now();
            let output = Command::new(BINARY)
                .args(["check", "--format", "json"])
                .arg(&dir)
                .output();
            assert!(output.is_ok(), "check ran");
            start.elapsed()
        })
        .collect();
    let stats = Stats::of(samples);
    let per_second = 1_000.0 / stats.median.as_secs_f64();
    let value = format!("{} ({per_second:.0} docs/s)", ms(stats.median));
    table.add(
        "`check`, 1,000 policy documents in 250 files (median of 10)",
        value,
        None,
        "no CLI check in yaml-language-server",
    );
}

/// What one server did with one file.
struct Measured {
    open: Stats,
    change: Stats,
    /// A keystroke that breaks the YAML at the end of the middle document, and the one that
    /// mends it again.
    breaking: Stats,
    mending: Stats,
    hover: Stats,
    completion: Stats,
    peak_rss: String,
    diagnostics: usize,
}

/// Fresh server per didOpen sample; keystrokes and RSS on the last one.
fn measure(server: &Server, path: &Path, text: &str, runs: usize, keys: u32) -> Measured {
    println!(
        "{}: {} ({runs} opens, {keys} keystrokes)",
        server.name,
        path.display()
    );
    let uri = file_uri(path);
    let mut opens = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let mut client = start(server);
        let document = json!({"uri": uri, "languageId": "yaml", "version": 1, "text": text});
        let start = Instant::now();
        client.notify("textDocument/didOpen", json!({"textDocument": document}));
        let published = client.diagnostics_where(&uri, |_| true);
        opens.push(start.elapsed());
        last = Some((client, published));
    }
    let (mut client, published) = last.expect("at least one run");
    let diagnostics = published["diagnostics"].as_array().map_or(0, Vec::len);
    let change = keystrokes(&mut client, &uri, text, keys);
    let (breaking, mending) = yaml_breaks(&mut client, &uri, text, 2 + i64::from(keys), keys);
    let (hover_at, completion_at) = cel_positions(text);
    let hover = latencies(&mut client, "textDocument/hover", &uri, hover_at, 50);
    let completion = latencies(
        &mut client,
        "textDocument/completion",
        &uri,
        completion_at,
        50,
    );
    let peak_rss = peak_rss(client.pid());
    let _ = client.request("shutdown", Value::Null);
    Measured {
        open: Stats::of(opens),
        change: Stats::of(change),
        breaking: Stats::of(breaking),
        mending: Stats::of(mending),
        hover: Stats::of(hover),
        completion: Stats::of(completion),
        peak_rss,
        diagnostics,
    }
}

fn start(server: &Server) -> Client {
    let mut client = Client::spawn(server.program.to_str().expect("utf-8 path"));
    client.initialize(json!({}), Value::Null, Value::Null);
    if !server.settings.is_null() {
        let settings = json!({"settings": server.settings});
        client.notify("workspace/didChangeConfiguration", settings);
    }
    client
}

/// Types into the first validation message, waiting for each keystroke's diagnostics (the
/// version-tagged ones when the server tags them; yaml-language-server does not).
fn keystrokes(client: &mut Client, uri: &str, text: &str, keys: u32) -> Vec<Duration> {
    let line = text
        .lines()
        .position(|l| l.contains("message: "))
        .unwrap_or(0);
    let column = text.lines().nth(line).map_or(0, |l| l.len() - 1) as u32;
    let mut samples = Vec::new();
    for i in 0..keys {
        let at = json!({"line": line, "character": column + i});
        let change = json!({"range": {"start": at, "end": at}, "text": "x"});
        let version = 2 + i64::from(i);
        client.clear_pending();
        let start = Instant::now();
        let params =
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]});
        client.notify("textDocument/didChange", params);
        client.diagnostics_where(uri, |p| p["version"].is_null() || p["version"] == version);
        samples.push(start.elapsed());
    }
    samples
}

/// `pairs` times: a `:` typed at the end of the last line of the middle document (`reason:
/// Invalid:`, a mapping value where go-yaml allows none: a syntax error that cuts the document
/// short), then deleted; each edit timed until the diagnostics of its version arrive. The
/// versions continue from `version`.
fn yaml_breaks(
    client: &mut Client,
    uri: &str,
    text: &str,
    version: i64,
    pairs: u32,
) -> (Vec<Duration>, Vec<Duration>) {
    let markers: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("---"))
        .map(|(i, _)| i)
        .collect();
    let line = markers
        .get(markers.len() / 2)
        .map_or(0, |next| next.saturating_sub(1));
    let column = text.lines().nth(line).map_or(0, str::len) as u32;
    let at = json!({"line": line, "character": column});
    let after = json!({"line": line, "character": column + 1});
    let mut timed = |version: i64, change: Value| {
        client.clear_pending();
        let start = Instant::now();
        let params =
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]});
        client.notify("textDocument/didChange", params);
        client.diagnostics_where(uri, |p| p["version"].is_null() || p["version"] == version);
        start.elapsed()
    };
    let mut breaking = Vec::new();
    let mut mending = Vec::new();
    for i in 0..i64::from(pairs) {
        let insert = json!({"range": {"start": at, "end": at}, "text": ":"});
        breaking.push(timed(version + 2 * i, insert));
        let delete = json!({"range": {"start": at, "end": after}, "text": ""});
        mending.push(timed(version + 2 * i + 1, delete));
    }
    (breaking, mending)
}

/// In the middle policy of the file, on its `object.spec.replicas` expression: the position of
/// `replicas` (a hover) and the same place as a completion after `object.spec.`.
fn cel_positions(text: &str) -> (Value, Value) {
    let lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains("expression: \"object.spec.replicas"))
        .map(|(i, _)| i)
        .collect();
    let line = lines.get(lines.len() / 2).copied().unwrap_or(0);
    let column = text
        .lines()
        .nth(line)
        .and_then(|l| l.find("replicas"))
        .unwrap_or(0);
    let at = json!({"line": line, "character": column + 2});
    let after_dot = json!({"line": line, "character": column});
    (at, after_dot)
}

/// `n` requests of `method` at `position`, each timed until its answer.
fn latencies(
    client: &mut Client,
    method: &str,
    uri: &str,
    position: Value,
    n: usize,
) -> Vec<Duration> {
    (0..n)
        .map(|_| {
            let params = json!({"textDocument": {"uri": uri}, "position": position});
            let start = Instant::now();
            let answer = client.request(method, params);
            let elapsed = start.elapsed();
            assert!(answer.get("error").is_none(), "{method}: {answer}");
            elapsed
        })
        .collect()
}

fn peak_rss(pid: u32) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .map_or("n/a".into(), |kb| {
            let kb: f64 = kb.trim().trim_end_matches(" kB").parse().unwrap_or(0.0);
            format!("{:.0} MB", kb / 1024.0)
        })
}

fn lsp_rows(label: &str, ours: &Measured, peer: Option<&Measured>, table: &mut Table) {
    let pair = |s: &Stats| format!("{} / {}", ms(s.median), ms(s.p95));
    let ratio = |a: &Stats, b: Option<&Stats>| {
        b.map_or(String::new(), |b| {
            format!(
                "{:.1}× faster (median)",
                b.median.as_secs_f64() / a.median.as_secs_f64()
            )
        })
    };
    let open_note = ratio(&ours.open, peer.map(|p| &p.open));
    let change_note = ratio(&ours.change, peer.map(|p| &p.change));
    table.add(
        &format!("didOpen → diagnostics p50 / p95 ({label})"),
        pair(&ours.open),
        peer.map(|p| pair(&p.open)),
        &open_note,
    );
    table.add(
        &format!("didChange → diagnostics p50 / p95 ({label})"),
        pair(&ours.change),
        peer.map(|p| pair(&p.change)),
        &change_note,
    );
    table.add(
        &format!("YAML-breaking keystroke → diagnostics p50 / p95 ({label})"),
        pair(&ours.breaking),
        peer.map(|p| pair(&p.breaking)),
        &ratio(&ours.breaking, peer.map(|p| &p.breaking)),
    );
    table.add(
        &format!("YAML-mending keystroke → diagnostics p50 / p95 ({label})"),
        pair(&ours.mending),
        peer.map(|p| pair(&p.mending)),
        &ratio(&ours.mending, peer.map(|p| &p.mending)),
    );
    let p95 = |s: &Stats| ms(s.p95);
    let p95_ratio = |a: &Stats, b: Option<&Stats>| {
        b.map_or(String::new(), |b| {
            format!(
                "{:.1}× faster (p95)",
                b.p95.as_secs_f64() / a.p95.as_secs_f64()
            )
        })
    };
    table.add(
        &format!("hover p95, on CEL ({label})"),
        p95(&ours.hover),
        peer.map(|p| p95(&p.hover)),
        &p95_ratio(&ours.hover, peer.map(|p| &p.hover)),
    );
    table.add(
        &format!("completion p95, after `object.spec.` ({label})"),
        p95(&ours.completion),
        peer.map(|p| p95(&p.completion)),
        &p95_ratio(&ours.completion, peer.map(|p| &p.completion)),
    );
    table.add(
        &format!("peak RSS ({label})"),
        ours.peak_rss.clone(),
        peer.map(|p| p.peak_rss.clone()),
        "VmHWM after the keystrokes",
    );
    let count = |m: &Measured| m.diagnostics.to_string();
    table.add(
        &format!("diagnostics on open ({label})"),
        count(ours),
        peer.map(count),
        "one planted `failurePolicy: Sometimes`; admission-ls also checks the CEL",
    );
}
