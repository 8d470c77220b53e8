//! RE2 regular expressions as Go's `regexp` reads and runs them, for `matches`, `find` and
//! `findAll` and for the checker's validation of literal patterns (cel-go `ValidateRegexLiterals`).
//!
//! Go's syntax and the `regex` crate's differ (Go's `\w \d \s \b` are ASCII, `\s` has no `\v`,
//! octal escapes, `\Q…\E`, `(?P<1>…)`, a repeat limit of 1000, its own error texts), so the
//! pattern is parsed here as Go's `regexp/syntax/parse.go` parses it (`parse`), refused with Go's
//! message where Go refuses it, and written out (`emit`) in the `regex` crate's syntax with every
//! character and class spelled explicitly, so the crate runs the same language.
//!
//! Unicode class names are Go 1.24's (`unicode.Categories`, `unicode.Scripts`, `Any`, exact
//! spelling). Go's limits are Go's: counts up to 1000 (also multiplied through nesting), a tree
//! at most 1000 deep, 128 MB of instructions (`maxSize`). The size and depth are estimated as Go
//! estimates them but on the tree before Go's factoring of common prefixes, so a pattern within a
//! few instructions or levels of a limit may be judged differently; and a pattern whose
//! translation nests more than 250 groups (see `NEST_LIMIT`), or whose large Unicode classes
//! repeat thousands of times (see `SIZE_LIMIT`), is refused where Go accepts it.

mod emit;
mod names;
mod parse;

#[cfg(test)]
mod tests;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

pub use parse::Error;

/// A pattern compiled with Go's semantics.
pub type Regex = regex::Regex;

/// Compiled patterns kept per thread: policies evaluate the same literal patterns again and
/// again, and compiling dominates a `matches` call.
const CACHE_LIMIT: usize = 64;

/// Checked patterns kept per thread (a pattern and a short answer each).
const CHECK_CACHE_LIMIT: usize = 1024;

/// Longer patterns are checked each time rather than kept (a hostile file's could be megabytes).
const CHECK_CACHE_PATTERN_LIMIT: usize = 1024;

/// The `regex` crate's compiled-size budget, Go's own 128 MB. Go counts a Unicode class as one
/// instruction where the crate compiles it to its UTF-8 byte sequences, so a pattern with several
/// thousand repetitions of a large class (`\pL{1000}` four times) is refused here, "expression too
/// large", though Go accepts it; the budget also bounds the time a hostile pattern can take to
/// compile (about a second).
const SIZE_LIMIT: usize = 1 << 27;

/// Nesting the `regex` crate allows (its default, which keeps its recursive compiler within a
/// small stack). The translation nests only where an alternation sits inside a sequence or a
/// repetition inside a repetition, so only contrived patterns reach it; Go allows a tree 1000
/// deep, so such a pattern is refused here where Go would accept it.
const NEST_LIMIT: u32 = 250;

thread_local! {
    static CACHE: RefCell<HashMap<String, Arc<Regex>>> = RefCell::new(HashMap::new());
    /// The checker's answers for literal patterns, per thread like `CACHE`: the checker validates
    /// every literal `matches`/`find` pattern, and the policies of a file repeat the same few.
    static CHECKED: RefCell<HashMap<String, Result<(), Error>>> = RefCell::new(HashMap::new());
}

/// Checks `pattern` as Go's `regexp.Compile` does, with Go's error text.
pub fn check(pattern: &str) -> Result<(), Error> {
    if let Some(known) = CHECKED.with(|c| c.borrow().get(pattern).cloned()) {
        return known;
    }
    let answer = parse::parse(pattern).map(|_| ());
    if pattern.len() > CHECK_CACHE_PATTERN_LIMIT {
        return answer;
    }
    CHECKED.with(|c| {
        let mut checked = c.borrow_mut();
        if checked.len() >= CHECK_CACHE_LIMIT {
            checked.clear();
        }
        checked.insert(pattern.to_string(), answer.clone());
    });
    answer
}

/// Compiles `pattern` as Go's `regexp.Compile` would (shared, not cloned: a cloned `Regex` starts
/// with an empty search-cache pool).
pub fn compile(pattern: &str) -> Result<Arc<Regex>, Error> {
    if let Some(hit) = CACHE.with(|c| c.borrow().get(pattern).cloned()) {
        return Ok(hit);
    }
    let tree = parse::parse(pattern)?;
    let translated = emit::emit(&tree);
    let compiled = regex::RegexBuilder::new(&translated)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .nest_limit(NEST_LIMIT)
        .build()
        .map(Arc::new)
        // Only reachable where the crate's budgets are smaller than Go's for this pattern.
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => Error::too_large(pattern),
            _ => Error::too_deep(pattern),
        })?;
    CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(pattern.to_string(), compiled.clone());
    });
    Ok(compiled)
}

/// Compiles `pattern` as `compile` does, keeping its capturing groups (numbered as Go numbers
/// them) for the functions that read submatches; not cached, as only cel-go's regex extension
/// asks for it.
pub fn compile_with_captures(pattern: &str) -> Result<Regex, Error> {
    let tree = parse::parse(pattern)?;
    regex::RegexBuilder::new(&emit::emit_with_captures(&tree))
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .nest_limit(NEST_LIMIT)
        .build()
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => Error::too_large(pattern),
            _ => Error::too_deep(pattern),
        })
}

/// Go's `FindAllString(s, n)`: non-overlapping matches left to right, where an empty match right
/// after the previous match is skipped (`regexp.go` `allMatches`); `None` means all of them.
pub fn find_all<'s>(re: &Regex, s: &'s str, limit: Option<usize>) -> Vec<&'s str> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut previous_end: Option<usize> = None;
    while at <= s.len() && limit.is_none_or(|n| out.len() < n) {
        let Some(found) = re.find_at(s, at) else {
            break;
        };
        let empty = found.start() == found.end();
        if !(empty && previous_end == Some(found.start())) {
            out.push(found.as_str());
            previous_end = Some(found.end());
        }
        at = if empty {
            // Step over one character, as Go advances by the width of the rune.
            found.end() + s[found.end()..].chars().next().map_or(1, char::len_utf8)
        } else {
            found.end()
        };
    }
    out
}
