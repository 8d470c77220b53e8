//! What the checks of one file need to know about the others ("resolution by content", design
//! §2/§7.2): the CustomResourceDefinitions of the workspace (as matched kinds and paramKinds), the
//! names of the policies (for bindings), and one shared schema registry per Kubernetes version so
//! that a kind's types are converted once however many policies use it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, Mutex};

use super::PolicyKind;
use crate::schema::{CrdKind, Gvk, SchemaTypes};

/// The cross-file facts of a set of files. Build it once per snapshot; share it behind an `Arc`.
#[derive(Default)]
pub struct Workspace {
    crds: Vec<CrdKind>,
    validating: BTreeSet<String>,
    mutating: BTreeSet<String>,
    types: Mutex<BTreeMap<u32, Arc<SchemaTypes>>>,
}

impl fmt::Debug for Workspace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Workspace")
            .field("crds", &self.crds.len())
            .field("validating", &self.validating)
            .field("mutating", &self.mutating)
            .finish()
    }
}

impl Workspace {
    /// An empty workspace.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds everything `other` knows (the facts of one more file).
    pub fn extend(&mut self, other: &Workspace) {
        self.crds.extend(other.crds.iter().cloned());
        self.validating.extend(other.validating.iter().cloned());
        self.mutating.extend(other.mutating.iter().cloned());
    }

    /// Adds the served versions of one CRD.
    pub fn add_crd_kinds(&mut self, kinds: Vec<CrdKind>) {
        self.crds.extend(kinds);
    }

    /// Records a policy's name, so that bindings naming it resolve.
    pub fn add_policy(&mut self, kind: PolicyKind, name: &str) {
        match kind {
            PolicyKind::ValidatingPolicy => self.validating.insert(name.to_string()),
            PolicyKind::MutatingPolicy => self.mutating.insert(name.to_string()),
            PolicyKind::ValidatingBinding | PolicyKind::MutatingBinding => false,
        };
    }

    /// Whether a binding of kind `binding` may name `policy`: a policy of the matching kind exists.
    pub fn has_policy_for(&self, binding: PolicyKind, policy: &str) -> bool {
        match binding {
            PolicyKind::ValidatingBinding => self.validating.contains(policy),
            PolicyKind::MutatingBinding => self.mutating.contains(policy),
            PolicyKind::ValidatingPolicy | PolicyKind::MutatingPolicy => true,
        }
    }

    /// The CRD kinds whose group, version and plural match exactly.
    pub fn crd_resources(&self, group: &str, version: &str, plural: &str) -> Vec<Gvk> {
        self.crds
            .iter()
            .filter(|c| c.gvk.group == group && c.gvk.version == version && c.plural == plural)
            .map(|c| c.gvk.clone())
            .collect()
    }

    /// The schema registry of Kubernetes 1.`minor`, with every CRD of the workspace registered.
    /// Shared: converted types are cached across every policy checked against this workspace.
    pub fn types(&self, minor: u32) -> Arc<SchemaTypes> {
        let mut cache = self.types.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .entry(minor)
            .or_insert_with(|| {
                let types = SchemaTypes::new(minor);
                for crd in self.crds.iter().filter(|c| c.schema.is_some()) {
                    types.register_crd(crd);
                }
                Arc::new(types)
            })
            .clone()
    }
}
