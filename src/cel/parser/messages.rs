//! All syntax error wording in one place (cel-go's habit), worded like cel-go's ANTLR messages
//! where it has them. The reporting functions are cold and never inlined, so the message
//! formatting stays out of the stack frames of the recursive parse functions.

use super::Parser;
use crate::cel::token::{Token, TokenKind};
use crate::text::TextRange;

/// What the parser wanted where it found something else.
#[derive(Clone, Copy, Debug)]
pub(super) enum Expecting {
    /// A specific token.
    Token(TokenKind),
    /// An expression.
    Expression,
    /// `,` or the closing token.
    SeparatorOr(TokenKind),
    /// The end of the input.
    Eof,
    /// A field name after `.` (a keyword was found).
    Identifier,
    /// A field name after `.` (something else was found).
    SelectName,
    /// A field name in a message construction.
    FieldName,
}

impl Parser<'_> {
    /// Reports `token` where `expecting` was wanted.
    #[cold]
    #[inline(never)]
    pub(super) fn report_unexpected(&mut self, token: Token, expecting: Expecting) {
        let found = self.describe(token);
        let message = match expecting {
            Expecting::Token(kind) => {
                format!("mismatched input {found} expecting '{}'", token_text(kind))
            }
            Expecting::Expression => format!("mismatched input {found} expecting an expression"),
            Expecting::SeparatorOr(close) => {
                format!(
                    "mismatched input {found} expecting {{',', '{}'}}",
                    token_text(close)
                )
            }
            Expecting::Eof => format!("mismatched input {found} expecting <EOF>"),
            Expecting::Identifier => format!("mismatched input {found} expecting IDENTIFIER"),
            Expecting::SelectName => format!("no viable alternative at input {found}"),
            Expecting::FieldName => {
                format!(
                    "mismatched input {found} expecting {{'}}', ',', '?', IDENTIFIER, ESC_IDENTIFIER}}"
                )
            }
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

    /// A token for a message: `'text'`, or `<EOF>`.
    fn describe(&self, token: Token) -> String {
        match token.kind {
            TokenKind::Eof => "<EOF>".to_string(),
            _ => format!("'{}'", self.text(token.range)),
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
