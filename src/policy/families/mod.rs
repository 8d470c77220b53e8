//! Document families: each family of CEL-bearing documents (Kyverno's policies today) declares in its
//! own module which `apiVersion`/`kind` it claims, how its documents are checked (structure, CEL
//! syntax, typed CEL) and what its expression sites are, behind the [`Family`] trait. The checker
//! asks [`claiming`] once per document; a new family is one module and one line in [`FAMILIES`].
//!
//! The Kubernetes admission kinds, CRD rules and webhooks still have their own paths in
//! `policy/mod.rs`; they move behind this trait next.

pub mod kyverno;

use super::Diagnostic;
use super::workspace::Workspace;
use crate::text::TextRange;
use crate::yaml::{Node, SourceMap};

/// One CEL expression of a family's document, for the checker and the editor features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilySite {
    /// The field path, e.g. `spec.validations[0].expression`.
    pub path: String,
    /// The name of the variable or match condition, if it has one.
    pub name: Option<String>,
    /// What the expression is for, in the family's words (`validation`, `variable`…).
    pub role: &'static str,
    /// The text the family's engine compiles.
    pub text: String,
    /// Decoded scalar offsets → file offsets.
    pub source_map: SourceMap,
    /// The scalar's range in the file.
    pub range: TextRange,
}

/// A family of documents: what it claims and how its documents are checked.
pub trait Family: Sync {
    /// The API groups the family's documents are written in (for "no policy here" notes).
    fn groups(&self) -> &'static [&'static str];
    /// Whether a document of `api_version` and `kind` belongs to the family (also when the version
    /// or kind is unknown to it: it reports those itself).
    fn claims(&self, api_version: &str, kind: &str) -> bool;
    /// Every diagnostic of a claimed document: structure, CEL syntax, typed CEL.
    fn check(&self, root: &Node, minor: u32, workspace: &Workspace, out: &mut Vec<Diagnostic>);
    /// The expression sites of a claimed document, in field order.
    fn sites(&self, root: &Node) -> Vec<FamilySite>;
}

/// Every registered family; the one place a family is added.
pub static FAMILIES: &[&dyn Family] = &[&kyverno::Kyverno];

/// The family that claims the document at `root`, if any.
pub fn claiming(root: &Node) -> Option<&'static dyn Family> {
    let api_version = root.get("apiVersion").and_then(Node::as_str)?;
    let kind = root.get("kind").and_then(Node::as_str).unwrap_or("");
    FAMILIES
        .iter()
        .copied()
        .find(|family| family.claims(api_version, kind))
}

/// The API groups of every family (`policies.kyverno.io`…).
pub fn groups() -> impl Iterator<Item = &'static str> {
    FAMILIES
        .iter()
        .flat_map(|family| family.groups().iter().copied())
}
