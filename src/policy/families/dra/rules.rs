//! What the API server's validation of a DRA document refuses around its selectors, in its wording
//! (`pkg/apis/resource/validation/validation.go`: `validateSelector`, `validateDeviceRequest`,
//! `validateExactDeviceRequest`, `validateDeviceSubRequest`, `validateDeviceClass`): a selector
//! without `cel` or with an empty expression, a v1beta2/v1 request with neither or both of
//! `exactly` and `firstAvailable`, a request or sub-request without its `deviceClassName`.

use super::RequestShape;
use crate::policy::Diagnostic;
use crate::policy::report::Report;
use crate::yaml::Node;

/// Reports the structural errors of the document at `root`.
pub(super) fn check(root: &Node, shape: RequestShape, out: &mut Vec<Diagnostic>) {
    let mut report = Report::new(out);
    let kind = root.get("kind").and_then(Node::as_str).unwrap_or("");
    let Some(spec) = root.get("spec") else {
        return;
    };
    match kind {
        "DeviceClass" => selectors(spec, "spec", &mut report),
        "ResourceClaim" => claim(spec, "spec", shape, &mut report),
        "ResourceClaimTemplate" => {
            if let Some(inner) = spec.get("spec") {
                claim(inner, "spec.spec", shape, &mut report);
            }
        }
        _ => {}
    }
}

fn claim(spec: &Node, path: &str, shape: RequestShape, report: &mut Report<'_>) {
    let Some(requests) = spec
        .get("devices")
        .and_then(|d| d.get("requests"))
        .and_then(Node::as_sequence)
    else {
        return;
    };
    for (i, request) in requests.iter().enumerate() {
        let path = format!("{path}.devices.requests[{i}]");
        request_rules(request, &path, shape, report);
    }
}

/// One request: its selectors wherever the version holds them, and which form it takes.
fn request_rules(request: &Node, path: &str, shape: RequestShape, report: &mut Report<'_>) {
    let first_available = request
        .get("firstAvailable")
        .and_then(Node::as_sequence)
        .filter(|items| !items.is_empty());
    if let Some(subrequests) = first_available {
        for (j, sub) in subrequests.iter().enumerate() {
            let path = format!("{path}.firstAvailable[{j}]");
            class_name(sub, &path, report);
            selectors(sub, &path, report);
        }
    }
    match shape {
        RequestShape::Flat => selectors(request, path, report),
        RequestShape::Exactly => {
            let exactly = request.get("exactly").filter(|node| !node.is_null());
            match (exactly, first_available) {
                (None, None) => report.required(
                    request.range,
                    path,
                    "exactly one of `exactly` or `firstAvailable` is required",
                ),
                (Some(_), Some(_)) => report.invalid_shown(
                    request.range,
                    path,
                    "null",
                    "exactly one of `exactly` or `firstAvailable` is required, but multiple \
                     fields are set",
                ),
                (Some(exactly), None) => {
                    let path = format!("{path}.exactly");
                    class_name(exactly, &path, report);
                    selectors(exactly, &path, report);
                }
                (None, Some(_)) => {}
            }
        }
    }
}

/// `deviceClassName` is required on an exact request and on a sub-request.
fn class_name(owner: &Node, path: &str, report: &mut Report<'_>) {
    let name = owner.get("deviceClassName").and_then(Node::as_str);
    if name.is_none_or(str::is_empty) {
        let range = owner
            .get("deviceClassName")
            .map_or(owner.range, |n| n.range);
        report.required(range, &format!("{path}.deviceClassName"), "");
    }
}

/// Each selector needs `cel` with a non-empty `expression`.
fn selectors(owner: &Node, path: &str, report: &mut Report<'_>) {
    let Some(items) = owner.get("selectors").and_then(Node::as_sequence) else {
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let path = format!("{path}.selectors[{i}].cel");
        let Some(cel) = item.get("cel").filter(|node| !node.is_null()) else {
            report.required(item.range, &path, "");
            continue;
        };
        let expression = cel.get("expression");
        let text = expression.and_then(Node::as_str).unwrap_or("");
        if text.trim().is_empty() {
            let range = expression.map_or(cel.range, |node| node.range);
            report.required(range, &format!("{path}.expression"), "");
        }
    }
}
