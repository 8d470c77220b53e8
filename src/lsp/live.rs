//! The server's side of live verdicts: the verdict hints kept per open document and version, the
//! reading of the sample files a policy's modelines name (the editor's text of an open document,
//! else the file on disk, relative to the policy's folder) and of the workspace's suites, which
//! open policies read a changed file (a sample its modelines name, a suite that names it), and the
//! conversion of a verdict hint to an LSP inlay hint whose tooltip is the trace. When they are
//! computed is `server/live.rs`'s business.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tower_lsp_server::ls_types as lsp;

use super::commands::OpenTexts;
use super::disk::{self, Bounds};
use super::encoding::to_proto;
use crate::ide::live::looks_like_suite;
use crate::ide::live::{LiveHint, LoadedFiles, Modeline};
use crate::ide::{Encoding, LineIndex};

/// The live verdicts of the open documents, and what the client and the settings allow.
#[derive(Debug, Default)]
pub struct LiveStore {
    /// `admissionLs.liveVerdicts: false`: no verdict is computed or shown.
    pub disabled: bool,
    /// The client takes `workspace/inlayHint/refresh` (else it sees verdicts at its next request).
    pub refresh: bool,
    /// The newest run asked for each document, with the version it is for: an older run's wait
    /// ends in nothing (the debounce), and its result is not kept. A run asked again for the same
    /// version (a sample or suite changed) supersedes the one already going, which read the old
    /// sample.
    wanted: HashMap<lsp::Uri, (i32, u64)>,
    /// The number of runs asked for so far: each run's id.
    runs: u64,
    /// The suite files of the workspace (their cases are samples of the policies they test): the
    /// scan's, kept current by the files changed on disk and the documents saved.
    pub suites: Vec<std::path::PathBuf>,
    /// The hints of each document, with the version they were computed for.
    hints: HashMap<lsp::Uri, (i32, Arc<Vec<LiveHint>>)>,
}

impl LiveStore {
    /// The hints of `uri` if they were computed for `version` (older ones would sit at the
    /// wrong offsets).
    pub fn hints(&self, uri: &lsp::Uri, version: i32) -> Option<Arc<Vec<LiveHint>>> {
        let (at, hints) = self.hints.get(uri)?;
        (*at == version).then(|| hints.clone())
    }

    /// Keeps the hints of `uri` at `version`; whether the client should fetch them again: they
    /// differ from the ones kept before, or are for another version (the client asked for the
    /// new version's before they were ready). No hints before and now, or the same hints of the
    /// same version again (a re-check), need nothing.
    pub fn keep(&mut self, uri: lsp::Uri, version: i32, hints: Vec<LiveHint>) -> bool {
        let changed = match self.hints.get(&uri) {
            Some((_, old)) if old.is_empty() && hints.is_empty() => false,
            Some((at, old)) => *at != version || **old != hints,
            None => !hints.is_empty(),
        };
        self.hints.insert(uri, (version, Arc::new(hints)));
        changed
    }

    /// Asks for a run of `uri` at `version`, superseding any earlier one; the run's id.
    pub fn want(&mut self, uri: lsp::Uri, version: i32) -> u64 {
        self.runs += 1;
        self.wanted.insert(uri, (version, self.runs));
        self.runs
    }

    /// Whether the run `run` of `uri` at `version` is the newest asked for.
    pub fn is_wanted(&self, uri: &lsp::Uri, version: i32, run: u64) -> bool {
        self.wanted.get(uri) == Some(&(version, run))
    }

    /// Whether `uri` shows verdicts (some may be a suite's cases).
    pub fn shows(&self, uri: &lsp::Uri) -> bool {
        self.hints
            .get(uri)
            .is_some_and(|(_, hints)| !hints.is_empty())
    }

    /// Records whether the file at `path` is a suite now; whether it was one before.
    pub fn note_suite(&mut self, path: &Path, suite: bool) -> bool {
        let path = super::origin::normalize(path);
        let known = |p: &PathBuf| super::origin::normalize(p) == path;
        let was = self.suites.iter().any(known);
        if suite && !was {
            self.suites.push(path);
        } else if !suite && was {
            self.suites.retain(|p| !known(p));
        }
        was
    }

    /// Whether the file at `path` is one of the known suites.
    pub fn is_suite(&self, path: &Path) -> bool {
        let path = super::origin::normalize(path);
        self.suites
            .iter()
            .any(|p| super::origin::normalize(p) == path)
    }

    /// Forgets `uri` (closed).
    pub fn forget(&mut self, uri: &lsp::Uri) {
        self.hints.remove(uri);
        self.wanted.remove(uri);
    }

    /// Forgets every document's hints (the setting was turned off).
    pub fn clear(&mut self) {
        self.hints.clear();
        self.wanted.clear();
    }
}

/// The files the modelines of the policy at `policy` name, by the path as written: relative to
/// the policy's folder, from the editor when open, else from the disk.
pub fn read_samples(policy: &Path, modelines: &[Modeline], open: &OpenTexts) -> LoadedFiles {
    let folder = policy.parent().unwrap_or(Path::new(""));
    let mut loaded = HashMap::new();
    let samples = modelines.iter().flat_map(|m| &m.samples);
    for written in samples.flat_map(|s| s.paths()) {
        if loaded.contains_key(written) {
            continue;
        }
        let path = super::origin::normalize(&folder.join(written));
        let text = match open.get(&path) {
            Some(text) => Ok(text.clone()),
            None => disk::read_text(&path, Bounds::named()).map_err(|e| e.to_string()),
        };
        loaded.insert(written.clone(), text);
    }
    loaded
}

/// Whether the verdicts of the policy at `policy`, whose text is `text`, read the file at
/// `changed`: a sample its modelines name, or (`suite`, the changed file's text when it is a
/// suite) a suite that names the policy's file.
pub fn reads(policy: &Path, text: &str, changed: &Path, suite: Option<&str>) -> bool {
    if let Some(suite) = suite {
        let name = policy.file_name().and_then(|n| n.to_str());
        return name.is_some_and(|name| suite.contains(name));
    }
    if !text.contains(crate::ide::live::MARKER) {
        return false;
    }
    let folder = policy.parent().unwrap_or(Path::new(""));
    let changed = super::origin::normalize(changed);
    let modelines = crate::ide::live::modelines(text);
    let samples = modelines.iter().flat_map(|m| &m.samples);
    let mut paths = samples.flat_map(|s| s.paths());
    paths.any(|written| super::origin::normalize(&folder.join(written)) == changed)
}

/// Suite files that mention the policy, run at most per run.
const MAX_SUITE_FILES: usize = 64;

/// Suite files read at most per run, looking for those that mention the policy.
const MAX_SUITE_READS: usize = 1_024;

/// The suites that may test the policy at `policy`: the scanned suite files and the open
/// documents that look like suites, each (path, text), the editor's text first; only those that
/// mention the policy's file name (a suite names its policy files).
pub fn read_suites(policy: &Path, scanned: &[PathBuf], open: &OpenTexts) -> Vec<(String, String)> {
    let Some(name) = policy.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    let open_suites = open.iter().filter(|(_, text)| looks_like_suite(text));
    let mut paths: Vec<&PathBuf> = open_suites.map(|(path, _)| path).collect();
    paths.extend(scanned.iter().filter(|p| !open.contains_key(*p)));
    // The mention filter comes before the cap: a library of hundreds of suites (one per
    // template, as gatekeeper-library has) keeps the one that tests this policy.
    paths
        .into_iter()
        .take(MAX_SUITE_READS)
        .filter_map(|path| {
            let text = match open.get(path) {
                Some(text) => text.clone(),
                None => disk::read_text(path, Bounds::named()).ok()?,
            };
            let mentions = text.contains(name) && looks_like_suite(&text);
            mentions.then(|| (path.display().to_string(), text))
        })
        .take(MAX_SUITE_FILES)
        .collect()
}

/// Reads a file a suite names: the editor's text, else the disk.
pub fn load(path: &str, open: &OpenTexts) -> Result<String, String> {
    let path = super::origin::normalize(Path::new(path));
    match open.get(&path) {
        Some(text) => Ok(text.clone()),
        None => disk::read_text(&path, Bounds::named()).map_err(|e| e.to_string()),
    }
}

/// A verdict hint as an LSP inlay hint, the trace as its Markdown tooltip.
pub fn inlay_hint(hint: &LiveHint, index: &LineIndex, encoding: Encoding) -> lsp::InlayHint {
    lsp::InlayHint {
        position: to_proto::position(index, hint.offset, encoding),
        label: lsp::InlayHintLabel::String(hint.label.clone()),
        kind: None,
        text_edits: None,
        tooltip: Some(lsp::InlayHintTooltip::MarkupContent(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: hint.tooltip.clone(),
        })),
        padding_left: None,
        padding_right: None,
        data: None,
    }
}
