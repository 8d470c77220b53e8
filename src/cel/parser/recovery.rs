//! Error recovery: expecting a token, standing in for a missing expression, and comma-separated
//! lists that resynchronise at `,` and closing brackets. Every loop here consumes a token or ends,
//! so recovery always terminates.

use super::Parser;
use super::expr::is_binary_op;
use crate::cel::ast::ExprId;
use crate::cel::token::TokenKind;
use crate::text::TextRange;

impl Parser<'_> {
    /// Consumes `kind` and returns its range; otherwise reports it missing and returns an empty range
    /// at the current token, which is left in place for the caller to resynchronise on.
    pub(super) fn expect(&mut self, kind: TokenKind) -> TextRange {
        if let Some(token) = self.eat(kind) {
            return token.range;
        }
        let token = self.peek();
        let message = format!(
            "Syntax error: mismatched input {} expecting '{}'",
            self.describe(token),
            token_text(kind)
        );
        self.error(token.range, message);
        TextRange::empty(token.range.start())
    }

    /// Reports that an expression is missing at the current token and returns an `Error` node.
    /// Closers, separators and operators stay for the enclosing rule (so `a && ` keeps `a`, and
    /// `f(a, ` keeps its arguments); any other token is skipped.
    pub(super) fn missing_expr(&mut self) -> ExprId {
        let token = self.peek();
        let message = format!(
            "Syntax error: mismatched input {} expecting an expression",
            self.describe(token)
        );
        self.error(token.range, message);
        let keep = token.kind.is_closer()
            || is_binary_op(token.kind)
            || matches!(
                token.kind,
                TokenKind::Comma | TokenKind::Colon | TokenKind::Question
            );
        if keep {
            return self.error_node(TextRange::empty(token.range.start()), Vec::new());
        }
        self.bump();
        self.error_node(token.range, Vec::new())
    }

    /// Items separated by commas up to `close` (a trailing comma is allowed), then `close`.
    /// Returns the range of the closing token (empty when it is missing).
    pub(super) fn comma_list(
        &mut self,
        close: TokenKind,
        mut item: impl FnMut(&mut Self),
    ) -> TextRange {
        loop {
            if self.at(close) || self.at(TokenKind::Eof) {
                break;
            }
            let before = self.pos;
            item(self);
            if self.eat(TokenKind::Comma).is_some() {
                continue;
            }
            let token = self.peek();
            if token.kind.is_closer() {
                break;
            }
            let message = format!(
                "Syntax error: mismatched input {} expecting {{',', '{}'}}",
                self.describe(token),
                token_text(close)
            );
            self.error(token.range, message);
            // A token that can start an expression is probably the next item after a forgotten
            // comma; anything else is skipped.
            if !token.kind.starts_expr() || self.pos == before {
                self.bump();
            }
        }
        self.expect(close)
    }

    /// Reports `?` when optional syntax is off.
    pub(super) fn optional_marker(&mut self) -> bool {
        let Some(question) = self.eat(TokenKind::Question) else {
            return false;
        };
        if !self.options.optional_syntax {
            self.error(question.range, "unsupported syntax '?'");
        }
        true
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
