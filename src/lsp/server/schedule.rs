//! When diagnostics run and how they reach the client: runs for an open document as soon as the
//! previous one ends (bursts coalesce, no fixed wait), the
//! re-check of the files `ide` says an edit affects, the workspace files, and the publisher task that sends
//! each result only if its document is still at the version it was computed for.

use std::sync::Arc;

use tokio::sync::mpsc;
use tower_lsp_server::ls_types::Uri;

use super::{Server, Shared};
use crate::ide::FileId;
use crate::lsp::diagnostics::{self, Guard, Job, Publish};

impl Server {
    /// Diagnostics for an open document as soon as possible, then for the other files the edit
    /// affects (a pulling client asks for the document's own). No fixed wait: a run starts at
    /// once unless one is already running for the document, in which case that run goes again
    /// with the newest version when it ends, so a burst of keystrokes costs one run per analysis
    /// time rather than one per keystroke, and a quick analysis is published after its own time.
    pub(super) fn schedule(&self, uri: Uri) {
        let start = {
            let mut state = self.state();
            match state.running.get_mut(&uri) {
                Some(again) => {
                    *again = true;
                    false
                }
                None => {
                    state.running.insert(uri.clone(), false);
                    true
                }
            }
        };
        if start {
            let shared = self.shared.clone();
            tokio::spawn(async move { shared.run_until_current(uri).await });
        }
    }

    /// The open documents again after a change outside them (settings, scanned or watched files).
    /// A pulling client is asked to pull again instead, when it can be.
    pub(super) fn recheck_open(&self, open: Vec<(Uri, i32)>) {
        if !self.state().pull {
            for (uri, _) in open {
                self.schedule(uri);
            }
        } else if !open.is_empty() {
            let shared = self.shared.clone();
            tokio::spawn(async move { shared.refresh_pulled().await });
        }
    }

    /// Diagnostics for the scanned workspace files that are not open.
    pub(super) fn schedule_workspace(&self) {
        let shared = self.shared.clone();
        tokio::spawn(async move { shared.push_workspace().await });
    }
}

/// An open document at the version a run checked, with that run's snapshot.
struct Edited {
    analysis: crate::ide::Analysis,
    file: FileId,
    uri: Uri,
    version: i32,
}

impl Shared {
    /// Pushes the diagnostics of the workspace files that are not open, unless the client pulls
    /// them (it is then asked to pull again, with the open documents').
    async fn push_workspace(&self) {
        if self.lock().workspace_pull {
            self.refresh_pulled().await;
            return;
        }
        let job = self.lock().job_for_workspace();
        self.run(job, Guard::NotOpen).await;
    }

    /// Runs the diagnostics of `uri` at its current version, again while edits arrived during the
    /// run, and then leaves the document's running slot.
    async fn run_until_current(&self, uri: Uri) {
        loop {
            let pull = self.lock().pull;
            let version = self.lock().documents.get(&uri).map(|d| d.version);
            let job = version.and_then(|v| self.lock().job_for_document(&uri, v));
            if let (Some(job), Some(version)) = (job, version) {
                let edited = Edited {
                    analysis: job.analysis.clone(),
                    file: job.files[0].1,
                    uri: uri.clone(),
                    version,
                };
                if !pull {
                    self.run(job, Guard::OpenAt(version)).await;
                }
                self.recheck_affected(edited).await;
            }
            let mut state = self.lock();
            match state.running.get_mut(&uri) {
                Some(again) if *again => *again = false,
                _ => {
                    state.running.remove(&uri);
                    return;
                }
            }
        }
    }

    /// Asks `ide` which other files the edit affects (what the document contributes to them, as of
    /// its last run, against now) and re-checks those that are open or scanned.
    async fn recheck_affected(&self, edited: Edited) {
        let before = match self.lock().documents.get(&edited.uri) {
            Some(document) if document.version == edited.version => document.contribution,
            _ => return, // a newer version's run will compare
        };
        let analysis = edited.analysis;
        let file = edited.file;
        let answer = tokio::task::spawn_blocking(move || {
            (
                analysis.contribution(file),
                analysis.affected_by(file, before),
            )
        });
        let Ok((now, affected)) = answer.await else {
            eprintln!("admission-ls: what an edit affects could not be computed");
            return;
        };
        let open = {
            let mut state = self.lock();
            match state.documents.get_mut(&edited.uri) {
                Some(document) if document.version == edited.version => {
                    document.contribution = now;
                }
                _ => return,
            }
            if affected.is_empty() {
                return;
            }
            let pull = state.pull;
            state
                .open_documents()
                .into_iter()
                .filter(|(uri, _)| !pull && *uri != edited.uri)
                .collect::<Vec<_>>()
        };
        for (uri, version) in open {
            let job = self.lock().job_for_document(&uri, version);
            if let Some(job) = job.filter(|job| affected.contains(&job.files[0].1)) {
                self.run(job, Guard::OpenAt(version)).await;
            }
        }
        self.push_workspace().await;
        self.refresh_pulled().await;
    }

    /// `workspace/diagnostic/refresh` to a client that pulls diagnostics and takes the request.
    async fn refresh_pulled(&self) {
        let refresh = {
            let state = self.lock();
            state.pull && state.refresh_pulled
        };
        if refresh {
            // A client that fails the request keeps its diagnostics until its next edit: nothing to do.
            let _ = self.client.workspace_diagnostic_refresh().await;
        }
    }

    async fn run(&self, job: Job, guard: Guard) {
        for (uri, diagnostics) in diagnostics::compute(job).await {
            // The receiver lives as long as `self`, so a send can't fail while we run.
            let _ = self.publisher.send(Publish {
                uri,
                diagnostics,
                guard,
            });
        }
    }
}

/// Sends results in arrival order, each only if its document is still where it was computed.
pub(super) async fn publish_loop(
    shared: Arc<Shared>,
    mut results: mpsc::UnboundedReceiver<Publish>,
) {
    while let Some(publish) = results.recv().await {
        if !shared.lock().accepts(&publish.uri, publish.guard) {
            continue;
        }
        let version = match publish.guard {
            Guard::OpenAt(version) => Some(version),
            Guard::NotOpen => None,
        };
        shared
            .client
            .publish_diagnostics(publish.uri, publish.diagnostics, version)
            .await;
    }
}
