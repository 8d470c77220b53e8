//! `textDocument/semanticTokens/full`: the `ide` highlight tokens as the protocol's relative,
//! encoding-aware integer stream, with the legend the server advertises.

use tower_lsp_server::ls_types as lsp;

use crate::ide::{Encoding, HighlightKind, HighlightToken, LineIndex};

/// The token types, in legend order (the index is what the stream carries).
const TYPES: [HighlightKind; 8] = [
    HighlightKind::Variable,
    HighlightKind::Property,
    HighlightKind::Function,
    HighlightKind::Macro,
    HighlightKind::String,
    HighlightKind::Number,
    HighlightKind::Keyword,
    HighlightKind::Operator,
];

/// The legend advertised in the capabilities.
pub fn legend() -> lsp::SemanticTokensLegend {
    let types = [
        lsp::SemanticTokenType::VARIABLE,
        lsp::SemanticTokenType::PROPERTY,
        lsp::SemanticTokenType::FUNCTION,
        lsp::SemanticTokenType::MACRO,
        lsp::SemanticTokenType::STRING,
        lsp::SemanticTokenType::NUMBER,
        lsp::SemanticTokenType::KEYWORD,
        lsp::SemanticTokenType::OPERATOR,
    ];
    lsp::SemanticTokensLegend {
        token_types: types.to_vec(),
        token_modifiers: Vec::new(),
    }
}

/// The tokens (sorted, single-line) as the protocol's delta stream.
pub fn encode(
    index: &LineIndex,
    encoding: Encoding,
    tokens: &[HighlightToken],
) -> lsp::SemanticTokens {
    let mut data = Vec::with_capacity(tokens.len());
    let (mut line, mut column) = (0, 0);
    for token in tokens {
        let start = index.line_col(token.range.start(), encoding);
        let end = index.line_col(token.range.end(), encoding);
        if end.line != start.line || end.col <= start.col {
            continue;
        }
        let delta_line = start.line - line;
        let delta_start = if delta_line == 0 {
            start.col - column
        } else {
            start.col
        };
        let token_type = TYPES.iter().position(|k| *k == token.kind).unwrap_or(0);
        data.push(lsp::SemanticToken {
            delta_line,
            delta_start,
            length: end.col - start.col,
            token_type: token_type as u32,
            token_modifiers_bitset: 0,
        });
        (line, column) = (start.line, start.col);
    }
    lsp::SemanticTokens {
        result_id: None,
        data,
    }
}
