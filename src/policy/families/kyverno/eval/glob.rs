//! The glob patterns of `matchImageReferences[].glob`, as github.com/gobwas/glob compiles them
//! without separators (kyverno/kyverno `pkg/cel/compiler/compiler.go`
//! `CompileMatchImageReference`: `glob.Compile(match.Glob)`): `*` and `**` match any text,
//! `?` one character, `[abc]`, `[a-z]` and `[!abc]` one of (or none of) a set, `{a,b}` either
//! alternative, `\` escapes the next character. Matching is bounded by a step budget.

/// One element of a compiled pattern.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Literal(char),
    Any,
    One,
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
    Alternatives(Vec<Vec<Token>>),
}

/// A compiled pattern.
#[derive(Clone, Debug)]
pub struct Glob(Vec<Token>);

/// The most matching steps one test may take.
const STEPS: usize = 100_000;

impl Glob {
    /// The pattern compiled, or gobwas's error for an unclosed class or alternative.
    pub fn compile(pattern: &str) -> Result<Glob, String> {
        let chars: Vec<char> = pattern.chars().collect();
        let mut at = 0;
        let tokens = parse(&chars, &mut at, false)?;
        Ok(Glob(tokens))
    }

    /// Whether `text` matches the whole pattern.
    pub fn matches(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        let mut steps = 0;
        match_from(&self.0, &chars, &mut steps)
    }
}

fn parse(chars: &[char], at: &mut usize, in_alternative: bool) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    while let Some(&c) = chars.get(*at) {
        if in_alternative && (c == ',' || c == '}') {
            return Ok(tokens);
        }
        *at += 1;
        tokens.push(match c {
            '*' => {
                while chars.get(*at) == Some(&'*') {
                    *at += 1;
                }
                Token::Any
            }
            '?' => Token::One,
            '\\' => {
                let escaped = chars.get(*at).copied().ok_or("unexpected end of input")?;
                *at += 1;
                Token::Literal(escaped)
            }
            '[' => class(chars, at)?,
            '{' => alternatives(chars, at)?,
            other => Token::Literal(other),
        });
    }
    if in_alternative {
        return Err("unexpected end of input".to_string());
    }
    Ok(tokens)
}

fn class(chars: &[char], at: &mut usize) -> Result<Token, String> {
    let negated = chars.get(*at) == Some(&'!');
    if negated {
        *at += 1;
    }
    let mut ranges = Vec::new();
    loop {
        let c = chars.get(*at).copied().ok_or("unexpected end of input")?;
        *at += 1;
        if c == ']' {
            return Ok(Token::Class { negated, ranges });
        }
        if chars.get(*at) == Some(&'-') && chars.get(*at + 1).is_some_and(|e| *e != ']') {
            let end = chars[*at + 1];
            *at += 2;
            ranges.push((c, end));
        } else {
            ranges.push((c, c));
        }
    }
}

fn alternatives(chars: &[char], at: &mut usize) -> Result<Token, String> {
    let mut options = Vec::new();
    loop {
        options.push(parse(chars, at, true)?);
        let c = chars.get(*at).copied().ok_or("unexpected end of input")?;
        *at += 1;
        if c == '}' {
            return Ok(Token::Alternatives(options));
        }
    }
}

fn match_from(tokens: &[Token], text: &[char], steps: &mut usize) -> bool {
    *steps += 1;
    if *steps > STEPS {
        return false;
    }
    let Some((first, rest)) = tokens.split_first() else {
        return text.is_empty();
    };
    match first {
        Token::Any => (0..=text.len()).any(|skip| match_from(rest, &text[skip..], steps)),
        Token::Alternatives(options) => options.iter().any(|option| {
            let joined: Vec<Token> = option.iter().chain(rest).cloned().collect();
            match_from(&joined, text, steps)
        }),
        single => match text.split_first() {
            Some((c, after)) if matches_one(single, *c) => match_from(rest, after, steps),
            _ => false,
        },
    }
}

fn matches_one(token: &Token, c: char) -> bool {
    match token {
        Token::Literal(l) => *l == c,
        Token::One => true,
        Token::Class { negated, ranges } => {
            ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c)) != *negated
        }
        Token::Any | Token::Alternatives(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, text: &str) -> bool {
        Glob::compile(pattern).is_ok_and(|g| g.matches(text))
    }

    #[test]
    fn patterns_match_as_gobwas_glob_does_without_separators() {
        assert!(matches(
            "ghcr.io/*",
            "ghcr.io/kyverno/test-verify-image:signed"
        ));
        assert!(matches(
            "ghcr.io/kyverno/test-verify-image*",
            "ghcr.io/kyverno/test-verify-image:v1"
        ));
        assert!(!matches("ghcr.io/*", "docker.io/nginx"));
        assert!(matches("*.io/{kyverno,corp}/*", "ghcr.io/corp/app"));
        assert!(matches("app:v[0-9]", "app:v7"));
        assert!(!matches("app:v[!0-9]", "app:v7"));
        assert!(matches("a?c", "abc"));
        assert!(matches(r"a\*c", "a*c"));
        assert!(!matches(r"a\*c", "abc"));
        assert!(Glob::compile("[abc").is_err());
        assert!(Glob::compile("{a,b").is_err());
        // A pathological pattern ends within the step budget.
        assert!(!matches(&"*a".repeat(30), &"a".repeat(29)));
    }
}
