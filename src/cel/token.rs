//! Tokens of the CEL lexical grammar. A token is a kind plus the byte range of its text; literal
//! values are decoded later by the parser (see `unescape`), so the lexer never allocates per token.

use crate::text::TextRange;

/// The kind of a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// An identifier: `[_a-zA-Z][_a-zA-Z0-9]*` that is not a keyword.
    Ident,
    /// A backtick-quoted identifier such as `` `b-c` `` (field names only).
    EscIdent,
    /// A decimal or hexadecimal integer such as `42` or `0xFF`.
    Int,
    /// An unsigned integer such as `42u` or `0xFFU`.
    Uint,
    /// A floating point literal such as `1.5`, `.5`, `1e3`.
    Double,
    /// A string literal in any quoting form (including raw and triple-quoted).
    String,
    /// A bytes literal: a string literal prefixed by `b` or `B`.
    Bytes,
    /// `true`.
    True,
    /// `false`.
    False,
    /// `null`.
    Null,
    /// `in`.
    In,
    /// A reserved word such as `if` or `var`: never a valid identifier.
    Reserved,
    /// `==`
    EqEq,
    /// `!=`
    NotEq,
    /// `<`
    Less,
    /// `<=`
    LessEq,
    /// `>`
    Greater,
    /// `>=`
    GreaterEq,
    /// `&&`
    AndAnd,
    /// `||`
    OrOr,
    /// `!`
    Bang,
    /// `-`
    Minus,
    /// `+`
    Plus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%`
    Percent,
    /// `?`
    Question,
    /// `:`
    Colon,
    /// `.`
    Dot,
    /// `,`
    Comma,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// The end of the input (always the last token, with an empty range).
    Eof,
}

/// A token: its kind and the byte range of its text in the expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: TokenKind,
    /// Where its text is.
    pub range: TextRange,
}

/// Words the CEL grammar reserves: using one as an identifier is an error (cel-go wording
/// `reserved identifier: <word>`).
pub const RESERVED_WORDS: &[&str] = &[
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// Whether `word` cannot name a variable: a literal keyword (`true`, `false`, `null`), `in`, or one
/// of the [`RESERVED_WORDS`]. Schema escaping and variable-name validation use the same set.
pub fn is_keyword_or_reserved(word: &str) -> bool {
    TokenKind::of_word(word) != TokenKind::Ident
}

impl TokenKind {
    /// The kind of an identifier-shaped word: a keyword, a reserved word or a plain identifier.
    pub fn of_word(word: &str) -> TokenKind {
        match word {
            "true" => TokenKind::True,
            "false" => TokenKind::False,
            "null" => TokenKind::Null,
            "in" => TokenKind::In,
            // The list spelled out, so that the compiler dispatches on length first.
            "as" | "break" | "const" | "continue" | "else" | "for" | "function" | "if"
            | "import" | "let" | "loop" | "package" | "namespace" | "return" | "var" | "void"
            | "while" => TokenKind::Reserved,
            _ => TokenKind::Ident,
        }
    }

    /// Whether a token of this kind can begin an expression; recovery uses it to decide whether to
    /// skip a token or to parse from it.
    pub fn starts_expr(self) -> bool {
        use TokenKind::*;
        matches!(
            self,
            Ident
                | Reserved
                | Int
                | Uint
                | Double
                | String
                | Bytes
                | True
                | False
                | Null
                | Dot
                | LParen
                | LBracket
                | LBrace
                | Minus
                | Bang
        )
    }

    /// Whether this kind closes a bracketed construct; recovery stops at these.
    pub fn is_closer(self) -> bool {
        matches!(
            self,
            TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace | TokenKind::Eof
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{RESERVED_WORDS, TokenKind};

    /// `of_word` spells the reserved words out for speed; it must agree with the list that
    /// printing and schema escaping read.
    #[test]
    fn of_word_reserves_exactly_the_listed_words() {
        for word in RESERVED_WORDS {
            assert_eq!(TokenKind::of_word(word), TokenKind::Reserved, "{word}");
        }
        for word in ["object", "asx", "fo", "in", "true", "namespaces", "Var"] {
            assert_ne!(TokenKind::of_word(word), TokenKind::Reserved, "{word}");
        }
    }
}
