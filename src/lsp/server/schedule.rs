//! When diagnostics run and how they reach the client: debounced runs for an open document, the
//! re-check of dependents after a CRD edit, the workspace files, and the publisher task that sends
//! each result only if its document is still at the version it was computed for.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tower_lsp_server::ls_types::Uri;

use super::{Server, Shared};
use crate::lsp::diagnostics::{self, Guard, Job, Publish};

/// The wait after the last keystroke before diagnostics run. Short because a run on a typical policy
/// file takes a few milliseconds and the latency budget is diagnostics within 50 ms (p95) of a
/// keystroke; 30 ms still merges the bursts of changes an editor sends for one action (a paste, an
/// auto-indent, fast typing at ~10 ms per key).
pub const DEBOUNCE: Duration = Duration::from_millis(30);

impl Server {
    /// Diagnostics for an open document after `delay`, unless a newer version arrives meanwhile.
    pub(super) fn schedule(&self, uri: Uri, version: i32, delay: Duration) {
        if self.state().pull {
            return; // the client asks for them
        }
        let shared = self.shared.clone();
        tokio::spawn(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            let Some(job) = shared.lock().job_for_document(&uri, version) else {
                return;
            };
            shared.run(job, Guard::OpenAt(version)).await;
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

    /// After an edit of a CRD: the other open documents and the workspace files, whose typed
    /// diagnostics may depend on it, once the edits settle.
    pub(super) fn schedule_dependents(&self, edited: &Uri) {
        let shared = self.shared.clone();
        let edited = edited.clone();
        tokio::spawn(async move {
            tokio::time::sleep(DEBOUNCE).await;
            let open = if shared.lock().pull {
                Vec::new() // the client pulls the open documents' diagnostics
            } else {
                shared.lock().open_documents()
            };
            for (uri, version) in open.into_iter().filter(|(uri, _)| *uri != edited) {
                let Some(job) = shared.lock().job_for_document(&uri, version) else {
                    continue;
                };
                shared.run(job, Guard::OpenAt(version)).await;
            }
            let job = shared.lock().job_for_workspace();
            shared.run(job, Guard::NotOpen).await;
            shared.refresh_pulled().await;
        });
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

impl Shared {
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
