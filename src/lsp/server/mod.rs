//! The `LanguageServer` implementation: one handler per LSP method, each short. Document
//! notifications change the state synchronously before their first `.await` (tower-lsp #284:
//! handlers run concurrently, so an `.await` first would let edits overtake each other); diagnostics
//! run later on a snapshot, and requests and commands compute off the serve task, so they never
//! hold up an edit and a panic in one is answered as an error. The parts: [`sync`] (the document
//! store), [`settings`] (initialize, configuration, workspace scan), [`isolate`] (requests on the
//! blocking pool), [`watch`] (files changed on disk) and [`schedule`] (when diagnostics run and are
//! published).

mod isolate;
mod live;
mod project;
mod schedule;
mod settings;
mod sync;
mod watch;

pub use isolate::Cancel;
pub use project::ProjectFile;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde_json::Value;
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use super::code_lens::{code_lenses, workspace_files};
use super::commands;
use super::diagnostics::{self, Guard, Publish, PublishSender};
use super::features::Request;
use super::state::State;
use schedule::publish_loop;

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
    long_work: isolate::LongWork,
    /// Live verdict runs take this one permit: one at a time (`live.rs`).
    live_slot: tokio::sync::Semaphore,
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
            long_work: isolate::LongWork::default(),
            live_slot: tokio::sync::Semaphore::new(1),
        });
        tokio::spawn(publish_loop(shared.clone(), results));
        Server { shared }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.shared.lock()
    }

    /// A request on the open document `uri`, answered off the serve task; `None` when it is not
    /// open.
    async fn on_document<T, F>(&self, method: &str, uri: &Uri, answer: F) -> Result<Option<T>>
    where
        T: Send + 'static,
        F: FnOnce(&Request) -> Option<T> + Send + 'static,
    {
        let request = self.state().request(uri);
        self.off_serve(method, move |_| request.as_ref().and_then(answer))
            .await
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held can only have come from a bug between two statements of
        // a handler; the state is still usable, so keep serving rather than poison every request.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        Ok(self.initialize_state(params))
    }

    async fn initialized(&self, _: InitializedParams) {
        // The schema index the first check reads is read now, while the client sends its first
        // document (it was about a million instructions on the way to a didOpen's diagnostics).
        let minor = self.state().config.minor();
        drop(tokio::task::spawn_blocking(move || {
            crate::ide::prepare_schemas(minor)
        }));
        self.publish_project(None);
        let server = self.clone();
        tokio::spawn(async move { server.scan_workspace().await });
        let server = self.clone();
        tokio::spawn(async move { server.register_file_watcher().await });
    }

    async fn shutdown(&self) -> Result<()> {
        self.shared.shutdown_requested.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        self.open_document(params);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        self.change_document(params);
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        self.save_document(params);
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        self.close_document(params);
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        self.change_configuration(params).await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        self.files_changed(params).await;
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        let uri = params.text_document.uri;
        let (request, workspace) = {
            let mut state = self.state();
            (state.request(&uri), workspace_files(&state))
        };
        self.off_serve("textDocument/codeLens", move |_| {
            request.map(|request| code_lenses(&uri, &request, &workspace))
        })
        .await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        self.on_document("textDocument/hover", &at.text_document.uri, move |r| {
            r.hover(at.position)
        })
        .await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let at = params.text_document_position;
        self.on_document("textDocument/completion", &at.text_document.uri, move |r| {
            r.completion(at.position)
        })
        .await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let at = params.text_document_position_params;
        self.on_document("textDocument/definition", &at.text_document.uri, move |r| {
            r.definition(at.position)
        })
        .await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let uri = params.text_document.uri;
        self.on_document("textDocument/documentSymbol", &uri, |r| {
            r.document_symbols()
        })
        .await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let uri = params.text_document.uri;
        self.on_document("textDocument/semanticTokens/full", &uri, |r| {
            r.semantic_tokens()
        })
        .await
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        let at = params.text_document_position_params;
        self.on_document(
            "textDocument/signatureHelp",
            &at.text_document.uri,
            move |r| r.signature_help(at.position),
        )
        .await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let range = ordered(params.range)?;
        let uri = params.text_document.uri;
        let live = {
            let state = self.state();
            let version = state.documents.get(&uri).map(|d| d.version);
            version.and_then(|v| state.live.hints(&uri, v))
        };
        self.on_document("textDocument/inlayHint", &uri, move |r| {
            r.inlay_hints(range, live.as_deref().map(Vec::as_slice))
        })
        .await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let range = ordered(params.range)?;
        let target = uri.clone();
        self.on_document("textDocument/codeAction", &uri, move |r| {
            r.code_actions(&target, range)
        })
        .await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let at = params.text_document_position;
        let uri = at.text_document.uri;
        let target = uri.clone();
        self.on_document("textDocument/references", &uri, move |r| {
            r.references(&target, at.position)
        })
        .await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let uri = params.text_document.uri;
        let answer = self
            .on_document("textDocument/prepareRename", &uri, move |r| {
                Some(r.prepare_rename(params.position))
            })
            .await?;
        refused_as_error(answer)
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let at = params.text_document_position;
        let uri = at.text_document.uri;
        let new_name = params.new_name;
        let answer = self
            .on_document("textDocument/rename", &uri, move |r| {
                Some(r.rename(at.position, &new_name))
            })
            .await?;
        refused_as_error(answer)
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        let at = params.text_document_position_params;
        self.on_document(
            "textDocument/documentHighlight",
            &at.text_document.uri,
            move |r| r.document_highlights(at.position),
        )
        .await
    }

    async fn symbol(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        let request = self.state().workspace_request();
        self.off_serve("workspace/symbol", move |_| {
            let symbols = request.workspace_symbols(&params.query);
            Some(WorkspaceSymbolResponse::Nested(symbols))
        })
        .await
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let request = self.state().request(&params.text_document.uri);
        let empty = DocumentDiagnosticReportResult::Report(DocumentDiagnosticReport::Full(
            RelatedFullDocumentDiagnosticReport::default(),
        ));
        self.off_serve("textDocument/diagnostic", move |_| {
            request.and_then(|r| r.diagnostics()).unwrap_or(empty)
        })
        .await
    }

    async fn workspace_diagnostic(
        &self,
        _: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        let (job, first) = {
            let mut state = self.state();
            let first = !std::mem::replace(&mut state.workspace_pull, true);
            (state.job_for_workspace(), first)
        };
        if first {
            // What was pushed for these files would stay beside the pulled lists: clear it.
            for (uri, _) in &job.files {
                let _ = self.shared.publisher.send(Publish {
                    uri: uri.clone(),
                    diagnostics: Vec::new(),
                    guard: Guard::NotOpen,
                });
            }
        }
        self.off_serve("workspace/diagnostic", move |_| {
            let items = diagnostics::compute_now(&job)
                .into_iter()
                .map(|(uri, items)| workspace_report(uri, items))
                .collect();
            WorkspaceDiagnosticReportResult::Report(WorkspaceDiagnosticReport { items })
        })
        .await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        let (open, encoding) = self.open_texts();
        let snapshot = {
            let mut state = self.state();
            commands::Snapshot {
                analysis: state.workspace_request().analysis,
                files: workspace_files(&state),
                roots: state.roots.clone(),
            }
        };
        let command = params.command.clone();
        let outcome = self
            .off_serve_long(&command, move |cancel| {
                let (arguments, command) = (&params.arguments, &params.command);
                commands::execute(command, arguments, &open, &snapshot, encoding, cancel)
            })
            .await?
            .map_err(tower_lsp_server::jsonrpc::Error::invalid_params)?;
        for (uri, diagnostics) in outcome.publish {
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

/// `range` if its start is not after its end; else the `InvalidParams` answer (the protocol's
/// `Range` has `start <= end`; the features below assume it).
fn ordered(range: Range) -> Result<Range> {
    if range.start <= range.end {
        return Ok(range);
    }
    Err(tower_lsp_server::jsonrpc::Error::invalid_params(format!(
        "the range's start {}:{} is after its end {}:{}",
        range.start.line, range.start.character, range.end.line, range.end.character
    )))
}

/// The full report of one workspace file (not open: no version).
fn workspace_report(uri: Uri, items: Vec<Diagnostic>) -> WorkspaceDocumentDiagnosticReport {
    WorkspaceDocumentDiagnosticReport::Full(WorkspaceFullDocumentDiagnosticReport {
        uri,
        version: None,
        full_document_diagnostic_report: FullDocumentDiagnosticReport {
            result_id: None,
            items,
        },
    })
}

/// A refused rename as the protocol's `RequestFailed` error (-32803), whose message the editor
/// shows; no document: no answer.
fn refused_as_error<T>(answer: Option<std::result::Result<T, String>>) -> Result<Option<T>> {
    match answer {
        None => Ok(None),
        Some(Ok(value)) => Ok(Some(value)),
        Some(Err(reason)) => Err(tower_lsp_server::jsonrpc::Error {
            code: tower_lsp_server::jsonrpc::ErrorCode::ServerError(-32803),
            message: reason.into(),
            data: None,
        }),
    }
}
