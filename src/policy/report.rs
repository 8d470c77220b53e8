//! Field errors in the API server's wording (apimachinery `field.Error`):
//! `<path>: <Type>[: <value>][: <detail>]`, collected as diagnostics at file ranges.

use super::{Code, Diagnostic};
use crate::text::TextRange;

/// Collects the diagnostics of one document.
pub(crate) struct Report<'a> {
    diagnostics: &'a mut Vec<Diagnostic>,
}

impl<'a> Report<'a> {
    /// Reports into `diagnostics`.
    pub(crate) fn new(diagnostics: &'a mut Vec<Diagnostic>) -> Report<'a> {
        Report { diagnostics }
    }

    fn push(&mut self, code: Code, range: TextRange, message: String) {
        self.diagnostics.push(Diagnostic::new(code, range, message));
    }

    /// `Required value`, with an optional detail.
    pub(crate) fn required(&mut self, range: TextRange, path: &str, detail: &str) {
        self.push(
            Code::Required,
            range,
            with_detail(format!("{path}: Required value"), detail),
        );
    }

    /// `Unsupported value`, listing the supported values in the order given.
    pub(crate) fn not_supported(
        &mut self,
        range: TextRange,
        path: &str,
        value: &str,
        supported: &[&str],
    ) {
        let list: Vec<String> = supported.iter().map(|s| quote(s)).collect();
        let message = format!(
            "{path}: Unsupported value: {}: supported values: {}",
            quote(value),
            list.join(", ")
        );
        self.push(Code::NotSupported, range, message);
    }

    /// `Invalid value` with a string value.
    pub(crate) fn invalid(&mut self, range: TextRange, path: &str, value: &str, detail: &str) {
        self.invalid_shown(range, path, &quote(value), detail);
    }

    /// `Invalid value` with a value already rendered (a JSON list, a placeholder…).
    pub(crate) fn invalid_shown(
        &mut self,
        range: TextRange,
        path: &str,
        shown: &str,
        detail: &str,
    ) {
        self.push(
            Code::Invalid,
            range,
            with_detail(format!("{path}: Invalid value: {shown}"), detail),
        );
    }

    /// `Duplicate value`, with an optional detail saying why the value must be unique.
    pub(crate) fn duplicate(&mut self, range: TextRange, path: &str, value: &str, detail: &str) {
        let message = with_detail(format!("{path}: Duplicate value: {}", quote(value)), detail);
        self.push(Code::Duplicate, range, message);
    }

    /// `Forbidden`.
    pub(crate) fn forbidden(&mut self, range: TextRange, path: &str, detail: &str) {
        self.push(
            Code::Forbidden,
            range,
            with_detail(format!("{path}: Forbidden"), detail),
        );
    }

    /// `Too many`.
    pub(crate) fn too_many(&mut self, range: TextRange, path: &str, actual: usize, max: usize) {
        let message = format!("{path}: Too many: {actual}: must have at most {max} items");
        self.push(Code::TooMany, range, message);
    }

    /// A warning of something the API server accepts, already worded.
    pub(crate) fn advice(&mut self, code: Code, range: TextRange, message: String) {
        self.diagnostics
            .push(Diagnostic::new(code, range, message).advice());
    }

    /// Any other diagnostic, already worded.
    pub(crate) fn other(&mut self, code: Code, range: TextRange, message: String) {
        self.push(code, range, message);
    }
}

fn with_detail(head: String, detail: &str) -> String {
    if detail.is_empty() {
        head
    } else {
        format!("{head}: {detail}")
    }
}

/// A string quoted the way Go's `%q` quotes it (printable Unicode kept, controls escaped).
pub(crate) fn quote(value: &str) -> String {
    quoted(value, |c| {
        ((c as u32) < 0x20 || c == '\u{7f}').then(|| format!("\\x{:02x}", c as u32))
    })
}

/// `value` in double quotes with `"`, `\\`, newline, return and tab escaped as Go escapes them in
/// both `%q` and JSON; `other` escapes the characters that differ between the two.
pub(crate) fn quoted(value: &str, other: impl Fn(char) -> Option<String>) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => match other(c) {
                Some(escaped) => out.push_str(&escaped),
                None => out.push(c),
            },
        }
    }
    out.push('"');
    out
}

/// A list of strings as JSON, the way the API server shows a list value.
pub(crate) fn json_list<S: AsRef<str>>(values: &[S]) -> String {
    let items: Vec<String> = values.iter().map(|v| quote(v.as_ref())).collect();
    format!("[{}]", items.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_follows_go() {
        assert_eq!(quote("a\"b\\c\nd"), r#""a\"b\\c\nd""#);
        assert_eq!(json_list(&["Deny", "Warn"]), r#"["Deny","Warn"]"#);
    }
}
