//! Error recovery: expecting a token, standing in for a missing expression, and comma-separated
//! lists that resynchronise at `,` and closing brackets. Every loop here consumes a token or ends,
//! so recovery always terminates.

use super::Parser;
use super::expr::is_binary_op;
use super::messages::Expecting;
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
        // ANTLR inserts the token when what was found can follow it: the end after the closer
        // of the outermost bracket, an operand after `:`.
        let insertable = match kind {
            TokenKind::Colon => token.kind.starts_expr(),
            _ => kind.is_closer() && token.kind == TokenKind::Eof && self.open_brackets == 0,
        };
        let expecting = if insertable {
            Expecting::Missing(kind)
        } else {
            Expecting::Token(kind)
        };
        self.report_unexpected(token, expecting);
        TextRange::empty(token.range.start())
    }

    /// Reports that an expression is missing at the current token and returns an `Error` node.
    /// Closers, separators and operators stay for the enclosing rule (so `a && ` keeps `a`, and
    /// `f(a, ` keeps its arguments); any other token is skipped.
    pub(super) fn missing_expr(&mut self) -> ExprId {
        self.missing_expr_as(Expecting::Expression)
    }

    /// `missing_expr`, reported as `expecting` says.
    pub(super) fn missing_expr_as(&mut self, expecting: Expecting) -> ExprId {
        let token = self.peek();
        self.report_unexpected(token, expecting);
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

    /// Items separated by commas up to `close` (with an optional trailing comma if
    /// `trailing_comma`), then `close`.
    /// Returns the range of the closing token (empty when it is missing).
    pub(super) fn comma_list(
        &mut self,
        close: TokenKind,
        trailing_comma: bool,
        mut item: impl FnMut(&mut Self),
    ) -> TextRange {
        let mut after_comma = false;
        self.open_brackets += 1;
        loop {
            // After a comma an item is due: at the end of the input or before a closer that does
            // not allow a trailing comma, the item parses as an `Error` (so `f(a, ` has two
            // arguments, the second one missing).
            let ends = (self.at(close) && (trailing_comma || !after_comma))
                || (self.at(TokenKind::Eof) && !after_comma);
            if ends {
                break;
            }
            if after_comma && trailing_comma && self.at(TokenKind::Eof) && self.open_brackets == 1 {
                // cel-go's grammar allows a trailing comma here, so ANTLR takes the comma as
                // that and inserts the missing closer (`[1, 2, ` → "missing ']' at '<EOF>'").
                let token = self.peek();
                self.report_unexpected(token, Expecting::Missing(close));
                break;
            }
            let before = self.pos;
            item(self);
            after_comma = self.eat(TokenKind::Comma).is_some();
            if after_comma {
                continue;
            }
            let token = self.peek();
            if token.kind.is_closer() {
                break;
            }
            let listed = trailing_comma;
            self.report_unexpected(token, Expecting::SeparatorOr { close, listed });
            // A token that can start an expression is probably the next item after a forgotten
            // comma; anything else is skipped.
            if !token.kind.starts_expr() || self.pos == before {
                self.bump();
            }
        }
        self.open_brackets -= 1;
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
