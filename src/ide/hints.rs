//! Inlay hints: the type of each policy variable, shown after its name, from the same typed
//! check as hover (first matched kind, else the acceptance environment).

use crate::cel::ast::Ast;
use crate::policy::{PolicyDocument, SiteRole};
use crate::text::{TextRange, TextSize};

use super::{Analysis, DiagnosticsConfig, FileId};

/// A hint: a label shown at an offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    /// Where the label goes (after the variable's name).
    pub offset: TextSize,
    /// The label, e.g. `: int`.
    pub label: String,
}

impl Analysis {
    /// The hints of `file` inside `range`, in file order.
    pub fn inlay_hints(
        &self,
        file: FileId,
        range: TextRange,
        config: &DiagnosticsConfig,
    ) -> Vec<InlayHint> {
        let Some(text) = self.file_text(file) else {
            return Vec::new();
        };
        let minor = config
            .kube_minor
            .unwrap_or_else(crate::schema::bundled::newest);
        let workspace = self.workspace();
        let yaml = crate::yaml::parse(&text);
        let mut out = Vec::new();
        for document in crate::policy::read_file(&text, &yaml) {
            out.extend(variable_hints(&document, minor, &workspace));
        }
        out.retain(|hint| range.contains_inclusive(hint.offset));
        out
    }
}

fn variable_hints(
    document: &PolicyDocument,
    minor: u32,
    workspace: &crate::policy::Workspace,
) -> Vec<InlayHint> {
    let names = variable_names(document);
    if names.is_empty() {
        return Vec::new();
    }
    let sites = document.expression_sites();
    let parsed: Vec<Option<Ast>> = sites
        .iter()
        .map(|site| {
            let parsed = crate::cel::parse(&site.text);
            parsed.is_ok().then_some(parsed.ast)
        })
        .collect();
    let results = crate::policy::site_results(document, &sites, &parsed, minor, workspace);
    let mut out = Vec::new();
    for (site, checked) in sites.iter().zip(&results) {
        let (Some(name), Some(checked)) = (&site.name, checked) else {
            continue;
        };
        if site.role != SiteRole::Variable || checked.result.is_error() {
            continue;
        }
        let Some((_, at)) = names.iter().find(|(n, _)| n == name) else {
            continue;
        };
        out.push(InlayHint {
            offset: *at,
            label: format!(": {}", checked.result.short()),
        });
    }
    out
}

/// Each variable's name and the end of its name's value.
fn variable_names(document: &PolicyDocument) -> Vec<(String, TextSize)> {
    let variables = match document {
        PolicyDocument::ValidatingPolicy(_, spec) => spec.value.variables.as_ref(),
        PolicyDocument::MutatingPolicy(_, spec) => spec.value.variables.as_ref(),
        _ => None,
    };
    let items = variables
        .map(|list| list.value.items.as_slice())
        .unwrap_or_default();
    items
        .iter()
        .filter_map(|v| v.name.as_ref())
        .map(|name| (name.value.value.clone(), name.value.range.end()))
        .collect()
}
