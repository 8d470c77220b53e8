//! Request handlers of the editor features, converting only: an LSP position becomes a byte
//! offset, the `ide` answer becomes LSP types, in the negotiated encoding.

use ropey::Rope;
use tower_lsp_server::ls_types as lsp;

use super::encoding::{from_proto, to_proto};
use crate::ide::{Analysis, DiagnosticsConfig, Encoding, FileId, LineIndex, TextSize};

/// What a request on one open document needs, taken from the state under its lock.
pub struct Request {
    /// The analysis snapshot.
    pub analysis: Analysis,
    /// The document's file.
    pub file: FileId,
    /// The document's text.
    pub rope: Rope,
    /// The negotiated position encoding.
    pub encoding: Encoding,
    /// The settings (target Kubernetes version).
    pub config: DiagnosticsConfig,
}

impl Request {
    fn offset(&self, position: lsp::Position) -> TextSize {
        from_proto::offset(&self.rope, position, self.encoding)
    }

    fn line_index(&self) -> Option<LineIndex> {
        let text = self.analysis.file_text(self.file)?;
        Some(LineIndex::new(&text))
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
}
