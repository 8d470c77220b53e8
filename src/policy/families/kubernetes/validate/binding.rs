//! ValidatingAdmissionPolicyBinding and MutatingAdmissionPolicyBinding rules.

use super::match_resources::{match_resources, no_delete};
use super::selector::selector;
use super::{items, list_range, str_of, text_range, values};
use crate::policy::model::*;
use crate::policy::model_kinds::*;
use crate::policy::names;
use crate::policy::report::{Report, json_list};
use std::collections::BTreeSet;

use crate::policy::allowed::{PARAMETER_NOT_FOUND_ACTIONS, VALIDATION_ACTIONS as ACTIONS};

/// Validates a binding's spec; `mutating` selects the MutatingAdmissionPolicyBinding rules.
pub(super) fn validate(header: &Header, spec: &BindingSpec, mutating: bool, report: &mut Report) {
    policy_name(spec, report);
    if let Some(param_ref) = &spec.param_ref {
        self::param_ref(header.version, &param_ref.value, report);
    }
    if let Some(m) = &spec.match_resources {
        match_resources(m, "spec.matchResources", report);
        if mutating {
            no_delete(m, "spec.matchResources", report);
        }
    }
    if !mutating {
        validation_actions(&spec.validation_actions, spec.place.anchor, report);
    }
}

fn policy_name(spec: &BindingSpec, report: &mut Report) {
    let name = str_of(&spec.policy_name);
    let range = text_range(&spec.policy_name, spec.place.anchor);
    if name.is_empty() {
        return report.required(range, "spec.policyName", "");
    }
    for message in names::dns1123_subdomain(name) {
        report.invalid(range, "spec.policyName", name, &message);
    }
}

fn param_ref(version: ApiVersion, p: &ParamRef, report: &mut Report) {
    let anchor = p.place.anchor;
    let name = str_of(&p.name);
    if !name.is_empty() {
        let range = text_range(&p.name, anchor);
        for message in names::path_segment(name) {
            report.invalid(range, "spec.paramRef.name", name, &message);
        }
        if p.selector.is_some() {
            report.forbidden(
                range,
                "spec.paramRef.name",
                "name and selector are mutually exclusive",
            );
        }
    }
    if let Some(sel) = &p.selector {
        selector(&sel.value, "spec.paramRef.selector", report);
        if !name.is_empty() {
            report.forbidden(
                sel.key,
                "spec.paramRef.selector",
                "name and selector are mutually exclusive",
            );
        }
    }
    if name.is_empty() && p.selector.is_none() {
        report.required(
            anchor,
            "spec.paramRef",
            "one of name or selector must be specified",
        );
    }
    let action = str_of(&p.parameter_not_found_action);
    let range = text_range(&p.parameter_not_found_action, anchor);
    if action.is_empty() {
        // Defaulted to `Deny` only in v1alpha1.
        if version != ApiVersion::V1alpha1 || p.parameter_not_found_action.is_some() {
            report.required(range, "spec.paramRef.parameterNotFoundAction", "");
        }
    } else if action != "Deny" && action != "Allow" {
        report.not_supported(
            range,
            "spec.paramRef.parameterNotFoundAction",
            action,
            PARAMETER_NOT_FOUND_ACTIONS,
        );
    }
}

fn validation_actions(list: &Opt<List<Text>>, anchor: crate::text::TextRange, report: &mut Report) {
    const PATH: &str = "spec.validationActions";
    let actions = items(list);
    let mut seen = BTreeSet::new();
    for (i, action) in actions.iter().enumerate() {
        let value = action.value.as_str();
        if !ACTIONS.contains(&value) {
            report.not_supported(action.range, &format!("{PATH}[{i}]"), value, ACTIONS);
        }
        if !seen.insert(value) {
            report.duplicate(action.range, &format!("{PATH}[{i}]"), value, "");
        }
    }
    let range = list_range(list, anchor);
    if seen.contains("Deny") && seen.contains("Warn") {
        let detail = "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)";
        report.invalid_shown(range, PATH, &json_list(&values(actions)), detail);
    }
    if seen.is_empty() {
        report.required(range, PATH, "at least one validation action is required");
    }
}
