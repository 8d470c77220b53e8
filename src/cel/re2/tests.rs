//! Go's `regexp` semantics as data: what `FindString` returns for a pattern and an input, what
//! `FindAllString` returns, and the error `regexp.Compile` gives. Each expected value is derived
//! from Go's documented syntax (`regexp/syntax/doc.go`) and its parser (`regexp/syntax/parse.go`,
//! `perl_groups.go`), as the comments say.

use super::{check, compile, find_all};

/// (pattern, input, Go's `FindString` result; `None`: no match).
const FIND: &[(&str, &str, Option<&str>)] = &[
    // doc.go: `\w` is `[0-9A-Za-z_]`, `\d` is `[0-9]`, `\s` is `[\t\n\f\r ]`: ASCII only.
    (r"^\w$", "é", None),
    (r"^\w$", "a", Some("a")),
    (r"^\d$", "٣", None),
    (r"^\s$", "\u{a0}", None),
    (r"^\s$", "\u{b}", None),
    (r"^\s$", "\u{c}", Some("\u{c}")),
    (r"^\W$", "é", Some("é")),
    (r"[\w]{0,127}", "abc", Some("abc")),
    (r"^[\w-]{1,63}$", "my-name_1", Some("my-name_1")),
    // doc.go: `\b` is an ASCII word boundary: `é` is not a word character.
    (r"\bé", "é", None),
    (r"a\b", "aé", Some("a")),
    (r"\B", "é", Some("")),
    // `\pN`, `\p{Greek}`, `\PL`, `\p{^Greek}`: Unicode classes.
    (r"\pN+", "x٣4", Some("٣4")),
    (r"\p{Greek}+", "abγδ", Some("γδ")),
    (r"\PL+", "ab12", Some("12")),
    (r"\p{^Greek}+", "γab", Some("ab")),
    (r"\pC", "a\u{378}", None),
    (r"\pC", "a\u{7f}", Some("\u{7f}")),
    (r"\p{Cs}", "a", None),
    (r"\P{Cs}", "a", Some("a")),
    (r"[\p{Lu}\d]+", "aB3c", Some("B3")),
    // Flags i, m, s, U (parse.go `parsePerlFlags`); `(?i)` folds as Unicode simple folding.
    (r"(?i)straße", "STRAßE", Some("STRAßE")),
    (r"(?i)k", "\u{212a}", Some("\u{212a}")),
    (r"(?i:a)b", "AB", None),
    (r"(?m)^b$", "a\nb\nc", Some("b")),
    (r"^b$", "a\nb\nc", None),
    (r"a.b", "a\nb", None),
    (r"(?s)a.b", "a\nb", Some("a\nb")),
    (r"(?U)a+", "aaa", Some("a")),
    (r"(?U)a+?", "aaa", Some("aaa")),
    (r"a(?i)b|c", "aB", Some("aB")),
    (r"a(?i)b|c", "C", Some("C")),
    (r"(?i)a(?-i)b", "Ab", Some("Ab")),
    (r"(?i)a(?-i)b", "AB", None),
    // `$` without `m` is the end of the text only, not before a final newline.
    (r"a$", "a\n", None),
    (r"\Aa\z", "a", Some("a")),
    // Escapes: octal, hex, `\Q…\E`, C escapes, escaped punctuation, `\_`.
    (r"\101\x42\x{43}", "ABC", Some("ABC")),
    (r"\0", "\0", Some("\0")),
    (r"\12", "\n", Some("\n")),
    (r"\Qa.b\E+", "a.bb", Some("a.bb")),
    (r"\Qa.b", "a.b", Some("a.b")),
    (
        r"\a\f\t\n\r\v",
        "\u{7}\u{c}\t\n\r\u{b}",
        Some("\u{7}\u{c}\t\n\r\u{b}"),
    ),
    (r"\_\-\#", "_-#", Some("_-#")),
    // Classes: `]` first is literal, `-` last is literal, POSIX names, negation matches `\n`.
    (r"[]a]+", "a]", Some("a]")),
    (r"[a-]+", "-a", Some("-a")),
    (r"[[:alpha:]]+", "ab1", Some("ab")),
    (r"[[:^alpha:]]+", "ab12", Some("12")),
    (r"[^a]", "\n", Some("\n")),
    (r"[[:word:]]+", "é_a", Some("_a")),
    (r"[[:space:]]", "\u{b}", Some("\u{b}")),
    // A `{` that does not start a valid count is a literal (parse.go `parseRepeat`).
    (r"a{,2}", "a{,2}", Some("a{,2}")),
    (r"a{01}", "a{01}", Some("a{01}")),
    (r"{", "{", Some("{")),
    (r"a{2}", "aaa", Some("aa")),
    (r"a{2,}?", "aaa", Some("aa")),
    // Repetition of an empty-width assertion is allowed.
    (r"^*a", "a", Some("a")),
    // Named captures in all the forms Go accepts; `(?)` is an empty flag group.
    (r"(?P<x>a)(?<y>b)(?P<1>c)", "abc", Some("abc")),
    (r"(?)a", "a", Some("a")),
    // Leftmost-first alternation, as Perl (not POSIX leftmost-longest).
    (r"a|ab", "ab", Some("a")),
    (r"(a|ab)(c|bcd)", "abcd", Some("abcd")),
];

/// (pattern, input, Go's `FindAllString(s, -1)` result).
const FIND_ALL: &[(&str, &str, &[&str])] = &[
    // regexp.go `allMatches`: an empty match right after a match is skipped.
    ("a*", "baaab", &["", "aaa", ""]),
    (r"\b", "a b", &["", "", "", ""]),
    ("", "é", &["", ""]),
    (r"\w+", "héllo wörld", &["h", "llo", "w", "rld"]),
    ("a|", "ab", &["a", ""]),
];

/// (pattern, Go's `regexp.Compile` error).
const ERRORS: &[(&str, &str)] = &[
    // No lookaround, no backreferences, no atomic groups (parse.go `parsePerlFlags`).
    ("(?=a)", "invalid or unsupported Perl syntax: `(?=`"),
    ("(?!a)", "invalid or unsupported Perl syntax: `(?!`"),
    ("(?<=a)", "invalid named capture: `(?<=a)`"),
    ("(?<!a)b>", "invalid named capture: `(?<!a)b>`"),
    ("(?>a)", "invalid or unsupported Perl syntax: `(?>`"),
    ("(?P=x)", "invalid or unsupported Perl syntax: `(?P`"),
    (r"(a)\1", "invalid escape sequence: `\\1`"),
    ("(?x)a", "invalid or unsupported Perl syntax: `(?x`"),
    ("(?i-)a", "invalid or unsupported Perl syntax: `(?i-)`"),
    ("(?-)a", "invalid or unsupported Perl syntax: `(?-)`"),
    ("(?i", "invalid or unsupported Perl syntax: `(?i`"),
    ("(?P<>a)", "invalid named capture: `(?P<>`"),
    ("(?P<a-b>x)", "invalid named capture: `(?P<a-b>`"),
    // Repetition: Go's 1000 limit, also of nested counts; no doubled operators.
    ("a{1001}", "invalid repeat count: `{1001}`"),
    ("a{2,1}", "invalid repeat count: `{2,1}`"),
    ("a{100000000}", "invalid repeat count: `{100000000}`"),
    ("(a{1000}){2}", "invalid repeat count: `{2}`"),
    ("(?:a{10}){101}?", "invalid repeat count: `{101}?`"),
    ("a**", "invalid nested repetition operator: `**`"),
    ("a+?*", "invalid nested repetition operator: `+?*`"),
    ("a{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
    ("*a", "missing argument to repetition operator: `*`"),
    ("a|+", "missing argument to repetition operator: `+`"),
    ("(*)", "missing argument to repetition operator: `*`"),
    ("(??)", "invalid or unsupported Perl syntax: `(??`"),
    ("{2}", "missing argument to repetition operator: `{2}`"),
    // Escapes Go does not know.
    (r"\Z", "invalid escape sequence: `\\Z`"),
    (r"\e", "invalid escape sequence: `\\e`"),
    (r"\8", "invalid escape sequence: `\\8`"),
    (r"\C", "invalid escape sequence: `\\C`"),
    (r"\é", "invalid escape sequence: `\\é`"),
    (r"\x{110000}", "invalid escape sequence: `\\x{110000`"),
    (r"\xg1", "invalid escape sequence: `\\xg1`"),
    (r"\x{}", "invalid escape sequence: `\\x{}`"),
    (r"[\b]", "invalid escape sequence: `\\b`"),
    ("a\\", "trailing backslash at end of expression: ``"),
    // Unicode class names are Go's exactly.
    (
        r"\p{Letter}",
        "invalid character class range: `\\p{Letter}`",
    ),
    (r"\p{greek}", "invalid character class range: `\\p{greek}`"),
    (r"\pX", "invalid character class range: `\\pX`"),
    (r"\p{Greek", "invalid character class range: `\\p{Greek`"),
    // Classes and groups.
    ("[z-a]", "invalid character class range: `z-a`"),
    ("[[:foo:]]", "invalid character class range: `[:foo:]`"),
    ("[a", "missing closing ]: `[a`"),
    ("x[]", "missing closing ]: `[]`"),
    ("(a", "missing closing ): `(a`"),
    ("a)", "unexpected ): `a)`"),
    ("a)(", "unexpected ): `a)(`"),
];

fn go_find(pattern: &str, input: &str) -> Result<Option<String>, String> {
    let re = compile(pattern).map_err(|e| e.to_string())?;
    Ok(re.find(input).map(|m| m.as_str().to_string()))
}

#[test]
fn find_follows_go() {
    let wrong: Vec<String> = FIND
        .iter()
        .filter_map(|&(pattern, input, want)| {
            let got = go_find(pattern, input);
            (got != Ok(want.map(String::from)))
                .then(|| format!("{pattern:?} on {input:?}: {got:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn find_all_follows_go() {
    for &(pattern, input, want) in FIND_ALL {
        let re = compile(pattern).expect(pattern);
        assert_eq!(find_all(&re, input, None), want, "{pattern:?} on {input:?}");
    }
    let re = compile("[0-9]+").expect("digits");
    assert_eq!(find_all(&re, "1 2 3", Some(2)), ["1", "2"]);
    assert_eq!(find_all(&re, "1 2 3", Some(0)), Vec::<&str>::new());
}

#[test]
fn refusals_follow_go() {
    let wrong: Vec<String> = ERRORS
        .iter()
        .filter_map(|&(pattern, want)| {
            let want = format!("error parsing regexp: {want}");
            let got = check(pattern).map_err(|e| e.to_string());
            (got.as_ref().err() != Some(&want))
                .then(|| format!("{pattern:?}: {got:?}, want {want}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Go's limits (parse.go): nesting deeper than 1000 and more than `maxSize` instructions are
/// refused with the whole pattern quoted; up to the limits the pattern compiles (the `regex`
/// crate's budgets are set above Go's, so its own limits never refuse what Go accepts).
#[test]
fn limits_follow_go() {
    let deep = format!("{}a{}", "(".repeat(1001), ")".repeat(1001));
    let got = check(&deep).map_err(|e| e.code);
    assert_eq!(got, Err("expression nests too deeply"));
    let fine = format!("{}a{}", "(".repeat(999), ")".repeat(999));
    assert!(compile(&fine).is_ok());
    // Not exact: alternations nested in sequences 300 deep are within Go's limit, but beyond the
    // nesting the `regex` crate compiles safely (it counts about three levels for each).
    let alternations = |n: usize| format!("{}{}", "a(b|".repeat(n), ")".repeat(n));
    assert!(compile(&alternations(60)).is_ok());
    assert!(check(&alternations(300)).is_ok());
    let refused = compile(&alternations(300)).map(|_| ()).map_err(|e| e.code);
    assert_eq!(refused, Err("expression nests too deeply"));
    // Each `a{1000}` is 1000 instructions; Go's budget is 3,355,443.
    let large = "a{1000}".repeat(3400);
    assert_eq!(
        check(&large).map_err(|e| e.code),
        Err("expression too large")
    );
    assert!(check(&"a{1000}".repeat(3300)).is_ok());
    // Nested counts multiply: a counted repeat inside another is refused before the size.
    let nested = "(?:(?:a{1000})*){1000}";
    assert_eq!(
        check(nested).map_err(|e| e.code),
        Err("invalid repeat count")
    );
    assert!(compile(r"\pL{1000}").is_ok());
    // Not exact: Go counts `\pL` as one instruction, the `regex` crate as its UTF-8 sequences.
    let classes = r"\pL{1000}".repeat(4);
    assert!(check(&classes).is_ok());
    let refused = compile(&classes).map(|_| ()).map_err(|e| e.code);
    assert_eq!(refused, Err("expression too large"));
    assert!(compile(r"[\w]{0,127}").is_ok());
    assert!(compile(r".{1000}").is_ok());
}
