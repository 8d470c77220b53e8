//! Configuration of the server: what `initialize` negotiates and reads (position encoding, pull
//! diagnostics, settings, workspace roots, the project configuration file), settings changes, and
//! the scan of the workspace folders and schema paths.

use std::path::PathBuf;

use serde_json::Value;
use tower_lsp_server::ls_types::*;

use super::{Server, project};
use crate::lsp::capabilities::initialize_result;
use crate::lsp::disk::local_path;
use crate::lsp::workspace::{FileRole, ScannedFile};
use crate::lsp::{config, encoding, workspace};

impl Server {
    /// `initialize`: the negotiated encoding, the pull-diagnostics capability, the settings and
    /// the workspace roots.
    pub(super) fn initialize_state(&self, params: InitializeParams) -> InitializeResult {
        let encoding = encoding::negotiate(&params);
        let pull = params
            .capabilities
            .text_document
            .as_ref()
            .is_some_and(|t| t.diagnostic.is_some());
        let (editor, problems) = params
            .initialization_options
            .as_ref()
            .map(config::parse_layer)
            .unwrap_or_default();
        let refresh_pulled = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.diagnostics.as_ref())
            .and_then(|d| d.refresh_support)
            .unwrap_or(false);
        let watch_files = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|w| w.dynamic_registration)
            .unwrap_or(false);
        let inlay_refresh = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.inlay_hint.as_ref())
            .and_then(|h| h.refresh_support)
            .unwrap_or(false);
        let (live, live_problems) = params
            .initialization_options
            .as_ref()
            .map_or((true, Vec::new()), config::live_verdicts);
        let roots = workspace_roots(&params);
        let (schema_paths, schema_problems) = params
            .initialization_options
            .as_ref()
            .map(|options| config::schema_paths(options, roots.first().map(PathBuf::as_path)))
            .unwrap_or_default();
        // Read before any document is checked, so that the first diagnostics follow it.
        let project = project::read(roots.first().map(PathBuf::as_path));
        {
            let mut state = self.state();
            state.encoding = encoding;
            state.pull = pull;
            state.refresh_pulled = refresh_pulled;
            state.editor = editor;
            state.editor_schema_paths = schema_paths;
            state.roots = roots;
            state.watch_files = watch_files;
            state.live.refresh = inlay_refresh;
            state.live.disabled = !live;
            state.set_project(project);
        }
        let problems = problems.into_iter().chain(schema_problems);
        for problem in problems.chain(live_problems) {
            eprintln!("admission-ls: {problem}");
        }
        initialize_result(encoding, pull)
    }

    /// `workspace/didChangeConfiguration`: new settings (asked for when the notification has none),
    /// a rescan when the schema paths changed, and diagnostics again.
    pub(super) async fn change_configuration(&self, params: DidChangeConfigurationParams) {
        let settings = match params.settings {
            Value::Null => self.pull_settings().await,
            settings => settings,
        };
        let (editor, mut problems) = config::parse_layer(&settings);
        let (live, live_problems) = config::live_verdicts(&settings);
        problems.extend(live_problems);
        let (open, rescan) = {
            let mut state = self.state();
            let base = state.roots.first().cloned();
            let (schema_paths, schema_problems) = config::schema_paths(&settings, base.as_deref());
            problems.extend(schema_problems);
            state.editor = editor;
            state.editor_schema_paths = schema_paths;
            let rescan = state.apply_settings();
            state.live.disabled = !live;
            if !live {
                state.live.clear();
            }
            (state.open_documents(), rescan)
        };
        self.live_setting_changed(live, &open).await;
        if rescan {
            let server = self.clone();
            tokio::spawn(async move { server.scan_workspace().await });
        }
        self.recheck_open(open);
        self.schedule_workspace();
        self.warn(problems).await;
    }

    /// The verdicts again for every open document once they are on; when they are off, the
    /// client is asked to fetch its inlay hints again, without them.
    async fn live_setting_changed(&self, live: bool, open: &[(Uri, i32)]) {
        if live {
            for (uri, version) in open {
                self.shared.schedule_live(uri.clone(), *version);
            }
        } else if self.state().live.refresh {
            let _ = self.shared.client.inlay_hint_refresh().await;
        }
    }

    /// Logs each problem of the settings and shows it to the user.
    pub(super) async fn warn(&self, problems: Vec<String>) {
        for problem in problems {
            eprintln!("admission-ls: {problem}");
            self.shared
                .client
                .show_message(MessageType::WARNING, problem)
                .await;
        }
    }

    /// Reads the workspace folders, loads the admission files found and publishes their diagnostics,
    /// and those of the open documents again: a document opened while the scan ran was checked
    /// without the CRDs and policies the scan found.
    pub(super) async fn scan_workspace(&self) {
        let (roots, schemas, project) = {
            let state = self.state();
            (
                state.roots.clone(),
                state.schema_paths.clone(),
                state.project.clone(),
            )
        };
        if roots.is_empty() && schemas.is_empty() {
            return;
        }
        let scan = move || {
            let start = std::time::Instant::now();
            let mut scan = workspace::scan(&roots);
            if let Some(project) = &project {
                scan.files.retain(|file| !project.excludes(&file.path));
                scan.other_yaml.retain(|path| !project.excludes(path));
            }
            let schemas = workspace::scan(&schemas);
            scan.files.extend(schemas.files);
            scan.skipped.merge(schemas.skipped);
            let suites = workspace::suite_files(&scan, &roots);
            (scan, suites, start.elapsed())
        };
        let Ok((scan, suites, elapsed)) = tokio::task::spawn_blocking(scan).await else {
            eprintln!("admission-ls: workspace scan failed");
            return;
        };
        eprintln!(
            "admission-ls: workspace scan: {} YAML files, {} admission or CRD files, in {} ms",
            scan.yaml_files,
            scan.files.len(),
            elapsed.as_millis()
        );
        self.report_skipped(&scan.skipped).await;
        self.state().live.suites = suites;
        if scan.files.is_empty() {
            return;
        }
        self.load_scanned(scan.files, FileRole::Workspace);
        self.schedule_workspace();
        self.scan_param_files(scan.other_yaml).await;
    }

    /// Says what the scan's bounds left out, in the log and in one message to the user: a file
    /// left out has no diagnostics until it is opened, which should not go unnoticed.
    async fn report_skipped(&self, skipped: &workspace::Skipped) {
        if skipped.is_empty() {
            return;
        }
        let lines = skipped.lines();
        for line in &lines {
            eprintln!("admission-ls: workspace scan: {line}");
        }
        let message = format!(
            "admission-ls: the workspace scan left files out ({}); open a file to check it",
            lines.join("; ")
        );
        self.shared
            .client
            .show_message(MessageType::WARNING, message)
            .await;
    }

    /// Reads the files of `paths` holding objects of the kinds the workspace's policies take as
    /// params (worked out off the state lock: it parses every file's facts once).
    async fn scan_param_files(&self, paths: Vec<PathBuf>) {
        let (analysis, folders) = {
            let state = self.state();
            let folders: Vec<PathBuf> = state
                .roots
                .iter()
                .chain(&state.schema_paths)
                .cloned()
                .collect();
            (state.host.snapshot(), folders)
        };
        let read = move || {
            let kinds = workspace::param_kind_names(&analysis);
            workspace::read_params(&paths, &kinds, &folders)
        };
        let Ok(files) = tokio::task::spawn_blocking(read).await else {
            return;
        };
        if !files.is_empty() {
            self.load_scanned(files, FileRole::Params);
        }
    }

    /// Makes scanned files inputs of the analysis and checks the open documents again.
    fn load_scanned(&self, files: Vec<ScannedFile>, role: FileRole) {
        let open = {
            let mut state = self.state();
            state.add_scanned(files, role);
            state.open_documents()
        };
        self.recheck_open(open);
    }

    /// Asks the client for the settings section when a change notification came without them.
    async fn pull_settings(&self) -> Value {
        let item = ConfigurationItem {
            scope_uri: None,
            section: Some(config::SECTION.to_owned()),
        };
        match self.shared.client.configuration(vec![item]).await {
            Ok(mut values) if !values.is_empty() => values.swap_remove(0),
            _ => Value::Null,
        }
    }
}

/// The local folders of the workspace: its folders, or else the root URI.
fn workspace_roots(params: &InitializeParams) -> Vec<PathBuf> {
    #[allow(deprecated)] // `root_uri` is how clients without workspace folders name the root.
    let root = params.root_uri.iter();
    let folders = params
        .workspace_folders
        .iter()
        .flatten()
        .map(|folder| &folder.uri);
    let uris: Vec<&Uri> = if params.workspace_folders.is_some() {
        folders.collect()
    } else {
        root.collect()
    };
    uris.into_iter().filter_map(local_path).collect()
}
