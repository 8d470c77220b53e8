//! Semantic tokens for the CEL inside policy YAML: variables, fields, functions, macros,
//! strings, numbers, operators and keywords, by lexing each expression site (no type check, so
//! half-typed text is highlighted too) and mapping each token back to the file.

use crate::cel::token::{Token, TokenKind};
use crate::policy::ExpressionSite;
use crate::text::{TextRange, TextSize};

use super::{Analysis, FileId};

/// What a highlighted token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HighlightKind {
    /// An identifier that is not a field or a call: `object`, a macro variable.
    Variable,
    /// A selected field: `spec` in `object.spec`.
    Property,
    /// A function call's name.
    Function,
    /// A macro call's name (`all`, `has`, …).
    Macro,
    /// A string or bytes literal.
    String,
    /// A number literal.
    Number,
    /// `true`, `false`, `null`, `in` and reserved words.
    Keyword,
    /// An operator (`==`, `&&`, `!`, `?`, …).
    Operator,
}

/// One highlighted range; never spans a line break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HighlightToken {
    /// The file range.
    pub range: TextRange,
    /// What it is.
    pub kind: HighlightKind,
}

/// Names the parser expands as macros (receiver or global style).
const MACROS: &[&str] = &[
    "all",
    "exists",
    "exists_one",
    "existsOne",
    "map",
    "filter",
    "has",
    "optMap",
    "optFlatMap",
    "sortBy",
    "transformList",
    "transformMap",
    "transformMapEntry",
];

impl Analysis {
    /// The semantic tokens of every CEL expression of `file`, in file order.
    pub fn semantic_tokens(&self, file: FileId) -> Vec<HighlightToken> {
        let Some(parsed) = self.parsed(file) else {
            return Vec::new();
        };
        let (text, yaml) = (&*parsed.text, &parsed.yaml);
        let mut out = Vec::new();
        // The sites of the models requests have kept; the others are read without keeping them.
        for model in parsed.all_models() {
            for site in model.sites() {
                site_tokens(text, site, &mut out);
            }
        }
        for site in crate::policy::families::expression_sites(yaml) {
            site_tokens(text, &site, &mut out);
        }
        out.sort_by_key(|t| (t.range.start(), t.range.end()));
        out.dedup_by_key(|t| t.range.start());
        out
    }
}

/// Pushes the tokens of one expression site, in file ranges.
fn site_tokens(text: &str, site: &ExpressionSite, out: &mut Vec<HighlightToken>) {
    let (tokens, _) = crate::cel::tokenize(&site.text);
    for (i, token) in tokens.iter().enumerate() {
        let Some(kind) = classify(&site.text, &tokens, i, token) else {
            continue;
        };
        let range = site.to_file_range(token.range);
        split_lines(text, range, kind, out);
    }
}

fn classify(src: &str, tokens: &[Token], i: usize, token: &Token) -> Option<HighlightKind> {
    use TokenKind::*;
    let kind = match token.kind {
        Ident | EscIdent => return Some(identifier(src, tokens, i, token)),
        Int | Uint | Double => HighlightKind::Number,
        String | Bytes => HighlightKind::String,
        True | False | Null | In | Reserved => HighlightKind::Keyword,
        EqEq | NotEq | Less | LessEq | Greater | GreaterEq | AndAnd | OrOr | Bang | Minus
        | Plus | Star | Slash | Percent | Question => HighlightKind::Operator,
        _ => return None,
    };
    Some(kind)
}

/// A call when `(` follows (a macro when the parser expands that name), a field when `.`
/// precedes, else a variable.
fn identifier(src: &str, tokens: &[Token], i: usize, token: &Token) -> HighlightKind {
    let next = tokens.get(i + 1).map(|t| t.kind);
    let previous = i.checked_sub(1).and_then(|p| tokens.get(p)).map(|t| t.kind);
    if next == Some(TokenKind::LParen) {
        let word = src
            .get(std::ops::Range::<usize>::from(token.range))
            .unwrap_or_default();
        if MACROS.contains(&word) {
            return HighlightKind::Macro;
        }
        return HighlightKind::Function;
    }
    if previous == Some(TokenKind::Dot) {
        return HighlightKind::Property;
    }
    HighlightKind::Variable
}

/// Pushes `range` as one token per line it covers (clients take single-line tokens only).
fn split_lines(text: &str, range: TextRange, kind: HighlightKind, out: &mut Vec<HighlightToken>) {
    let Some(slice) = text.get(std::ops::Range::<usize>::from(range)) else {
        return;
    };
    let mut start = range.start();
    for piece in slice.split('\n') {
        let len = TextSize::from(piece.trim_end_matches('\r').len() as u32);
        if len > TextSize::from(0) {
            out.push(HighlightToken {
                range: TextRange::at(start, len),
                kind,
            });
        }
        start += TextSize::from(piece.len() as u32 + 1);
    }
}
