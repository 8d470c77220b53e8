//! Whether the target Kubernetes version serves a policy document's apiVersion and kind at all:
//! `admissionregistration.k8s.io/v1alpha1 MutatingAdmissionPolicy` aimed at 1.31, say, is refused by
//! the API server ("no matches for kind") before any field is looked at.
//!
//! The bundled schemas answer it: a version's OpenAPI definitions hold every kind it serves (alpha
//! kinds included, which also need their feature gate). Targets outside the bundled versions are not
//! judged, since nothing says what they serve.

use super::model::ApiVersion;
use super::node;
use super::read_kinds::GROUP;
use super::{Code, Diagnostic, PolicyKind};
use crate::schema::bundled::{self, KindEntry};
use crate::yaml::Node;

/// Reports `not-supported` on `apiVersion` when `minor` does not serve `kind` in `version`.
pub(crate) fn check(
    root: &Node,
    kind: PolicyKind,
    version: ApiVersion,
    minor: u32,
    out: &mut Vec<Diagnostic>,
) {
    let versions = bundled::versions();
    if !versions.contains(&minor) || bundled_kind(minor, version, kind).is_some() {
        return;
    }
    let Some(entry) = node::lookup(root, "apiVersion") else {
        return;
    };
    let serving: Vec<u32> = versions
        .iter()
        .copied()
        .filter(|m| bundled_kind(*m, version, kind).is_some())
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
    let version = version.as_str();
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

/// The bundled entry of `kind` in `version` of the policy API, when `minor` serves it.
pub(crate) fn bundled_kind(
    minor: u32,
    version: ApiVersion,
    kind: PolicyKind,
) -> Option<&'static KindEntry> {
    bundled::kinds(minor).iter().find(|e| {
        e.gvk.group == GROUP && e.gvk.version == version.as_str() && e.gvk.kind == kind.name()
    })
}
