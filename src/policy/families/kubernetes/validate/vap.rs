//! ValidatingAdmissionPolicy rules.

use super::common;
use super::match_resources::match_resources;
use super::{failure_policy, items, list_range, str_of, text_range};
use crate::policy::model::*;
use crate::policy::model_kinds::*;
use crate::policy::names;
use crate::policy::report::Report;
use std::collections::BTreeSet;

use crate::policy::allowed::REASONS;
const MAX_AUDIT_ANNOTATIONS: usize = 20;
const MAX_VALUE_EXPRESSION_BYTES: usize = 5120;

/// Validates the spec of a ValidatingAdmissionPolicy.
pub(super) fn validate(header: &Header, spec: &ValidatingPolicySpec, report: &mut Report) {
    failure_policy(&spec.failure_policy, report);
    if let Some(param_kind) = &spec.param_kind {
        common::param_kind(param_kind, "spec.paramKind", report);
    }
    match_constraints(&spec.match_constraints, spec.place.anchor, report);
    common::match_conditions(&spec.match_conditions, "spec.matchConditions", report);
    common::variables(&spec.variables, report);
    let validations = items(&spec.validations);
    let annotations = items(&spec.audit_annotations);
    if validations.is_empty() && annotations.is_empty() {
        let detail = "validations or auditAnnotations must contain at least one item";
        report.required(
            list_range(&spec.validations, spec.place.anchor),
            "spec.validations",
            detail,
        );
        report.required(
            list_range(&spec.audit_annotations, spec.place.anchor),
            "spec.auditAnnotations",
            detail,
        );
        return;
    }
    for (i, v) in validations.iter().enumerate() {
        validation(v, &format!("spec.validations[{i}]"), report);
    }
    audit_annotations(header, &spec.audit_annotations, report);
}

/// `matchConstraints`: required, with at least one resource rule.
pub(super) fn match_constraints(
    field: &Opt<MatchResources>,
    anchor: crate::text::TextRange,
    report: &mut Report,
) {
    let Some(field) = field else {
        return report.required(anchor, "spec.matchConstraints", "");
    };
    match_resources(field, "spec.matchConstraints", report);
    let rules = &field.value.resource_rules;
    if items(rules).is_empty() {
        report.required(
            list_range(rules, field.value.place.anchor),
            "spec.matchConstraints.resourceRules",
            "",
        );
    }
}

fn validation(v: &Validation, path: &str, report: &mut Report) {
    let anchor = v.place.anchor;
    if str_of(&v.expression).trim().is_empty() {
        let range = text_range(&v.expression, anchor);
        report.required(
            range,
            &format!("{path}.expression"),
            "expression is not specified",
        );
    }
    if let Some(me) = &v.message_expression {
        let value = &me.value.value;
        if !value.is_empty() && value.trim().is_empty() {
            report.invalid(
                me.report_range(),
                &format!("{path}.messageExpression"),
                value,
                "must be non-empty if specified",
            );
        }
    }
    if let Some(message) = &v.message {
        let value = &message.value.value;
        let message_path = format!("{path}.message");
        if !value.is_empty() && value.trim().is_empty() {
            report.invalid(
                message.report_range(),
                &message_path,
                value,
                "message must be non-empty if specified",
            );
        } else if value.trim().contains(['\n', '\r']) {
            report.invalid(
                message.report_range(),
                &message_path,
                value,
                "message must not contain line breaks",
            );
        }
    }
    if let Some(reason) = &v.reason {
        let value = reason.value.value.as_str();
        // `Unauthorized` is in the API documentation but the API server rejects it.
        if !REASONS.contains(&value) {
            report.not_supported(
                reason.report_range(),
                &format!("{path}.reason"),
                value,
                REASONS,
            );
        }
    }
}

fn audit_annotations(header: &Header, list: &Opt<List<AuditAnnotation>>, report: &mut Report) {
    let annotations = items(list);
    if let Some(field) = list
        .as_ref()
        .filter(|_| annotations.len() > MAX_AUDIT_ANNOTATIONS)
    {
        let shown = format!("{} items", annotations.len());
        let detail = format!("must not have more than {MAX_AUDIT_ANNOTATIONS} auditAnnotations");
        report.other(
            crate::policy::Code::TooMany,
            field.report_range(),
            format!("spec.auditAnnotations: Invalid value: {shown}: {detail}"),
        );
    }
    let policy_name = header.name().map_or("", |n| n.value.value.as_str());
    let mut seen = BTreeSet::new();
    for (i, annotation) in annotations.iter().enumerate() {
        let path = format!("spec.auditAnnotations[{i}]");
        let key = str_of(&annotation.key);
        let key_range = text_range(&annotation.key, annotation.place.anchor);
        audit_key(policy_name, key, key_range, &format!("{path}.key"), report);
        value_expression(annotation, &path, report);
        if !seen.insert(key) {
            report.duplicate(key_range, &format!("{path}.key"), key, "");
        }
    }
}

/// The key must make `<policy name>/<key>` a qualified name.
fn audit_key(
    policy: &str,
    key: &str,
    range: crate::text::TextRange,
    path: &str,
    report: &mut Report,
) {
    if policy.is_empty() {
        return report.invalid(range, path, key, "requires metadata.name be non-empty");
    }
    let combined = format!("{policy}/{key}");
    for message in names::qualified_name(&combined) {
        report.invalid(range, path, &combined, &message);
    }
}

fn value_expression(annotation: &AuditAnnotation, path: &str, report: &mut Report) {
    let path = format!("{path}.valueExpression");
    let range = text_range(&annotation.value_expression, annotation.place.anchor);
    let trimmed = str_of(&annotation.value_expression).trim();
    if trimmed.is_empty() {
        report.required(range, &path, "valueExpression is not specified");
    } else if trimmed.len() > MAX_VALUE_EXPRESSION_BYTES {
        // The API server reports this as "Required" although the value is there.
        let detail = format!("must not exceed {MAX_VALUE_EXPRESSION_BYTES} bytes in length");
        report.required(range, &path, &detail);
    }
}
