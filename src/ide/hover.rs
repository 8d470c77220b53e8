//! Hover: what the thing under the cursor is. On CEL — the node's type, the schema field's
//! description, a function's signatures, docs and the Kubernetes version that introduced it, a
//! variable's type and definition; in a CRD rule, also its estimated cost and the schema's, against
//! the API server's limits. On a policy key — the field's schema documentation; on a diagnostic's
//! range — its message and what its code means.

use crate::cel::ast::{ExprKind, Name};
use crate::cel::check::Reference;
use crate::cel::library;
use crate::text::{TextRange, TextSize};

use super::cursor::CelCursor;
use super::{Analysis, DiagnosticsConfig, FileId};

/// A hover answer: markdown for a range of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverResult {
    /// The file range the answer is about (highlighted by the client).
    pub range: TextRange,
    /// The answer, in markdown.
    pub markdown: String,
}

impl Analysis {
    /// Hover at `offset` of `file`; `None` where there is nothing to say.
    pub fn hover(
        &self,
        file: FileId,
        offset: TextSize,
        config: &DiagnosticsConfig,
    ) -> Option<HoverResult> {
        let context = self.file_context(file, config)?;
        let hover = context
            .cel_at(offset)
            .and_then(|cursor| cel_hover(&cursor))
            .map(|hover| with_rule_cost(hover, &context.parsed.yaml, offset, context.minor))
            .or_else(|| super::key_hover::hover(&context.parsed, offset, context.minor));
        // The last run's diagnostics (memoized), else those of the document here: never a new
        // run over the whole file.
        let here = TextRange::empty(offset);
        let diagnostics = self.diagnostics_around(file, here, config);
        let diagnostics = diagnostics.unwrap_or_default();
        super::diagnostic_hover::with_diagnostics(hover.clone(), &diagnostics, offset).or(hover)
    }
}

fn cel_hover(cursor: &CelCursor) -> Option<HoverResult> {
    let id = cursor.node()?;
    let expr = cursor.ast.expr(id);
    let ty = cursor.checked.type_of(id);
    let reference = cursor.checked.reference(id);
    if ty.is_error() && reference.is_none() {
        return None; // a broken part says nothing useful
    }
    let mut sections = vec![format!("```cel\n{}\n```", ty.short())];
    let mut span = expr.span;
    match &expr.kind {
        ExprKind::Select { field, .. } => span = name_span(field, span),
        ExprKind::Call { function, .. } => span = name_span(function, span),
        _ => {}
    }
    if let Some(reference) = reference {
        sections.extend(describe(reference, cursor));
    }
    Some(HoverResult {
        range: cursor.file_range(span),
        markdown: sections.join("\n\n---\n\n"),
    })
}

/// `hover` with the estimated cost of the CRD rule or messageExpression at `offset`, if it is
/// in one: its own against the per-expression limit, and its schema's total against the
/// per-schema limit, as the API server estimates them when the CRD is written.
fn with_rule_cost(
    mut hover: HoverResult,
    yaml: &crate::yaml::YamlFile,
    offset: TextSize,
    minor: u32,
) -> HoverResult {
    use crate::policy::thousands;
    let Some(cost) = crate::policy::families::crd_rules::rule_cost_at(yaml, offset, minor) else {
        return hover;
    };
    let section = format!(
        "estimated cost {} of {} per expression; this schema's rules {} of {}",
        thousands(cost.cost),
        thousands(cost.rule_limit),
        thousands(cost.schema_total),
        thousands(cost.schema_limit),
    );
    hover.markdown = format!("{}\n\n---\n\n{section}", hover.markdown);
    hover
}

/// The name's span when it is written, else the node's.
fn name_span(name: &Name, fallback: TextRange) -> TextRange {
    if name.text.is_empty() {
        fallback
    } else {
        name.span
    }
}

fn describe(reference: &Reference, cursor: &CelCursor) -> Vec<String> {
    match reference {
        Reference::Variable { name, doc } => {
            let mut out = vec![format!("variable `{name}`")];
            out.extend(doc.iter().map(|d| d.to_string()));
            out
        }
        Reference::Local { name, .. } => vec![format!("macro variable `{name}`")],
        Reference::Field { owner, name, doc } => field(owner, name, doc.as_deref(), cursor),
        Reference::Function { name, overloads } => function(name, overloads, cursor),
        Reference::Type(ty) => vec![format!("type `{}`", ty.short())],
        Reference::Macro(name) => macro_docs(name, cursor),
    }
}

fn field(owner: &str, name: &str, doc: Option<&str>, cursor: &CelCursor) -> Vec<String> {
    let mut out = vec![format!("field `{name}` of `{owner}`")];
    out.extend(doc.map(str::to_owned));
    if owner == "kubernetes.variables" {
        let definition = cursor.definitions.iter().find(|d| d.name == name);
        out.extend(definition.map(|d| format!("```cel\n{}\n```", d.text)));
    }
    out
}

fn function(name: &str, overloads: &[std::sync::Arc<str>], cursor: &CelCursor) -> Vec<String> {
    let mut out = Vec::new();
    for decl in library::lookup(name, &cursor.env.libraries) {
        let signatures: Vec<String> = decl
            .overloads
            .iter()
            .filter(|o| overloads.is_empty() || overloads.contains(&o.id))
            .map(|o| o.signature(decl.name))
            .collect();
        if signatures.is_empty() {
            continue;
        }
        out.push(format!("```cel\n{}\n```", signatures.join("\n")));
        if !decl.doc.is_empty() {
            out.push(decl.doc.to_owned());
        }
    }
    // Functions the environment declares besides the libraries (a family's own): no
    // Kubernetes version line, they are not Kubernetes'.
    for function in cursor.env.functions.iter().filter(|f| f.name == name) {
        let signatures: Vec<String> = function
            .overloads
            .iter()
            .filter(|o| overloads.is_empty() || overloads.contains(&o.id))
            .map(|o| o.signature(name))
            .collect();
        if signatures.is_empty() {
            continue;
        }
        out.push(format!("```cel\n{}\n```", signatures.join("\n")));
        out.extend(function.doc.as_deref().map(str::to_owned));
    }
    let since = overloads
        .iter()
        .filter_map(|id| library::first_minor_with_overload(id, false))
        .min()
        .or_else(|| library::first_minor_with(name, false));
    out.extend(since.map(|minor| format!("Kubernetes 1.{minor}+")));
    out
}

fn macro_docs(name: &str, cursor: &CelCursor) -> Vec<String> {
    library::macros(&cursor.env.libraries)
        .filter(|decl| decl.name == name)
        .take(1)
        .flat_map(|decl| {
            [
                format!("```cel\n{}\n```", decl.signature()),
                decl.doc.to_owned(),
            ]
        })
        .collect()
}
