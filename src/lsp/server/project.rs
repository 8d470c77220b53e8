//! The project configuration file (`.admission-ls.yaml` or `.yml`) for the server: read from the
//! first workspace folder at `initialize` (before any document is checked), read again when the
//! client reports it changed on disk (the YAML watcher covers it), and its problems published on
//! it as `config` diagnostics. The editor's settings are laid over it (`config::Layer::over`);
//! its `schemaPaths` add to the editor's, relative to the file's folder, and its `exclude` globs
//! leave files out of the workspace scan and the watched-file changes.

use std::path::{Path, PathBuf};

use tower_lsp_server::ls_types::Uri;

use super::Server;
use crate::ide::{self, Diagnostic, LineIndex, ProjectConfig};
use crate::lsp::diagnostics::{Guard, Publish};
use crate::lsp::disk::{self, Bounds};
use crate::lsp::encoding::to_proto;
use crate::lsp::state::State;

/// The largest configuration file read: a settings file is a few lines.
const CONFIG_CAP: u64 = 1 << 20;

/// The configuration file of the workspace, as read.
#[derive(Clone, Debug)]
pub struct ProjectFile {
    /// Its URI, to publish its problems under.
    pub uri: Uri,
    /// Its folder: relative paths of the file are taken from it.
    pub dir: PathBuf,
    /// Its text when read.
    pub text: String,
    /// What it sets.
    pub config: ProjectConfig,
    /// Its problems.
    pub diagnostics: Vec<Diagnostic>,
}

impl ProjectFile {
    /// Whether the file's `exclude` globs leave `path` out of the workspace (matched against the
    /// path relative to the file's folder, as `check` matches them). An open document is checked
    /// all the same, as `check` reads a file it is given by name.
    pub fn excludes(&self, path: &Path) -> bool {
        let relative = path.strip_prefix(&self.dir).unwrap_or(path);
        crate::lsp::glob::excluded(relative, &self.config.exclude)
    }

    /// The file's `schemaPaths`, relative ones taken from its folder.
    pub fn schema_paths(&self) -> Vec<PathBuf> {
        self.config
            .schema_paths
            .iter()
            .map(|p| self.dir.join(p))
            .collect()
    }
}

/// Reads the configuration file of the workspace folder `root`, if there is one; a file that is
/// there but cannot be read (too large, a link out of the folder) is logged.
pub fn read(root: Option<&Path>) -> Option<ProjectFile> {
    let root = root?;
    let roots = [root.to_path_buf()];
    let bounds = Bounds {
        cap: CONFIG_CAP,
        roots: &roots,
    };
    for name in ide::project_config::CONFIG_FILE_NAMES {
        let path = root.join(name);
        if !path.exists() {
            continue;
        }
        let text = match disk::read_text(&path, bounds) {
            Ok(text) => text,
            Err(refused) => {
                eprintln!("admission-ls: {}: {refused}", path.display());
                return None;
            }
        };
        let uri = Uri::from_file_path(&path)?;
        let (config, diagnostics) = ide::parse_project_config(&text);
        return Some(ProjectFile {
            uri,
            dir: root.to_path_buf(),
            text,
            config,
            diagnostics,
        });
    }
    None
}

/// Whether `uri` names the configuration file of the workspace folder `root`.
pub fn is_project_file(uri: &Uri, root: Option<&Path>) -> bool {
    let Some(path) = crate::lsp::disk::local_path(uri) else {
        return false;
    };
    let named = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(ide::is_config_file_name);
    named && root.is_some_and(|root| path.parent() == Some(root))
}

impl State {
    /// Takes a (new) configuration file: the settings again, the editor's laid over it; returns
    /// whether the workspace is to be scanned again (the schema paths or the excludes changed).
    pub fn set_project(&mut self, project: Option<ProjectFile>) -> bool {
        let excludes = |p: &Option<ProjectFile>| {
            p.as_ref()
                .map(|p| p.config.exclude.clone())
                .unwrap_or_default()
        };
        let exclude_changed = excludes(&self.project) != excludes(&project);
        self.project = project;
        let schemas_changed = self.apply_settings();
        schemas_changed || exclude_changed
    }

    /// Takes the workspace files the configuration file now excludes out of the analysis (an open
    /// document stays); returns their URIs, whose published diagnostics are to be cleared.
    pub fn drop_excluded(&mut self) -> Vec<Uri> {
        let Some(project) = &self.project else {
            return Vec::new();
        };
        let excluded: Vec<(Uri, crate::ide::FileId)> = self
            .workspace
            .iter()
            .chain(&self.param_files)
            .filter(|(uri, _)| {
                crate::lsp::disk::local_path(uri).is_some_and(|path| project.excludes(&path))
            })
            .map(|(uri, id)| (uri.clone(), *id))
            .collect();
        for (uri, id) in &excluded {
            self.workspace.remove(uri);
            self.param_files.remove(uri);
            if !self.documents.contains_key(uri) {
                self.host.remove_file(*id);
            }
        }
        excluded
            .into_iter()
            .filter(|(uri, _)| !self.documents.contains_key(uri))
            .map(|(uri, _)| uri)
            .collect()
    }

    /// The settings from the editor's layer and the configuration file; returns whether the
    /// schema paths changed.
    pub fn apply_settings(&mut self) -> bool {
        let file = self.project.as_ref();
        self.config = self.editor.over(file.map(|p| &p.config));
        let mut schema_paths = self.editor_schema_paths.clone();
        schema_paths.extend(file.map(ProjectFile::schema_paths).unwrap_or_default());
        let changed = schema_paths != self.schema_paths;
        self.schema_paths = schema_paths;
        changed
    }
}

impl Server {
    /// Publishes the configuration file's problems (an empty list clears them); while the file
    /// is open, its diagnostics are those of the editor's text instead (`diagnostics.rs`).
    pub(super) fn publish_project(&self, uri: Option<Uri>) {
        let (project, encoding) = {
            let state = self.state();
            (state.project.clone(), state.encoding)
        };
        let (uri, diagnostics) = match project {
            Some(project) => {
                let index = LineIndex::new(&project.text);
                let diagnostics = project
                    .diagnostics
                    .iter()
                    .map(|d| to_proto::diagnostic(&index, d, encoding))
                    .collect();
                (project.uri, diagnostics)
            }
            None => match uri {
                Some(uri) => (uri, Vec::new()),
                None => return,
            },
        };
        let _ = self.shared.publisher.send(Publish {
            uri,
            diagnostics,
            guard: Guard::NotOpen,
        });
    }

    /// The configuration file changed on disk (`uri`): read it again, check everything again
    /// with the new settings, and scan the workspace again if its schema paths changed.
    pub(super) async fn project_changed(&self, uri: Uri) {
        let root = self.state().roots.first().cloned();
        let read = move || read(root.as_deref());
        let Ok(project) = tokio::task::spawn_blocking(read).await else {
            return;
        };
        let (open, rescan, dropped) = {
            let mut state = self.state();
            let rescan = state.set_project(project);
            let dropped = state.drop_excluded();
            (state.open_documents(), rescan, dropped)
        };
        self.publish_project(Some(uri));
        for uri in dropped {
            let _ = self.shared.publisher.send(Publish {
                uri,
                diagnostics: Vec::new(),
                guard: Guard::NotOpen,
            });
        }
        if rescan {
            let server = self.clone();
            tokio::spawn(async move { server.scan_workspace().await });
        }
        self.recheck_open(open);
        self.schedule_workspace();
    }
}
