//! Audit annotations as the validating dispatcher publishes them
//! (`k8s.io/apiserver pkg/admission/plugin/policy/validating/dispatcher.go`): a policy's own
//! annotations under `<policy>/<key>`, values cut to 10 KiB, the same value from several
//! invocations kept once and distinct values joined with `", "` (`auditAnnotationCollector`); and
//! the `Audit` action's failures as one JSON list under
//! `validation.policy.admission.k8s.io/validation_failure` (`publishValidationFailureAnnotations`),
//! in the field order of `ValidationFailureValue` and with Go's `encoding/json` escaping.

use std::collections::BTreeMap;

use crate::policy::report::quoted;

/// The published key of validation failures recorded for `Audit`.
pub const FAILURE_KEY: &str = "validation.policy.admission.k8s.io/validation_failure";
/// The longest published audit annotation value (`maxAuditAnnotationValueLength`); longer values
/// are cut.
const MAX_ANNOTATION: usize = 10 * 1024;

/// One failure recorded by the `Audit` action (`ValidationFailureValue`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FailureValue {
    pub message: String,
    pub policy: String,
    pub binding: String,
    pub expression_index: usize,
    pub validation_actions: Vec<String>,
}

/// What one evaluation collected for the audit log.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Collector {
    values: BTreeMap<String, Vec<String>>,
    failures: Vec<FailureValue>,
}

impl Collector {
    /// Adds a value of the policy's annotation `key`; returns the published (key, value).
    pub fn add(&mut self, policy: &str, key: &str, mut value: String) -> (String, String) {
        truncate(&mut value, MAX_ANNOTATION);
        let values = self.values.entry(key.to_string()).or_default();
        if !values.contains(&value) {
            values.push(value);
        }
        (format!("{policy}/{key}"), values.join(", "))
    }

    /// Records a failure; returns the published (key, value) of the whole list.
    pub fn fail(&mut self, failure: FailureValue) -> (String, String) {
        self.failures.push(failure);
        let items: Vec<String> = self.failures.iter().map(failure_json).collect();
        (FAILURE_KEY.to_string(), format!("[{}]", items.join(",")))
    }
}

fn failure_json(f: &FailureValue) -> String {
    let actions: Vec<String> = f.validation_actions.iter().map(|a| go_string(a)).collect();
    format!(
        "{{\"message\":{},\"policy\":{},\"binding\":{},\"expressionIndex\":{},\"validationActions\":[{}]}}",
        go_string(&f.message),
        go_string(&f.policy),
        go_string(&f.binding),
        f.expression_index,
        actions.join(",")
    )
}

/// A JSON string as Go's `encoding/json` writes it: HTML-safe (`<`, `>`, `&` escaped), U+2028 and
/// U+2029 escaped, control characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00xx`.
pub(crate) fn go_string(text: &str) -> String {
    quoted(text, |c| match c {
        '\u{8}' => Some("\\b".into()),
        '\u{c}' => Some("\\f".into()),
        c if (c as u32) < 0x20 || matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}') => {
            Some(format!("\\u{:04x}", c as u32))
        }
        _ => None,
    })
}

/// Cuts `text` to at most `max` bytes, at a character boundary.
fn truncate(text: &mut String, max: usize) {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_as_go_escapes_them() {
        assert_eq!(
            go_string("a<b> & \"c\"\n\u{1}\u{2028}é"),
            r#""a\u003cb\u003e \u0026 \"c\"\n\u0001\u2028é""#
        );
    }

    #[test]
    fn the_same_value_is_published_once_and_distinct_values_are_joined() {
        let mut c = Collector::default();
        c.add("p", "k", "a, b".into());
        c.add("p", "k", "a, b".into());
        assert_eq!(
            c.add("p", "k", "c".into()),
            ("p/k".into(), "a, b, c".into())
        );
    }
}
