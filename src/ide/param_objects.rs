//! Go to definition from a binding's `paramRef.name` to the param object: the document of the
//! bound policy's `paramKind` (apiVersion and kind) with that `metadata.name`, and that
//! `metadata.namespace` when `paramRef.namespace` is set. The lookup scans the YAML of every file
//! of the snapshot; it is kept apart so it can be switched to a workspace index of param objects.

use crate::policy::model_kinds::BindingSpec;
use crate::policy::{PolicyDocument, PolicyKind};
use crate::text::TextSize;
use crate::yaml::Node;

use super::navigation::NavigationTarget;
use super::{Analysis, FileId};

/// What a param object must be: the paramKind's apiVersion and kind, its name and namespace.
pub(super) struct ParamQuery {
    api_version: String,
    kind: String,
    name: String,
    namespace: Option<String>,
}

impl Analysis {
    /// The param objects a binding's `paramRef.name` at `offset` names; `None` when the cursor is
    /// not on that name.
    pub(super) fn param_ref_definition(
        &self,
        binding: &BindingSpec,
        policy: PolicyKind,
        offset: TextSize,
    ) -> Option<Vec<NavigationTarget>> {
        let param_ref = &binding.param_ref.as_ref()?.value;
        let name = &param_ref.name.as_ref()?.value;
        if !name.range.contains_inclusive(offset) {
            return None;
        }
        let policy_name = &binding.policy_name.as_ref()?.value.value;
        let Some((api_version, kind)) = self.param_kind_of(policy, policy_name) else {
            return Some(Vec::new());
        };
        let query = ParamQuery {
            api_version,
            kind,
            name: name.value.clone(),
            namespace: param_ref.namespace.as_ref().map(|n| n.value.value.clone()),
        };
        Some(self.param_objects(&query))
    }

    /// The `paramKind` (apiVersion, kind) of the first policy of kind `policy` named `name`.
    fn param_kind_of(&self, policy: PolicyKind, name: &str) -> Option<(String, String)> {
        self.files.values().find_map(|text| {
            if !text.contains(name) {
                return None;
            }
            let yaml = crate::yaml::parse(text);
            crate::policy::read_file(text, &yaml)
                .iter()
                .filter(|document| document.header().kind == policy)
                .filter(|document| {
                    let header = document.header();
                    header.name().is_some_and(|n| n.value.value == name)
                })
                .find_map(param_kind)
        })
    }

    /// Every document matching `query`, in file order; the focus is its `metadata.name` value.
    pub(super) fn param_objects(&self, query: &ParamQuery) -> Vec<NavigationTarget> {
        let mut out = Vec::new();
        for (&file, text) in self.files.iter() {
            if !text.contains(query.name.as_str()) || !text.contains(query.kind.as_str()) {
                continue;
            }
            let yaml = crate::yaml::parse(text);
            let roots = yaml.documents.iter().filter_map(|d| d.root.as_ref());
            out.extend(roots.filter_map(|root| matching(file, root, query)));
        }
        out
    }
}

/// The target of `root` when it is the object `query` asks for.
fn matching(file: FileId, root: &Node, query: &ParamQuery) -> Option<NavigationTarget> {
    if text(root.get("apiVersion")) != Some(query.api_version.as_str())
        || text(root.get("kind")) != Some(query.kind.as_str())
    {
        return None;
    }
    let metadata = root.get("metadata")?;
    let name = metadata.get("name")?;
    if name.as_str() != Some(query.name.as_str()) {
        return None;
    }
    if let Some(namespace) = &query.namespace
        && text(metadata.get("namespace")) != Some(namespace.as_str())
    {
        return None;
    }
    Some(NavigationTarget {
        file,
        range: root.range,
        focus: name.range,
    })
}

/// The string value of `node`, if it is a scalar.
fn text(node: Option<&Node>) -> Option<&str> {
    node.and_then(Node::as_str)
}

/// A policy's `paramKind` apiVersion and kind.
fn param_kind(document: &PolicyDocument) -> Option<(String, String)> {
    let param = match document {
        PolicyDocument::ValidatingPolicy(_, spec) => spec.value.param_kind.as_ref(),
        PolicyDocument::MutatingPolicy(_, spec) => spec.value.param_kind.as_ref(),
        _ => None,
    }?;
    let api_version = param.value.api_version.as_ref()?.value.value.clone();
    let kind = param.value.kind.as_ref()?.value.value.clone();
    Some((api_version, kind))
}
