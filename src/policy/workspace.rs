//! What the checks of one file need to know about the others (resolved by content, whatever file
//! holds it): the CustomResourceDefinitions of the workspace (as matched kinds and paramKinds), the
//! names of the policies with their paramKind (for bindings), the objects a binding's `paramRef`
//! may name (identity and place only, never their bodies), and one shared schema registry per
//! Kubernetes version so that a kind's types are converted once however many policies use it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use super::PolicyKind;
use crate::schema::{CrdKind, Gvk, SchemaTypes, Scope};
use crate::text::TextRange;

pub mod private_types;
pub mod reads;

use reads::{Query, note};

/// An object of the workspace that a binding's `paramRef` may name: its identity and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamObject {
    /// Group, version and kind from `apiVersion` and `kind`.
    pub gvk: Gvk,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`, when written.
    pub namespace: Option<String>,
    /// The file it is in: the number the front-end gave the file when it added the file's facts
    /// with [`Workspace::extend_from_file`] (`ide::FileId.0`); 0 for a workspace of one file.
    pub file: u32,
    /// The whole document.
    pub range: TextRange,
    /// The `metadata.name` value: where navigation lands.
    pub name_range: TextRange,
}

/// The cross-file facts of a set of files. Build it once per snapshot; share it behind an `Arc`.
#[derive(Default)]
pub struct Workspace {
    crds: Vec<CrdKind>,
    /// Policy names with their paramKind, when it has one.
    validating: BTreeMap<String, Option<Gvk>>,
    mutating: BTreeMap<String, Option<Gvk>>,
    /// How many policies of each kind (`true` for mutating) have each name: applying them all
    /// keeps one per name.
    policy_counts: BTreeMap<(bool, String), usize>,
    objects: Vec<ParamObject>,
    /// Gatekeeper: each Constraint kind with the `(group, kind)` pairs its Constraints match.
    constraint_matches: BTreeMap<String, BTreeSet<(String, String)>>,
    types: Mutex<BTreeMap<u32, Arc<SchemaTypes>>>,
    /// Which workspace this is, for the registries private to a thread of a parallel check.
    instance: private_types::Instance,
}

impl fmt::Debug for Workspace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Workspace")
            .field("crds", &self.crds.len())
            .field("validating", &self.validating)
            .field("mutating", &self.mutating)
            .field("objects", &self.objects.len())
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
        self.validating.extend(other.validating.clone());
        self.mutating.extend(other.mutating.clone());
        for (key, count) in &other.policy_counts {
            *self.policy_counts.entry(key.clone()).or_default() += count;
        }
        self.objects.extend(other.objects.iter().cloned());
        for (kind, pairs) in &other.constraint_matches {
            let entry = self.constraint_matches.entry(kind.clone()).or_default();
            entry.extend(pairs.iter().cloned());
        }
    }

    /// [`extend`](Self::extend) with the facts of file number `file`: its objects are recorded as
    /// being in that file (see [`ParamObject::file`]).
    pub fn extend_from_file(&mut self, file: u32, other: &Workspace) {
        let start = self.objects.len();
        self.extend(other);
        for object in &mut self.objects[start..] {
            object.file = file;
        }
    }

    /// Records an object that a `paramRef` may name.
    pub fn add_object(&mut self, object: ParamObject) {
        self.objects.push(object);
    }

    /// The objects of the workspace whose group and kind are `gvk`'s, in file order, whatever
    /// their version (an object is served in every version of its kind): the candidates for a
    /// binding's `paramRef` when the policy's `paramKind` is `gvk`. Go to definition from
    /// `paramRef.name` picks the one whose [`ParamObject::name`] (and namespace) match.
    pub fn param_objects(&self, gvk: &Gvk) -> Vec<&ParamObject> {
        let objects: Vec<&ParamObject> = self
            .objects
            .iter()
            .filter(|o| o.gvk.group == gvk.group && o.gvk.kind == gvk.kind)
            .collect();
        note(|| Query::ParamObjects(gvk.clone()), identities(&objects));
        objects
    }

    /// The objects of [`param_objects`](Self::param_objects) that a `paramRef` with this `name`
    /// and `namespace` names: same name, and same namespace when one is given (a `paramRef`
    /// without a namespace looks in the request's namespace, so any namespace may hold it).
    pub fn param_objects_named(
        &self,
        gvk: &Gvk,
        name: &str,
        namespace: Option<&str>,
    ) -> Vec<&ParamObject> {
        let mut objects = self.param_objects(gvk);
        objects.retain(|o| {
            o.name == name && namespace.is_none_or(|ns| o.namespace.as_deref() == Some(ns))
        });
        objects
    }

    /// Records what a Gatekeeper Constraint of `kind` matches (`spec.match.kinds`).
    pub fn add_constraint_match(&mut self, kind: &str, pairs: Vec<(String, String)>) {
        let entry = self.constraint_matches.entry(kind.to_string()).or_default();
        entry.extend(pairs);
    }

    /// The `(group, kind)` pairs the Constraints of `kind` match, and whether any Constraint of
    /// `kind` was seen.
    pub fn constraint_matches(&self, kind: &str) -> Option<&BTreeSet<(String, String)>> {
        self.constraint_matches.get(kind)
    }

    /// Every served version `version` of the CRD kind `group`/`kind` the workspace has (several
    /// files may define it), in file order; [`Workspace::types`] types the kind from the last.
    pub fn crd_kinds(&self, group: &str, version: &str, kind: &str) -> Vec<&CrdKind> {
        self.crds
            .iter()
            .filter(|crd| {
                crd.gvk.group == group && crd.gvk.version == version && crd.gvk.kind == kind
            })
            .collect()
    }

    /// Adds the served versions of one CRD.
    pub fn add_crd_kinds(&mut self, kinds: Vec<CrdKind>) {
        self.crds.extend(kinds);
    }

    /// Records a policy's name and paramKind, so that bindings naming it resolve.
    pub fn add_policy(&mut self, kind: PolicyKind, name: &str, param_kind: Option<Gvk>) {
        let policies = match kind {
            PolicyKind::ValidatingPolicy => &mut self.validating,
            PolicyKind::MutatingPolicy => &mut self.mutating,
            PolicyKind::ValidatingBinding | PolicyKind::MutatingBinding => return,
        };
        policies.insert(name.to_string(), param_kind);
        let key = (kind == PolicyKind::MutatingPolicy, name.to_string());
        *self.policy_counts.entry(key).or_default() += 1;
    }

    /// How many policies of kind `kind` named `name` the workspace holds.
    pub fn policy_count(&self, kind: PolicyKind, name: &str) -> usize {
        let key = (kind == PolicyKind::MutatingPolicy, name.to_string());
        let count = self.policy_counts.get(&key).copied().unwrap_or(0);
        note(|| Query::PolicyCount(kind, name.to_string()), count);
        count
    }

    /// Whether a binding of kind `binding` may name `policy`: a policy of the matching kind exists.
    pub fn has_policy_for(&self, binding: PolicyKind, policy: &str) -> bool {
        let has = match binding {
            PolicyKind::ValidatingBinding => self.validating.contains_key(policy),
            PolicyKind::MutatingBinding => self.mutating.contains_key(policy),
            PolicyKind::ValidatingPolicy | PolicyKind::MutatingPolicy => true,
        };
        note(|| Query::HasPolicyFor(binding, policy.to_string()), has);
        has
    }

    /// The paramKind of the policy a binding of kind `binding` names, when that policy is in the
    /// workspace and has one.
    pub fn param_kind_for(&self, binding: PolicyKind, policy: &str) -> Option<&Gvk> {
        let found = self.lookup_param_kind(binding, policy);
        note(|| Query::ParamKindFor(binding, policy.to_string()), found);
        found
    }

    fn lookup_param_kind(&self, binding: PolicyKind, policy: &str) -> Option<&Gvk> {
        let policies = match binding {
            PolicyKind::ValidatingBinding => &self.validating,
            PolicyKind::MutatingBinding => &self.mutating,
            PolicyKind::ValidatingPolicy | PolicyKind::MutatingPolicy => return None,
        };
        policies.get(policy)?.as_ref()
    }

    /// The kinds the policies of the workspace take their params from (`spec.paramKind`), sorted.
    pub fn param_kinds(&self) -> BTreeSet<&Gvk> {
        let kinds: BTreeSet<&Gvk> = self
            .validating
            .values()
            .chain(self.mutating.values())
            .flatten()
            .collect();
        note(|| Query::ParamKinds, &kinds);
        kinds
    }

    /// The answer to `query` now, hashed as [`reads::note`] recorded it (recording nothing).
    fn answer(&self, query: &Query) -> u64 {
        use reads::hash_of as hash;
        match query {
            Query::PolicyCount(kind, name) => {
                let key = (*kind == PolicyKind::MutatingPolicy, name.clone());
                hash(self.policy_counts.get(&key).copied().unwrap_or(0))
            }
            Query::HasPolicyFor(binding, policy) => hash(match binding {
                PolicyKind::ValidatingBinding => self.validating.contains_key(policy),
                PolicyKind::MutatingBinding => self.mutating.contains_key(policy),
                PolicyKind::ValidatingPolicy | PolicyKind::MutatingPolicy => true,
            }),
            Query::ParamKindFor(binding, policy) => hash(self.lookup_param_kind(*binding, policy)),
            Query::ParamObjects(gvk) => {
                let objects = self
                    .objects
                    .iter()
                    .filter(|o| o.gvk.group == gvk.group && o.gvk.kind == gvk.kind);
                hash(identities(&objects.collect::<Vec<_>>()))
            }
            Query::ParamKinds => {
                let kinds = self.validating.values().chain(self.mutating.values());
                hash(kinds.flatten().collect::<BTreeSet<&Gvk>>())
            }
        }
    }

    /// The scope of a kind the workspace defines with a CRD (any served version), if it does.
    pub fn crd_scope(&self, group: &str, kind: &str) -> Option<Scope> {
        self.crds
            .iter()
            .find(|c| c.gvk.group == group && c.gvk.kind == kind)
            .map(|c| c.scope)
    }

    /// The CRD kinds whose group, version and plural match exactly.
    pub fn crd_resources(&self, group: &str, version: &str, plural: &str) -> Vec<Gvk> {
        self.crds
            .iter()
            .filter(|c| c.gvk.group == group && c.gvk.version == version && c.plural == plural)
            .map(|c| c.gvk.clone())
            .collect()
    }

    /// A hash of everything the checks of a document read from the workspace: the CRDs with their
    /// schemas, the policy names with their paramKinds, and the identity of every object. Places
    /// (files, ranges) are left out, since they move on every edit and no diagnostic reads them;
    /// order is kept, since lookups take the first match. Equal workspaces give equal hashes.
    pub fn fingerprint(&self) -> u64 {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.hash_crds(&mut hasher);
        self.validating.hash(&mut hasher);
        self.mutating.hash(&mut hasher);
        self.policy_counts.hash(&mut hasher);
        for object in &self.objects {
            (&object.gvk, &object.name, &object.namespace).hash(&mut hasher);
        }
        self.constraint_matches.hash(&mut hasher);
        hasher.finish()
    }

    /// A hash of what the checks read from the workspace other than through the lookups
    /// [`reads::recording`] records: the CRDs with their schemas and Gatekeeper's constraint
    /// matches. Two workspaces with equal base fingerprints differ at most in policy names and
    /// objects, which a check's recorded [`reads::Reads`] then tell apart.
    pub fn base_fingerprint(&self) -> u64 {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.hash_crds(&mut hasher);
        self.constraint_matches.hash(&mut hasher);
        hasher.finish()
    }

    /// A hash of the CRDs alone (what [`Workspace::types`] is built from).
    pub fn crd_fingerprint(&self) -> u64 {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        self.hash_crds(&mut hasher);
        hasher.finish()
    }

    /// Takes the schema types `previous` has converted so far, for a workspace with the same CRDs
    /// (the caller compares [`Workspace::crd_fingerprint`]s): a keystroke that changes no CRD
    /// does not convert the types of Deployment again.
    pub fn adopt_types(&self, previous: &Workspace) {
        let converted = previous
            .types
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        *self.types.lock().unwrap_or_else(|e| e.into_inner()) = converted;
    }

    fn hash_crds(&self, hasher: &mut impl Hasher) {
        for crd in &self.crds {
            (
                &crd.gvk,
                &crd.plural,
                crd.scope,
                crd.storage,
                &crd.subresources,
            )
                .hash(hasher);
            let schema = crd.schema.as_ref().map(|s| s.to_string());
            schema.hash(hasher);
        }
    }

    /// The schema registry of Kubernetes 1.`minor`, with every CRD of the workspace registered.
    /// Shared: converted types are cached across every policy checked against this workspace (on
    /// a thread of a parallel check, across the policies that thread checks: [`private_types`]).
    pub fn types(&self, minor: u32) -> Arc<SchemaTypes> {
        if let Some(types) = private_types::lookup(self.instance, minor, || self.new_types(minor)) {
            return types;
        }
        let mut cache = self.types.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .entry(minor)
            .or_insert_with(|| Arc::new(self.new_types(minor)))
            .clone()
    }

    fn new_types(&self, minor: u32) -> SchemaTypes {
        let types = SchemaTypes::new(minor);
        for crd in self.crds.iter().filter(|c| c.schema.is_some()) {
            types.register_crd(crd);
        }
        types
    }
}

/// What a lookup of objects answers, as far as a diagnostic reads it: their identities, without
/// the places that move with every edit.
fn identities<'a>(objects: &[&'a ParamObject]) -> Vec<(&'a Gvk, &'a str, Option<&'a str>)> {
    let identity = |o: &&'a ParamObject| (&o.gvk, o.name.as_str(), o.namespace.as_deref());
    objects.iter().map(identity).collect()
}
