//! Operators: the conditional, binary operators by precedence climbing (a loop per level, so
//! `a + a + …` never recurses per term), unary runs (collapsed by parity, as cel-go does), and the
//! member loop (`.f`, `.?f`, `.f(…)`, `[i]`, `[?i]`).

use super::Parser;
use super::messages::Expecting;
use crate::cel::ast::{BinaryOp, ExprId, ExprKind, Name, UnaryOp};
use crate::cel::token::TokenKind;
use crate::text::{TextRange, TextSize};

impl Parser<'_> {
    /// A full expression. Counts nesting: every bracketed or argument expression comes through here.
    pub(super) fn expr(&mut self) -> ExprId {
        let limit = self.options.max_depth.min(super::HARD_RECURSION_LIMIT);
        if self.nesting >= limit {
            let span = self.peek().range;
            self.report_recursion_limit(span, limit);
            return self.error_node(span, Vec::new());
        }
        self.nesting += 1;
        let result = self.conditional();
        self.nesting -= 1;
        result
    }

    /// `or ? or : expr` (right-associative through `expr`).
    fn conditional(&mut self) -> ExprId {
        let cond = self.binary(1);
        let Some(question) = self.eat(TokenKind::Question) else {
            return cond;
        };
        let then = self.binary(1);
        self.expect(TokenKind::Colon);
        let otherwise = self.expr();
        let span = self.span(cond).cover(self.span(otherwise));
        self.alloc_at(
            span,
            question.range.start(),
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            },
        )
    }

    /// Binary operators binding at least as tight as `min_precedence`. The right operand is parsed
    /// one level tighter, which makes every level left-associative; recursion is bounded by the
    /// number of levels, not by the length of the chain.
    fn binary(&mut self, min_precedence: u8) -> ExprId {
        let mut lhs = self.unary();
        while let Some(op) = binary_op(self.peek().kind) {
            if op.precedence() < min_precedence {
                break;
            }
            let token = self.bump();
            let rhs = self.binary(op.precedence() + 1);
            let span = self.span(lhs).cover(self.span(rhs));
            lhs = self.alloc_at(span, token.range.start(), ExprKind::Binary { op, lhs, rhs });
        }
        lhs
    }

    /// `!`+ member or `-`+ member. An even run cancels out and an odd run gives one operator, as in
    /// cel-go; a single `-` before a number is part of the literal (`-1`, `4--4`).
    fn unary(&mut self) -> ExprId {
        let op = match self.peek().kind {
            TokenKind::Bang => UnaryOp::Not,
            TokenKind::Minus if !self.signed_number_ahead() => UnaryOp::Neg,
            _ => return self.member(),
        };
        let first = self.bump();
        let op_kind = first.kind;
        let mut count = 1usize;
        let mut last = first;
        while let Some(next) = self.eat(op_kind) {
            count += 1;
            last = next;
        }
        if op == UnaryOp::Neg && !self.peek().kind.starts_expr() {
            // cel-go's grammar decides between `-` as an operator and a negative literal after
            // the first `-` of a run, and inside the run at the last one; with no operand
            // neither alternative is viable from there.
            let from = if count == 1 { first } else { last };
            let from = from.range.start();
            let operand = self.missing_expr_as(Expecting::NoViable { from });
            let span = first.range.cover(self.span(operand));
            return self.alloc(span, ExprKind::Unary { op, operand });
        }
        let operand = self.member();
        if count.is_multiple_of(2) {
            return operand;
        }
        let span = first.range.cover(self.span(operand));
        self.alloc(span, ExprKind::Unary { op, operand })
    }

    /// Whether the input is `-` directly followed by a number: a negative literal.
    pub(super) fn signed_number_ahead(&self) -> bool {
        self.at(TokenKind::Minus) && matches!(self.nth(1).kind, TokenKind::Int | TokenKind::Double)
    }

    /// A primary followed by any number of selections, member calls and indexes (a loop).
    pub(super) fn member(&mut self) -> ExprId {
        let mut operand = self.primary();
        loop {
            operand = match self.peek().kind {
                TokenKind::Dot => self.select(operand),
                TokenKind::LBracket => self.index(operand),
                _ => return operand,
            };
        }
    }

    /// `.f`, `.?f`, `.f(args)`; a missing name keeps the operand (`object.spec.` at the cursor).
    fn select(&mut self, operand: ExprId) -> ExprId {
        let dot = self.bump();
        let question = self.eat(TokenKind::Question);
        if question.is_some() && !self.options.optional_syntax {
            self.error(dot.range, "unsupported syntax '.?'");
        }
        let field = self.field_name(dot.range.start());
        // Escaped names are fields only: `` a.`b`() `` leaves the `(` to be reported.
        let callable = question.is_none() && !field.is_missing() && !self.last_name_was_escaped;
        if callable && self.at(TokenKind::LParen) {
            return self.member_call(operand, field);
        }
        let span = self.span(operand).cover(field.span).cover(dot.range);
        self.alloc_at(
            span,
            dot.range.start(),
            ExprKind::Select {
                operand,
                field,
                optional: question.is_some(),
            },
        )
    }

    /// The name after the `.` at `dot`: an identifier (reserved words are allowed as fields), an
    /// escaped name, or a keyword (reported, kept). Anything else gives a missing name at that
    /// token.
    fn field_name(&mut self, dot: TextSize) -> Name {
        let token = self.peek();
        self.last_name_was_escaped = false;
        match token.kind {
            TokenKind::Ident | TokenKind::Reserved => {
                self.bump();
                Name {
                    text: self.text(token.range).to_string(),
                    span: token.range,
                }
            }
            TokenKind::EscIdent => self.escaped_name(),
            TokenKind::True | TokenKind::False | TokenKind::Null | TokenKind::In => {
                self.report_unexpected(token, Expecting::Identifier);
                self.bump();
                Name {
                    text: self.text(token.range).to_string(),
                    span: token.range,
                }
            }
            _ => {
                self.report_unexpected(token, Expecting::SelectName { dot });
                Name {
                    text: String::new(),
                    span: TextRange::empty(token.range.start()),
                }
            }
        }
    }

    /// A backtick name, reported when the syntax is off; stored without its backticks.
    pub(super) fn escaped_name(&mut self) -> Name {
        let token = self.bump();
        self.last_name_was_escaped = true;
        if !self.options.ident_escape_syntax {
            self.error(token.range, "unsupported syntax: '`'");
        }
        let text = self.text(token.range);
        let inner = text.get(1..text.len().saturating_sub(1)).unwrap_or("");
        Name {
            text: inner.to_string(),
            span: token.range,
        }
    }

    /// `operand[index]` or `operand[?index]`.
    fn index(&mut self, operand: ExprId) -> ExprId {
        let open = self.bump();
        let question = self.eat(TokenKind::Question);
        if let Some(q) = question
            && !self.options.optional_syntax
        {
            self.error(q.range, "unsupported syntax '[?'");
        }
        let index = self.expr();
        let close = self.expect(TokenKind::RBracket);
        let span = self
            .span(operand)
            .cover(open.range)
            .cover(self.span(index))
            .cover(close);
        self.alloc_at(
            span,
            open.range.start(),
            ExprKind::Index {
                operand,
                index,
                optional: question.is_some(),
            },
        )
    }
}

/// The binary operator a token stands for.
fn binary_op(kind: TokenKind) -> Option<BinaryOp> {
    use TokenKind::*;
    Some(match kind {
        OrOr => BinaryOp::Or,
        AndAnd => BinaryOp::And,
        EqEq => BinaryOp::Eq,
        NotEq => BinaryOp::Ne,
        Less => BinaryOp::Lt,
        LessEq => BinaryOp::Le,
        Greater => BinaryOp::Gt,
        GreaterEq => BinaryOp::Ge,
        In => BinaryOp::In,
        Plus => BinaryOp::Add,
        Minus => BinaryOp::Sub,
        Star => BinaryOp::Mul,
        Slash => BinaryOp::Div,
        Percent => BinaryOp::Rem,
        _ => return None,
    })
}

/// Whether a token is a binary operator (recovery leaves those in place).
pub(super) fn is_binary_op(kind: TokenKind) -> bool {
    binary_op(kind).is_some()
}
