//! The structure of ValidatingWebhookConfiguration and MutatingWebhookConfiguration webhooks as
//! the API server validates `admissionregistration.k8s.io/v1` (k/k
//! `pkg/apis/admissionregistration/validation/validation.go`: `validateWebhook`,
//! `validateAdmissionReviewVersions`, `IsFullyQualifiedName`): names fully qualified and unique,
//! `clientConfig` with exactly one of `url` and `service`, the rules, the closed value sets,
//! `sideEffects` and `admissionReviewVersions` required, `timeoutSeconds` within 1–30, and the
//! `matchConditions` as a policy's.

use std::collections::BTreeSet;

use super::super::kubernetes::validate::{
    common, items, list_range, match_resources, str_of, text_range, values,
};
use super::Webhook;
use crate::policy::allowed::{FAILURE_POLICIES, MATCH_POLICIES, REINVOCATION_POLICIES};
use crate::policy::model::*;
use crate::policy::names;
use crate::policy::report::{Report, json_list};

/// `sideEffects` a v1 webhook may declare.
const SIDE_EFFECTS: &[&str] = &["None", "NoneOnDryRun"];
/// The AdmissionReview versions the API server can send.
const REVIEW_VERSIONS: &[&str] = &["v1", "v1beta1"];

/// Validates the webhooks of one configuration.
pub(crate) fn webhooks(hooks: &[Webhook], mutating: bool, report: &mut Report) {
    let mut seen = BTreeSet::new();
    for (i, hook) in hooks.iter().enumerate() {
        let path = format!("webhooks[{i}]");
        name(hook, &path, report);
        let written = str_of(&hook.name);
        if !written.is_empty() && !seen.insert(written) {
            let range = text_range(&hook.name, hook.place.anchor);
            report.duplicate(range, &format!("{path}.name"), written, "");
        }
        client_config(hook, &path, report);
        for (j, rule) in items(&hook.rules).iter().enumerate() {
            match_resources::named_rule(rule, &format!("{path}.rules[{j}]"), report);
        }
        one_of(
            &hook.failure_policy,
            &format!("{path}.failurePolicy"),
            FAILURE_POLICIES,
            report,
        );
        one_of(
            &hook.match_policy,
            &format!("{path}.matchPolicy"),
            MATCH_POLICIES,
            report,
        );
        if mutating {
            let at = format!("{path}.reinvocationPolicy");
            one_of(
                &hook.reinvocation_policy,
                &at,
                REINVOCATION_POLICIES,
                report,
            );
        }
        side_effects(hook, &path, report);
        timeout(hook, &path, report);
        review_versions(hook, &path, report);
        common::match_conditions(
            &hook.match_conditions,
            &format!("{path}.matchConditions"),
            report,
        );
    }
}

/// `IsFullyQualifiedName`: a DNS subdomain (a trailing dot ignored) of at least three segments.
fn name(hook: &Webhook, path: &str, report: &mut Report) {
    let range = text_range(&hook.name, hook.place.anchor);
    let path = format!("{path}.name");
    let written = str_of(&hook.name);
    if written.is_empty() {
        report.required(range, &path, "");
        return;
    }
    let name = written.strip_suffix('.').unwrap_or(written);
    let errors = names::dns1123_subdomain(name);
    if !errors.is_empty() {
        report.invalid(range, &path, name, &errors.join(","));
    } else if name.split('.').count() < 3 {
        let detail = "should be a domain with at least three segments separated by dots";
        report.invalid(range, &path, name, detail);
    }
}

fn client_config(hook: &Webhook, path: &str, report: &mut Report) {
    let path = format!("{path}.clientConfig");
    let Some(config) = &hook.client_config else {
        report.required(
            hook.place.anchor,
            &path,
            "exactly one of url or service is required",
        );
        return;
    };
    let url = config.value.url.is_some();
    let service = config.value.service.is_some();
    if url == service {
        let range = config.value.place.anchor;
        report.required(range, &path, "exactly one of url or service is required");
    }
}

/// A written value that must be one of `allowed`.
fn one_of(text: &Opt<Text>, path: &str, allowed: &[&str], report: &mut Report) {
    if let Some(field) = text {
        let value = field.value.value.as_str();
        if !allowed.contains(&value) {
            report.not_supported(field.report_range(), path, value, allowed);
        }
    }
}

fn side_effects(hook: &Webhook, path: &str, report: &mut Report) {
    let path = format!("{path}.sideEffects");
    match &hook.side_effects {
        None => {
            let detail = format!("must specify one of {}", SIDE_EFFECTS.join(", "));
            report.required(hook.place.anchor, &path, &detail);
        }
        Some(_) => one_of(&hook.side_effects, &path, SIDE_EFFECTS, report),
    }
}

fn timeout(hook: &Webhook, path: &str, report: &mut Report) {
    let Some(field) = &hook.timeout_seconds else {
        return;
    };
    let value = field.value.value.as_str();
    if !value.parse::<i64>().is_ok_and(|n| (1..=30).contains(&n)) {
        report.invalid_shown(
            field.report_range(),
            &format!("{path}.timeoutSeconds"),
            value,
            "the timeout value must be between 1 and 30 seconds",
        );
    }
}

fn review_versions(hook: &Webhook, path: &str, report: &mut Report) {
    let path = format!("{path}.admissionReviewVersions");
    let versions = items(&hook.admission_review_versions);
    let range = list_range(&hook.admission_review_versions, hook.place.anchor);
    if versions.is_empty() {
        let detail = format!("must specify one of {}", REVIEW_VERSIONS.join(", "));
        report.required(range, &path, &detail);
        return;
    }
    let mut seen = BTreeSet::new();
    for (i, version) in versions.iter().enumerate() {
        let at = format!("{path}[{i}]");
        for message in names::dns1035_label(&version.value) {
            report.invalid(version.range, &at, &version.value, &message);
        }
        if !seen.insert(version.value.as_str()) {
            report.duplicate(version.range, &at, &version.value, "");
        }
    }
    if !versions
        .iter()
        .any(|v| REVIEW_VERSIONS.contains(&v.value.as_str()))
    {
        let detail = format!(
            "must include at least one of {}",
            REVIEW_VERSIONS.join(", ")
        );
        report.invalid_shown(range, &path, &json_list(&values(versions)), &detail);
    }
}
