//! The document store side of the server: `didOpen`, `didChange`, `didSave` and `didClose`
//! change the state synchronously (these functions never `.await`; tower-lsp #284), then schedule
//! diagnostics.

use tower_lsp_server::ls_types::*;

use super::Server;
use crate::ide::Contribution;
use crate::lsp::commands::OpenTexts;
use crate::lsp::diagnostics::{Guard, Publish};
use crate::lsp::documents::Document;

impl Server {
    /// `textDocument/didOpen`.
    pub(super) fn open_document(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        let pulled_after_push;
        {
            let mut state = self.state();
            let origins = &mut crate::lsp::origin::OriginFinder::new();
            let file = state.file_with_origin(&document.uri, origins);
            // The transport takes a large text out of its message and passes a token in its place.
            let text = crate::lsp::transport::claim_opened_text(&document.text)
                .unwrap_or_else(|| std::sync::Arc::from(document.text));
            let opened = Document::new(text, document.version, file);
            state.documents.insert(document.uri.clone(), opened);
            pulled_after_push = state.pull && state.workspace.contains_key(&document.uri);
        }
        if pulled_after_push {
            // The scan pushed this file's diagnostics while it was closed; a pulling client keeps
            // pushed and pulled results apart (vscode-languageclient: two collections), so the
            // pushed list would stay, stale, beside the pulled one after every edit. Clear it.
            let _ = self.shared.publisher.send(Publish {
                uri: document.uri.clone(),
                diagnostics: Vec::new(),
                guard: Guard::OpenAt(document.version),
            });
        }
        self.schedule(document.uri);
    }

    /// `textDocument/didChange`.
    pub(super) fn change_document(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let version = params.text_document.version;
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
            document.apply_changes(&params.content_changes, encoding);
            document.version = version;
        }
        // The run also asks `ide` which other files the edit affects, and re-checks them.
        self.schedule(uri);
    }

    /// `textDocument/didSave`.
    /// A saved suite joins the suite list (a client that does not watch files sends no event).
    pub(super) fn save_document(&self, params: DidSaveTextDocumentParams) {
        let uri = params.text_document.uri;
        let open = {
            let mut state = self.state();
            let suite = state
                .documents
                .get(&uri)
                .map(crate::lsp::documents::Document::looks_like_suite);
            if let (Some(suite), Some(path)) = (suite, crate::lsp::disk::local_path(&uri)) {
                state.live.note_suite(&path, suite);
            }
            suite.is_some()
        };
        if open {
            self.schedule(uri);
        }
    }

    /// `textDocument/didClose`: a scanned workspace file goes back to its text on disk (its unsaved
    /// edits leave the analysis with the editor's buffer), any other file leaves the analysis.
    pub(super) fn close_document(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let (contributed, on_disk);
        {
            let mut state = self.state();
            let Some(document) = state.documents.remove(&uri) else {
                return;
            };
            state.live.forget(&uri);
            on_disk = state.revert_to_disk(&uri, document.file);
            contributed = document.contribution != Contribution::NONE;
        }
        // Through the publisher, so that the empty list can't overtake a result already queued.
        let uri_of_closed = uri.clone();
        let _ = self.shared.publisher.send(Publish {
            uri,
            diagnostics: Vec::new(),
            guard: Guard::NotOpen,
        });
        if contributed {
            // Its facts left the analysis (or reverted to the saved text): re-check the others.
            let open = self.state().open_documents();
            self.recheck_open(open);
            self.schedule_workspace();
        } else if on_disk {
            // The saved text's diagnostics replace the empty list of the closed document.
            self.schedule_workspace_file(uri_of_closed);
        }
    }

    /// The open documents by file path (commands read them instead of the saved files).
    pub(super) fn open_texts(&self) -> (OpenTexts, crate::ide::Encoding) {
        let state = self.state();
        let open = state
            .documents
            .iter()
            .filter_map(|(uri, doc)| {
                let path = crate::lsp::disk::local_path(uri)?;
                Some((path, doc.text().to_string()))
            })
            .collect();
        (open, state.encoding)
    }
}
