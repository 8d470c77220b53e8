//! Property-name escaping as the API server does it for schema-typed CEL: names
//! that are not CEL identifiers are exposed as escaped identifiers (`x-prop` → `x__dash__prop`),
//! reserved words become `__word__`, and names that cannot be escaped are not exposed at all.

/// Whether `name` is a word CEL reserves; a property named exactly so is exposed as `__word__`.
pub fn is_reserved(name: &str) -> bool {
    crate::cel::token::is_keyword_or_reserved(name)
}

/// The CEL identifier under which property `name` is exposed, or `None` when it cannot be
/// (empty, starting with a digit, or containing a character outside `[a-zA-Z0-9_.\-/]`).
pub fn escape(name: &str) -> Option<String> {
    let first = name.chars().next()?;
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/');
    if first.is_ascii_digit() || !name.chars().all(allowed) {
        return None;
    }
    if is_reserved(name) {
        return Some(format!("__{name}__"));
    }
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    // `__` is escaped first, as a unit, so `a__b` and `a_.b` stay distinct after escaping.
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("__") {
            out.push_str("__underscores__");
            rest = &rest[2..];
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            other => out.push(other),
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_like_the_api_server() {
        let cases = [
            ("replicas", Some("replicas")),
            ("namespace", Some("__namespace__")),
            ("x-prop", Some("x__dash__prop")),
            ("redact__d", Some("redact__underscores__d")),
            ("a.b/c", Some("a__dot__b__slash__c")),
            ("___x", Some("__underscores___x")),
            ("1abc", None),
            ("a b", None),
            ("", None),
            ("_x", Some("_x")),
        ];
        for (name, expected) in cases {
            assert_eq!(escape(name).as_deref(), expected, "{name}");
        }
    }
}
