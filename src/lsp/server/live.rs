//! When live verdicts run: after a document's diagnostics are published (never before, and never
//! on the keystroke's path), once its edits pause ([`DEBOUNCE`]), one document at a time on the
//! blocking pool. A document's samples are its modelines' files and the cases of the workspace's
//! suites that test it. A newer edit makes a waiting run end in nothing and a running one stop between
//! samples; a result is kept only for the version it was computed for. When one is kept, the
//! client is asked to fetch its inlay hints again (`workspace/inlayHint/refresh`).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tower_lsp_server::ls_types::Uri;

use super::Shared;
use crate::ide::live::{LiveHint, looks_like_suite};
use crate::lsp::commands::OpenTexts;
use crate::lsp::disk::local_path;
use crate::lsp::features::Request;
use crate::lsp::live;
use crate::lsp::origin::normalize;
use crate::lsp::state::State;

/// How long a document's edits must pause before its verdicts run: a burst of keystrokes costs
/// one run.
pub(super) const DEBOUNCE: Duration = Duration::from_millis(200);

/// What one run needs, taken under the state lock.
struct LiveJob {
    request: Request,
    path: PathBuf,
    open: OpenTexts,
    suites: Vec<PathBuf>,
}

impl Shared {
    /// The live verdicts of `uri` at `version`, after `DEBOUNCE` if no newer version is asked
    /// for meanwhile.
    /// The open policies that read `uri` (a sample or a suite of theirs) are evaluated again.
    pub(super) fn schedule_live(self: &Arc<Self>, uri: Uri, version: i32) {
        let readers = {
            let state = self.lock();
            if state.live.disabled {
                return;
            }
            readers_of_open(&state, &uri)
        };
        self.start_live(uri, version);
        for (reader, version) in readers {
            self.start_live(reader, version);
        }
    }

    /// The verdicts of the open policies that read the files changed on disk (each a path and its
    /// text, `None` when gone or unreadable); the suites among them join or leave the suite list.
    pub(super) fn live_files_changed(self: &Arc<Self>, changed: &[(PathBuf, Option<String>)]) {
        let mut readers = Vec::new();
        {
            let mut state = self.lock();
            for (path, text) in changed {
                let suite = text.as_deref().filter(|t| looks_like_suite(t));
                let was_suite = state.live.note_suite(path, suite.is_some());
                if !state.live.disabled {
                    readers.extend(readers_of(&state, path, suite, was_suite, None));
                }
            }
        }
        readers.sort();
        readers.dedup();
        for (reader, version) in readers {
            self.start_live(reader, version);
        }
    }

    /// A run of `uri` at `version` after `DEBOUNCE`, superseding any earlier one.
    fn start_live(self: &Arc<Self>, uri: Uri, version: i32) {
        let run = self.lock().live.want(uri.clone(), version);
        let shared = self.clone();
        tokio::spawn(async move { shared.run_live(uri, version, run).await });
    }

    async fn run_live(self: Arc<Self>, uri: Uri, version: i32, run: u64) {
        tokio::time::sleep(DEBOUNCE).await;
        if !self.live_wanted(&uri, version, run) {
            return;
        }
        // One run at a time: the blocking pool stays free for diagnostics and requests.
        let Ok(_slot) = self.live_slot.acquire().await else {
            return;
        };
        let hints = match self.live_job(&uri, version, run) {
            None => return,
            // No modeline and no suite: nothing to evaluate, and no copy of the open texts.
            Some(None) => Vec::new(),
            Some(Some(job)) => {
                let (shared, target) = (self.clone(), uri.clone());
                let work = move || {
                    let cancelled = || !shared.live_wanted(&target, version, run);
                    compute(&job, &cancelled)
                };
                let Ok(hints) = tokio::task::spawn_blocking(work).await else {
                    eprintln!("admission-ls: a live verdict run failed");
                    return;
                };
                hints
            }
        };
        let refresh = {
            let mut state = self.lock();
            if !wanted(&state, &uri, version, run) {
                return;
            }
            // Hints that did not change need no refresh (a document without samples stays empty).
            state.live.keep(uri, version, hints) && state.live.refresh
        };
        if refresh {
            // A client that fails the request shows the verdicts at its next inlay hint request.
            let _ = self.client.inlay_hint_refresh().await;
        }
    }

    /// Whether the run `run` of the verdicts of `uri` at `version` is still wanted.
    fn live_wanted(&self, uri: &Uri, version: i32, run: u64) -> bool {
        wanted(&self.lock(), uri, version, run)
    }

    /// The snapshot and the open texts of a run, if it is still wanted and names a local file;
    /// `Some(None)` when the document has no modeline and the workspace no suite.
    fn live_job(&self, uri: &Uri, version: i32, run: u64) -> Option<Option<LiveJob>> {
        let mut state = self.lock();
        if !wanted(&state, uri, version, run) {
            return None;
        }
        let path = local_path(uri)?;
        let text = state.documents.get(uri)?.text();
        let open_suite = || {
            state
                .documents
                .values()
                .any(crate::lsp::documents::Document::looks_like_suite)
        };
        if !text.contains(crate::ide::live::MARKER) && state.live.suites.is_empty() && !open_suite()
        {
            return Some(None);
        }
        let open = state
            .documents
            .iter()
            .filter_map(|(uri, doc)| Some((local_path(uri)?, doc.text().to_string())))
            .collect();
        let request = state.request(uri)?;
        let suites = state.live.suites.clone();
        Some(Some(LiveJob {
            request,
            path,
            open,
            suites,
        }))
    }
}

/// Whether the run `run` of `uri` at `version` is on, the newest asked for, and of the text open.
fn wanted(state: &State, uri: &Uri, version: i32, run: u64) -> bool {
    !state.live.disabled
        && state.live.is_wanted(uri, version, run)
        && state
            .documents
            .get(uri)
            .is_some_and(|d| d.version == version)
}

/// The other open documents whose verdicts read the open document `uri`: a sample of theirs, or a
/// suite (or a document that was one) that may test them.
fn readers_of_open(state: &State, uri: &Uri) -> Vec<(Uri, i32)> {
    let (Some(path), Some(document)) = (local_path(uri), state.documents.get(uri)) else {
        return Vec::new();
    };
    let text = document.looks_like_suite().then(|| document.text());
    let suite = text.as_deref();
    readers_of(state, &path, suite, state.live.is_suite(&path), Some(uri))
}

/// The open documents (but `except`) whose verdicts read the file at `path`; `suite` is its text
/// when it is a suite, `was_suite` whether it was one (its cases may be among their verdicts).
fn readers_of(
    state: &State,
    path: &std::path::Path,
    suite: Option<&str>,
    was_suite: bool,
    except: Option<&Uri>,
) -> Vec<(Uri, i32)> {
    let reads = |uri: &Uri, text: &str| {
        let Some(policy) = local_path(uri) else {
            return false;
        };
        (was_suite && state.live.shows(uri)) || live::reads(&policy, text, path, suite)
    };
    let others = state
        .documents
        .iter()
        .filter(|(uri, _)| Some(*uri) != except);
    let readers = others.filter(|(uri, doc)| reads(uri, &doc.text()));
    readers
        .map(|(uri, doc)| (uri.clone(), doc.version))
        .collect()
}

/// The verdict hints of the job's document: its modelines' samples and the cases of the suites
/// that test it, read, evaluated, rendered.
fn compute(job: &LiveJob, cancelled: &dyn Fn() -> bool) -> Vec<LiveHint> {
    let (analysis, file) = (&job.request.analysis, job.request.file);
    let modelines = analysis.modelines(file);
    let loaded = live::read_samples(&job.path, &modelines, &job.open);
    let path = job.path.display().to_string();
    let config = &job.request.config;
    let mut verdicts = analysis.modeline_verdicts(file, &path, &loaded, config, cancelled);
    let suites = live::read_suites(&job.path, &job.suites, &job.open);
    if !suites.is_empty() {
        let this = normalize(&job.path);
        let is_this_file = |p: &str| normalize(std::path::Path::new(p)) == this;
        let load = |p: &str| live::load(p, &job.open);
        verdicts.extend(analysis.suite_verdicts(file, &suites, &is_this_file, &load, cancelled));
    }
    analysis.live_hints(file, &verdicts)
}
