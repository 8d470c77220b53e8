//! Benchmark of CRD validation-rule checking (issue 16): `admission-ls check` of 50 generated
//! kubebuilder-style CRDs holding 1,050 `x-kubernetes-validations` rules in all (release binary,
//! wall time and peak RSS), the in-process time per CRD and per rule, and the in-process
//! diagnostics of one 5,000-line CRD after an edit (the work behind a keystroke; the language
//! server runs it at once, without a debounce). Run with `cargo bench --bench crd_rules`.

#[path = "support/stats.rs"]
mod stats;
#[path = "../tests/support/tempdir.rs"]
mod tempdir;

use std::process::Command;
use std::time::Instant;

use admission_ls::ide::{DiagnosticsConfig, diagnostics_for_text};
use stats::{Stats, header, row};

const BINARY: &str = env!("CARGO_BIN_EXE_admission-ls");
const N_CRDS: usize = 50;
/// Rules per CRD (15 properties, see `property`): 50 × 21 = 1,050.
const RULES_PER_CRD: usize = 21;
const RUNS: usize = 10;

/// One property of a generated spec and the rules on it (each a kind of rule real CRDs have).
fn property(i: usize) -> (String, Vec<String>) {
    match i % 5 {
        0 => (
            format!("replicas{i}: {{type: integer, minimum: 0, maximum: 100}}"),
            vec![format!("self.replicas{i} <= 50 || has(self.mode{})", i + 1)],
        ),
        1 => (
            format!("mode{i}: {{type: string, enum: [a, b, c]}}"),
            vec![format!(
                "!has(self.mode{i}) || self.mode{i} != 'c' || has(self.replicas{})",
                i - 1
            )],
        ),
        2 => (
            format!(
                "hosts{i}:\n                type: array\n                maxItems: 16\n                items: {{type: string, maxLength: 253}}\n                x-kubernetes-validations:\n                - rule: self.all(h, h.matches('^[a-z0-9.-]+$'))\n                  message: hosts must be DNS names"
            ),
            vec![format!(
                "size(self.hosts{i}) > 0 || !has(self.mode{})",
                i - 1
            )],
        ),
        3 => (
            format!(
                "labels{i}:\n                type: object\n                maxProperties: 32\n                additionalProperties: {{type: string, maxLength: 63}}\n                x-kubernetes-validations:\n                - rule: self.all(k, k.size() <= 63)"
            ),
            vec![],
        ),
        _ => (
            format!(
                "ports{i}:\n                type: array\n                maxItems: 8\n                x-kubernetes-list-type: map\n                x-kubernetes-list-map-keys: [name]\n                items:\n                  type: object\n                  required: [name]\n                  properties:\n                    name: {{type: string, maxLength: 15}}\n                    port: {{type: integer}}\n                  x-kubernetes-validations:\n                  - rule: self.port == oldSelf.port\n                    message: ports are immutable"
            ),
            vec![format!(
                "!has(self.ports{i}) || self.ports{i}.all(p, p.port > 0 && p.port < 65536)"
            )],
        ),
    }
}

/// A CRD with `properties` properties and their rules (21 for 15 properties).
fn crd(n: usize, properties: usize) -> String {
    let mut props = String::new();
    let mut rules = Vec::new();
    for i in 0..properties {
        let (prop, mut on_spec) = property(i);
        props.push_str(&format!("              {prop}\n"));
        rules.append(&mut on_spec);
    }
    let mut spec_rules = String::new();
    for rule in &rules {
        spec_rules.push_str(&format!("            - rule: \"{rule}\"\n"));
    }
    format!(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.16.1
  name: widgets{n}.example.com
spec:
  group: example.com
  names: {{kind: Widget{n}, listKind: Widget{n}List, plural: widgets{n}, singular: widget{n}}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {{status: {{}}}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {{type: string}}
          kind: {{type: string}}
          metadata: {{type: object}}
          spec:
            type: object
            properties:
{props}            x-kubernetes-validations:
{spec_rules}          status:
            type: object
            x-kubernetes-preserve-unknown-fields: true
"
    )
}

fn rules_in(text: &str) -> usize {
    text.matches("rule: ").count()
}

/// `/usr/bin/time -f %M` of one `check` run, in KiB, when that tool exists.
fn peak_rss_kib(dir: &std::path::Path) -> Option<u64> {
    let output = Command::new("/usr/bin/time")
        .args(["-f", "%M", BINARY, "check", "--format", "json"])
        .arg(dir)
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr.lines().last()?.trim().parse().ok()
}

fn main() {
    let dir = tempdir::TempDir::new("bench-crd-rules");
    let texts: Vec<String> = (0..N_CRDS).map(|n| crd(n, 15)).collect();
    for (n, text) in texts.iter().enumerate() {
        dir.write(&format!("crds/widgets{n}.yaml"), text);
    }
    let n_rules: usize = texts.iter().map(|t| rules_in(t)).sum();
    let n_lines: usize = texts.iter().map(|t| t.lines().count()).sum();
    println!("workspace: {N_CRDS} CRDs, {n_rules} rules, {n_lines} lines");
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
        &format!("check: {N_CRDS} CRDs, {n_rules} rules (release binary, wall)"),
        &Stats::of(samples),
        "—",
    );
    match peak_rss_kib(dir.path()) {
        Some(kib) => println!("check: peak RSS {} MiB", kib / 1024),
        None => println!("check: peak RSS n/a (no /usr/bin/time)"),
    }

    let config = DiagnosticsConfig::default();
    let mut per_crd = Vec::new();
    for _ in 0..RUNS {
        for text in &texts {
            let start = Instant::now();
            let diagnostics = diagnostics_for_text(text, &config);
            per_crd.push(start.elapsed());
            assert!(
                diagnostics.is_empty(),
                "generated CRDs are clean: {diagnostics:?}"
            );
        }
    }
    let stats = Stats::of(per_crd);
    let per_rule = stats.median / u32::try_from(RULES_PER_CRD).unwrap_or(1);
    row(
        "in-process: one 21-rule CRD (diagnostics_for_text)",
        &stats,
        "—",
    );
    println!("in-process: per rule (median / {RULES_PER_CRD}): {per_rule:?}");

    // One large CRD (about 5,000 lines) re-checked after each of 20 one-character edits.
    let big = crd(999, 750);
    let lines = big.lines().count();
    let mut edits = Vec::new();
    for i in 0..20 {
        let edited = big.replacen("<= 50", &format!("<= {}", 50 + i), 1);
        let start = Instant::now();
        let _ = diagnostics_for_text(&edited, &config);
        edits.push(start.elapsed());
    }
    row(
        &format!(
            "in-process: {lines}-line CRD, {} rules, after an edit",
            rules_in(&big)
        ),
        &Stats::of(edits),
        "keystroke p95 ≤ 40 ms (issue 16)",
    );
}
