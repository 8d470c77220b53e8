//! Label selectors, validated strictly (apimachinery `ValidateLabelSelector`): label keys are
//! qualified names, label values valid label values, operators one of the four.

use super::{items, str_of, text_range};
use crate::policy::model::*;
use crate::policy::names;
use crate::policy::report::Report;

/// Validates a selector at `path`.
pub(super) fn selector(selector: &Selector, path: &str, report: &mut Report) {
    if let Some(labels) = &selector.match_labels {
        let labels_path = format!("{path}.matchLabels");
        for (key, value) in &labels.value.entries {
            label_key(key, &labels_path, report);
            for message in names::label_value(&value.value) {
                report.invalid(
                    value_range(value, key),
                    &labels_path,
                    &value.value,
                    &message,
                );
            }
        }
    }
    for (i, requirement) in items(&selector.match_expressions).iter().enumerate() {
        self::requirement(
            requirement,
            &format!("{path}.matchExpressions[{i}]"),
            report,
        );
    }
}

/// A label map (`ValidateLabels`): keys are qualified names, values label values; both reported at
/// the map's path, as the API server does.
pub(super) fn labels(map: &StringMap, path: &str, report: &mut Report) {
    for (key, value) in &map.entries {
        label_key(key, path, report);
        for message in names::label_value(&value.value) {
            report.invalid(value_range(value, key), path, &value.value, &message);
        }
    }
}

/// An empty value (`key:` with nothing after it) is reported at its key.
fn value_range(value: &Text, key: &Text) -> crate::text::TextRange {
    if value.range.is_empty() {
        key.range
    } else {
        value.range
    }
}

fn label_key(key: &Text, path: &str, report: &mut Report) {
    for message in names::qualified_name(&key.value) {
        report.invalid(key.range, path, &key.value, &message);
    }
}

fn requirement(requirement: &Requirement, path: &str, report: &mut Report) {
    let anchor = requirement.place.anchor;
    let values = items(&requirement.values);
    let values_path = format!("{path}.values");
    let operator = str_of(&requirement.operator);
    match operator {
        "In" | "NotIn" if values.is_empty() => {
            let range = requirement
                .values
                .as_ref()
                .map_or(anchor, |v| v.report_range());
            report.required(
                range,
                &values_path,
                "must be specified when `operator` is 'In' or 'NotIn'",
            );
        }
        "Exists" | "DoesNotExist" if !values.is_empty() => {
            let range = requirement
                .values
                .as_ref()
                .map_or(anchor, |v| v.report_range());
            report.forbidden(
                range,
                &values_path,
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            );
        }
        "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
        _ => {
            let range = text_range(&requirement.operator, anchor);
            report.invalid(
                range,
                &format!("{path}.operator"),
                operator,
                "not a valid selector operator",
            );
        }
    }
    let key_path = format!("{path}.key");
    let key = str_of(&requirement.key);
    for message in names::qualified_name(key) {
        report.invalid(
            text_range(&requirement.key, anchor),
            &key_path,
            key,
            &message,
        );
    }
    for (i, value) in values.iter().enumerate() {
        for message in names::label_value(&value.value) {
            report.invalid(
                value.range,
                &format!("{values_path}[{i}]"),
                &value.value,
                &message,
            );
        }
    }
}
