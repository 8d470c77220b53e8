//! The server's mutable state behind one `std::sync::Mutex`: open documents, the URI ↔ `FileId`
//! table, the analysis host, the settings and the negotiated encoding. Handlers lock it briefly and
//! never hold it across an `.await`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

use tower_lsp_server::ls_types::Uri;

use super::diagnostics::{Guard, Job};
use super::documents::{Document, FileIds};
use super::origin::OriginFinder;
use super::workspace::{FileRole, ScannedFile, read_bounded};
use crate::ide::{AnalysisHost, Contribution, DiagnosticsConfig, Encoding, FileId};

/// The diagnostics runs to do, by kind; sets, so that a file asked for many times is checked once.
#[derive(Debug, Default)]
pub struct RunQueue {
    /// Open documents edited (or opened) since their last run.
    pub edited: BTreeSet<Uri>,
    /// Open documents another file's change may affect.
    pub others: BTreeSet<Uri>,
    /// Workspace files, not open, whose diagnostics are to be pushed.
    pub workspace: BTreeSet<Uri>,
    /// How many runner tasks are working through the queue.
    pub runners: usize,
}

/// Runner tasks at most: a second one starts for an edit while the first is in a step, so a
/// keystroke never waits behind a large file's step.
pub const MAX_RUNNERS: usize = 2;

impl RunQueue {
    /// Counts a new runner if one is due: for an edit while fewer than [`MAX_RUNNERS`] run
    /// (`for_edit`), else when none runs. The caller starts it.
    pub fn claim_runner(&mut self, for_edit: bool) -> bool {
        let due = if for_edit {
            self.runners < MAX_RUNNERS
        } else {
            self.runners == 0
        };
        if due {
            self.runners += 1;
        }
        due
    }
}

/// The next step of the runner: up to this many files, on one snapshot.
pub const RUN_CHUNK: usize = 16;

/// One step of the diagnostics runner, with the snapshot to compute it on.
#[derive(Debug)]
pub enum Step {
    /// Edited open documents: their diagnostics, then whether what they contribute changed; each
    /// with its version and its contribution as of its last run.
    Edited(Job, Vec<(Uri, i32, FileId, Contribution)>),
    /// Open documents at these versions, re-checked for another file's change.
    Others(Job, HashMap<Uri, i32>),
    /// Workspace files that are not open.
    Workspace(Job),
}

/// Everything the handlers share.
#[derive(Debug)]
pub struct State {
    /// The position encoding agreed at `initialize`.
    pub encoding: Encoding,
    /// The client pulls diagnostics of open documents (`textDocument/diagnostic`), so they are
    /// not pushed: a client showing both would list each twice.
    pub pull: bool,
    /// The pulling client takes `workspace/diagnostic/refresh`: sent when the diagnostics of open
    /// documents change without an edit of theirs (settings, the workspace scan, files changed on
    /// disk, an edited CRD), since such a client asks for them only after its own edits.
    pub refresh_pulled: bool,
    /// The client has pulled workspace diagnostics (`workspace/diagnostic`): the workspace files'
    /// diagnostics are then its to ask for, and no longer pushed.
    pub workspace_pull: bool,
    /// The current settings: the editor's (`editor`) laid over the project configuration file's.
    pub config: DiagnosticsConfig,
    /// The settings the editor gave (`initializationOptions`, `didChangeConfiguration`).
    pub editor: crate::lsp::config::Layer,
    /// The editor's `schemaPaths`.
    pub editor_schema_paths: Vec<PathBuf>,
    /// The project configuration file of the first workspace folder.
    pub project: Option<crate::lsp::server::ProjectFile>,
    /// Open documents by URI.
    pub documents: HashMap<Uri, Document>,
    /// The URI ↔ `FileId` table.
    pub file_ids: FileIds,
    /// The inputs of the analysis.
    pub host: AnalysisHost,
    /// Workspace folders, scanned at `initialized`.
    pub roots: Vec<PathBuf>,
    /// Admission files found by the workspace scan, in URI order for deterministic publishing.
    pub workspace: BTreeMap<Uri, FileId>,
    /// Files holding param objects, found by the scan: inputs of the analysis (bindings'
    /// `paramRef`s resolve to them) whose own diagnostics are not published.
    pub param_files: BTreeMap<Uri, FileId>,
    /// Extra CRD files from the `schemaPaths` setting and the project file's, loaded with the
    /// workspace scan.
    pub schema_paths: Vec<PathBuf>,
    /// The diagnostics runs waiting for the runner (`server/schedule.rs`).
    pub queue: RunQueue,
    /// The client can watch files for the server (dynamic registration of
    /// `workspace/didChangeWatchedFiles`).
    pub watch_files: bool,
    /// The live verdicts of open documents (`lsp/live.rs`).
    pub live: super::live::LiveStore,
}

impl State {
    /// The state before `initialize`.
    pub fn new() -> State {
        State {
            encoding: Encoding::Utf16,
            pull: false,
            refresh_pulled: false,
            workspace_pull: false,
            config: DiagnosticsConfig::default(),
            editor: crate::lsp::config::Layer::default(),
            editor_schema_paths: Vec::new(),
            project: None,
            documents: HashMap::new(),
            file_ids: FileIds::default(),
            host: AnalysisHost::new(),
            roots: Vec::new(),
            workspace: BTreeMap::new(),
            param_files: BTreeMap::new(),
            schema_paths: Vec::new(),
            queue: RunQueue::default(),
            watch_files: false,
            live: super::live::LiveStore::default(),
        }
    }

    /// Hands every open document's current text to the host: another file's diagnostics may
    /// depend on it (a CRD typing a policy, a policy a binding names).
    fn sync_open_documents(&mut self) {
        for document in self.documents.values_mut().filter(|d| !d.synced) {
            self.host.set_file(document.file, document.text());
            document.synced = true;
        }
    }

    /// A snapshot for a request on open document `uri` (hover, completion…), with the document's
    /// current text handed to the host first.
    pub fn request(&mut self, uri: &Uri) -> Option<super::features::Request> {
        let (file, text) = {
            let document = self.documents.get(uri)?;
            (document.file, document.text())
        };
        Some(self.request_on(file, text))
    }

    /// A snapshot for a workspace-wide request (no document of its own).
    pub fn workspace_request(&mut self) -> super::features::Request {
        self.request_on(FileId(u32::MAX), std::sync::Arc::from(""))
    }

    fn request_on(&mut self, file: FileId, text: std::sync::Arc<str>) -> super::features::Request {
        self.sync_open_documents();
        super::features::Request {
            analysis: self.host.snapshot(),
            file,
            text,
            encoding: self.encoding,
            config: self.config.clone(),
            uris: self
                .file_ids
                .uris()
                .map(|(file, uri)| (file, uri.clone()))
                .collect(),
        }
    }

    /// The runner's next step: edited documents first (a keystroke waits for at most one step of
    /// other work), then the other open documents, then the workspace files; `None` when the
    /// queue is empty, which ends the runner.
    pub fn next_step(&mut self) -> Option<Step> {
        if let Some(edited) = self.take_edited() {
            return Some(edited);
        }
        while !self.queue.others.is_empty() || !self.queue.workspace.is_empty() {
            if let Some(step) = self.take_others().or_else(|| self.take_workspace()) {
                return Some(step);
            }
        }
        self.queue.runners = self.queue.runners.saturating_sub(1);
        None
    }

    /// Up to [`RUN_CHUNK`] of the other open documents; `None` when those taken were closed.
    fn take_others(&mut self) -> Option<Step> {
        let others: Vec<(Uri, i32, FileId)> = take_chunk(&mut self.queue.others)
            .into_iter()
            .filter_map(|uri| {
                let document = self.documents.get(&uri)?;
                Some((uri, document.version, document.file))
            })
            .collect();
        if others.is_empty() {
            return None;
        }
        let files = others.iter().map(|(uri, _, file)| (uri.clone(), *file));
        let job = self.job_synced(files.collect());
        let versions = others.into_iter().map(|(uri, version, _)| (uri, version));
        Some(Step::Others(job, versions.collect()))
    }

    /// Up to [`RUN_CHUNK`] workspace files; `None` when those taken are open or gone.
    fn take_workspace(&mut self) -> Option<Step> {
        let workspace: Vec<(Uri, FileId)> = take_chunk(&mut self.queue.workspace)
            .into_iter()
            .filter(|uri| !self.documents.contains_key(uri))
            .filter_map(|uri| Some((uri.clone(), *self.workspace.get(&uri)?)))
            .collect();
        if workspace.is_empty() {
            return None;
        }
        Some(Step::Workspace(self.job_synced(workspace)))
    }

    fn take_edited(&mut self) -> Option<Step> {
        let mut edited = Vec::new();
        while edited.len() < RUN_CHUNK {
            let Some(uri) = self.queue.edited.pop_first() else {
                break;
            };
            if let Some(document) = self.documents.get(&uri) {
                let (version, file) = (document.version, document.file);
                edited.push((uri, version, file, document.contribution));
            }
        }
        if edited.is_empty() {
            return None;
        }
        let files = edited.iter().map(|(uri, _, file, _)| (uri.clone(), *file));
        let job = self.job_synced(files.collect());
        Some(Step::Edited(job, edited))
    }

    fn job_synced(&mut self, files: Vec<(Uri, FileId)>) -> Job {
        self.sync_open_documents();
        self.job(files)
    }

    /// A diagnostics run for every scanned workspace file that is not open in the editor.
    pub fn job_for_workspace(&mut self) -> Job {
        self.sync_open_documents();
        let files = self
            .workspace
            .iter()
            .filter(|(uri, _)| !self.documents.contains_key(uri))
            .map(|(uri, file)| (uri.clone(), *file))
            .collect();
        self.job(files)
    }

    fn job(&self, files: Vec<(Uri, FileId)>) -> Job {
        Job {
            analysis: self.host.snapshot(),
            files,
            config: self.config.clone(),
            encoding: self.encoding,
            static_groups: std::sync::Arc::new(self.static_groups()),
        }
    }

    /// The inputs in each `staticManifests` folder of the project configuration (directly in it,
    /// as the API server reads it), sorted by path.
    fn static_groups(&self) -> Vec<Vec<(FileId, String)>> {
        let Some(project) = self
            .project
            .as_ref()
            .filter(|p| !p.config.static_manifests.is_empty())
        else {
            return Vec::new();
        };
        let folders: Vec<PathBuf> = project
            .config
            .static_manifests
            .iter()
            .map(|folder| project.dir.join(folder))
            .collect();
        let mut groups = vec![Vec::new(); folders.len()];
        for (file, uri) in self.file_ids.uris() {
            let input = self.workspace.contains_key(uri) || self.documents.contains_key(uri);
            let Some(path) = crate::lsp::disk::local_path(uri).filter(|_| input) else {
                continue;
            };
            let folder = folders
                .iter()
                .position(|f| path.parent() == Some(f.as_path()));
            if let Some(group) = folder.and_then(|k| groups.get_mut(k)) {
                group.push((file, path.display().to_string()));
            }
        }
        for group in &mut groups {
            group.sort_by(|a: &(FileId, String), b| a.1.cmp(&b.1));
        }
        groups
    }

    /// Whether a result computed under `guard` may still be published for `uri`.
    pub fn accepts(&self, uri: &Uri, guard: Guard) -> bool {
        match (guard, self.documents.get(uri)) {
            (Guard::OpenAt(version), Some(document)) => document.version == version,
            (Guard::NotOpen, None) => true,
            _ => false,
        }
    }

    /// Makes scanned files inputs of the analysis in `role` (an open document keeps the editor's
    /// text).
    pub fn add_scanned(&mut self, files: Vec<ScannedFile>, role: FileRole) {
        let mut origins = OriginFinder::new();
        for file in files {
            if let Some(uri) = Uri::from_file_path(&file.path) {
                self.add_input_found(uri, file.text, role, &mut origins);
            }
        }
    }

    /// The id of `uri`, with how the file is read (a Helm chart template, a kustomize patch: from
    /// the disk around it, through `origins`) handed to the host before its text is.
    pub fn file_with_origin(&mut self, uri: &Uri, origins: &mut OriginFinder) -> FileId {
        let id = self.file_ids.get_or_insert(uri);
        if let Some(path) = crate::lsp::disk::local_path(uri) {
            self.host.set_origin(id, origins.origin(&path));
        }
        id
    }

    /// Makes the file `uri` with `text` an input of the analysis in `role`, unless it is open
    /// (the editor's text wins).
    pub fn add_input(&mut self, uri: Uri, text: String, role: FileRole) {
        self.add_input_found(uri, text, role, &mut OriginFinder::new());
    }

    /// [`State::add_input`] with the folders already looked at for origins.
    fn add_input_found(
        &mut self,
        uri: Uri,
        text: String,
        role: FileRole,
        origins: &mut OriginFinder,
    ) {
        let id = self.file_with_origin(&uri, origins);
        if !self.documents.contains_key(&uri) {
            self.host.set_file(id, Arc::from(text));
        }
        match role {
            FileRole::Workspace => self.workspace.insert(uri, id),
            FileRole::Params => self.param_files.insert(uri, id),
        };
    }

    /// After `uri` was closed: its text on disk becomes the input again if it is a scanned
    /// workspace or params file that can still be read (`true`); otherwise it leaves the analysis.
    pub fn revert_to_disk(&mut self, uri: &Uri, file: FileId) -> bool {
        let scanned = self.workspace.contains_key(uri) || self.param_files.contains_key(uri);
        let saved = crate::lsp::disk::local_path(uri)
            .filter(|_| scanned)
            .and_then(|p| read_bounded(&p, &self.roots));
        match saved {
            Some(saved) => {
                self.host.set_file(file, Arc::from(saved.text));
                true
            }
            None => {
                self.host.remove_file(file);
                self.workspace.remove(uri);
                self.param_files.remove(uri);
                false
            }
        }
    }

    /// The URI and version of every open document, sorted by URI.
    pub fn open_documents(&self) -> Vec<(Uri, i32)> {
        let mut open: Vec<_> = self
            .documents
            .iter()
            .map(|(u, d)| (u.clone(), d.version))
            .collect();
        open.sort();
        open
    }
}

/// Up to [`RUN_CHUNK`] entries taken from the front of `set`.
fn take_chunk(set: &mut BTreeSet<Uri>) -> Vec<Uri> {
    std::iter::from_fn(|| set.pop_first())
        .take(RUN_CHUNK)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_accepted_only_for_the_current_version_or_a_closed_document() {
        let mut state = State::new();
        let uri: Uri = "file:///a.yaml".parse().expect("uri");
        assert!(state.accepts(&uri, Guard::NotOpen));
        let file = state.file_ids.get_or_insert(&uri);
        assert_eq!(state.file_ids.get_or_insert(&uri), file);
        state
            .documents
            .insert(uri.clone(), Document::new("a: 1\n", 3, file));
        assert!(state.accepts(&uri, Guard::OpenAt(3)));
        assert!(!state.accepts(&uri, Guard::OpenAt(2)));
        assert!(!state.accepts(&uri, Guard::NotOpen));
        state.queue.edited.insert(uri.clone());
        let Some(Step::Edited(job, edited)) = state.next_step() else {
            panic!("an edited document is the first step");
        };
        assert_eq!(job.analysis.file_text(file).as_deref(), Some("a: 1\n"));
        assert_eq!(edited, [(uri, 3, file, Contribution::NONE)]);
        assert!(state.next_step().is_none());
    }

    #[test]
    fn edited_documents_go_first_and_a_file_asked_for_twice_is_checked_once() {
        let mut state = State::new();
        state.queue.runners = 1;
        let uris: Vec<Uri> = (0..3)
            .map(|i| format!("file:///{i}.yaml").parse().expect("uri"))
            .collect();
        for uri in &uris {
            let file = state.file_ids.get_or_insert(uri);
            let opened = Document::new("a: 1\n", 1, file);
            state.documents.insert(uri.clone(), opened);
        }
        state.queue.others.extend(uris.iter().cloned());
        state.queue.others.extend(uris.iter().cloned());
        state.queue.edited.insert(uris[2].clone());
        let order: Vec<String> = std::iter::from_fn(|| state.next_step())
            .map(|step| match step {
                Step::Edited(job, _) => format!("edited {}", job.files.len()),
                Step::Others(job, _) => format!("others {}", job.files.len()),
                Step::Workspace(job) => format!("workspace {}", job.files.len()),
            })
            .collect();
        assert_eq!(order, ["edited 1", "others 3"]);
        assert_eq!(state.queue.runners, 0);
    }
}
