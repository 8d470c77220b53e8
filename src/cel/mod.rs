//! CEL: lexer, parser with error recovery, and (later) checker and evaluator. Knows nothing of YAML or
//! policies; every span is a byte range of the expression text.
//!
//! `parse` always returns a tree: broken parts become `ExprKind::Error` nodes and every problem is a
//! `ParseError`; nothing here panics or returns `Err` on user input.
//!
//! - `parse` / `parse_with(src, &ParseOptions)` → `Parsed { ast, errors }`;
//! - `Ast` is an arena (`exprs`, `root`) of `Expr { span, anchor, kind }` addressed by `ExprId`;
//!   `Ast::children`, `ExprKind::for_each_child` and `Ast::preorder` walk it;
//! - macros stay `ExprKind::Macro(MacroCall)` with their variable names (see `macros`);
//! - `Ast::to_cel_string` prints source back, `Ast::debug_tree` dumps the tree for tests;
//! - `tokenize` gives the tokens (for semantic highlighting).

#![warn(missing_docs)]

pub mod ast;
pub mod check;
pub mod cost;
mod debug;
pub mod eval;
pub mod kube;
mod lexer;
pub mod library;
pub mod macros;
pub mod ops;
mod parser;
mod print;
pub mod re2;
pub mod token;
pub mod types;
pub mod unescape;

#[cfg(test)]
mod tests;

pub use ast::{
    Ast, BinaryOp, Expr, ExprId, ExprKind, FieldInit, ListElement, Literal, MapEntry, Name, UnaryOp,
};
pub use macros::{MacroCall, MacroKind};

use crate::text::TextRange;

/// A syntax error: where and what. Spans are byte ranges of the expression text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The offending text; its start is where cel-go would report the error.
    pub span: TextRange,
    /// The message, worded like cel-go's where it has one.
    pub message: String,
}

/// The result of parsing: always a tree, plus the errors (sorted by position).
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// The syntax tree; broken parts are `Error` nodes.
    pub ast: Ast,
    /// Syntax errors, sorted by start offset.
    pub errors: Vec<ParseError>,
}

impl Parsed {
    /// Whether the expression parsed without errors.
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Parser limits and syntax switches. Limits default to cel-go's parser defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseOptions {
    /// Maximum nesting depth, both of the parse (parentheses, brackets, calls) and of the resulting
    /// tree (long `a + b + …` or `a.b.c…` chains). cel-go's default: 250. The parse nesting is also
    /// capped at `parser::HARD_RECURSION_LIMIT` whatever this says, so the stack is always safe.
    pub max_depth: u32,
    /// Maximum expression size in code points (cel-go: 100,000).
    pub max_code_points: usize,
    /// Errors reported before parsing stops (cel-go's error reporting limit: 100).
    pub max_errors: usize,
    /// Accept `.?f`, `[?i]`, `[?e]`, `{?k: v}` and `Msg{?f: v}`. cel-go's default is off; Kubernetes
    /// turns it on (optional types), so ours is on.
    pub optional_syntax: bool,
    /// Accept backtick-escaped field names (`` a.`b-c` ``). Off by default, as in cel-go.
    pub ident_escape_syntax: bool,
    /// Recognise macros (`has`, `all`, `map`, …); when off they stay plain calls.
    pub macros: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            max_depth: 250,
            max_code_points: 100_000,
            max_errors: 100,
            optional_syntax: true,
            ident_escape_syntax: false,
            macros: true,
        }
    }
}

/// Splits an expression into tokens (the last is `Eof`) and lexical errors, without parsing.
pub fn tokenize(src: &str) -> (Vec<token::Token>, Vec<ParseError>) {
    let mut errors = Vec::new();
    let tokens = lexer::tokenize(src, &mut errors);
    (tokens, errors)
}

/// Parses a CEL expression with default options.
pub fn parse(src: &str) -> Parsed {
    parse_with(src, &ParseOptions::default())
}

/// Parses a CEL expression.
pub fn parse_with(src: &str, options: &ParseOptions) -> Parsed {
    parser::parse(src, options)
}

impl Ast {
    /// Prints the tree as CEL source; parsing the output gives the same tree (spans aside).
    pub fn to_cel_string(&self) -> String {
        print::to_cel_string(self)
    }

    /// A compact, indented s-expression dump with spans, for tests and debugging.
    pub fn debug_tree(&self) -> String {
        debug::debug_tree(self)
    }
}
