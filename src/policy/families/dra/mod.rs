//! Dynamic Resource Allocation (`resource.k8s.io`): the CEL device selectors of DeviceClass,
//! ResourceClaim and ResourceClaimTemplate. The authority is kubernetes/kubernetes: the kinds and
//! the releases that serve each version are those of `k8s.io/api/resource/*/register.go`, the
//! structure checked is that of `pkg/apis/resource/validation/validation.go` (in its wording), and
//! the environment, result rule and cost limit those of
//! `staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go` (`typed.rs`).
//!
//! What is reported, and how severe (every finding is a refusal on create: the API server compiles
//! each new selector in exactly this environment):
//! - a version the target release does not serve: an error on `apiVersion`;
//! - a selector without `cel`, a request with neither or both of `exactly` and `firstAvailable`,
//!   an expression over the length limit: errors (`rules.rs`);
//! - a CEL syntax error, a compile error, a result that is not `bool`, a cost over the limit:
//!   errors (`typed.rs`).
//!
//! `eval.rs` runs the selectors of a document against the devices of a ResourceSlice.

pub mod eval;
mod rules;
mod sites;
#[cfg(test)]
mod tests;
mod typed;

use super::{Family, FamilySite};
use crate::policy::workspace::Workspace;
use crate::policy::{Code, Diagnostic};
use crate::yaml::Node;

/// The API group of Dynamic Resource Allocation.
pub const GROUP: &str = "resource.k8s.io";

/// The kinds whose documents hold device selectors.
const KINDS: &[&str] = &["DeviceClass", "ResourceClaim", "ResourceClaimTemplate"];

/// A version of the group with the releases that serve the selector kinds in it
/// (`k8s.io/api` `resource/<version>/register.go` at each release tag: v1alpha3 holds only
/// DeviceTaintRule from 1.34 on).
struct Served {
    version: &'static str,
    kinds: &'static [&'static str],
    first: u32,
    last: Option<u32>,
}

/// v1alpha2 (classic DRA, 1.26 to 1.30) had claims but no DeviceClass and no CEL selectors.
const SERVED: &[Served] = &[
    Served {
        version: "v1alpha2",
        kinds: &["ResourceClaim", "ResourceClaimTemplate"],
        first: 26,
        last: Some(30),
    },
    Served {
        version: "v1alpha3",
        kinds: KINDS,
        first: 31,
        last: Some(33),
    },
    Served {
        version: "v1beta1",
        kinds: KINDS,
        first: 32,
        last: None,
    },
    Served {
        version: "v1beta2",
        kinds: KINDS,
        first: 33,
        last: None,
    },
    Served {
        version: "v1",
        kinds: KINDS,
        first: 34,
        last: None,
    },
];

/// The shape of a device request in a version: v1alpha3 and v1beta1 hold the class and selectors
/// on the request itself, v1beta2 and v1 under `exactly`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RequestShape {
    Flat,
    Exactly,
}

impl RequestShape {
    fn of(version: &str) -> RequestShape {
        match version {
            "v1alpha3" | "v1beta1" => RequestShape::Flat,
            _ => RequestShape::Exactly,
        }
    }
}

/// The family of DRA device selectors.
pub struct Dra;

impl Family for Dra {
    fn groups(&self) -> &'static [&'static str] {
        &[GROUP]
    }

    fn claims(&self, api_version: &str, kind: &str) -> bool {
        let in_group = super::version_in(api_version, GROUP).is_some();
        in_group && KINDS.contains(&kind)
    }

    /// Every document it claims: a DeviceClass, ResourceClaim or template.
    fn evaluated(&self, _root: &Node) -> bool {
        true
    }

    fn evaluated_against(&self) -> super::EvaluatedAgainst {
        super::EvaluatedAgainst::ResourceSlices
    }

    fn check(&self, root: &Node, minor: u32, _workspace: &Workspace, out: &mut Vec<Diagnostic>) {
        let Some(version) = served(root, minor, out) else {
            return;
        };
        let shape = RequestShape::of(version);
        rules::check(root, shape, out);
        let sites = sites::collect(root, shape);
        typed::check(&sites, minor, out);
    }

    fn sites(&self, root: &Node) -> Vec<FamilySite> {
        sites::collect(root, shape_of(root))
    }

    fn editor_env(
        &self,
        _root: &Node,
        _sites: &[FamilySite],
        _parsed: &[Option<crate::cel::ast::Ast>],
        _index: usize,
        minor: u32,
        _workspace: &Workspace,
    ) -> Option<crate::cel::check::Env> {
        Some(typed::env(minor))
    }
}

/// The request shape of the document's version (v1's when the version is unknown).
pub(crate) fn shape_of(root: &Node) -> RequestShape {
    let version = root
        .get("apiVersion")
        .and_then(Node::as_str)
        .and_then(|v| v.strip_prefix(GROUP))
        .and_then(|v| v.strip_prefix('/'))
        .unwrap_or("v1");
    RequestShape::of(version)
}

/// The version of a claimed document when release 1.`minor` serves it; otherwise reports it on
/// `apiVersion` with the versions that release serves.
fn served<'r>(root: &'r Node, minor: u32, out: &mut Vec<Diagnostic>) -> Option<&'r str> {
    let api_version = root.get("apiVersion")?;
    let version = super::version_in(api_version.as_str()?, GROUP)?;
    let kind = root.get("kind").and_then(Node::as_str).unwrap_or("");
    let serves = |s: &Served| {
        s.kinds.contains(&kind) && s.first <= minor && s.last.is_none_or(|last| minor <= last)
    };
    if SERVED.iter().any(|s| s.version == version && serves(s)) {
        return Some(version);
    }
    let serving: Vec<String> = SERVED
        .iter()
        .filter(|s| serves(s))
        .map(|s| format!("{GROUP}/{}", s.version))
        .collect();
    let since = match SERVED
        .iter()
        .find(|s| s.version == version && s.kinds.contains(&kind))
    {
        Some(s) if s.first > minor => format!("; it is first served by 1.{}", s.first),
        Some(Served {
            last: Some(last), ..
        }) => format!("; it was last served by 1.{last}"),
        _ => String::new(),
    };
    let message = format!(
        "apiVersion: Unsupported value: \"{GROUP}/{version}\": {kind} {version} is not served by \
         Kubernetes 1.{minor}{since} (served: {})",
        if serving.is_empty() {
            "none".to_string()
        } else {
            serving.join(", ")
        }
    );
    out.push(Diagnostic::new(
        Code::NotSupported,
        api_version.range,
        message,
    ));
    None
}
