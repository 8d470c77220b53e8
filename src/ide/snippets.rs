//! YAML snippets for the policy spec, offered outside CEL expressions: a new validation,
//! variable, matchCondition, mutation, or a whole binding.

use crate::text::{TextRange, TextSize};

use super::completion::{CompletionItem, CompletionKind};

/// Label, description and body (indented relative to the cursor's line) of each snippet.
const SNIPPETS: &[(&str, &str, &str)] = &[
    (
        "validation",
        "a new item of spec.validations",
        "- expression: ${1:true}\n  message: ${2:message}\n$0",
    ),
    (
        "variable",
        "a new item of spec.variables",
        "- name: ${1:name}\n  expression: ${2:object}\n$0",
    ),
    (
        "matchCondition",
        "a new item of spec.matchConditions",
        "- name: ${1:name}\n  expression: ${2:true}\n$0",
    ),
    (
        "mutation",
        "a new item of spec.mutations (ApplyConfiguration)",
        "- patchType: ApplyConfiguration\n  applyConfiguration:\n    expression: >\n      Object{${1}}\n$0",
    ),
    (
        "binding",
        "a ValidatingAdmissionPolicyBinding document",
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: ${1:name}\nspec:\n  policyName: ${2:policy}\n  validationActions: [${3:Deny}]\n$0",
    ),
];

/// The snippets that fit at `offset`: on a line holding at most one partly typed word.
pub(super) fn completions(text: &str, offset: TextSize) -> Vec<CompletionItem> {
    let at = usize::from(offset);
    let Some(before) = text.get(..at) else {
        return Vec::new();
    };
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let word = line.trim_start();
    if !word.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Vec::new();
    }
    let indent = " ".repeat(line.len() - word.len());
    let start = offset - TextSize::from(word.len() as u32);
    SNIPPETS
        .iter()
        .filter(|(label, ..)| label.starts_with(word))
        .map(|(label, detail, body)| CompletionItem {
            kind: CompletionKind::Snippet,
            label: (*label).to_owned(),
            detail: Some((*detail).to_owned()),
            documentation: None,
            insert: Some(body.replace('\n', &format!("\n{indent}"))),
            replace: TextRange::new(start, offset),
        })
        .collect()
}
