//! The CEL parser: recursive descent over the token list, with precedence climbing for binary
//! operators so that long left-associative chains loop instead of recursing. On an error it records
//! a `ParseError`, builds an `Error` node that keeps whatever parsed, and carries on
//! (`recovery.rs`). Depth is bounded twice: the parse nesting (stack safety) and the height of the
//! tree (so later recursive passes are safe too).

mod expr;
mod macros;
mod messages;
mod primary;
mod recovery;

use super::ast::{Ast, Expr, ExprId, ExprKind};
use super::token::{Token, TokenKind};
use super::{ParseError, ParseOptions, Parsed, lexer};
use crate::text::{TextRange, TextSize};
use messages::Expecting;
pub(crate) use messages::error_display;

/// The most nested parse calls allowed whatever `ParseOptions::max_depth` says. Measured on a
/// 2 MiB thread, the parser overflows at about 1,050 nested calls (`f(f(…`, the costliest
/// construct, about 2 KB of stack per level), 1,400 nested lists or maps and 1,900 nested
/// parentheses in a debug build; at about 2,200 nested calls in a release build. 400 keeps a 2.5×
/// margin (debug) for callers who raise `max_depth`; the default of 250 (cel-go's) has 4×.
pub const HARD_RECURSION_LIMIT: u32 = 400;

/// Parses `src` into a tree and errors.
pub fn parse(src: &str, options: &ParseOptions) -> Parsed {
    let code_points = src.chars().count();
    // Byte offsets are 32-bit, so a text over 4 GiB is refused whatever the options say.
    if code_points > options.max_code_points || u32::try_from(src.len()).is_err() {
        return too_large(src, code_points, options.max_code_points);
    }
    let mut errors = Vec::new();
    let tokens = lexer::tokenize(src, &mut errors);
    let mut parser = Parser::new(src, tokens, errors, options);
    let root = parser.parse_root();
    let mut errors = parser.errors;
    errors.sort_by_key(|e| e.span.start());
    errors.truncate(options.max_errors.max(1));
    Parsed {
        ast: Ast {
            exprs: parser.exprs,
            root,
        },
        errors,
    }
}

fn too_large(src: &str, size: usize, limit: usize) -> Parsed {
    let span = TextRange::up_to(crate::text::to_size(src.len()));
    let message = format!("expression code point size exceeds limit: size: {size}, limit {limit}");
    let expr = Expr {
        span,
        anchor: span.start(),
        kind: ExprKind::Error { parts: Vec::new() },
    };
    let error = ParseError {
        span: TextRange::empty(TextSize::from(0)),
        message,
    };
    Parsed {
        ast: Ast {
            exprs: vec![expr],
            root: ExprId(0),
        },
        errors: vec![error],
    }
}

/// Parser state: the tokens, a cursor, the arena being built and the errors so far.
struct Parser<'s> {
    src: &'s str,
    tokens: Vec<Token>,
    pos: usize,
    exprs: Vec<Expr>,
    /// Height of each node's subtree (1 for a leaf), to bound the tree depth.
    heights: Vec<u32>,
    errors: Vec<ParseError>,
    options: ParseOptions,
    /// Current nesting of `expr` calls.
    nesting: u32,
    /// Set when a limit is hit: the parser then sees only `Eof` and unwinds quietly.
    stopped: bool,
    /// Start of the last syntax error, to drop the cascade of errors at one spot.
    last_error_at: Option<TextSize>,
    /// Whether the last field name read was backtick-escaped (such names cannot be called).
    last_name_was_escaped: bool,
    /// Brackets open around the cursor (`(`, `[`, `{`, call arguments): a closer is the last
    /// token of the whole expression only when none is.
    open_brackets: u32,
}

impl<'s> Parser<'s> {
    fn new(
        src: &'s str,
        tokens: Vec<Token>,
        errors: Vec<ParseError>,
        options: &ParseOptions,
    ) -> Self {
        // At most about a node per token: sized once instead of grown.
        let nodes = tokens.len();
        Parser {
            src,
            tokens,
            pos: 0,
            exprs: Vec::with_capacity(nodes),
            heights: Vec::with_capacity(nodes),
            errors,
            options: options.clone(),
            nesting: 0,
            stopped: false,
            last_error_at: None,
            last_name_was_escaped: false,
            open_brackets: 0,
        }
    }

    /// The current token (`Eof` once stopped).
    fn peek(&self) -> Token {
        self.nth(0)
    }

    fn nth(&self, ahead: usize) -> Token {
        let eof = self.tokens.last().copied().unwrap_or(Token {
            kind: TokenKind::Eof,
            range: TextRange::empty(TextSize::from(0)),
        });
        if self.stopped {
            return eof;
        }
        self.tokens.get(self.pos + ahead).copied().unwrap_or(eof)
    }

    fn at(&self, kind: TokenKind) -> bool {
        self.peek().kind == kind
    }

    /// Consumes the current token (never moves past `Eof`).
    fn bump(&mut self) -> Token {
        let token = self.peek();
        if token.kind != TokenKind::Eof {
            self.pos += 1;
        }
        token
    }

    fn eat(&mut self, kind: TokenKind) -> Option<Token> {
        if self.at(kind) {
            Some(self.bump())
        } else {
            None
        }
    }

    fn text(&self, range: TextRange) -> &'s str {
        self.src
            .get(std::ops::Range::<usize>::from(range))
            .unwrap_or("")
    }

    /// Records an error unless parsing stopped or an error was already reported at this spot.
    fn error(&mut self, span: TextRange, message: impl Into<String>) {
        if self.stopped || self.last_error_at == Some(span.start()) {
            return;
        }
        self.last_error_at = Some(span.start());
        self.errors.push(ParseError {
            span,
            message: message.into(),
        });
        if self.errors.len() >= self.options.max_errors {
            self.stopped = true;
        }
    }

    /// Reports a limit and stops the parse; the tree keeps what was built.
    fn stop(&mut self, span: TextRange, message: String) {
        if !self.stopped {
            self.errors.push(ParseError { span, message });
            self.stopped = true;
        }
    }

    /// Adds a node. A node taller than `max_depth` becomes a leaf `Error` and stops the parse, so
    /// no tree is ever deeper than the limit.
    fn alloc(&mut self, span: TextRange, kind: ExprKind) -> ExprId {
        self.alloc_at(span, span.start(), kind)
    }

    /// `alloc` with an anchor other than the span start (see `Expr::anchor`).
    fn alloc_at(&mut self, span: TextRange, anchor: TextSize, kind: ExprKind) -> ExprId {
        let mut height = 0;
        kind.for_each_child(|child| {
            height = height.max(self.heights.get(child.index()).copied().unwrap_or(0))
        });
        let height = height + 1;
        let kind = if height > self.options.max_depth {
            self.stop(span, "max recursion depth exceeded".to_string());
            ExprKind::Error { parts: Vec::new() }
        } else {
            kind
        };
        let id = ExprId(u32::try_from(self.exprs.len()).unwrap_or(u32::MAX));
        self.exprs.push(Expr { span, anchor, kind });
        self.heights
            .push(height.min(self.options.max_depth.saturating_add(1)));
        id
    }

    fn span(&self, id: ExprId) -> TextRange {
        self.exprs
            .get(id.index())
            .map_or(TextRange::empty(TextSize::from(0)), |e| e.span)
    }

    /// From the node's anchor to its end: where cel-go reports errors about the node.
    fn anchored_span(&self, id: ExprId) -> TextRange {
        let span = self.span(id);
        let anchor = self
            .exprs
            .get(id.index())
            .map_or(span.start(), |e| e.anchor);
        TextRange::new(anchor.clamp(span.start(), span.end()), span.end())
    }

    /// A placeholder `Error` node at the current token, keeping `parts`.
    fn error_node(&mut self, span: TextRange, parts: Vec<ExprId>) -> ExprId {
        self.alloc(span, ExprKind::Error { parts })
    }

    /// The whole input: one expression, then `Eof`. Anything after it is reported once and parsed
    /// into an `Error` root that keeps every piece.
    fn parse_root(&mut self) -> ExprId {
        let root = self.expr();
        if self.at(TokenKind::Eof) {
            return root;
        }
        let token = self.peek();
        self.report_unexpected(token, Expecting::Eof);
        let mut parts = vec![root];
        while !self.at(TokenKind::Eof) {
            if self.peek().kind.starts_expr() {
                parts.push(self.expr());
            } else {
                self.bump();
            }
        }
        let span = self
            .span(root)
            .cover(TextRange::empty(self.peek().range.start()));
        self.error_node(span, parts)
    }
}
