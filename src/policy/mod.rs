//! Admission policies read from the YAML tree: the model of ValidatingAdmissionPolicy,
//! MutatingAdmissionPolicy and their bindings (every field keeps its range), structural validation as
//! the API server does it, and the CEL expression sites with their role and source map.
//!
//! Each document is checked by the family that claims it (`families/`: the admission kinds,
//! CRD rules, webhook configurations, Kyverno…); documents no family claims are ignored.
//!
//! No I/O: files come in as text and a parsed `yaml::YamlFile`.

pub mod admission;
pub mod allowed;
pub mod apiserver;
mod cel_syntax;
mod code_docs;
mod crds;
mod decode;
pub mod diagnostic;
pub mod families;
pub mod fields;
mod list;
pub mod markers;
pub mod model;
pub mod model_kinds;
pub mod names;
mod node;
mod read;
pub(crate) mod read_kinds;
mod report;
pub(crate) mod served;
pub mod sites;
pub mod static_manifest;
pub mod suite;
mod typecheck;
pub mod workspace;

pub use admission::json::yaml_to_json;
pub use crds::index_file;
pub use diagnostic::{Code, Diagnostic, Severity};
pub use model::{ApiVersion, Field, List, PolicyKind, Ranged, Text};
pub use model_kinds::PolicyDocument;
pub use sites::{ExpressionSite, ResultType, SiteRole};
pub use typecheck::{MAX_KINDS, kind_label, matched_kinds};

/// Reads now what the first check against Kubernetes 1.`minor` reads first: the bundled schema
/// index of the version its types come from (inflated and decoded on first use).
pub fn prepare_schemas(minor: u32) {
    let _ = crate::schema::bundled::kinds(typecheck::schema_minor(minor));
}
pub(crate) use typecheck::{editor_schema_types, site_env, site_results, thousands};
pub use workspace::Workspace;

use crate::schema::KubeVersion;
use crate::yaml::{Document, Node, YamlFile};

/// Options that change what a check reports.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// Target Kubernetes version.
    pub kube_version: KubeVersion,
}

/// Every diagnostic for one file checked on its own (the file is the whole workspace): structure,
/// CEL syntax and both type checks of every admission document in it, and its unusable CRDs.
/// YAML syntax errors are not included (the caller reports those from the `YamlFile`).
pub fn check_file(text: &str, yaml: &YamlFile, config: &CheckConfig) -> Vec<Diagnostic> {
    let mut workspace = Workspace::new();
    let mut diagnostics = index_file(yaml, &mut workspace);
    diagnostics.extend(check_file_in(text, yaml, config, &workspace));
    diagnostics
}

/// The diagnostics of the admission documents of one file, with cross-file references resolved
/// in `workspace` (CRDs, policy names). CRD diagnostics come from [`index_file`].
pub fn check_file_in(
    text: &str,
    yaml: &YamlFile,
    config: &CheckConfig,
    workspace: &Workspace,
) -> Vec<Diagnostic> {
    let _ = text;
    let minor = config.kube_version.minor();
    let roots: Vec<&Node> = admission_roots(yaml).collect();
    let found = map_documents(&roots, |root| check_root(root, minor, workspace));
    found.into_iter().flatten().collect()
}

/// `check` of each of `roots`, in order. Documents are checked independently, so a file of many
/// uses several threads, each typing with schema registries of its own
/// ([`workspace::private_types`]).
pub fn map_documents<T: Sync, R: Send>(roots: &[T], check: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let split = crate::text::parallel::splits(roots.len(), DOCUMENTS_PER_THREAD);
    let _private = split.then(workspace::private_types::on_this_thread);
    crate::text::parallel::map_chunks(roots, DOCUMENTS_PER_THREAD, |root| {
        if split {
            workspace::private_types::for_this_thread();
        }
        check(root)
    })
}

/// The diagnostics of one document, by the root of a document that [`checked_root`] returned.
/// They depend on nothing but the tree under `root`, `minor` and `workspace`: the editor reuses
/// them while these stay the same.
/// A list document (`kind: List` with `items`) is checked item by item, as kubectl applies it.
pub fn check_root(root: &Node, minor: u32, workspace: &Workspace) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for object in list::objects(root) {
        check_document(object, minor, workspace, &mut diagnostics);
    }
    static_manifest::check_named(root, minor, &mut diagnostics);
    diagnostics
}

/// The fewest documents worth a thread of their own (a typical policy checks in about 0.2 ms).
pub const DOCUMENTS_PER_THREAD: usize = 32;

/// Every admission document of a file, read into the model.
pub fn read_file(text: &str, yaml: &YamlFile) -> Vec<PolicyDocument> {
    let _ = text;
    yaml.documents.iter().filter_map(read_document).collect()
}

/// The model of one YAML document, if it parsed cleanly and is an admission document (editor
/// requests at a cursor read the document there only).
pub fn read_document(document: &Document) -> Option<PolicyDocument> {
    let root = checked_root(document)?;
    let (kind, version) = read_kinds::recognise(root)?;
    Some(read_kinds::document(root, kind, version))
}

/// Roots of the documents that parsed cleanly; a partial tree would only produce noise.
fn admission_roots(yaml: &YamlFile) -> impl Iterator<Item = &Node> {
    yaml.documents.iter().filter_map(checked_root)
}

/// The root of a document that is checked: one that parsed cleanly and is not empty.
pub fn checked_root(document: &Document) -> Option<&Node> {
    document.root.as_ref().filter(|_| !document.has_errors)
}

/// The diagnostics of one document: those of the family that claims it (none for a document no
/// family claims).
fn check_document(
    root: &Node,
    minor: u32,
    workspace: &Workspace,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if let Some(family) = families::claiming(root) {
        family.check(root, minor, workspace, diagnostics);
    }
}
