//! Whether the target Kubernetes version serves a policy document's apiVersion and kind at all:
//! `admissionregistration.k8s.io/v1alpha1 MutatingAdmissionPolicy` aimed at 1.31, say, is refused by
//! the API server ("no matches for kind") before any field is looked at.
//!
//! The bundled schemas answer it: a version's OpenAPI definitions hold every kind it serves (alpha
//! kinds included, which also need their feature gate). Targets outside the bundled versions are not
//! judged, since nothing says what they serve.

use super::PolicyKind;
use super::node;
use super::{Code, Diagnostic};
use crate::schema::bundled;
use crate::yaml::Node;

/// The policy API group.
const GROUP: &str = "admissionregistration.k8s.io";

/// Reports `not-supported` on `apiVersion` when `minor` does not serve `kind` in that version.
pub(crate) fn check(root: &Node, kind: PolicyKind, minor: u32, out: &mut Vec<Diagnostic>) {
    let versions = bundled::versions();
    if !versions.contains(&minor) {
        return;
    }
    let Some(entry) = node::lookup(root, "apiVersion") else {
        return;
    };
    let Some(version) = node::lookup_str(root, "apiVersion")
        .and_then(|v| v.strip_prefix(GROUP))
        .and_then(|v| v.strip_prefix('/'))
    else {
        return;
    };
    if serves(minor, version, kind) {
        return;
    }
    let serving: Vec<u32> = versions
        .iter()
        .copied()
        .filter(|m| serves(*m, version, kind))
        .collect();
    let since = match (serving.first(), serving.last()) {
        (Some(first), _) if *first > minor => {
            format!(" by Kubernetes 1.{minor}; it is first served by 1.{first}")
        }
        (_, Some(last)) if *last < minor => {
            format!(" by Kubernetes 1.{minor}; it was last served by 1.{last}")
        }
        _ => format!(" by Kubernetes 1.{minor}"),
    };
    let message = format!(
        "apiVersion: Unsupported value: \"{GROUP}/{version}\": {} {version} is not served{since}",
        kind.name()
    );
    out.push(Diagnostic::new(
        Code::NotSupported,
        entry.value.range,
        message,
    ));
}

fn serves(minor: u32, version: &str, kind: PolicyKind) -> bool {
    bundled::kinds(minor)
        .iter()
        .any(|e| e.gvk.group == GROUP && e.gvk.version == version && e.gvk.kind == kind.name())
}
