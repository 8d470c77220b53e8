//! Files changed on disk (`workspace/didChangeWatchedFiles`): a CRD, policy or param file saved by
//! another tool, or edited in an editor that does not send it to the server (the clients attach
//! only to policy files), changes the types and references of the open policies. The server asks
//! the client to watch the YAML files of the workspace (dynamic registration, when the client
//! supports it), re-reads each changed file as the workspace scan does (admission and CRD files,
//! and files holding objects of a paramKind), and checks the open documents again. An open document's text is the editor's, so its file events are ignored.
//! The project configuration file is read again as settings (`project.rs`), also while it is open:
//! its settings apply when saved. A changed file that is a sample or a suite of an open policy
//! re-runs its live verdicts (`live.rs`).

use std::path::PathBuf;

use tower_lsp_server::ls_types::*;

use super::ProjectFile;
use super::Server;
use super::project::is_project_file;
use crate::lsp::diagnostics::{Guard, Publish};
use crate::lsp::disk::local_path;
use crate::lsp::workspace::{self, FileRole};

/// The local path of a watched file's URI; another host's or scheme's is logged and not read.
fn local_file(uri: &Uri) -> Option<PathBuf> {
    let path = local_path(uri);
    if path.is_none() {
        eprintln!(
            "admission-ls: skipped {}: not a local file (only file: URIs without a host, or with localhost, are read)",
            uri.as_str()
        );
    }
    path
}

/// The id of the watcher registration.
const REGISTRATION_ID: &str = "admission-ls/watch-yaml";

impl Server {
    /// Asks the client to report changes to the workspace's YAML files, if it can.
    pub(super) async fn register_file_watcher(&self) {
        if !self.state().watch_files {
            return;
        }
        let options = DidChangeWatchedFilesRegistrationOptions {
            watchers: vec![FileSystemWatcher {
                glob_pattern: GlobPattern::String("**/*.{yaml,yml}".to_owned()),
                kind: None,
            }],
        };
        let registration = Registration {
            id: REGISTRATION_ID.to_owned(),
            method: "workspace/didChangeWatchedFiles".to_owned(),
            register_options: serde_json::to_value(options).ok(),
        };
        if let Err(error) = self
            .shared
            .client
            .register_capability(vec![registration])
            .await
        {
            eprintln!("admission-ls: the client refused to watch files: {error}");
        }
    }

    /// `workspace/didChangeWatchedFiles`: re-reads the changed files that are not open, then checks
    /// the open documents and the workspace files again.
    pub(super) async fn files_changed(&self, mut params: DidChangeWatchedFilesParams) {
        // The project configuration file is settings, not an input of the analysis; it is read
        // first, so that its `exclude` applies to the other changes.
        let first_root = self.state().roots.first().cloned();
        let (config_events, changes): (Vec<_>, Vec<_>) = std::mem::take(&mut params.changes)
            .into_iter()
            .partition(|event| is_project_file(&event.uri, first_root.as_deref()));
        params.changes = changes;
        if let Some(event) = config_events.into_iter().last() {
            self.project_changed(event.uri).await;
        }
        let (analysis, roots, project): (_, _, Option<ProjectFile>) = {
            let state = self.state();
            (
                state.host.snapshot(),
                state.roots.clone(),
                state.project.clone(),
            )
        };
        // Reading and classifying happen off the state lock: the param kinds need every file's
        // facts.
        let read = move || {
            let kinds = workspace::param_kind_names(&analysis);
            params
                .changes
                .into_iter()
                .map(|event| {
                    // A deleted file is gone; a created or changed one is read as the scan reads.
                    // A file the project's `exclude` leaves out is no input, as in the scan.
                    let text = (event.typ != FileChangeType::DELETED)
                        .then(|| local_file(&event.uri))
                        .flatten()
                        .filter(|path| !project.as_ref().is_some_and(|p| p.excludes(path)))
                        .and_then(|path: PathBuf| workspace::read_bounded(&path, &roots))
                        .map(|file| file.text);
                    let role = text.as_deref().and_then(|t| workspace::role_of(t, &kinds));
                    (event.uri, text, role)
                })
                .collect::<Vec<_>>()
        };
        let Ok(read) = tokio::task::spawn_blocking(read).await else {
            return;
        };
        self.live_files_changed(&read);
        let inputs = read.into_iter().map(|(uri, text, role)| {
            let input = text.zip(role);
            (uri, input)
        });
        self.apply_file_changes(inputs.collect());
    }

    /// The live verdicts that read the changed files which are not open (a sample, a suite).
    fn live_files_changed(&self, read: &[(Uri, Option<String>, Option<FileRole>)]) {
        let changed: Vec<(PathBuf, Option<String>)> = {
            let state = self.state();
            let closed = read
                .iter()
                .filter(|(uri, ..)| !state.documents.contains_key(uri));
            let local = closed.filter_map(|(uri, text, _)| Some((local_path(uri)?, text.clone())));
            local.collect()
        };
        self.shared.live_files_changed(&changed);
    }

    /// Puts the new texts into the analysis in their role; a file that is gone, unreadable or no
    /// longer either kind of input (`None`) leaves it.
    fn apply_file_changes(&self, changes: Vec<(Uri, Option<(String, FileRole)>)>) {
        let mut gone = Vec::new();
        let open = {
            let mut state = self.state();
            let mut changed = false;
            for (uri, input) in changes {
                if state.documents.contains_key(&uri) {
                    continue;
                }
                let was_workspace = state.workspace.remove(&uri);
                let was_params = state.param_files.remove(&uri);
                if was_workspace.is_some()
                    && input.as_ref().map(|(_, r)| *r) != Some(FileRole::Workspace)
                {
                    // Its published diagnostics would otherwise stay.
                    gone.push(uri.clone());
                }
                match input {
                    Some((text, role)) => {
                        state.add_input(uri, text, role);
                        changed = true;
                    }
                    None => {
                        if let Some(id) = was_workspace.or(was_params) {
                            state.host.remove_file(id);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                return;
            }
            state.open_documents()
        };
        for uri in gone {
            let _ = self.shared.publisher.send(Publish {
                uri,
                diagnostics: Vec::new(),
                guard: Guard::NotOpen,
            });
        }
        self.recheck_open(open);
        self.schedule_workspace();
    }
}
