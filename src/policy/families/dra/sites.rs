//! The device selectors of a DRA document, each a CEL expression of role `selector`: a
//! DeviceClass's `spec.selectors[].cel.expression`, and a claim's (a template's under
//! `spec.spec`) `devices.requests[]` selectors, directly on the request (v1alpha3, v1beta1) or
//! under `exactly` (v1beta2, v1), and those of every `firstAvailable` sub-request
//! (`k8s.io/api/resource/*/types.go`).

use super::RequestShape;
use crate::policy::families::FamilySite;
use crate::yaml::Node;

/// Every non-blank selector expression of the document at `root`, in field order.
pub(super) fn collect(root: &Node, shape: RequestShape) -> Vec<FamilySite> {
    let mut sites = Vec::new();
    let kind = root.get("kind").and_then(Node::as_str).unwrap_or("");
    let Some(spec) = root.get("spec") else {
        return sites;
    };
    match kind {
        "DeviceClass" => selectors(spec, "spec".to_string(), None, &mut sites),
        "ResourceClaim" => claim(spec, "spec".to_string(), shape, &mut sites),
        "ResourceClaimTemplate" => {
            if let Some(inner) = spec.get("spec") {
                claim(inner, "spec.spec".to_string(), shape, &mut sites);
            }
        }
        _ => {}
    }
    sites
}

/// The requests of a claim spec (`path` is the spec's path).
fn claim(spec: &Node, path: String, shape: RequestShape, sites: &mut Vec<FamilySite>) {
    let Some(requests) = spec
        .get("devices")
        .and_then(|d| d.get("requests"))
        .and_then(Node::as_sequence)
    else {
        return;
    };
    for (i, request) in requests.iter().enumerate() {
        let request_path = format!("{path}.devices.requests[{i}]");
        let name = name_of(request);
        match shape {
            RequestShape::Flat => selectors(request, request_path.clone(), name.clone(), sites),
            RequestShape::Exactly => {
                if let Some(exactly) = request.get("exactly") {
                    let path = format!("{request_path}.exactly");
                    selectors(exactly, path, name.clone(), sites);
                }
            }
        }
        let Some(subrequests) = request.get("firstAvailable").and_then(Node::as_sequence) else {
            continue;
        };
        for (j, sub) in subrequests.iter().enumerate() {
            let sub_name = match (&name, name_of(sub)) {
                (Some(parent), Some(own)) => Some(format!("{parent}/{own}")),
                (_, own) => own,
            };
            let path = format!("{request_path}.firstAvailable[{j}]");
            selectors(sub, path, sub_name, sites);
        }
    }
}

fn name_of(node: &Node) -> Option<String> {
    node.get("name").and_then(Node::as_str).map(str::to_string)
}

/// The `selectors[].cel.expression` of `owner` (`path` is the owner's path).
fn selectors(owner: &Node, path: String, name: Option<String>, sites: &mut Vec<FamilySite>) {
    let Some(items) = owner.get("selectors").and_then(Node::as_sequence) else {
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let Some(node) = item.get("cel").and_then(|cel| cel.get("expression")) else {
            continue;
        };
        let Some(scalar) = node.as_scalar() else {
            continue;
        };
        if node.is_null() || scalar.value.trim().is_empty() {
            continue;
        }
        sites.push(FamilySite {
            path: format!("{path}.selectors[{i}].cel.expression"),
            name: name.clone(),
            role: "selector",
            text: scalar.value.clone(),
            source_map: scalar.source_map.clone(),
            range: node.range,
        });
    }
}
