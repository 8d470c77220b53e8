//! When diagnostics run and how they reach the client: debounced runs for an open document, the
//! re-check of the files `ide` says an edit affects, the workspace files, and the publisher task that sends
//! each result only if its document is still at the version it was computed for.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tower_lsp_server::ls_types::Uri;

use super::{Server, Shared};
use crate::ide::FileId;
use crate::lsp::diagnostics::{self, Guard, Job, Publish};

/// The wait after the last keystroke before diagnostics run. Short because a run on a typical policy
/// file takes a few milliseconds and the latency budget is diagnostics within 50 ms (p95) of a
/// keystroke; 30 ms still merges the bursts of changes an editor sends for one action (a paste, an
/// auto-indent, fast typing at ~10 ms per key).
pub const DEBOUNCE: Duration = Duration::from_millis(30);

impl Server {
    /// Diagnostics for an open document after `delay`, unless a newer version arrives meanwhile
    /// (a pulling client asks for them itself); then the other files the edit affects.
    pub(super) fn schedule(&self, uri: Uri, version: i32, delay: Duration) {
        let shared = self.shared.clone();
        tokio::spawn(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            let pull = shared.lock().pull;
            let Some(job) = shared.lock().job_for_document(&uri, version) else {
                return;
            };
            let edited = Edited {
                analysis: job.analysis.clone(),
                file: job.files[0].1,
                uri: uri.clone(),
                version,
            };
            if !pull {
                shared.run(job, Guard::OpenAt(version)).await;
            }
            shared.recheck_affected(edited).await;
        });
    }

    /// The open documents again after a change outside them (settings, scanned or watched files).
    /// A pulling client is asked to pull again instead, when it can be.
    pub(super) fn recheck_open(&self, open: Vec<(Uri, i32)>) {
        if !self.state().pull {
            for (uri, version) in open {
                self.schedule(uri, version, Duration::ZERO);
            }
        } else if !open.is_empty() {
            let shared = self.shared.clone();
            tokio::spawn(async move { shared.refresh_pulled().await });
        }
    }

    /// Diagnostics for the scanned workspace files that are not open.
    pub(super) fn schedule_workspace(&self) {
        let shared = self.shared.clone();
        tokio::spawn(async move {
            let job = shared.lock().job_for_workspace();
            shared.run(job, Guard::NotOpen).await;
        });
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
        let job = self.lock().job_for_workspace();
        self.run(job, Guard::NotOpen).await;
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
