//! Position → CEL resolution for the editor features: the expression site under a file offset,
//! its recovered syntax tree, its environment and check result, and the node at the cursor.
//! Every lookup is total: a cursor outside any expression gives `None`, never an error.

use std::sync::Arc;

use crate::cel::ast::{Ast, ExprId};
use crate::cel::check::{Checked, Env};
use crate::policy::{ExpressionSite, PolicyDocument, Workspace};
use crate::text::{TextRange, TextSize};

use super::models::DocumentModel;
use super::parsed::Parsed;
use super::{Analysis, DiagnosticsConfig, FileId};

/// What every editor feature on a file starts from: its text, the Kubernetes minor version it is
/// checked against and the cross-file facts of the snapshot.
pub(crate) struct FileContext {
    /// The file's text.
    pub text: Arc<str>,
    /// Its tree, shared with the snapshot's other features.
    pub parsed: Arc<Parsed>,
    /// The target Kubernetes minor version.
    pub minor: u32,
    /// The workspace of the snapshot.
    pub workspace: Arc<Workspace>,
}

impl FileContext {
    /// The CEL expression under file offset `offset`, if the cursor is inside one.
    pub fn cel_at(&self, offset: TextSize) -> Option<CelCursor> {
        let models = self.parsed.models_in(TextRange::empty(offset));
        in_documents(models, offset, self.minor, &self.workspace)
            .or_else(|| in_family(&self.parsed.yaml, offset, self.minor, &self.workspace))
    }
}

impl Analysis {
    /// The [`FileContext`] of `file`; `None` for a file the snapshot does not have.
    pub(crate) fn file_context(
        &self,
        file: FileId,
        config: &DiagnosticsConfig,
    ) -> Option<FileContext> {
        let parsed = self.parsed(file)?;
        Some(FileContext {
            text: parsed.text.clone(),
            parsed,
            minor: config.minor(),
            workspace: self.workspace(),
        })
    }
}

/// The CEL expression under the cursor, parsed with recovery and checked in its environment.
pub(crate) struct CelCursor {
    /// The expression site.
    pub site: ExpressionSite,
    /// The recovered tree of the site's text (half-typed text parses to `Error` / empty names).
    pub ast: Ast,
    /// The environment the site is checked in.
    pub env: Env,
    /// Types and references of every node.
    pub checked: Checked,
    /// The cursor as an offset into `site.text`.
    pub offset: TextSize,
    /// The variables of the site's policy, in declaration order.
    pub definitions: Vec<Definition>,
}

/// A variable of a policy: its name, expression and where it is written.
pub(crate) struct Definition {
    /// The variable's name.
    pub name: String,
    /// Its expression.
    pub text: String,
    /// The whole `variables` item.
    pub range: TextRange,
    /// The name's value.
    pub name_range: TextRange,
}

impl CelCursor {
    /// The innermost node whose span contains the cursor (ends included), if any.
    pub fn node(&self) -> Option<ExprId> {
        let offset = self.offset;
        self.ast
            .exprs
            .iter()
            .enumerate()
            .filter(|(_, expr)| expr.span.contains_inclusive(offset))
            // Children precede parents in the arena, so the index breaks ties towards the child.
            .min_by_key(|(index, expr)| (expr.span.len(), *index))
            .and_then(|(index, _)| u32::try_from(index).ok().map(ExprId))
    }

    /// A range of the site's text as a file range.
    pub fn file_range(&self, span: TextRange) -> TextRange {
        self.site.to_file_range(span)
    }
}

/// The CEL expression under file offset `offset` of a text that is not the snapshot's, parsed
/// into `yaml` (completion's text with a placeholder), if the cursor is inside one. Only the
/// documents at the cursor are read, for this call only.
pub(crate) fn cel_in(
    yaml: &crate::yaml::YamlFile,
    offset: TextSize,
    minor: u32,
    workspace: &Workspace,
) -> Option<CelCursor> {
    let models: Vec<DocumentModel> = yaml
        .documents
        .iter()
        .filter(|d| d.range.contains_inclusive(offset))
        .filter_map(DocumentModel::read)
        .collect();
    in_documents(models.iter(), offset, minor, workspace)
        .or_else(|| in_family(yaml, offset, minor, workspace))
}

/// The CEL expression under `offset` in one of `models`.
fn in_documents<'a>(
    models: impl IntoIterator<Item = &'a DocumentModel>,
    offset: TextSize,
    minor: u32,
    workspace: &Workspace,
) -> Option<CelCursor> {
    models
        .into_iter()
        .find_map(|model| in_document(model, offset, minor, workspace))
}

/// The cursor inside an expression of a family's document (a CRD's rules, Kyverno's policies…).
fn in_family(
    yaml: &crate::yaml::YamlFile,
    offset: TextSize,
    minor: u32,
    workspace: &Workspace,
) -> Option<CelCursor> {
    let (site, env, at) = crate::policy::families::site_at(yaml, offset, minor, workspace)?;
    Some(checked_at(site, env, at))
}

/// The cursor at offset `at` of `site`, parsed and checked in `env`; nothing links to other
/// sites' definitions (a family's expression, such as a CRD rule, has no policy variables to go to).
fn checked_at(site: ExpressionSite, env: Env, at: TextSize) -> CelCursor {
    let ast = crate::cel::parse(&site.text).ast;
    let checked = crate::cel::check::check(&ast, &env);
    CelCursor {
        site,
        ast,
        env,
        checked,
        offset: at,
        definitions: Vec::new(),
    }
}

/// The cursor in `model`'s site under `offset`, from the model's shared sites and trees; only
/// the check in the site's environment is done per request.
fn in_document(
    model: &DocumentModel,
    offset: TextSize,
    minor: u32,
    workspace: &Workspace,
) -> Option<CelCursor> {
    let sites = model.sites();
    let (index, at) = sites.iter().enumerate().find_map(|(i, site)| {
        let decoded = site.source_map.to_decoded(offset)?;
        let at = decoded.checked_sub(site.offset)?;
        (usize::from(at) <= site.text.len()).then_some((i, at))
    })?;
    // Recovered trees: the cursor's site is usually being typed and broken.
    let trees = model.trees();
    let document = &model.document;
    let (env, checked) = crate::policy::site_env(document, sites, trees, index, minor, workspace)?;
    Some(CelCursor {
        site: sites.get(index)?.clone(),
        ast: trees.get(index)?.clone()?,
        env,
        checked,
        offset: at,
        definitions: definitions(document),
    })
}

/// The variables of a policy document, with their expressions' text as written.
fn definitions(document: &PolicyDocument) -> Vec<Definition> {
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
        .filter_map(|variable| {
            let name = variable.name.as_ref()?;
            let text = variable
                .expression
                .as_ref()
                .map(|e| e.value.value.trim().to_owned())
                .unwrap_or_default();
            Some(Definition {
                name: name.value.value.clone(),
                text,
                range: variable.place.range,
                name_range: name.value.range,
            })
        })
        .collect()
}
