//! The soak run of the language server, shared by `tests/lsp_soak.rs` (a short run in `cargo test`)
//! and `benches/soak.rs` (the full one): random edits across 20 open files, typing inside CEL
//! expressions, inserting and deleting lines, and renaming policies and the bindings that name them
//! (edits whose effect crosses files). At the end the diagnostics of every file must equal those a
//! fresh server gives for the final texts. A seeded generator makes every run the same.

// Each user (the test, the bench) needs a different part of this module.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use admission_ls::ide::{Encoding, LineIndex, TextSize};
use serde_json::{Value, json};

use super::lsp_client::Client;

/// How many files the run keeps open: half policies, half bindings.
pub const FILES: usize = 20;

/// A small deterministic generator (xorshift64*), so that a failing run can be replayed.
pub struct Random(u64);

impl Random {
    pub fn new(seed: u64) -> Random {
        Random(seed.max(1))
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let value = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        (value >> 33) as usize % n.max(1)
    }
}

fn policy_file(i: usize) -> String {
    (0..3)
        .map(|j| {
            format!(
                "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: p{i}-{j}
spec:
  matchConstraints:
    resourceRules:
    - {{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}}
  validations:
  - expression: object.spec.replicas <= {j}
    message: too many
  - expression: has(object.metadata.labels) && 'team' in object.metadata.labels
"
            )
        })
        .collect::<Vec<_>>()
        .join("---\n")
}

fn binding_file(i: usize) -> String {
    (0..3)
        .map(|j| {
            format!(
                "apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: b{i}-{j}
spec:
  policyName: p{i}-{j}
  validationActions: [Deny]
"
            )
        })
        .collect::<Vec<_>>()
        .join("---\n")
}

/// The open files: URI and current text.
pub struct Workspace {
    pub files: Vec<(String, String)>,
    pub versions: Vec<i64>,
}

impl Workspace {
    pub fn new() -> Workspace {
        let files = (0..FILES)
            .map(|k| {
                let i = k / 2;
                if k % 2 == 0 {
                    (format!("file:///soak/policies-{i}.yaml"), policy_file(i))
                } else {
                    (format!("file:///soak/bindings-{i}.yaml"), binding_file(i))
                }
            })
            .collect();
        Workspace {
            files,
            versions: vec![1; FILES],
        }
    }

    pub fn open_all(&self, client: &mut Client) {
        for (uri, text) in &self.files {
            let document = json!({"uri": uri, "languageId": "yaml", "version": 1, "text": text});
            client.notify("textDocument/didOpen", json!({"textDocument": document}));
        }
    }

    /// Applies one random edit here and sends it to the server.
    pub fn edit(&mut self, random: &mut Random, client: &mut Client) {
        let k = random.below(FILES);
        let text = &self.files[k].1;
        let Some((start, end, new)) = choose_edit(text, random) else {
            return;
        };
        let index = LineIndex::new(text);
        let position = |offset: usize| {
            let at = index.line_col(TextSize::from(offset as u32), Encoding::Utf16);
            json!({"line": at.line, "character": at.col})
        };
        let range = json!({"start": position(start), "end": position(end)});
        self.versions[k] += 1;
        let params = json!({"textDocument": {"uri": self.files[k].0, "version": self.versions[k]},
            "contentChanges": [{"range": range, "text": new}]});
        self.files[k].1.replace_range(start..end, &new);
        client.notify("textDocument/didChange", params);
    }
}

/// A random edit of `text` as (start, end, replacement): typing in an expression, a line inserted
/// or deleted, or a rename of a policy or of the policy a binding names.
fn choose_edit(text: &str, random: &mut Random) -> Option<(usize, usize, String)> {
    match random.below(10) {
        0..=5 => type_in(text, "expression: ", random),
        6 => rename(text, "name: p", random),
        7 => rename(text, "policyName: p", random),
        8 => {
            let at = line_start(text, random);
            Some((at, at, "# note\n".to_string()))
        }
        _ => {
            let at = line_start(text, random);
            let end = text[at..].find('\n').map_or(text.len(), |n| at + n + 1);
            Some((at, end, String::new()))
        }
    }
}

/// A character typed, or one deleted, somewhere after an occurrence of `marker`.
fn type_in(text: &str, marker: &str, random: &mut Random) -> Option<(usize, usize, String)> {
    let starts: Vec<usize> = text.match_indices(marker).map(|(at, _)| at).collect();
    let at = *starts.get(random.below(starts.len()))? + marker.len();
    let line_end = text[at..].find('\n').map_or(text.len(), |n| at + n);
    let at = at + random.below(line_end - at + 1);
    let pieces = ["x", ".", " ", "(", ")", "'", "1", " && true"];
    if random.below(4) == 0 && at < line_end {
        return Some((at, at + 1, String::new()));
    }
    Some((at, at, pieces[random.below(pieces.len())].to_string()))
}

/// The name after an occurrence of `marker` toggled between `pN-M` and `pN-M-renamed`.
fn rename(text: &str, marker: &str, random: &mut Random) -> Option<(usize, usize, String)> {
    let starts: Vec<usize> = text.match_indices(marker).map(|(at, _)| at).collect();
    let at = *starts.get(random.below(starts.len()))? + marker.len() - 1;
    let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
    let name = &text[at..end];
    let renamed = match name.strip_suffix("-renamed") {
        Some(original) => original.to_string(),
        None => format!("{name}-renamed"),
    };
    Some((at, end, renamed))
}

fn line_start(text: &str, random: &mut Random) -> usize {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(at, _)| at + 1))
        .filter(|at| *at < text.len())
        .collect();
    starts.get(random.below(starts.len())).copied().unwrap_or(0)
}

/// The diagnostics of every open file once the server is idle: each file is saved (which runs its
/// diagnostics again on the newest snapshot), then publications are read until none has come for
/// `quiet`; the last one of each file wins.
pub fn settled(
    client: &mut Client,
    files: &[(String, String)],
    quiet: Duration,
) -> BTreeMap<String, Value> {
    for (uri, _) in files {
        client.notify(
            "textDocument/didSave",
            json!({"textDocument": {"uri": uri}}),
        );
    }
    let mut last = BTreeMap::new();
    let deadline = Instant::now() + super::lsp_client::TIMEOUT;
    loop {
        match client.next_within(quiet) {
            Some(message) if message["method"] == "textDocument/publishDiagnostics" => {
                let uri = message["params"]["uri"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                last.insert(uri, message["params"]["diagnostics"].clone());
            }
            Some(_) => {}
            None if last.len() >= files.len() => return last,
            None => assert!(Instant::now() < deadline, "diagnostics never settled"),
        }
    }
}

/// The settled diagnostics of a fresh server opened with `files`.
pub fn fresh(binary: &str, files: &[(String, String)]) -> BTreeMap<String, Value> {
    let mut client = Client::spawn(binary);
    client.initialize(json!({}), Value::Null, Value::Null);
    let workspace = Workspace {
        files: files.to_vec(),
        versions: vec![1; files.len()],
    };
    workspace.open_all(&mut client);
    let diagnostics = settled(&mut client, files, Duration::from_millis(300));
    client.shutdown_and_exit();
    diagnostics
}

/// The resident set of process `pid` in kB (`VmRSS`), where `/proc` exists.
pub fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmRSS:"))?;
    line.trim().trim_end_matches(" kB").parse().ok()
}
