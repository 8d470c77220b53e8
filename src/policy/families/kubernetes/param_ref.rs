//! A binding's `paramRef` against the workspace, once the policy it names is found there with a
//! `paramKind`:
//!
//! - `paramRef.namespace` for a cluster-scoped paramKind is `forbidden`: the API server accepts
//!   the binding but fails every request it matches ("paramRef.namespace must not be provided for
//!   a cluster-scoped `paramKind`", generic `policy_dispatcher.go`). Scope comes from the CRD
//!   (`spec.scope`) or, for built-in kinds, from the list of cluster-scoped built-ins
//!   ([`crate::schema::resources::is_namespaced`]); an unknown kind is not judged.
//! - `paramRef.name` naming no object of the paramKind is an `unresolved-reference` warning, but
//!   only when the workspace holds at least one object of that kind: many repositories keep their
//!   params out of the policy folder, and a warning on every binding of theirs would be noise. An
//!   object matches by group, kind and name, and by namespace when `paramRef.namespace` is set
//!   (without it, the request's namespace is used, so any namespace may hold it).

use crate::policy::model_kinds::{ParamRef, PolicyDocument};
use crate::policy::workspace::Workspace;
use crate::policy::{Code, Diagnostic};
use crate::schema::{Gvk, Scope, bundled, resources::is_namespaced};

/// Adds the diagnostics of `document`'s `paramRef`, if it is a binding with one.
pub fn check(document: &PolicyDocument, workspace: &Workspace, out: &mut Vec<Diagnostic>) {
    let Some(spec) = document.binding_spec() else {
        return;
    };
    let kind = document.header().kind;
    let Some(policy) = &spec.value.policy_name else {
        return;
    };
    let Some(param_kind) = workspace.param_kind_for(kind, &policy.value.value) else {
        return;
    };
    let Some(param_ref) = &spec.value.param_ref else {
        return;
    };
    cluster_scoped_namespace(&param_ref.value, param_kind, workspace, out);
    missing_object(&param_ref.value, param_kind, workspace, out);
}

/// Whether objects of `gvk` are cluster-scoped; `None` when the kind is neither a CRD of the
/// workspace nor a bundled kind.
fn cluster_scoped(gvk: &Gvk, workspace: &Workspace) -> Option<bool> {
    if let Some(scope) = workspace.crd_scope(&gvk.group, &gvk.kind) {
        return Some(scope == Scope::Cluster);
    }
    let bundled = bundled::versions()
        .iter()
        .rev()
        .any(|minor| bundled::lookup_kind(*minor, &gvk.group, &gvk.version, &gvk.kind).is_some());
    bundled.then(|| !is_namespaced(&gvk.group, &gvk.kind))
}

fn cluster_scoped_namespace(
    param_ref: &ParamRef,
    param_kind: &Gvk,
    workspace: &Workspace,
    out: &mut Vec<Diagnostic>,
) {
    let Some(namespace) = &param_ref.namespace else {
        return;
    };
    if namespace.value.value.is_empty() || cluster_scoped(param_kind, workspace) != Some(true) {
        return;
    }
    let message = format!(
        "spec.paramRef.namespace: Forbidden: paramRef.namespace must not be provided for a cluster-scoped `paramKind` ({})",
        crate::policy::kind_label(param_kind)
    );
    out.push(Diagnostic::new(Code::Forbidden, namespace.report_range(), message).at_runtime());
}

fn missing_object(
    param_ref: &ParamRef,
    param_kind: &Gvk,
    workspace: &Workspace,
    out: &mut Vec<Diagnostic>,
) {
    let Some(name) = &param_ref.name else {
        return;
    };
    let name = &name.value;
    if name.value.is_empty() || workspace.param_objects(param_kind).is_empty() {
        return;
    }
    let namespace = param_ref.namespace_value();
    if !workspace
        .param_objects_named(param_kind, &name.value, namespace)
        .is_empty()
    {
        return;
    }
    let place = namespace.map_or(String::new(), |ns| format!(" in namespace '{ns}'"));
    let message = format!(
        "spec.paramRef.name: no {} named '{}'{place} in the workspace, which has other objects of that kind",
        param_kind.kind, name.value
    );
    out.push(Diagnostic::new(
        Code::UnresolvedReference,
        name.range,
        message,
    ));
}
