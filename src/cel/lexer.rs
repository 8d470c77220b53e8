//! The CEL lexer: splits an expression into tokens with byte ranges, skipping whitespace and `//`
//! comments. Characters that start no token are reported (cel-go: "token recognition error") and
//! skipped, as ANTLR does, so the parser still sees the rest of the input.

use super::ParseError;
use super::token::{Token, TokenKind};
use crate::text::{TextRange, to_size};

/// Splits `src` into tokens; the last token is always `Eof`. Lexical errors go to `errors`.
pub fn tokenize(src: &str, errors: &mut Vec<ParseError>) -> Vec<Token> {
    let mut lexer = Lexer {
        src,
        bytes: src.as_bytes(),
        pos: 0,
        // About a token per four bytes in typical expressions; growing the vector showed in profiles.
        tokens: Vec::with_capacity(src.len() / 4 + 2),
        errors,
    };
    lexer.run();
    let end = to_size(src.len());
    lexer.tokens.push(Token {
        kind: TokenKind::Eof,
        range: TextRange::empty(end),
    });
    lexer.tokens
}

struct Lexer<'a, 'e> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
    errors: &'e mut Vec<ParseError>,
}

impl Lexer<'_, '_> {
    fn run(&mut self) {
        while let Some(byte) = self.peek(0) {
            let start = self.pos;
            match byte {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0c => self.pos += 1,
                b'/' if self.peek(1) == Some(b'/') => self.skip_line_comment(),
                b'0'..=b'9' => self.number(start),
                b'.' if self.peek(1).is_some_and(|b| b.is_ascii_digit()) => self.number(start),
                b'"' | b'\'' => self.string(start, TokenKind::String, 0),
                b'`' => self.escaped_ident(start),
                b'_' | b'a'..=b'z' | b'A'..=b'Z' => self.word_or_prefixed_string(start),
                _ => self.operator(start),
            }
        }
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos + ahead).copied()
    }

    fn push(&mut self, kind: TokenKind, start: usize) {
        self.tokens.push(Token {
            kind,
            range: range(start, self.pos),
        });
    }

    fn error(&mut self, start: usize, end: usize, message: String) {
        self.errors.push(ParseError {
            span: range(start, end),
            message,
        });
    }

    fn skip_line_comment(&mut self) {
        while self.peek(0).is_some_and(|b| b != b'\n') {
            self.pos += 1;
        }
    }

    fn skip_while(&mut self, pred: impl Fn(u8) -> bool) {
        while self.peek(0).is_some_and(&pred) {
            self.pos += 1;
        }
    }

    /// Numbers: `0x` hex or decimal digits, an optional fraction and exponent (double) or `u`
    /// suffix (uint). A `.` is part of the number only when a digit follows, so `1.e5` is a select.
    fn number(&mut self, start: usize) {
        let hex = self.peek(0) == Some(b'0')
            && matches!(self.peek(1), Some(b'x' | b'X'))
            && self.peek(2).is_some_and(|b| b.is_ascii_hexdigit());
        if hex {
            self.pos += 2;
            self.skip_while(|b| b.is_ascii_hexdigit());
            return self.int_suffix(start);
        }
        self.skip_while(|b| b.is_ascii_digit());
        let mut double = false;
        if self.peek(0) == Some(b'.') && self.peek(1).is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
            self.skip_while(|b| b.is_ascii_digit());
            double = true;
        }
        if matches!(self.peek(0), Some(b'e' | b'E')) {
            let sign = usize::from(matches!(self.peek(1), Some(b'+' | b'-')));
            if self.peek(1 + sign).is_some_and(|b| b.is_ascii_digit()) {
                self.pos += 1 + sign;
                self.skip_while(|b| b.is_ascii_digit());
                double = true;
            }
        }
        if double {
            self.push(TokenKind::Double, start)
        } else {
            self.int_suffix(start)
        }
    }

    fn int_suffix(&mut self, start: usize) {
        if matches!(self.peek(0), Some(b'u' | b'U')) {
            self.pos += 1;
            self.push(TokenKind::Uint, start);
        } else {
            self.push(TokenKind::Int, start);
        }
    }

    /// An identifier or keyword, unless it is the `r`/`b`/`br` prefix of a string literal.
    fn word_or_prefixed_string(&mut self, start: usize) {
        let first = self.peek(0).unwrap_or(0);
        let second = self.peek(1);
        let is_quote = |b: Option<u8>| matches!(b, Some(b'"' | b'\''));
        match (first, second) {
            (b'r' | b'R', _) if is_quote(second) => {
                return self.string(start, TokenKind::String, 1);
            }
            (b'b' | b'B', _) if is_quote(second) => return self.string(start, TokenKind::Bytes, 1),
            (b'b' | b'B', Some(b'r' | b'R')) if is_quote(self.peek(2)) => {
                return self.string(start, TokenKind::Bytes, 2);
            }
            _ => {}
        }
        self.skip_while(|b| b == b'_' || b.is_ascii_alphanumeric());
        let word = self.src.get(start..self.pos).unwrap_or("");
        self.push(TokenKind::of_word(word), start);
    }

    /// A string or bytes literal starting at `start` with a prefix of `prefix` bytes. The lexer
    /// only finds the end; `unescape` decodes and validates the content.
    fn string(&mut self, start: usize, kind: TokenKind, prefix: usize) {
        self.pos = start + prefix;
        let quote = self.peek(0).unwrap_or(b'"');
        let triple = self.peek(1) == Some(quote) && self.peek(2) == Some(quote);
        let raw = self
            .src
            .get(start..start + prefix)
            .is_some_and(|p| p.contains(['r', 'R']));
        self.pos += if triple { 3 } else { 1 };
        let closed = if triple {
            self.scan_triple(quote, raw)
        } else {
            self.scan_single(quote, raw)
        };
        if !closed {
            self.error(
                start,
                self.pos,
                "Syntax error: unterminated string literal".to_string(),
            );
        }
        self.push(kind, start);
    }

    fn scan_single(&mut self, quote: u8, raw: bool) -> bool {
        while let Some(byte) = self.peek(0) {
            match byte {
                b'\n' | b'\r' => return false,
                b'\\' if !raw => {
                    // An escaped line break is not allowed: leave it to end the literal.
                    let escapes_next = self.peek(1).is_some_and(|b| b != b'\n' && b != b'\r');
                    self.pos += 1 + usize::from(escapes_next);
                }
                _ if byte == quote => {
                    self.pos += 1;
                    return true;
                }
                _ => self.pos += 1,
            }
        }
        false
    }

    fn scan_triple(&mut self, quote: u8, raw: bool) -> bool {
        while let Some(byte) = self.peek(0) {
            if byte == quote && self.peek(1) == Some(quote) && self.peek(2) == Some(quote) {
                self.pos += 3;
                return true;
            }
            let escaped = byte == b'\\' && !raw && self.peek(1).is_some();
            self.pos += if escaped { 2 } else { 1 };
        }
        false
    }

    /// A backtick identifier: letters, digits and `_ . - /` and space, closed on the same line.
    fn escaped_ident(&mut self, start: usize) {
        self.pos += 1;
        let valid =
            |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'/' | b' ');
        self.skip_while(valid);
        if self.peek(0) == Some(b'`') && self.pos > start + 1 {
            self.pos += 1;
            return self.push(TokenKind::EscIdent, start);
        }
        // Report the run up to the offending character, then skip to the closing backtick (or the
        // line end) so one bad identifier gives one error.
        let shown_end = self.next_char_end(self.pos);
        let shown =
            crate::cel::parser::error_display(self.src.get(start..shown_end).unwrap_or("`"));
        self.error(
            start,
            shown_end,
            format!("Syntax error: token recognition error at: '{shown}'"),
        );
        self.skip_while(|b| b != b'`' && b != b'\n');
        if self.peek(0) == Some(b'`') {
            self.pos += 1;
        }
    }

    fn next_char_end(&self, at: usize) -> usize {
        let len = self
            .src
            .get(at..)
            .and_then(|rest| rest.chars().next())
            .map_or(0, char::len_utf8);
        at + len
    }

    fn operator(&mut self, start: usize) {
        let two = match (self.peek(0), self.peek(1)) {
            (Some(b'='), Some(b'=')) => Some(TokenKind::EqEq),
            (Some(b'!'), Some(b'=')) => Some(TokenKind::NotEq),
            (Some(b'<'), Some(b'=')) => Some(TokenKind::LessEq),
            (Some(b'>'), Some(b'=')) => Some(TokenKind::GreaterEq),
            (Some(b'&'), Some(b'&')) => Some(TokenKind::AndAnd),
            (Some(b'|'), Some(b'|')) => Some(TokenKind::OrOr),
            _ => None,
        };
        if let Some(kind) = two {
            self.pos += 2;
            return self.push(kind, start);
        }
        match single_char_operator(self.peek(0).unwrap_or(0)) {
            Some(kind) => {
                self.pos += 1;
                self.push(kind, start);
            }
            None => self.unknown_char(start),
        }
    }

    fn unknown_char(&mut self, start: usize) {
        self.pos = self.next_char_end(start).max(start + 1);
        // A lone `&` or `|` is the start of `&&` or `||`: ANTLR's lexer has read the next
        // character too when it gives up, and shows it (though it resumes right after the `&`).
        let shown_end = match self.bytes.get(start).copied() {
            Some(b'&' | b'|') if self.pos < self.src.len() => self.next_char_end(self.pos),
            _ => self.pos,
        };
        let shown = self.src.get(start..shown_end).unwrap_or("?");
        let shown = crate::cel::parser::error_display(shown);
        self.error(
            start,
            self.pos,
            format!("Syntax error: token recognition error at: '{shown}'"),
        );
    }
}

fn single_char_operator(byte: u8) -> Option<TokenKind> {
    use TokenKind::*;
    Some(match byte {
        b'<' => Less,
        b'>' => Greater,
        b'!' => Bang,
        b'-' => Minus,
        b'+' => Plus,
        b'*' => Star,
        b'/' => Slash,
        b'%' => Percent,
        b'?' => Question,
        b':' => Colon,
        b'.' => Dot,
        b',' => Comma,
        b'(' => LParen,
        b')' => RParen,
        b'[' => LBracket,
        b']' => RBracket,
        b'{' => LBrace,
        b'}' => RBrace,
        _ => return None,
    })
}

fn range(start: usize, end: usize) -> TextRange {
    TextRange::new(to_size(start), to_size(end.max(start)))
}
