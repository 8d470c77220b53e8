//! MutatingAdmissionPolicy rules.

use super::common;
use super::match_resources::no_delete;
use super::vap::match_constraints;
use super::{failure_policy, items, list_range, str_of, text_range};
use crate::policy::allowed::{PATCH_TYPES, REINVOCATION_POLICIES};
use crate::policy::model_kinds::*;
use crate::policy::report::Report;

/// Validates the spec of a MutatingAdmissionPolicy.
pub(super) fn validate(_header: &Header, spec: &MutatingPolicySpec, report: &mut Report) {
    failure_policy(&spec.failure_policy, report);
    if let Some(param_kind) = &spec.param_kind {
        common::param_kind(param_kind, "spec.paramKind", report);
    }
    match_constraints(&spec.match_constraints, spec.place.anchor, report);
    if let Some(m) = &spec.match_constraints {
        no_delete(m, "spec.matchConstraints", report);
    }
    common::match_conditions(&spec.match_conditions, "spec.matchConditions", report);
    common::variables(&spec.variables, report);
    let mutations = items(&spec.mutations);
    if mutations.is_empty() {
        let range = list_range(&spec.mutations, spec.place.anchor);
        report.required(
            range,
            "spec.mutations",
            "mutations must contain at least one item",
        );
    }
    for (i, m) in mutations.iter().enumerate() {
        mutation(m, &format!("spec.mutations[{i}]"), report);
    }
    reinvocation_policy(spec, report);
}

fn mutation(m: &Mutation, path: &str, report: &mut Report) {
    let patch_type = str_of(&m.patch_type);
    let range = text_range(&m.patch_type, m.place.anchor);
    let (wanted, wanted_key, other, other_key) = match patch_type {
        "" => return report.required(range, &format!("{path}.patchType"), ""),
        "JSONPatch" => (
            &m.json_patch,
            "jsonPatch",
            &m.apply_configuration,
            "applyConfiguration",
        ),
        "ApplyConfiguration" => (
            &m.apply_configuration,
            "applyConfiguration",
            &m.json_patch,
            "jsonPatch",
        ),
        _ => {
            return report.not_supported(
                range,
                &format!("{path}.patchType"),
                patch_type,
                PATCH_TYPES,
            );
        }
    };
    match wanted {
        None => {
            let detail = format!("must be specified when patchType is {patch_type}");
            report.required(m.place.anchor, &format!("{path}.{wanted_key}"), &detail);
        }
        Some(field) => expression(
            &field.value,
            &format!("{path}.{wanted_key}.expression"),
            report,
        ),
    }
    if let Some(field) = other {
        let detail = format!("must not be specified when patchType is {patch_type}");
        report.invalid_shown(
            field.key,
            &format!("{path}.{other_key}"),
            &format!("\"{{{other_key}}}\""),
            &detail,
        );
    }
}

fn expression(patch: &PatchExpression, path: &str, report: &mut Report) {
    if str_of(&patch.expression).trim().is_empty() {
        report.required(text_range(&patch.expression, patch.place.anchor), path, "");
    }
}

fn reinvocation_policy(spec: &MutatingPolicySpec, report: &mut Report) {
    const PATH: &str = "spec.reinvocationPolicy";
    match &spec.reinvocation_policy {
        None => report.required(spec.place.anchor, PATH, ""),
        Some(field) => {
            let value = field.value.value.as_str();
            if !REINVOCATION_POLICIES.contains(&value) {
                report.not_supported(field.report_range(), PATH, value, REINVOCATION_POLICIES);
            }
        }
    }
}
