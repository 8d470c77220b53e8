//! Find references and document highlights of a policy variable (its name and every
//! `variables.x` of the policy), and workspace symbols (every policy and binding of every file
//! whose name matches a query).

use crate::cel::ast::{Ast, ExprKind};
use crate::policy::model::Text;
use crate::policy::{ExpressionSite, PolicyDocument};
use crate::text::{TextRange, TextSize};

use super::models::DocumentModel;
use super::navigation::NavigationTarget;
use super::rename_targets::content_range;
use super::{Analysis, FileId};

/// A policy or binding found by a workspace-symbol query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkspaceSymbol {
    /// `metadata.name`.
    pub name: String,
    /// The document's kind, e.g. `ValidatingAdmissionPolicy`.
    pub kind: &'static str,
    /// Where it is.
    pub target: NavigationTarget,
}

impl Analysis {
    /// The references of the variable at `offset` of `file` (its definition's name first).
    pub fn references(&self, file: FileId, offset: TextSize) -> Vec<TextRange> {
        let Some(parsed) = self.parsed(file) else {
            return Vec::new();
        };
        for model in parsed.models_in(TextRange::empty(offset)) {
            let uses = variable_uses(model);
            let hit = uses
                .iter()
                .find(|(_, ranges)| ranges.iter().any(|r| r.contains_inclusive(offset)));
            if let Some((_, ranges)) = hit {
                return ranges.clone();
            }
        }
        let family = super::family_variables::at(&parsed.yaml, offset);
        family.map(|f| f.uses).unwrap_or_default()
    }

    /// The policies and bindings of every file whose name contains `query` (any case).
    pub fn workspace_symbols(&self, query: &str) -> Vec<WorkspaceSymbol> {
        let query = query.to_lowercase();
        let mut out = Vec::new();
        for (file, parsed) in self.parsed_mentioning(&["AdmissionPolicy"]) {
            for model in parsed.all_models() {
                let header = model.document.header();
                let Some(name) = header.name() else { continue };
                if !name.value.value.to_lowercase().contains(&query) {
                    continue;
                }
                out.push(WorkspaceSymbol {
                    name: name.value.value.clone(),
                    kind: header.kind.name(),
                    target: NavigationTarget {
                        file,
                        range: header.range,
                        focus: name.value.range,
                    },
                });
            }
        }
        out
    }
}

/// A highlighted occurrence of the name at the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Highlight {
    /// The name's characters.
    pub range: TextRange,
    /// Whether the name is defined here (a variable's `name`) rather than used.
    pub definition: bool,
}

impl Analysis {
    /// The occurrences in `file` of the variable at `offset`: its definition's name, then every
    /// `variables.NAME` of its policy.
    pub fn highlights(&self, file: FileId, offset: TextSize) -> Vec<Highlight> {
        self.references(file, offset)
            .into_iter()
            .enumerate()
            .map(|(index, range)| Highlight {
                range,
                definition: index == 0,
            })
            .collect()
    }
}

/// The `name` of each variable of a policy, in order.
pub(super) fn variable_names(model: &DocumentModel) -> Vec<&Text> {
    let variables = match &model.document {
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
        .map(|name| &name.value)
        .collect()
}

/// Each variable of a policy with the range of its name (inside any quotes) and of every
/// `variables.<name>`.
pub(super) fn variable_uses(model: &DocumentModel) -> Vec<(String, Vec<TextRange>)> {
    let mut uses: Vec<(String, Vec<TextRange>)> = variable_names(model)
        .into_iter()
        .map(|name| (name.value.clone(), vec![content_range(name)]))
        .collect();
    let trees = model.sites().iter().zip(model.trees());
    add_variable_selects(
        &mut uses,
        trees.filter_map(|(site, ast)| Some((site, ast.as_ref()?))),
    );
    uses
}

/// Adds to `uses` (each variable's name with the ranges found so far) the field of every
/// `variables.<name>` in the trees of `sites`.
pub(super) fn add_variable_selects<'a>(
    uses: &mut [(String, Vec<TextRange>)],
    sites: impl Iterator<Item = (&'a ExpressionSite, &'a Ast)>,
) {
    for (site, ast) in sites {
        for expr in &ast.exprs {
            let ExprKind::Select { operand, field, .. } = &expr.kind else {
                continue;
            };
            let is_variables =
                matches!(&ast.expr(*operand).kind, ExprKind::Ident(n) if n.text == "variables");
            let entry = uses.iter_mut().find(|(name, _)| *name == field.text);
            if let (true, Some((_, ranges))) = (is_variables, entry) {
                ranges.push(site.to_file_range(field.span));
            }
        }
    }
}
