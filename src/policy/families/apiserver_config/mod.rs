//! Structured authentication and authorization configuration (`apiserver.config.k8s.io`
//! AuthenticationConfiguration and AuthorizationConfiguration, the files given to the API server
//! by `--authentication-config` and `--authorization-config`). The authority is
//! kubernetes/apiserver: the versions each release reads are those of
//! `pkg/apis/apiserver/*/register.go`, the structure checked is that of
//! `pkg/apis/apiserver/validation/validation.go` (in its wording, `rules.rs`), and the CEL
//! environments those of `pkg/authentication/cel/compile.go` and `pkg/authorization/cel/compile.go`
//! (`typed.rs`). Every finding is an error: the API server refuses to start (or to reload) with
//! such a file.
//!
//! `eval.rs` derives the user the API server would authenticate from a token's claims.

pub mod eval;
mod issuer;
mod rules;
mod sites;
#[cfg(test)]
mod tests;
mod typed;

use super::{Family, FamilySite};
use crate::policy::workspace::Workspace;
use crate::policy::{Code, Diagnostic};
use crate::yaml::Node;

/// The API group of the API server's own configuration files.
pub const GROUP: &str = "apiserver.config.k8s.io";

/// The configuration kinds that hold CEL, with the release that first reads each version
/// (`k8s.io/apiserver` `pkg/apis/apiserver/<version>/register.go` at each release tag).
const KINDS: &[(&str, &[(&str, u32)])] = &[
    (
        "AuthenticationConfiguration",
        &[("v1alpha1", 29), ("v1beta1", 30), ("v1", 34)],
    ),
    (
        "AuthorizationConfiguration",
        &[("v1alpha1", 29), ("v1beta1", 30), ("v1", 32)],
    ),
];

/// The family of authentication and authorization configuration files.
pub struct ApiserverConfig;

impl Family for ApiserverConfig {
    fn groups(&self) -> &'static [&'static str] {
        &[GROUP]
    }

    fn claims(&self, api_version: &str, kind: &str) -> bool {
        let in_group = super::version_in(api_version, GROUP).is_some();
        in_group && KINDS.iter().any(|(known, _)| *known == kind)
    }

    /// The AuthenticationConfiguration (an AuthorizationConfiguration's verdicts are its
    /// webhooks').
    fn evaluated(&self, root: &Node) -> bool {
        root.get("kind").and_then(Node::as_str) == Some("AuthenticationConfiguration")
    }

    fn evaluated_against(&self) -> super::EvaluatedAgainst {
        super::EvaluatedAgainst::TokenClaims
    }

    fn check(&self, root: &Node, minor: u32, _workspace: &Workspace, out: &mut Vec<Diagnostic>) {
        if !served(root, minor, out) {
            return;
        }
        rules::check(root, out);
        typed::check(&sites::collect(root), minor, out);
    }

    fn sites(&self, root: &Node) -> Vec<FamilySite> {
        sites::collect(root)
    }

    fn editor_env(
        &self,
        _root: &Node,
        sites: &[FamilySite],
        _parsed: &[Option<crate::cel::ast::Ast>],
        index: usize,
        minor: u32,
        _workspace: &Workspace,
    ) -> Option<crate::cel::check::Env> {
        Some(typed::env(sites.get(index)?.role, minor))
    }
}

/// Whether release 1.`minor` reads the document's version; otherwise reports it on `apiVersion`
/// with the versions it reads.
fn served(root: &Node, minor: u32, out: &mut Vec<Diagnostic>) -> bool {
    let Some(api_version) = root.get("apiVersion") else {
        return false;
    };
    let version = api_version
        .as_str()
        .and_then(|v| v.strip_prefix(GROUP))
        .and_then(|v| v.strip_prefix('/'))
        .unwrap_or("");
    let kind = root.get("kind").and_then(Node::as_str).unwrap_or("");
    let Some((_, versions)) = KINDS.iter().find(|(known, _)| *known == kind) else {
        return false;
    };
    if versions
        .iter()
        .any(|(v, since)| *v == version && *since <= minor)
    {
        return true;
    }
    let read: Vec<String> = versions
        .iter()
        .filter(|(_, since)| *since <= minor)
        .map(|(v, _)| format!("{GROUP}/{v}"))
        .collect();
    let since = versions
        .iter()
        .find(|(v, _)| *v == version)
        .map(|(_, since)| format!("; it is first read by 1.{since}"))
        .unwrap_or_default();
    let message = format!(
        "apiVersion: Unsupported value: \"{GROUP}/{version}\": the API server of Kubernetes \
         1.{minor} does not read {kind} {version}{since} (it reads: {})",
        if read.is_empty() {
            "none".to_string()
        } else {
            read.join(", ")
        }
    );
    out.push(Diagnostic::new(
        Code::NotSupported,
        api_version.range,
        message,
    ));
    false
}
