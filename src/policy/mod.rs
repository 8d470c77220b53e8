//! Admission policies read from the YAML tree: the model of ValidatingAdmissionPolicy,
//! MutatingAdmissionPolicy and their bindings (every field keeps its range), structural validation as
//! the API server does it, and the CEL expression sites with their role and source map.
//!
//! No I/O: files come in as text and a parsed `yaml::YamlFile`. Documents of other kinds are ignored.

pub mod admission;
mod cel_syntax;
mod code_docs;
mod decode;
pub mod diagnostic;
pub mod fields;
pub mod model;
pub mod model_kinds;
pub mod names;
mod node;
mod read;
mod read_kinds;
mod report;
pub mod sites;
pub mod suite;
mod validate;

pub use diagnostic::{Code, Diagnostic, Severity};
pub use model::{ApiVersion, Field, List, PolicyKind, Ranged, Text};
pub use model_kinds::PolicyDocument;
pub use sites::{ExpressionSite, ResultType, SiteRole};

use crate::yaml::{Node, YamlFile};

/// Options that change what a check reports.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// Target Kubernetes minor version (1.NN → NN); `None` means the newest supported.
    pub kube_minor: Option<u32>,
}

/// Every diagnostic for one file: structure and CEL syntax of every admission document in it.
/// YAML syntax errors are not included (the caller reports those from the `YamlFile`).
pub fn check_file(text: &str, yaml: &YamlFile, config: &CheckConfig) -> Vec<Diagnostic> {
    let _ = (text, config);
    let mut diagnostics = Vec::new();
    for root in admission_roots(yaml) {
        check_document(root, &mut diagnostics);
    }
    diagnostics
}

/// Every admission document of a file, read into the model.
pub fn read_file(text: &str, yaml: &YamlFile) -> Vec<PolicyDocument> {
    let _ = text;
    admission_roots(yaml)
        .filter_map(|root| {
            let (kind, version) = read_kinds::recognise(root)?;
            Some(read_kinds::document(root, kind, version))
        })
        .collect()
}

/// Roots of the documents that parsed cleanly; a partial tree would only produce noise.
fn admission_roots(yaml: &YamlFile) -> impl Iterator<Item = &Node> {
    yaml.documents
        .iter()
        .filter(|d| !d.has_errors)
        .filter_map(|d| d.root.as_ref())
}

fn check_document(root: &Node, diagnostics: &mut Vec<Diagnostic>) {
    let Some((kind, version)) = read_kinds::recognise(root) else {
        return;
    };
    let def = match kind {
        PolicyKind::ValidatingPolicy => &fields::VAP,
        PolicyKind::ValidatingBinding => &fields::VAPB,
        PolicyKind::MutatingPolicy => &fields::MAP,
        PolicyKind::MutatingBinding => &fields::MAPB,
    };
    let document = read_kinds::document(root, kind, version);
    {
        let mut report = report::Report::new(diagnostics);
        // The API server rejects a value of the wrong kind while decoding, before any validation.
        if decode::decode(root, def, &mut report) {
            validate::validate(&document, &mut report);
        }
    }
    for site in document.expression_sites() {
        cel_syntax::check(&site, diagnostics);
    }
}
