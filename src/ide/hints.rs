//! Inlay hints, from the same typed check as hover (first matched kind, else the acceptance
//! environment):
//!
//! - the type of each policy variable, after its name;
//! - the type of each expression whose result is not fixed by its field, after the expression:
//!   `messageExpression`, `auditAnnotations[].valueExpression` and mutation expressions (where
//!   the schema decides what `object.x` is), and a validation or match condition only when its
//!   type is not `bool` (a `dyn` the schema could not resolve, say). A `bool` validation is the
//!   rule, so hinting it would be noise;
//! - the estimated cost of each CRD `x-kubernetes-validations` rule and messageExpression, after
//!   it (what the API server compares with its limits when the CRD is written).

use crate::cel::types::Type;
use crate::policy::{ExpressionSite, PolicyDocument, SiteRole};
use crate::text::{TextRange, TextSize};

use super::models::DocumentModel;
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
        let Some(context) = self.file_context(file, config) else {
            return Vec::new();
        };
        let text = &context.text;
        let mut out = Vec::new();
        // Only the documents the client shows: a large file's others are not checked for hints.
        for model in context.parsed.models_in(range) {
            out.extend(site_hints(text, model, context.minor, &context.workspace));
        }
        // Each CRD rule's estimated cost, as the API server estimates it on CRD write.
        for (offset, cost) in
            crate::policy::families::crd_rules::rule_costs(&context.parsed.yaml, context.minor)
        {
            let label = format!(" cost {}", crate::policy::thousands(cost));
            out.push(InlayHint { offset, label });
        }
        out.retain(|hint| range.contains_inclusive(hint.offset));
        out
    }
}

fn site_hints(
    text: &str,
    model: &DocumentModel,
    minor: u32,
    workspace: &crate::policy::Workspace,
) -> Vec<InlayHint> {
    let (document, sites) = (&model.document, model.sites());
    if sites.is_empty() {
        return Vec::new();
    }
    // Sites with syntax errors are left out, as the checker leaves them out.
    let trees = model.clean_trees();
    let results = crate::policy::site_results(document, sites, &trees, minor, workspace);
    let names = variable_names(document);
    let mut out = Vec::new();
    for (site, checked) in sites.iter().zip(&results) {
        let Some(checked) = checked else { continue };
        if checked.result.is_error() {
            continue;
        }
        let label = format!(": {}", checked.result.short());
        let at = match site.role {
            SiteRole::Variable => variable_name_end(&names, site),
            SiteRole::Validation | SiteRole::MatchCondition | SiteRole::CrdRule => {
                (checked.result != Type::Bool).then(|| expression_end(text, site))
            }
            SiteRole::MessageExpression
            | SiteRole::CrdMessageExpression
            | SiteRole::AuditAnnotation
            | SiteRole::ApplyConfiguration
            | SiteRole::JsonPatch => Some(expression_end(text, site)),
        };
        if let Some(offset) = at {
            out.push(InlayHint { offset, label });
        }
    }
    out
}

/// The end of the name of the variable `site` defines.
fn variable_name_end(names: &[(String, TextSize)], site: &ExpressionSite) -> Option<TextSize> {
    let name = site.name.as_ref()?;
    names.iter().find(|(n, _)| n == name).map(|(_, at)| *at)
}

/// Just after the expression: after the closing quote of a one-line quoted scalar, else after the
/// expression's last character (a block scalar's value ends on the next line).
pub(super) fn expression_end(text: &str, site: &ExpressionSite) -> TextSize {
    let len = TextSize::of(site.text.as_str());
    let last = site
        .to_file_range(TextRange::new(TextSize::from(0), len))
        .end();
    let tail = text.get(usize::from(last)..usize::from(site.range.end()));
    match tail {
        Some(tail) if !tail.contains('\n') => site.range.end(),
        _ => last,
    }
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
