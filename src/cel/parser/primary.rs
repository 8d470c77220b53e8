//! Primary expressions: literals, identifiers and global calls, root-scoped names (`.a`),
//! parentheses, list and map literals, and message construction with dotted type names.

use super::Parser;
use super::messages::Expecting;
use crate::cel::ast::{ExprId, ExprKind, FieldInit, ListElement, Literal, MapEntry, Name};
use crate::cel::token::{Token, TokenKind};
use crate::cel::unescape::{EscapeError, decode_bytes, decode_string};
use crate::text::{TextRange, to_size};

impl Parser<'_> {
    /// A primary expression; anything that cannot start one is reported and becomes `Error`.
    pub(super) fn primary(&mut self) -> ExprId {
        let token = self.peek();
        match token.kind {
            TokenKind::Ident | TokenKind::Reserved => self.ident_or_call(None),
            TokenKind::Dot
                if matches!(self.nth(1).kind, TokenKind::Ident | TokenKind::Reserved) =>
            {
                let dot = self.bump();
                self.ident_or_call(Some(dot))
            }
            TokenKind::Int
            | TokenKind::Uint
            | TokenKind::Double
            | TokenKind::String
            | TokenKind::Bytes
            | TokenKind::True
            | TokenKind::False
            | TokenKind::Null => self.literal(None),
            TokenKind::Minus if self.signed_number_ahead() => {
                let minus = self.bump();
                self.literal(Some(minus))
            }
            TokenKind::LParen => self.parenthesized(),
            TokenKind::LBracket => self.list(),
            TokenKind::LBrace => self.map(),
            TokenKind::Minus | TokenKind::Dot => {
                // Only a negative number or a root-scoped name starts so here (`!-a`, `."a"`):
                // ANTLR's prediction fails at the next token.
                let lead = self.bump();
                let from = lead.range.start();
                self.missing_expr_as(Expecting::NoViable { from })
            }
            _ => self.missing_expr(),
        }
    }

    /// `a`, `.a`, `f(…)`, `.f(…)` or the start of `a.b.Msg{…}`.
    fn ident_or_call(&mut self, dot: Option<Token>) -> ExprId {
        if self.struct_name_ahead() {
            return self.struct_literal(dot);
        }
        let token = self.bump();
        if token.kind == TokenKind::Reserved {
            self.report_reserved(token);
        }
        let name = self.ident_name(dot, token);
        if self.at(TokenKind::LParen) {
            return self.global_call(name);
        }
        self.alloc(name.span, ExprKind::Ident(name))
    }

    /// The name of an identifier token, with the leading dot of a root-scoped name. Kept out of
    /// `ident_or_call` so that the recursive path has small stack frames.
    #[inline(never)]
    fn ident_name(&self, dot: Option<Token>, token: Token) -> Name {
        let word = self.text(token.range);
        let start = dot.map_or(token.range, |d| d.range);
        let text = if dot.is_some() {
            format!(".{word}")
        } else {
            word.to_string()
        };
        Name {
            text,
            span: start.cover(token.range),
        }
    }

    /// Whether the tokens ahead are `ident (. ident)* {`: a message construction.
    fn struct_name_ahead(&self) -> bool {
        let is_name = |kind| matches!(kind, TokenKind::Ident | TokenKind::Reserved);
        let mut ahead = 1;
        while self.nth(ahead).kind == TokenKind::Dot && is_name(self.nth(ahead + 1).kind) {
            ahead += 2;
        }
        self.nth(ahead).kind == TokenKind::LBrace
    }

    /// `a.b.Msg{f: v, ?g: w}`.
    fn struct_literal(&mut self, dot: Option<Token>) -> ExprId {
        let first = self.bump();
        let mut text = if dot.is_some() {
            String::from(".")
        } else {
            String::new()
        };
        text.push_str(self.text(first.range));
        let mut span = dot.map_or(first.range, |d| d.range).cover(first.range);
        while self.at(TokenKind::Dot) {
            self.bump();
            let part = self.bump();
            text.push('.');
            text.push_str(self.text(part.range));
            span = span.cover(part.range);
        }
        let type_name = Name { text, span };
        let open = self.bump().range.start();
        let mut fields = Vec::new();
        let close = self.comma_list(TokenKind::RBrace, true, |p| p.field_init(&mut fields));
        self.alloc_at(
            span.cover(close),
            open,
            ExprKind::Struct { type_name, fields },
        )
    }

    /// `f: v` or `?f: v` inside a message construction.
    fn field_init(&mut self, fields: &mut Vec<FieldInit>) {
        let optional = self.optional_marker();
        let token = self.peek();
        let name = match token.kind {
            TokenKind::Ident | TokenKind::Reserved => {
                self.bump();
                Name {
                    text: self.text(token.range).to_string(),
                    span: token.range,
                }
            }
            TokenKind::EscIdent => self.escaped_name(),
            _ => {
                self.report_unexpected(token, Expecting::FieldName);
                if token.kind != TokenKind::Colon {
                    // Skip the stray token (`func{{a}}`) unless it ends the list or an entry.
                    if !token.kind.is_closer() && token.kind != TokenKind::Comma {
                        self.bump();
                    }
                    return;
                }
                Name {
                    text: String::new(),
                    span: TextRange::empty(token.range.start()),
                }
            }
        };
        self.expect(TokenKind::Colon);
        let value = self.expr();
        fields.push(FieldInit {
            name,
            value,
            optional,
        });
    }

    /// `(e)`: no node of its own, but the inner node's span grows to cover the parentheses so that
    /// enclosing spans are exact.
    fn parenthesized(&mut self) -> ExprId {
        let open = self.bump();
        self.open_brackets += 1;
        let inner = self.expr();
        self.open_brackets -= 1;
        let close = self.expect(TokenKind::RParen);
        if let Some(expr) = self.exprs.get_mut(inner.index()) {
            expr.span = expr.span.cover(open.range).cover(close);
        }
        inner
    }

    /// `[a, ?b, ]`.
    fn list(&mut self) -> ExprId {
        let open = self.bump();
        self.first_entry(TokenKind::RBracket);
        let mut elements = Vec::new();
        let close = self.comma_list(TokenKind::RBracket, true, |p| {
            let optional = p.optional_marker();
            elements.push(ListElement {
                value: p.expr(),
                optional,
            });
        });
        self.alloc(open.range.cover(close), ExprKind::List { elements })
    }

    /// `{k: v, ?k2: v2, }`.
    fn map(&mut self) -> ExprId {
        let open = self.bump();
        self.first_entry(TokenKind::RBrace);
        let mut entries = Vec::new();
        let close = self.comma_list(TokenKind::RBrace, true, |p| {
            let optional = p.optional_marker();
            let key = p.expr();
            p.expect(TokenKind::Colon);
            let value = p.expr();
            entries.push(MapEntry {
                key,
                value,
                optional,
            });
        });
        self.alloc(open.range.cover(close), ExprKind::Map { entries })
    }

    /// Right after `[` or `{`: what cannot start the first entry (or close or a lone `,`) is
    /// reported with the set ANTLR expects there; the entry's own report at the same spot is then
    /// dropped as a cascade.
    fn first_entry(&mut self, close: TokenKind) {
        let token = self.peek();
        let fits = token.kind.starts_expr()
            || matches!(token.kind, TokenKind::Comma | TokenKind::Question)
            || token.kind == close;
        if !fits {
            self.report_unexpected(token, Expecting::FirstEntry(close));
        }
    }

    /// A literal token, with a folded `-` for numbers. An unrepresentable number becomes an
    /// `Error` node; a string with a bad escape keeps its best-effort value.
    fn literal(&mut self, minus: Option<Token>) -> ExprId {
        let token = self.bump();
        let span = minus.map_or(token.range, |m| m.range.cover(token.range));
        let text = self.text(token.range);
        let negative = minus.is_some();
        let value = match token.kind {
            TokenKind::Int => parse_int(text, negative)
                .map(Literal::Int)
                .ok_or("invalid int literal"),
            TokenKind::Uint => parse_uint(text)
                .map(Literal::Uint)
                .ok_or("invalid uint literal"),
            TokenKind::Double => parse_double(text, negative)
                .map(Literal::Double)
                .ok_or("invalid double literal"),
            TokenKind::String => Ok(self.string_literal(token)),
            TokenKind::Bytes => Ok(self.bytes_literal(token)),
            TokenKind::True => Ok(Literal::Bool(true)),
            TokenKind::False => Ok(Literal::Bool(false)),
            _ => Ok(Literal::Null),
        };
        match value {
            Ok(literal) => self.alloc(span, ExprKind::Literal(literal)),
            Err(message) => {
                self.error(span, message);
                self.error_node(span, Vec::new())
            }
        }
    }

    fn string_literal(&mut self, token: Token) -> Literal {
        let (value, errors) = decode_string(self.text(token.range));
        self.escape_errors(token, errors);
        Literal::String(value)
    }

    fn bytes_literal(&mut self, token: Token) -> Literal {
        let (value, errors) = decode_bytes(self.text(token.range));
        self.escape_errors(token, errors);
        Literal::Bytes(value)
    }

    /// Reports escape problems; cel-go reports them at the literal's start, and so do we.
    fn escape_errors(&mut self, token: Token, errors: Vec<EscapeError>) {
        for error in errors {
            let start = token.range.start() + to_size(error.range.start);
            let end = (token.range.start() + to_size(error.range.end)).min(token.range.end());
            let range = TextRange::new(start, end.max(start));
            // A malformed escape is a lexical error to cel-go's ANTLR lexer, which shows the
            // literal from its quote through the offending character.
            let message = if error.message.starts_with("invalid escape sequence") {
                let text = super::error_display(self.text(range));
                format!("Syntax error: token recognition error at: '{text}'")
            } else {
                error.message
            };
            self.error(range, message);
        }
    }
}

fn split_radix(text: &str) -> (&str, u32) {
    match text.get(..2) {
        Some("0x" | "0X") => (text.get(2..).unwrap_or(""), 16),
        _ => (text, 10),
    }
}

/// An int literal's value; `-9223372036854775808` fits only because the sign is folded in.
fn parse_int(text: &str, negative: bool) -> Option<i64> {
    let (digits, radix) = split_radix(text);
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if negative {
        0i64.checked_sub_unsigned(magnitude)
    } else {
        i64::try_from(magnitude).ok()
    }
}

fn parse_uint(text: &str) -> Option<u64> {
    let (digits, radix) = split_radix(text.trim_end_matches(['u', 'U']));
    u64::from_str_radix(digits, radix).ok()
}

/// A double literal's value; out of range (infinite) is invalid, as in cel-go.
fn parse_double(text: &str, negative: bool) -> Option<f64> {
    let value: f64 = text.parse().ok()?;
    let value = if negative { -value } else { value };
    value.is_finite().then_some(value)
}
