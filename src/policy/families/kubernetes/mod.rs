//! The built-in Kubernetes admission documents (`admissionregistration.k8s.io`):
//! ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their bindings, in every version the
//! API server serves. The authority is kubernetes/kubernetes
//! (`pkg/apis/admissionregistration/validation/validation.go` for the structure,
//! `staging/src/k8s.io/apiserver/pkg/admission/plugin/policy` for the CEL environments).
//!
//! The check, in the API server's order: the version served by the target release
//! (`policy/served.rs`), the decoding of every field's kind (`policy/decode.rs`), the structure
//! (`validate/`, whose helpers the webhook family shares: upstream validates both in one file),
//! then CEL syntax and both type checks of the expression sites (`policy/typecheck/`), and the
//! workspace rules: a binding's `policyName` and `paramRef` (`param_ref.rs`), policies sharing a
//! name (`same_name.rs`).
//!
//! The model (`policy/model*.rs`, `policy/read_kinds.rs`), the expression sites
//! (`policy/sites.rs`), the type checks and the evaluation (`policy/admission/`) stay shared
//! layers: Gatekeeper's generated policy and Kyverno's evaluation reuse them, and the editor keeps
//! each document's model (`ide/models.rs`) and reaches its sites there, before it asks the
//! families ([`Family::site_at`] is not given: the cached models answer first).

mod param_ref;
mod same_name;
pub mod suites;
pub(crate) mod validate;

use super::Family;
use crate::policy::model_kinds::PolicyDocument;
use crate::policy::workspace::Workspace;
use crate::policy::{Code, Diagnostic, cel_syntax, read_kinds};
use crate::yaml::Node;

/// The built-in admission policies and bindings.
pub struct Kubernetes;

impl Family for Kubernetes {
    fn groups(&self) -> &'static [&'static str] {
        &[read_kinds::GROUP]
    }

    fn suites(&self) -> Option<&'static dyn super::Suites> {
        Some(&suites::KubernetesSuites)
    }

    fn claims(&self, api_version: &str, kind: &str) -> bool {
        super::version_in(api_version, read_kinds::GROUP)
            .is_some_and(|version| ["v1alpha1", "v1beta1", "v1"].contains(&version))
            && crate::policy::PolicyKind::from_name(kind).is_some()
    }

    /// The version and kind are read as the model reads them (a quoted or typed scalar alike).
    fn claims_root(&self, root: &Node) -> bool {
        read_kinds::recognise(root).is_some()
    }

    fn check(&self, root: &Node, minor: u32, workspace: &Workspace, out: &mut Vec<Diagnostic>) {
        check(root, minor, workspace, out);
    }

    /// Evaluated by `policy::admission` (its request, traces and outcome), not as a family.
    fn evaluates(&self) -> bool {
        false
    }
}

/// Every diagnostic of the admission document `root`.
fn check(root: &Node, minor: u32, workspace: &Workspace, diagnostics: &mut Vec<Diagnostic>) {
    let Some((kind, version)) = read_kinds::recognise(root) else {
        return;
    };
    let def = crate::policy::fields::TypeDef::root(kind, version, minor);
    let document = read_kinds::document(root, kind, version);
    crate::policy::served::check(root, kind, version, minor, diagnostics);
    {
        let mut report = crate::policy::report::Report::new(diagnostics);
        // The API server rejects a value of the wrong kind while decoding, before any validation.
        let decoded = def.is_none_or(|def| crate::policy::decode::decode(root, &def, &mut report));
        if decoded {
            validate::validate(&document, &mut report);
        }
    }
    let sites = document.expression_sites();
    let parsed: Vec<_> = sites
        .iter()
        .map(|site| cel_syntax::parse(site, diagnostics))
        .collect();
    crate::policy::typecheck::check(&document, &sites, &parsed, minor, workspace, diagnostics);
    binding_reference(&document, workspace, diagnostics);
    same_name::check(&document, workspace, diagnostics);
    param_ref::check(&document, workspace, diagnostics);
}

/// `unresolved-reference` on a binding whose `policyName` names no policy of the workspace.
fn binding_reference(document: &PolicyDocument, workspace: &Workspace, out: &mut Vec<Diagnostic>) {
    let Some(spec) = document.binding_spec() else {
        return;
    };
    let kind = document.header().kind;
    let Some(name) = &spec.value.policy_name else {
        return;
    };
    let name = &name.value;
    if name.value.is_empty() || workspace.has_policy_for(kind, &name.value) {
        return;
    }
    let policy = kind.policy().name();
    out.push(Diagnostic::new(
        Code::UnresolvedReference,
        name.range,
        format!(
            "spec.policyName: no {policy} named '{}' in the workspace",
            name.value
        ),
    ));
}
