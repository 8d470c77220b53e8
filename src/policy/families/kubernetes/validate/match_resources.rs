//! `matchConstraints` / `matchResources` and their rules (`validateMatchResources`,
//! `validateNamedRuleWithOperations`, `validateRuleWithOperations`, `validateRule`,
//! `validateResources`).

use super::selector::selector;
use super::{items, list_range, values};
use crate::policy::model::*;
use crate::policy::names;
use crate::policy::report::{Report, json_list};
use crate::text::TextRange;
use std::collections::BTreeSet;

use crate::policy::allowed::{MATCH_POLICIES, MUTATING_OPERATIONS, OPERATIONS, SCOPES};

/// Validates match resources at `path` (defaults applied: `matchPolicy`, both selectors).
pub(super) fn match_resources(field: &Field<MatchResources>, path: &str, report: &mut Report) {
    let m = &field.value;
    if let Some(policy) = &m.match_policy {
        let value = policy.value.value.as_str();
        if !MATCH_POLICIES.contains(&value) {
            report.not_supported(
                policy.report_range(),
                &format!("{path}.matchPolicy"),
                value,
                MATCH_POLICIES,
            );
        }
    }
    for (key, sel) in [
        ("namespaceSelector", &m.namespace_selector),
        ("objectSelector", &m.object_selector),
    ] {
        if let Some(sel) = sel {
            selector(&sel.value, &format!("{path}.{key}"), report);
        }
    }
    for (key, rules) in [
        ("resourceRules", &m.resource_rules),
        ("excludeResourceRules", &m.exclude_resource_rules),
    ] {
        for (i, rule) in items(rules).iter().enumerate() {
            named_rule(rule, &format!("{path}.{key}[{i}]"), report);
        }
    }
}

pub(crate) fn named_rule(rule: &NamedRule, path: &str, report: &mut Report) {
    let mut seen = BTreeSet::new();
    for (i, name) in items(&rule.resource_names).iter().enumerate() {
        let item_path = format!("{path}.resourceNames[{i}]");
        for message in names::path_segment(&name.value) {
            report.invalid(name.range, &item_path, &name.value, &message);
        }
        if !seen.insert(name.value.as_str()) {
            report.duplicate(name.range, &item_path, &name.value, "");
        }
    }
    operations(rule, path, report);
    api_groups_versions(rule, path, report);
    resources(
        &rule.resources,
        rule.place.anchor,
        &format!("{path}.resources"),
        report,
    );
    if let Some(scope) = &rule.scope {
        let value = scope.value.value.as_str();
        if !SCOPES.contains(&value) {
            report.not_supported(
                scope.report_range(),
                &format!("{path}.scope"),
                value,
                SCOPES,
            );
        }
    }
}

fn operations(rule: &NamedRule, path: &str, report: &mut Report) {
    let ops = items(&rule.operations);
    let ops_path = format!("{path}.operations");
    let range = list_range(&rule.operations, rule.place.anchor);
    if ops.is_empty() {
        report.required(range, &ops_path, "");
    }
    if ops.len() > 1 && ops.iter().any(|o| o.value == "*") {
        let detail = "if '*' is present, must not specify other operations";
        report.invalid_shown(range, &ops_path, &json_list(&values(ops)), detail);
    }
    for (i, op) in ops.iter().enumerate() {
        if !OPERATIONS.contains(&op.value.as_str()) {
            report.not_supported(op.range, &format!("{ops_path}[{i}]"), &op.value, OPERATIONS);
        }
    }
}

fn api_groups_versions(rule: &NamedRule, path: &str, report: &mut Report) {
    let anchor = rule.place.anchor;
    for (key, list, what) in [
        ("apiGroups", &rule.api_groups, "API groups"),
        ("apiVersions", &rule.api_versions, "API versions"),
    ] {
        let entries = items(list);
        let list_path = format!("{path}.{key}");
        let range = list_range(list, anchor);
        if entries.is_empty() {
            report.required(range, &list_path, "");
        }
        if entries.len() > 1 && entries.iter().any(|e| e.value == "*") {
            let detail = format!("if '*' is present, must not specify other {what}");
            report.invalid_shown(range, &list_path, &json_list(&values(entries)), &detail);
        }
    }
    // An empty group is the core group; only empty versions are wrong.
    for (i, version) in items(&rule.api_versions).iter().enumerate() {
        if version.value.is_empty() {
            report.required(version.range, &format!("{path}.apiVersions[{i}]"), "");
        }
    }
}

/// `resources`, with the API server's wildcard rules (including its order-dependent checks).
fn resources(list: &Opt<List<Text>>, anchor: TextRange, path: &str, report: &mut Report) {
    let entries = items(list);
    let range = list_range(list, anchor);
    if entries.is_empty() {
        report.required(range, path, "");
    }
    let mut wildcard_sub = BTreeSet::new(); // x/*
    let mut wildcard_res = BTreeSet::new(); // */x
    let (mut double, mut single, mut plain) = (false, false, false);
    for (i, entry) in entries.iter().enumerate() {
        let value = entry.value.as_str();
        let item_path = format!("{path}[{i}]");
        if value.is_empty() {
            report.required(entry.range, &item_path, "");
            continue;
        }
        double |= value == "*/*";
        single |= value == "*";
        let Some((res, sub)) = value.split_once('/') else {
            // Like the API server, the last resource without a subresource decides.
            plain = value != "*";
            continue;
        };
        if wildcard_sub.contains(res) {
            report.invalid(
                entry.range,
                &item_path,
                value,
                &format!("if '{res}/*' is present, must not specify {value}"),
            );
        }
        if wildcard_res.contains(sub) {
            report.invalid(
                entry.range,
                &item_path,
                value,
                &format!("if '*/{sub}' is present, must not specify {value}"),
            );
        }
        if sub == "*" {
            wildcard_sub.insert(res);
        }
        if res == "*" {
            wildcard_res.insert(sub);
        }
    }
    let shown = json_list(&values(entries));
    if entries.len() > 1 && double {
        report.invalid_shown(
            range,
            path,
            &shown,
            "if '*/*' is present, must not specify other resources",
        );
    }
    if single && plain {
        report.invalid_shown(
            range,
            path,
            &shown,
            "if '*' is present, must not specify other resources without subresources",
        );
    }
}

/// The MutatingAdmissionPolicy(Binding) restriction: no `DELETE` (unindexed path, as the API server).
pub(super) fn no_delete(field: &Field<MatchResources>, path: &str, report: &mut Report) {
    for rule in items(&field.value.resource_rules) {
        for op in items(&rule.operations) {
            if !MUTATING_OPERATIONS.contains(&op.value.as_str()) {
                report.not_supported(
                    op.range,
                    &format!("{path}.resourceRules.operations"),
                    &op.value,
                    MUTATING_OPERATIONS,
                );
            }
        }
    }
}
