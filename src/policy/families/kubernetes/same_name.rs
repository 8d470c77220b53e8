//! Policies of one kind that share a name. The API server keys a policy by its name alone
//! (cluster-scoped), so applying every file of the workspace leaves one of them: `kubectl apply`
//! replaces the first with the second, `kubectl create` refuses the second as `AlreadyExists`.
//! Neither document is invalid on its own and neither fails at admission, so each gets a warning on
//! its `metadata.name`, in whichever files they are.

use crate::policy::model_kinds::PolicyDocument;
use crate::policy::workspace::Workspace;
use crate::policy::{Code, Diagnostic};

/// A `duplicate` warning on the name of a policy that another policy of its kind in the workspace
/// shares.
pub(super) fn check(document: &PolicyDocument, workspace: &Workspace, out: &mut Vec<Diagnostic>) {
    let kind = document.header().kind;
    if document.binding_spec().is_some() {
        return;
    }
    let Some(name) = document.header().name() else {
        return;
    };
    let name = &name.value;
    let count = workspace.policy_count(kind, &name.value);
    if name.value.is_empty() || count < 2 {
        return;
    }
    let message = format!(
        "metadata.name: {count} {} objects in the workspace are named '{}'; the API server keeps one object per name, so applying them all leaves only the last one applied (kubectl create refuses the others as AlreadyExists); rename one",
        kind.name(),
        name.value
    );
    out.push(Diagnostic::new(Code::Duplicate, name.range, message).advice());
}
