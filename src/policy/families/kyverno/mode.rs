//! A Kyverno policy's `spec.evaluation.mode`: which component runs its CEL, and so which checks
//! apply. `Kubernetes` (the default) and `JSON` are compiled by Kyverno
//! (`pkg/cel/policies/vpol/compiler/compiler.go`); `Envoy` and `HTTP` policies are handed to
//! kyverno-authz (`cmd/cli/kubectl-kyverno/policy/load.go` sorts them out,
//! `processor/authz_processor.go` compiles them with `kyverno-authz/pkg/engine/compiler`), whose
//! `object` is the authorization request and whose libraries (`envoy`, `http`, `jwt`) are its own.

use crate::yaml::Node;

/// The evaluation mode of a policy document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// Admission requests on Kubernetes resources (also any value the CRD does not list).
    Kubernetes,
    /// Any JSON document, run by the CLI: `object` is `dyn`.
    Json,
    /// Envoy or HTTP authorization requests, run by kyverno-authz.
    Authz,
}

impl Mode {
    /// The mode of the document at `root`.
    pub(super) fn of(root: &Node) -> Mode {
        let mode = root
            .get("spec")
            .and_then(|spec| spec.get("evaluation"))
            .and_then(|evaluation| evaluation.get("mode"))
            .and_then(Node::as_str);
        match mode {
            Some("JSON") => Mode::Json,
            Some("Envoy" | "HTTP") => Mode::Authz,
            _ => Mode::Kubernetes,
        }
    }
}
