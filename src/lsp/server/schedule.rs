//! When diagnostics run and how they reach the client. Edits, re-checks and workspace pushes go
//! into one queue of file sets (`state::RunQueue`); a runner task works through it in steps of a
//! few files on one snapshot each, edited documents first, so a burst of opens or keystrokes
//! coalesces (a file asked for again before its turn is checked once). An edit starts a second
//! runner while the first is in a step, so a keystroke never waits behind a large file. After the
//! step of an edited document, `ide` says whether what the document contributes to the others
//! changed and which files that affects; those go into the queue once, not one job per file per
//! edit. The publisher task sends each result only if its document is still at the version it was
//! computed for.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::mpsc;
use tower_lsp_server::ls_types::Uri;

use super::{Server, Shared};
use crate::ide::{Contribution, FileId};
use crate::lsp::diagnostics::{self, Guard, Job, Publish, PublishSender};
use crate::lsp::state::Step;

impl Server {
    /// Diagnostics for an open document as soon as the runner gets to it (at once when it is
    /// idle), then for the other files the edit affects (a pulling client asks for the
    /// document's own).
    pub(super) fn schedule(&self, uri: Uri) {
        let start = {
            let mut state = self.state();
            state.queue.edited.insert(uri);
            state.queue.claim_runner(true)
        };
        self.shared.start_runner(start);
    }

    /// The open documents again after a change outside them (settings, scanned or watched files).
    /// A pulling client is asked to pull again instead, when it can be.
    pub(super) fn recheck_open(&self, open: Vec<(Uri, i32)>) {
        if self.state().pull {
            if !open.is_empty() {
                let shared = self.shared.clone();
                tokio::spawn(async move { shared.refresh_pulled().await });
            }
            return;
        }
        let start = {
            let mut state = self.state();
            state
                .queue
                .others
                .extend(open.into_iter().map(|(uri, _)| uri));
            state.queue.claim_runner(false)
        };
        self.shared.start_runner(start);
    }

    /// Diagnostics for the scanned workspace files that are not open.
    pub(super) fn schedule_workspace(&self) {
        self.shared.queue_workspace(|_| true);
    }

    /// Diagnostics for one scanned workspace file that is not open (a document just closed).
    pub(super) fn schedule_workspace_file(&self, uri: Uri) {
        let file = self.state().workspace.get(&uri).copied();
        if let Some(file) = file {
            self.shared.queue_workspace(|f| f == file);
        }
    }
}

impl Shared {
    fn start_runner(self: &Arc<Self>, start: bool) {
        if start {
            let shared = self.clone();
            tokio::spawn(async move { shared.run_queue().await });
        }
    }

    /// Pushes the diagnostics of the workspace files accepted by `affected` that are not open,
    /// unless the client pulls them (it is then asked to pull again, with the open documents').
    fn queue_workspace(self: &Arc<Self>, affected: impl Fn(FileId) -> bool) {
        let start = {
            let mut state = self.lock();
            if state.workspace_pull {
                None
            } else {
                let files: Vec<Uri> = state
                    .workspace
                    .iter()
                    .filter(|(uri, file)| affected(**file) && !state.documents.contains_key(*uri))
                    .map(|(uri, _)| uri.clone())
                    .collect();
                state.queue.workspace.extend(files);
                Some(state.queue.claim_runner(false))
            }
        };
        match start {
            Some(start) => self.start_runner(start),
            None => {
                let shared = self.clone();
                tokio::spawn(async move { shared.refresh_pulled().await });
            }
        }
    }

    /// Works through the queue until it is empty.
    async fn run_queue(self: Arc<Self>) {
        loop {
            let next = self.lock().next_step();
            let Some(step) = next else {
                return;
            };
            match step {
                Step::Edited(job, edited) => self.run_edited(job, edited).await,
                Step::Others(job, versions) => {
                    let guards = versions.into_iter().map(|(u, v)| (u, Guard::OpenAt(v)));
                    self.run(job, guards.collect()).await;
                }
                Step::Workspace(job) => {
                    let guards = job.files.iter().map(|(u, _)| (u.clone(), Guard::NotOpen));
                    let guards = guards.collect();
                    self.run(job, guards).await;
                }
            }
        }
    }

    /// The diagnostics of edited documents (unless the client pulls them), then what their edits
    /// changed for the others.
    async fn run_edited(self: &Arc<Self>, job: Job, edited: Vec<(Uri, i32, FileId, Contribution)>) {
        let pull = self.lock().pull;
        let analysis = job.analysis.clone();
        let befores: Vec<(FileId, Contribution)> = edited.iter().map(|e| (e.2, e.3)).collect();
        let guards: HashMap<Uri, Guard> = edited
            .iter()
            .map(|(uri, version, _, _)| (uri.clone(), Guard::OpenAt(*version)))
            .collect();
        let (publisher, published) = (self.publisher.clone(), guards.clone());
        let work = move || {
            if !pull {
                compute_and_publish(&job, &published, &publisher);
            }
            let change = |(file, before): &(FileId, Contribution)| {
                let now = analysis.contribution(*file);
                (now, analysis.affected_by(*file, *before))
            };
            befores.iter().map(change).collect::<Vec<_>>()
        };
        let Ok(changes) = tokio::task::spawn_blocking(work).await else {
            eprintln!("admission-ls: a diagnostics run failed");
            return;
        };
        if pull {
            // Nothing is published for a pulling client: the verdicts follow the run.
            for (uri, version, _, _) in &edited {
                self.schedule_live(uri.clone(), *version);
            }
        }
        let affected = self.record_contributions(&edited, changes);
        if !affected.is_empty() {
            self.recheck_affected(&affected, &guards);
        }
    }

    /// Stores each edited document's new contribution (if it is still at the version checked)
    /// and returns the files the changes affect.
    fn record_contributions(
        &self,
        edited: &[(Uri, i32, FileId, Contribution)],
        changes: Vec<(Contribution, Vec<FileId>)>,
    ) -> std::collections::HashSet<FileId> {
        let mut affected = std::collections::HashSet::new();
        let mut state = self.lock();
        for ((uri, version, _, _), (now, files)) in edited.iter().zip(changes) {
            match state.documents.get_mut(uri) {
                Some(document) if document.version == *version => document.contribution = now,
                _ => continue, // a newer version's run will compare
            }
            affected.extend(files);
        }
        affected
    }

    /// Queues the open documents and workspace files in `affected`, but not the documents just
    /// checked (`checked`, on a snapshot that had every open document's text).
    fn recheck_affected(
        self: &Arc<Self>,
        affected: &std::collections::HashSet<FileId>,
        checked: &HashMap<Uri, Guard>,
    ) {
        let start = {
            let mut state = self.lock();
            if state.pull {
                None
            } else {
                let open: Vec<Uri> = state
                    .documents
                    .iter()
                    .filter(|(uri, d)| affected.contains(&d.file) && !checked.contains_key(*uri))
                    .map(|(uri, _)| uri.clone())
                    .collect();
                state.queue.others.extend(open);
                Some(state.queue.claim_runner(false))
            }
        };
        if let Some(start) = start {
            self.start_runner(start);
        }
        self.queue_workspace(|file| affected.contains(&file));
        let shared = self.clone();
        tokio::spawn(async move { shared.refresh_pulled().await });
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

    async fn run(&self, job: Job, guards: HashMap<Uri, Guard>) {
        let publisher = self.publisher.clone();
        let work = move || compute_and_publish(&job, &guards, &publisher);
        if tokio::task::spawn_blocking(work).await.is_err() {
            eprintln!("admission-ls: a diagnostics run failed");
        }
    }
}

/// Computes the files of `job`, sending each result to the publisher under its guard as soon as
/// it is ready. A parse made ahead and not taken by this run counts the run (see `ide::ahead`).
fn compute_and_publish(job: &Job, guards: &HashMap<Uri, Guard>, publisher: &PublishSender) {
    publish_each(job, guards, publisher);
    crate::ide::ahead::run_ended();
}

/// [`compute_and_publish`] without the bookkeeping.
fn publish_each(job: &Job, guards: &HashMap<Uri, Guard>, publisher: &PublishSender) {
    diagnostics::compute_each(job, &|uri, diagnostics| {
        let Some(&guard) = guards.get(&uri) else {
            return;
        };
        // The receiver lives as long as the server, so a send can't fail while it runs.
        let _ = publisher.send(Publish {
            uri,
            diagnostics,
            guard,
        });
    });
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
        let uri = publish.uri.clone();
        shared
            .client
            .publish_diagnostics(publish.uri, publish.diagnostics, version)
            .await;
        // Verdicts come after the diagnostics they must never delay.
        if let Some(version) = version {
            shared.schedule_live(uri, version);
        }
    }
}
