//! Go to definition: from `variables.x` to the variable's name, from a binding's `policyName` to
//! the policy (in any file of the workspace), from a `paramKind` to the CustomResourceDefinition
//! that defines the kind, from a binding's `paramRef.name` to the param object (found in the
//! workspace's index of objects, [`crate::policy::Workspace::param_objects`]).

use crate::cel::check::Reference;
use crate::policy::model_kinds::BindingSpec;
use crate::policy::{PolicyDocument, PolicyKind};
use crate::text::{TextRange, TextSize};
use crate::yaml::Node;

use super::{Analysis, DiagnosticsConfig, FileId};

/// A place to jump to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NavigationTarget {
    /// The file.
    pub file: FileId,
    /// The whole definition.
    pub range: TextRange,
    /// The name inside it, highlighted on arrival.
    pub focus: TextRange,
}

impl Analysis {
    /// The definitions of what is at `offset` of `file` (empty where there is none).
    pub fn goto_definition(
        &self,
        file: FileId,
        offset: TextSize,
        config: &DiagnosticsConfig,
    ) -> Vec<NavigationTarget> {
        let Some(context) = self.file_context(file, config) else {
            return Vec::new();
        };
        if let Some(cursor) = context.cel_at(offset) {
            let Some(id) = cursor.node() else {
                return Vec::new();
            };
            let Some(Reference::Field { owner, name, .. }) = cursor.checked.reference(id) else {
                return Vec::new();
            };
            if &**owner != "kubernetes.variables" {
                return Vec::new();
            }
            let definition = cursor.definitions.iter().find(|d| &d.name == name);
            return definition
                .map(|d| NavigationTarget {
                    file,
                    range: d.range,
                    focus: d.name_range,
                })
                .into_iter()
                .collect();
        }
        let models = context.parsed.models_in(TextRange::empty(offset));
        let inside = |range: TextRange| range.contains_inclusive(offset);
        for document in models.iter().map(|model| &model.document) {
            match document {
                PolicyDocument::ValidatingBinding(_, spec)
                | PolicyDocument::MutatingBinding(_, spec) => {
                    let kind = policy_kind_of(document);
                    let binding = document.header().kind;
                    if let Some(targets) = self.param_ref_definition(&spec.value, binding, offset) {
                        return targets;
                    }
                    let Some(name) = &spec.value.policy_name else {
                        continue;
                    };
                    if inside(name.value.range) {
                        return self.policies_named(kind, &name.value.value);
                    }
                }
                _ => {
                    let Some((kind, range)) = param_kind(document) else {
                        continue;
                    };
                    if inside(range) {
                        return self.crds_of_kind(&kind);
                    }
                }
            }
        }
        Vec::new()
    }

    /// The param objects a binding's `paramRef.name` at `offset` names: objects of the bound
    /// policy's `paramKind` with that `metadata.name` (and that `metadata.namespace` when
    /// `paramRef.namespace` is set), in file order; `None` when the cursor is not on that name.
    fn param_ref_definition(
        &self,
        spec: &BindingSpec,
        binding: PolicyKind,
        offset: TextSize,
    ) -> Option<Vec<NavigationTarget>> {
        let param_ref = &spec.param_ref.as_ref()?.value;
        let name = &param_ref.name.as_ref()?.value;
        if !name.range.contains_inclusive(offset) {
            return None;
        }
        let policy_name = &spec.policy_name.as_ref()?.value.value;
        let workspace = self.workspace();
        let Some(gvk) = workspace.param_kind_for(binding, policy_name) else {
            return Some(Vec::new());
        };
        let namespace = param_ref.namespace_value();
        let targets = workspace
            .param_objects_named(gvk, &name.value, namespace)
            .into_iter()
            .map(|object| NavigationTarget {
                file: FileId(object.file),
                range: object.range,
                focus: object.name_range,
            });
        Some(targets.collect())
    }

    /// Every policy of `kind` named `name`, in any file.
    fn policies_named(&self, kind: PolicyKind, name: &str) -> Vec<NavigationTarget> {
        let mut out = Vec::new();
        for (file, parsed) in self.parsed_mentioning(&[name]) {
            for model in parsed.all_models() {
                let header = model.document.header();
                let Some(field) = header.name() else { continue };
                if header.kind == kind && field.value.value == name {
                    out.push(NavigationTarget {
                        file,
                        range: header.range,
                        focus: field.value.range,
                    });
                }
            }
        }
        out
    }

    /// Every CustomResourceDefinition whose `spec.names.kind` is `kind`, in any file.
    fn crds_of_kind(&self, kind: &str) -> Vec<NavigationTarget> {
        let mut out = Vec::new();
        for (file, parsed) in self.parsed_mentioning(&["CustomResourceDefinition"]) {
            for document in &parsed.yaml.documents {
                let Some(root) = &document.root else { continue };
                if root.get("kind").and_then(Node::as_str) != Some("CustomResourceDefinition") {
                    continue;
                }
                let names = root.get("spec").and_then(|s| s.get("names"));
                let Some(node) = names.and_then(|n| n.get("kind")) else {
                    continue;
                };
                if node.as_str() == Some(kind) {
                    out.push(NavigationTarget {
                        file,
                        range: root.range,
                        focus: node.range,
                    });
                }
            }
        }
        out
    }
}

/// The kind of policy a binding binds.
fn policy_kind_of(document: &PolicyDocument) -> PolicyKind {
    match document {
        PolicyDocument::MutatingBinding(..) => PolicyKind::MutatingPolicy,
        _ => PolicyKind::ValidatingPolicy,
    }
}

/// A policy's `paramKind.kind` and the range of the whole `paramKind`.
fn param_kind(document: &PolicyDocument) -> Option<(String, TextRange)> {
    let param = match document {
        PolicyDocument::ValidatingPolicy(_, spec) => spec.value.param_kind.as_ref(),
        PolicyDocument::MutatingPolicy(_, spec) => spec.value.param_kind.as_ref(),
        _ => None,
    }?;
    let kind = param.value.kind.as_ref()?;
    Some((kind.value.value.clone(), param.value.place.range))
}
