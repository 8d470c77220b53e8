//! The `LanguageServer` implementation: one handler per LSP method, each short. Document
//! notifications change the state synchronously before their first `.await` (tower-lsp #284:
//! handlers run concurrently, so an `.await` first would let edits overtake each other); diagnostics
//! run later on a snapshot.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use super::capabilities::initialize_result;
use super::code_lens::code_lenses;
use super::commands::{self, OpenTexts};
use super::config;
use super::diagnostics::{self, Guard, Job, Publish, PublishSender};
use super::documents::Document;
use super::encoding;
use super::state::State;
use super::workspace;

/// The wait after the last keystroke before diagnostics run. Short because a run on a typical policy
/// file takes a few milliseconds and design.md §4 asks for diagnostics within 50 ms (p95) of a
/// keystroke; 30 ms still merges the bursts of changes an editor sends for one action (a paste, an
/// auto-indent, fast typing at ~10 ms per key).
pub const DEBOUNCE: Duration = Duration::from_millis(30);

/// The server: shared state plus the channel to the publisher task.
#[derive(Debug, Clone)]
pub struct Server {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    client: Client,
    state: Mutex<State>,
    publisher: PublishSender,
    shutdown_requested: Arc<AtomicBool>,
}

impl Server {
    /// A server talking to `client`; sets `shutdown_requested` when the client asks for shutdown.
    /// Must be called inside the Tokio runtime: it starts the publisher task.
    pub fn new(client: Client, shutdown_requested: Arc<AtomicBool>) -> Server {
        let (publisher, results) = mpsc::unbounded_channel();
        let state = Mutex::new(State::new());
        let shared = Arc::new(Shared {
            client,
            state,
            publisher,
            shutdown_requested,
        });
        tokio::spawn(publish_loop(shared.clone(), results));
        Server { shared }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.shared.lock()
    }

    /// Diagnostics for an open document after `delay`, unless a newer version arrives meanwhile.
    fn schedule(&self, uri: Uri, version: i32, delay: Duration) {
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

    /// After an edit of a CRD: the other open documents and the workspace files, whose typed
    /// diagnostics may depend on it, once the edits settle.
    fn schedule_dependents(&self, edited: &Uri) {
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
        });
    }

    /// Diagnostics for the scanned workspace files that are not open.
    fn schedule_workspace(&self) {
        let shared = self.shared.clone();
        tokio::spawn(async move {
            let job = shared.lock().job_for_workspace();
            shared.run(job, Guard::NotOpen).await;
        });
    }

    async fn warn(&self, problems: Vec<String>) {
        for problem in problems {
            eprintln!("admission-ls: {problem}");
            self.shared
                .client
                .show_message(MessageType::WARNING, problem)
                .await;
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held can only have come from a bug between two statements of
        // a handler; the state is still usable, so keep serving rather than poison every request.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
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
async fn publish_loop(shared: Arc<Shared>, mut results: mpsc::UnboundedReceiver<Publish>) {
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

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let encoding = encoding::negotiate(&params);
        let pull = params
            .capabilities
            .text_document
            .as_ref()
            .is_some_and(|t| t.diagnostic.is_some());
        let (config, problems) = params
            .initialization_options
            .as_ref()
            .map(config::parse)
            .unwrap_or_default();
        let roots = workspace_roots(&params);
        let (schema_paths, schema_problems) = params
            .initialization_options
            .as_ref()
            .map(|options| config::schema_paths(options, roots.first().map(PathBuf::as_path)))
            .unwrap_or_default();
        {
            let mut state = self.state();
            state.encoding = encoding;
            state.pull = pull;
            state.config = config;
            state.roots = roots;
            state.schema_paths = schema_paths;
        }
        for problem in problems.into_iter().chain(schema_problems) {
            eprintln!("admission-ls: {problem}");
        }
        Ok(initialize_result(encoding, pull))
    }

    async fn initialized(&self, _: InitializedParams) {
        let server = self.clone();
        tokio::spawn(async move { server.scan_workspace().await });
    }

    async fn shutdown(&self) -> Result<()> {
        self.shared.shutdown_requested.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        {
            let mut state = self.state();
            let file = state.file_ids.get_or_insert(&document.uri);
            let opened = Document::new(&document.text, document.version, file);
            state.documents.insert(document.uri.clone(), opened);
        }
        self.schedule(document.uri, document.version, Duration::ZERO);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let version = params.text_document.version;
        let defines_crd;
        {
            let mut state = self.state();
            let encoding = state.encoding;
            let Some(document) = state.documents.get_mut(&uri) else {
                eprintln!(
                    "admission-ls: didChange for a document that is not open: {}",
                    uri.as_str()
                );
                return;
            };
            for change in &params.content_changes {
                document.apply_change(change, encoding);
            }
            document.version = version;
            defines_crd = document.text().contains("CustomResourceDefinition");
        }
        self.schedule(uri.clone(), version, DEBOUNCE);
        if defines_crd {
            self.schedule_dependents(&uri);
        }
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        let uri = params.text_document.uri;
        let version = self.state().documents.get(&uri).map(|d| d.version);
        if let Some(version) = version {
            self.schedule(uri, version, Duration::ZERO);
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        {
            let mut state = self.state();
            let Some(document) = state.documents.remove(&uri) else {
                return;
            };
            // A scanned workspace file stays an input (its last text); others leave the analysis.
            if !state.workspace.contains_key(&uri) {
                state.host.remove_file(document.file);
            }
        }
        // Through the publisher, so that the empty list can't overtake a result already queued.
        let _ = self.shared.publisher.send(Publish {
            uri,
            diagnostics: Vec::new(),
            guard: Guard::NotOpen,
        });
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let settings = match params.settings {
            Value::Null => self.pull_settings().await,
            settings => settings,
        };
        let (config, mut problems) = config::parse(&settings);
        let (open, rescan) = {
            let mut state = self.state();
            let base = state.roots.first().cloned();
            let (schema_paths, schema_problems) = config::schema_paths(&settings, base.as_deref());
            problems.extend(schema_problems);
            let rescan = schema_paths != state.schema_paths;
            state.schema_paths = schema_paths;
            state.config = config;
            (state.open_documents(), rescan)
        };
        if rescan {
            let server = self.clone();
            tokio::spawn(async move { server.scan_workspace().await });
        }
        for (uri, version) in open {
            self.schedule(uri, version, Duration::ZERO);
        }
        self.schedule_workspace();
        self.warn(problems).await;
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri;
        let (text, encoding) = {
            let state = self.state();
            let text = state.documents.get(&uri).map(Document::text);
            (text, state.encoding)
        };
        Ok(text.map(|text| code_lenses(&uri, &text, encoding)))
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let position = params.text_document_position_params;
        let request = self.state().request(&position.text_document.uri);
        Ok(request.and_then(|r| r.hover(position.position)))
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let position = params.text_document_position;
        let request = self.state().request(&position.text_document.uri);
        Ok(request.and_then(|r| r.completion(position.position)))
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let position = params.text_document_position_params;
        let request = self.state().request(&position.text_document.uri);
        Ok(request.and_then(|r| r.definition(position.position)))
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let request = self.state().request(&params.text_document.uri);
        Ok(request.and_then(|r| r.document_symbols()))
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let request = self.state().request(&params.text_document.uri);
        Ok(request.and_then(|r| r.semantic_tokens()))
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        let position = params.text_document_position_params;
        let request = self.state().request(&position.text_document.uri);
        Ok(request.and_then(|r| r.signature_help(position.position)))
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let request = self.state().request(&params.text_document.uri);
        Ok(request.and_then(|r| r.inlay_hints(params.range)))
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let request = self.state().request(&uri);
        Ok(request.and_then(|r| r.code_actions(&uri, params.range)))
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let position = params.text_document_position;
        let uri = position.text_document.uri;
        let request = self.state().request(&uri);
        Ok(request.and_then(|r| r.references(&uri, position.position)))
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        let request = self.state().workspace_request();
        let symbols = request.workspace_symbols(&params.query);
        Ok(Some(WorkspaceSymbolResponse::Nested(symbols)))
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let request = self.state().request(&params.text_document.uri);
        let empty = DocumentDiagnosticReportResult::Report(DocumentDiagnosticReport::Full(
            RelatedFullDocumentDiagnosticReport::default(),
        ));
        Ok(request.and_then(|r| r.diagnostics()).unwrap_or(empty))
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        let (open, encoding) = self.open_texts();
        let outcome = commands::execute(&params.command, &params.arguments, &open, encoding)
            .map_err(tower_lsp_server::jsonrpc::Error::invalid_params)?;
        if let Some((uri, diagnostics)) = outcome.publish {
            let version = self.state().documents.get(&uri).map(|d| d.version);
            let guard = version.map_or(Guard::NotOpen, Guard::OpenAt);
            let _ = self.shared.publisher.send(Publish {
                uri,
                diagnostics,
                guard,
            });
        }
        Ok(Some(outcome.result))
    }
}

impl Server {
    /// The open documents by file path (commands read them instead of the saved files).
    fn open_texts(&self) -> (OpenTexts, crate::ide::Encoding) {
        let state = self.state();
        let open = state
            .documents
            .iter()
            .filter_map(|(uri, doc)| {
                let path = uri.to_file_path()?.into_owned();
                Some((path, doc.text().to_string()))
            })
            .collect();
        (open, state.encoding)
    }
}

impl Server {
    /// Reads the workspace folders, loads the admission files found and publishes their diagnostics.
    async fn scan_workspace(&self) {
        let (roots, schemas) = {
            let state = self.state();
            (state.roots.clone(), state.schema_paths.clone())
        };
        if roots.is_empty() && schemas.is_empty() {
            return;
        }
        let scan = move || {
            let mut files = workspace::scan(&roots);
            files.extend(workspace::scan(&schemas));
            files
        };
        let Ok(files) = tokio::task::spawn_blocking(scan).await else {
            eprintln!("admission-ls: workspace scan failed");
            return;
        };
        {
            let mut state = self.state();
            for file in files {
                let Some(uri) = Uri::from_file_path(&file.path) else {
                    continue;
                };
                let id = state.file_ids.get_or_insert(&uri);
                if !state.documents.contains_key(&uri) {
                    state.host.set_file(id, Arc::from(file.text));
                }
                state.workspace.insert(uri, id);
            }
        }
        self.schedule_workspace();
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
    uris.into_iter()
        .filter_map(|uri| uri.to_file_path().map(|p| p.into_owned()))
        .collect()
}
