//! Structural validation of the model, rule for rule as the API server validates after defaulting
//! (`k/k pkg/apis/admissionregistration/validation/validation.go`). Messages carry the
//! field path and the API server's wording.

mod binding;
pub(crate) mod common;
mod map;
pub(crate) mod match_resources;
mod selector;
mod vap;

use crate::policy::allowed::FAILURE_POLICIES;
use crate::policy::model::*;
use crate::policy::model_kinds::*;
use crate::policy::report::Report;
use crate::text::TextRange;

/// Validates one document.
pub(crate) fn validate(document: &PolicyDocument, report: &mut Report) {
    common::metadata(document.header(), report);
    match document {
        PolicyDocument::ValidatingPolicy(header, spec) => {
            vap::validate(header, &spec.value, report)
        }
        PolicyDocument::ValidatingBinding(header, spec) => {
            binding::validate(header, &spec.value, false, report)
        }
        PolicyDocument::MutatingPolicy(header, spec) => map::validate(header, &spec.value, report),
        PolicyDocument::MutatingBinding(header, spec) => {
            binding::validate(header, &spec.value, true, report)
        }
    }
}

/// The items of an optional list (none when absent).
pub(crate) fn items<T>(list: &Opt<List<T>>) -> &[T] {
    list.as_ref().map_or(&[], |f| f.value.items.as_slice())
}

/// The string of an optional text (empty when absent, as a Go zero value).
pub(crate) fn str_of(text: &Opt<Text>) -> &str {
    text.as_ref().map_or("", |f| f.value.value.as_str())
}

/// Where to report that a list is empty or missing: the list, its key, or the parent's anchor.
pub(crate) fn list_range<T>(list: &Opt<List<T>>, anchor: TextRange) -> TextRange {
    list.as_ref().map_or(anchor, |f| f.report_range())
}

/// Where to report a text field's problem, or the anchor when the field is absent.
pub(crate) fn text_range(text: &Opt<Text>, anchor: TextRange) -> TextRange {
    text.as_ref().map_or(anchor, |f| f.report_range())
}

/// The values of a list of strings, for messages that show the whole list.
pub(crate) fn values(list: &[Text]) -> Vec<&str> {
    list.iter().map(|t| t.value.as_str()).collect()
}

/// `failurePolicy`: defaulted to `Fail`, so only a written value can be wrong.
fn failure_policy(text: &Opt<Text>, report: &mut Report) {
    if let Some(field) = text {
        let value = field.value.value.as_str();
        if !FAILURE_POLICIES.contains(&value) {
            report.not_supported(
                field.report_range(),
                "spec.failurePolicy",
                value,
                FAILURE_POLICIES,
            );
        }
    }
}
