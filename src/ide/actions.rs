//! Code actions: apply a diagnostic's "did you mean" suggestion, turn a validation's
//! `message` that is written as CEL into a `messageExpression`, add a missing required field.

use crate::policy::PolicyDocument;
use crate::text::TextRange;

use super::{Analysis, DiagnosticsConfig, FileId};

/// What an action is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    /// Fixes a diagnostic.
    QuickFix,
    /// Rewrites working text.
    Rewrite,
}

/// One action: a title and the edits of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeAction {
    /// Shown in the menu.
    pub title: String,
    /// What it is for.
    pub kind: ActionKind,
    /// Replacements in the file, non-overlapping.
    pub edits: Vec<(TextRange, String)>,
    /// The range of the diagnostic it fixes, if any.
    pub fixes: Option<TextRange>,
}

/// Roots of the admission API a CEL message would mention.
const CEL_ROOTS: &[&str] = &["object.", "oldObject.", "params.", "request.", "variables."];

impl Analysis {
    /// The actions available for `range` of `file`.
    pub fn code_actions(
        &self,
        file: FileId,
        range: TextRange,
        config: &DiagnosticsConfig,
    ) -> Vec<CodeAction> {
        let Some(parsed) = self.parsed(file) else {
            return Vec::new();
        };
        let diagnostics = self.diagnostics_around(file, range, config);
        let diagnostics = diagnostics.unwrap_or_default();
        let mut out: Vec<CodeAction> = diagnostics
            .iter()
            .filter(|d| d.range.intersect(range).is_some())
            .filter_map(|d| {
                let name = suggestion(&d.message)?;
                Some(CodeAction {
                    title: format!("Change to '{name}'"),
                    kind: ActionKind::QuickFix,
                    edits: vec![(d.range, name.to_owned())],
                    fixes: Some(d.range),
                })
            })
            .collect();
        for model in parsed.models_in(range) {
            out.extend(message_expressions(&model.document, range));
        }
        out.extend(super::add_required::actions(
            &parsed,
            &diagnostics,
            range,
            config.minor(),
        ));
        out.extend(self.optional_guard_actions(file, range.start(), config));
        out
    }
}

/// The name of a "did you mean 'x'?" or `(did you mean "x"?)` message.
fn suggestion(message: &str) -> Option<&str> {
    let rest = message.split("did you mean ").nth(1)?;
    let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let rest = &rest[1..];
    let name = &rest[..rest.find(quote)?];
    (!name.is_empty() && !name.contains('\\')).then_some(name)
}

/// `message: "… object.x …"` with the cursor on it → `messageExpression` with that CEL.
fn message_expressions(document: &PolicyDocument, range: TextRange) -> Vec<CodeAction> {
    let PolicyDocument::ValidatingPolicy(_, spec) = document else {
        return Vec::new();
    };
    let items = spec
        .value
        .validations
        .as_ref()
        .map(|list| list.value.items.as_slice());
    let mut out = Vec::new();
    for validation in items.unwrap_or_default() {
        let Some(message) = &validation.message else {
            continue;
        };
        let whole = TextRange::new(message.key.start(), message.value.range.end());
        if validation.message_expression.is_some() || whole.intersect(range).is_none() {
            continue;
        }
        let value = &message.value.value;
        let looks_like_cel =
            CEL_ROOTS.iter().any(|root| value.contains(root)) && crate::cel::parse(value).is_ok();
        if looks_like_cel {
            out.push(CodeAction {
                title: "Turn this message into a messageExpression".to_owned(),
                kind: ActionKind::Rewrite,
                edits: vec![(message.key, "messageExpression".to_owned())],
                fixes: None,
            });
        }
    }
    out
}
