//! Request handlers of the editor features, converting only: an LSP position becomes a byte
//! offset, the `ide` answer becomes LSP types, in the negotiated encoding.

use std::sync::Arc;

use tower_lsp_server::ls_types as lsp;

use super::encoding::{from_proto, to_proto};
use crate::ide::{
    ActionKind, Analysis, CompletionItem, CompletionKind, DiagnosticsConfig, Encoding, FileId,
    LineIndex, NavigationTarget, Symbol, SymbolKind, TextRange, TextSize,
};

/// What a request on one open document needs, taken from the state under its lock.
pub struct Request {
    /// The analysis snapshot.
    pub analysis: Analysis,
    /// The document's file.
    pub file: FileId,
    /// The document's text.
    pub text: Arc<str>,
    /// The negotiated position encoding.
    pub encoding: Encoding,
    /// The settings (target Kubernetes version).
    pub config: DiagnosticsConfig,
    /// The URI of every file of the analysis.
    pub uris: std::collections::HashMap<FileId, lsp::Uri>,
}

impl Request {
    fn offset(&self, position: lsp::Position) -> TextSize {
        from_proto::offset(&self.text, position, self.encoding)
    }

    fn line_index(&self) -> Option<Arc<LineIndex>> {
        self.analysis.line_index(self.file)
    }

    /// `textDocument/hover`.
    pub fn hover(&self, position: lsp::Position) -> Option<lsp::Hover> {
        let hover = self
            .analysis
            .hover(self.file, self.offset(position), &self.config)?;
        let index = self.line_index()?;
        Some(lsp::Hover {
            contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                kind: lsp::MarkupKind::Markdown,
                value: hover.markdown,
            }),
            range: Some(to_proto::range(&index, hover.range, self.encoding)),
        })
    }

    /// `textDocument/definition`.
    pub fn definition(&self, position: lsp::Position) -> Option<lsp::GotoDefinitionResponse> {
        let targets = self
            .analysis
            .goto_definition(self.file, self.offset(position), &self.config);
        let links: Vec<lsp::LocationLink> = targets
            .into_iter()
            .filter_map(|target| self.location_link(target))
            .collect();
        (!links.is_empty()).then_some(lsp::GotoDefinitionResponse::Link(links))
    }

    fn location_link(&self, target: NavigationTarget) -> Option<lsp::LocationLink> {
        let uri = self.uris.get(&target.file)?.clone();
        let index = self.analysis.line_index(target.file)?;
        Some(lsp::LocationLink {
            origin_selection_range: None,
            target_uri: uri,
            target_range: to_proto::range(&index, target.range, self.encoding),
            target_selection_range: to_proto::range(&index, target.focus, self.encoding),
        })
    }

    /// `textDocument/documentSymbol`.
    pub fn document_symbols(&self) -> Option<lsp::DocumentSymbolResponse> {
        let index = self.line_index()?;
        let symbols = self.analysis.document_symbols(self.file);
        let symbols = symbols
            .into_iter()
            .map(|s| document_symbol(&index, self.encoding, s))
            .collect();
        Some(lsp::DocumentSymbolResponse::Nested(symbols))
    }

    /// `textDocument/semanticTokens/full`.
    pub fn semantic_tokens(&self) -> Option<lsp::SemanticTokensResult> {
        let index = self.line_index()?;
        let tokens = self.analysis.semantic_tokens(self.file);
        let encoded = super::tokens::encode(&index, self.encoding, &tokens);
        Some(lsp::SemanticTokensResult::Tokens(encoded))
    }

    /// `textDocument/signatureHelp`.
    pub fn signature_help(&self, position: lsp::Position) -> Option<lsp::SignatureHelp> {
        let help = self
            .analysis
            .signature_help(self.file, self.offset(position), &self.config)?;
        let signatures = help
            .signatures
            .into_iter()
            .map(|s| lsp::SignatureInformation {
                label: s.label,
                documentation: Some(lsp::Documentation::String(s.documentation)),
                parameters: Some(
                    s.parameters
                        .into_iter()
                        .map(|p| lsp::ParameterInformation {
                            label: lsp::ParameterLabel::Simple(p),
                            documentation: None,
                        })
                        .collect(),
                ),
                active_parameter: None,
            })
            .collect();
        Some(lsp::SignatureHelp {
            signatures,
            active_signature: Some(help.active_signature.unwrap_or(0)),
            active_parameter: Some(help.active_parameter),
        })
    }

    /// `textDocument/inlayHint`: the type and cost hints, and the live verdicts computed for the
    /// document's current text (`live`), each in file order.
    pub fn inlay_hints(
        &self,
        range: lsp::Range,
        live: Option<&[crate::ide::live::LiveHint]>,
    ) -> Option<Vec<lsp::InlayHint>> {
        let index = self.line_index()?;
        let range = TextRange::new(self.offset(range.start), self.offset(range.end));
        let hints = self.analysis.inlay_hints(self.file, range, &self.config);
        let mut hints: Vec<lsp::InlayHint> = hints
            .into_iter()
            .map(|hint| lsp::InlayHint {
                position: to_proto::position(&index, hint.offset, self.encoding),
                label: lsp::InlayHintLabel::String(hint.label),
                kind: Some(lsp::InlayHintKind::TYPE),
                text_edits: None,
                tooltip: None,
                padding_left: None,
                padding_right: None,
                data: None,
            })
            .collect();
        let live = live.unwrap_or_default().iter();
        let live = live.filter(|hint| range.contains_inclusive(hint.offset));
        hints.extend(live.map(|hint| super::live::inlay_hint(hint, &index, self.encoding)));
        hints.sort_by_key(|hint| hint.position);
        Some(hints)
    }

    /// `textDocument/codeAction`.
    pub fn code_actions(
        &self,
        uri: &lsp::Uri,
        range: lsp::Range,
    ) -> Option<lsp::CodeActionResponse> {
        let index = self.line_index()?;
        let range = TextRange::new(self.offset(range.start), self.offset(range.end));
        let actions = self.analysis.code_actions(self.file, range, &self.config);
        let actions = actions
            .into_iter()
            .map(|action| {
                let edits = action
                    .edits
                    .into_iter()
                    .map(|(range, new_text)| lsp::TextEdit {
                        range: to_proto::range(&index, range, self.encoding),
                        new_text,
                    })
                    .collect();
                let changes = std::collections::HashMap::from([(uri.clone(), edits)]);
                let kind = match action.kind {
                    ActionKind::QuickFix => lsp::CodeActionKind::QUICKFIX,
                    ActionKind::Rewrite => lsp::CodeActionKind::REFACTOR_REWRITE,
                };
                lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                    title: action.title,
                    kind: Some(kind),
                    edit: Some(lsp::WorkspaceEdit {
                        changes: Some(changes),
                        ..lsp::WorkspaceEdit::default()
                    }),
                    is_preferred: Some(action.fixes.is_some()),
                    ..lsp::CodeAction::default()
                })
            })
            .collect();
        Some(actions)
    }

    /// `textDocument/references`.
    pub fn references(
        &self,
        uri: &lsp::Uri,
        position: lsp::Position,
    ) -> Option<Vec<lsp::Location>> {
        let index = self.line_index()?;
        let ranges = self.analysis.references(self.file, self.offset(position));
        let locations = ranges
            .into_iter()
            .map(|range| lsp::Location {
                uri: uri.clone(),
                range: to_proto::range(&index, range, self.encoding),
            })
            .collect();
        Some(locations)
    }

    /// `textDocument/prepareRename`: the name's range and text, or why it cannot be renamed.
    pub fn prepare_rename(
        &self,
        position: lsp::Position,
    ) -> Result<lsp::PrepareRenameResponse, String> {
        let index = self
            .line_index()
            .ok_or_else(|| "no such document".to_owned())?;
        let renamable =
            self.analysis
                .prepare_rename(self.file, self.offset(position), &self.config)?;
        Ok(lsp::PrepareRenameResponse::RangeWithPlaceholder {
            range: to_proto::range(&index, renamable.range, self.encoding),
            placeholder: renamable.placeholder,
        })
    }

    /// `textDocument/rename`: the edits in every file, or why the rename is refused.
    pub fn rename(
        &self,
        position: lsp::Position,
        new_name: &str,
    ) -> Result<lsp::WorkspaceEdit, String> {
        let edits =
            self.analysis
                .rename(self.file, self.offset(position), new_name, &self.config)?;
        let mut changes: std::collections::HashMap<lsp::Uri, Vec<lsp::TextEdit>> =
            std::collections::HashMap::new();
        for edit in edits {
            let uri = self.uris.get(&edit.file);
            let index = self.analysis.line_index(edit.file);
            let (Some(uri), Some(index)) = (uri, index) else {
                return Err("a file to edit is no longer known to the server".to_owned());
            };
            changes.entry(uri.clone()).or_default().push(lsp::TextEdit {
                range: to_proto::range(&index, edit.range, self.encoding),
                new_text: edit.new_text,
            });
        }
        Ok(lsp::WorkspaceEdit {
            changes: Some(changes),
            ..lsp::WorkspaceEdit::default()
        })
    }

    /// `textDocument/documentHighlight`: a variable's definition (write) and uses (read).
    pub fn document_highlights(
        &self,
        position: lsp::Position,
    ) -> Option<Vec<lsp::DocumentHighlight>> {
        let index = self.line_index()?;
        let highlights = self.analysis.highlights(self.file, self.offset(position));
        let kind = |definition| match definition {
            true => lsp::DocumentHighlightKind::WRITE,
            false => lsp::DocumentHighlightKind::READ,
        };
        let items = highlights
            .into_iter()
            .map(|h| lsp::DocumentHighlight {
                range: to_proto::range(&index, h.range, self.encoding),
                kind: Some(kind(h.definition)),
            })
            .collect();
        Some(items)
    }

    /// `workspace/symbol`.
    pub fn workspace_symbols(&self, query: &str) -> Vec<lsp::WorkspaceSymbol> {
        let symbols = self.analysis.workspace_symbols(query);
        symbols
            .into_iter()
            .filter_map(|symbol| {
                let link = self.location_link(symbol.target)?;
                Some(lsp::WorkspaceSymbol {
                    name: symbol.name,
                    kind: lsp::SymbolKind::CLASS,
                    tags: None,
                    container_name: Some(symbol.kind.to_owned()),
                    location: lsp::OneOf::Left(lsp::Location {
                        uri: link.target_uri,
                        range: link.target_selection_range,
                    }),
                    data: None,
                })
            })
            .collect()
    }

    /// `textDocument/diagnostic`: the document's diagnostics, computed now.
    pub fn diagnostics(&self) -> Option<lsp::DocumentDiagnosticReportResult> {
        let index = self.line_index()?;
        let items = self
            .analysis
            .diagnostics(self.file, &self.config)
            .iter()
            .map(|d| to_proto::diagnostic(&index, d, self.encoding))
            .collect();
        let report = lsp::RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: lsp::FullDocumentDiagnosticReport {
                result_id: None,
                items,
            },
        };
        Some(lsp::DocumentDiagnosticReportResult::Report(
            lsp::DocumentDiagnosticReport::Full(report),
        ))
    }

    /// `textDocument/completion`.
    pub fn completion(&self, position: lsp::Position) -> Option<lsp::CompletionResponse> {
        let items = self
            .analysis
            .completions(self.file, self.offset(position), &self.config);
        let index = self.line_index()?;
        let items = items
            .into_iter()
            .enumerate()
            .map(|(rank, item)| self.completion_item(&index, rank, item))
            .collect();
        Some(lsp::CompletionResponse::Array(items))
    }

    fn completion_item(
        &self,
        index: &LineIndex,
        rank: usize,
        item: CompletionItem,
    ) -> lsp::CompletionItem {
        let range = to_proto::range(index, item.replace, self.encoding);
        let snippet = item.insert.is_some();
        let new_text = item.insert.unwrap_or_else(|| item.label.clone());
        lsp::CompletionItem {
            label: item.label,
            kind: Some(completion_kind(item.kind)),
            detail: item.detail,
            documentation: item.documentation.map(|value| {
                lsp::Documentation::MarkupContent(lsp::MarkupContent {
                    kind: lsp::MarkupKind::Markdown,
                    value,
                })
            }),
            // The ide order is the intended one; clients sort by this text.
            sort_text: Some(format!("{rank:05}")),
            insert_text_format: Some(if snippet {
                lsp::InsertTextFormat::SNIPPET
            } else {
                lsp::InsertTextFormat::PLAIN_TEXT
            }),
            text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
                range,
                new_text,
            })),
            ..lsp::CompletionItem::default()
        }
    }
}

fn completion_kind(kind: CompletionKind) -> lsp::CompletionItemKind {
    match kind {
        CompletionKind::Field => lsp::CompletionItemKind::FIELD,
        CompletionKind::Variable => lsp::CompletionItemKind::VARIABLE,
        CompletionKind::Function => lsp::CompletionItemKind::FUNCTION,
        CompletionKind::Macro => lsp::CompletionItemKind::KEYWORD,
        CompletionKind::Snippet => lsp::CompletionItemKind::SNIPPET,
        CompletionKind::Key => lsp::CompletionItemKind::PROPERTY,
        CompletionKind::Value => lsp::CompletionItemKind::ENUM_MEMBER,
    }
}

fn document_symbol(index: &LineIndex, encoding: Encoding, symbol: Symbol) -> lsp::DocumentSymbol {
    let kind = match symbol.kind {
        SymbolKind::Document => lsp::SymbolKind::CLASS,
        SymbolKind::Variable => lsp::SymbolKind::VARIABLE,
        SymbolKind::Rule => lsp::SymbolKind::METHOD,
    };
    let children = symbol
        .children
        .into_iter()
        .map(|child| document_symbol(index, encoding, child))
        .collect();
    #[allow(deprecated)] // `deprecated` is a required field of the struct.
    lsp::DocumentSymbol {
        name: symbol.name,
        detail: Some(symbol.detail),
        kind,
        tags: None,
        deprecated: None,
        range: to_proto::range(index, symbol.range, encoding),
        selection_range: to_proto::range(index, symbol.focus, encoding),
        children: Some(children),
    }
}
