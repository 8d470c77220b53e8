//! All syntax error wording in one place (cel-go's habit), worded like cel-go's ANTLR messages
//! where it has them. The reporting functions are cold and never inlined, so the message
//! formatting stays out of the stack frames of the recursive parse functions.

use super::Parser;
use crate::cel::token::{Token, TokenKind};
use crate::text::{TextRange, TextSize};

/// What the parser wanted where it found something else.
#[derive(Clone, Copy, Debug)]
pub(super) enum Expecting {
    /// A specific token.
    Token(TokenKind),
    /// An expression.
    Expression,
    /// `,` or the closing token after an item; `listed` when the grammar allows a trailing
    /// comma (lists, maps, messages), so ANTLR expects either at the optional comma.
    SeparatorOr { close: TokenKind, listed: bool },
    /// The end of the input.
    Eof,
    /// A field name after `.` (a keyword was found).
    Identifier,
    /// A field name after the `.` starting at `dot` (something else was found): ANTLR finds no
    /// alternative for the selection from the dot on.
    SelectName { dot: TextSize },
    /// A field name in a message construction.
    FieldName,
    /// The first entry of a list or map literal, or its `close`.
    FirstEntry(TokenKind),
    /// An operand after the `-` at `from`: ANTLR finds no alternative from that `-` on.
    NoViable { from: TextSize },
    /// A closing token ANTLR would insert (the found token could follow it).
    Missing(TokenKind),
}

/// The tokens that can start an expression, which ANTLR lists when one is due.
const EXPRESSION_START: &[TokenKind] = &[
    TokenKind::LBracket,
    TokenKind::LBrace,
    TokenKind::LParen,
    TokenKind::Dot,
    TokenKind::Minus,
    TokenKind::Bang,
    TokenKind::True,
    TokenKind::False,
    TokenKind::Null,
    TokenKind::Double,
    TokenKind::Int,
    TokenKind::Uint,
    TokenKind::String,
    TokenKind::Bytes,
    TokenKind::Ident,
];

/// What may start a field initializer of a message construction.
const FIELD_START: &[TokenKind] = &[
    TokenKind::RBrace,
    TokenKind::Comma,
    TokenKind::Question,
    TokenKind::Ident,
    TokenKind::EscIdent,
];

impl Parser<'_> {
    /// Reports the current token `token` where `expecting` was wanted, as ANTLR's default error
    /// strategy words it: "extraneous input" when the token after it is one that was expected
    /// (ANTLR deletes the stray token and goes on), else "mismatched input"; "no viable
    /// alternative" with the text from where the failed decision began.
    #[cold]
    #[inline(never)]
    pub(super) fn report_unexpected(&mut self, token: Token, expecting: Expecting) {
        let found = self.describe(token);
        let next = self.nth(1).kind;
        let unexpected = |wanted: &[TokenKind], expected: String| {
            let verdict = if in_set(wanted, next) {
                "extraneous"
            } else {
                "mismatched"
            };
            format!("{verdict} input {found} expecting {expected}")
        };
        let message = match expecting {
            Expecting::Token(kind) => unexpected(&[kind], format!("'{}'", token_text(kind))),
            Expecting::Expression => unexpected(EXPRESSION_START, token_set(EXPRESSION_START)),
            Expecting::FirstEntry(close) => {
                let mut wanted = EXPRESSION_START.to_vec();
                wanted.extend([close, TokenKind::Comma, TokenKind::Question]);
                unexpected(&wanted, token_set(&wanted))
            }
            // The item loop ends its rule, so ANTLR leaves it and stops at what follows: the
            // optional trailing comma and the closer, or (call arguments) the closer alone.
            Expecting::SeparatorOr { close, listed } => {
                let wanted: &[TokenKind] = if listed {
                    &[TokenKind::Comma, close]
                } else {
                    &[close]
                };
                unexpected(wanted, token_set(wanted))
            }
            Expecting::Eof => unexpected(&[TokenKind::Eof], "<EOF>".to_string()),
            Expecting::Identifier => format!("mismatched input {found} expecting IDENTIFIER"),
            Expecting::SelectName { dot: from } | Expecting::NoViable { from } => {
                let text = self
                    .src
                    .get(usize::from(from)..usize::from(token.range.end()));
                format!(
                    "no viable alternative at input '{}'",
                    error_display(text.unwrap_or(""))
                )
            }
            Expecting::FieldName => unexpected(FIELD_START, token_set(FIELD_START)),
            Expecting::Missing(kind) => format!("missing '{}' at {found}", token_text(kind)),
        };
        self.error(token.range, format!("Syntax error: {message}"));
    }

    /// Reports a reserved word used as an identifier.
    #[cold]
    #[inline(never)]
    pub(super) fn report_reserved(&mut self, token: Token) {
        let message = format!("reserved identifier: {}", self.text(token.range));
        self.error(token.range, message);
    }

    /// Reports nesting deeper than `limit` and stops the parse.
    #[cold]
    #[inline(never)]
    pub(super) fn report_recursion_limit(&mut self, span: TextRange, limit: u32) {
        self.stop(
            span,
            format!("expression recursion limit exceeded: {limit}"),
        );
    }

    /// A token for a message as ANTLR shows it: `'text'`, or `'<EOF>'`.
    fn describe(&self, token: Token) -> String {
        match token.kind {
            TokenKind::Eof => "'<EOF>'".to_string(),
            _ => format!("'{}'", error_display(self.text(token.range))),
        }
    }
}

/// How a punctuation token is written, for messages.
fn token_text(kind: TokenKind) -> &'static str {
    match kind {
        TokenKind::RParen => ")",
        TokenKind::RBracket => "]",
        TokenKind::RBrace => "}",
        TokenKind::Colon => ":",
        TokenKind::Comma => ",",
        TokenKind::LParen => "(",
        _ => "?",
    }
}

/// ANTLR's `getErrorDisplay`: line breaks and tabs written as escapes.
pub(crate) fn error_display(text: &str) -> String {
    text.replace('\n', "\\n")
        .replace('\r', "\\r")
        .replace('\t', "\\t")
}

/// Whether `kind` is in `set`; reserved words are identifiers to ANTLR's lexer.
fn in_set(set: &[TokenKind], kind: TokenKind) -> bool {
    let kind = if kind == TokenKind::Reserved {
        TokenKind::Ident
    } else {
        kind
    };
    set.contains(&kind)
}

/// An expected-token set as ANTLR prints it: `{'[', …, IDENTIFIER}` in token-type order.
fn token_set(kinds: &[TokenKind]) -> String {
    let mut named: Vec<(u8, &str)> = kinds.iter().filter_map(|&k| antlr_token(k)).collect();
    named.sort_unstable();
    named.dedup();
    let names: Vec<&str> = named.into_iter().map(|(_, name)| name).collect();
    format!("{{{}}}", names.join(", "))
}

/// The token's type number in cel-go's grammar (`CEL.g4`, lexer rule order) and its display name.
fn antlr_token(kind: TokenKind) -> Option<(u8, &'static str)> {
    use TokenKind::*;
    Some(match kind {
        LBracket => (10, "'['"),
        RBracket => (11, "']'"),
        LBrace => (12, "'{'"),
        RBrace => (13, "'}'"),
        LParen => (14, "'('"),
        RParen => (15, "')'"),
        Dot => (16, "'.'"),
        Comma => (17, "','"),
        Minus => (18, "'-'"),
        Bang => (19, "'!'"),
        Question => (20, "'?'"),
        Colon => (21, "':'"),
        True => (26, "'true'"),
        False => (27, "'false'"),
        Null => (28, "'null'"),
        Double => (31, "NUM_FLOAT"),
        Int => (32, "NUM_INT"),
        Uint => (33, "NUM_UINT"),
        String => (34, "STRING"),
        Bytes => (35, "BYTES"),
        Ident | Reserved => (36, "IDENTIFIER"),
        EscIdent => (37, "ESC_IDENTIFIER"),
        _ => return None,
    })
}
