//! Completion of a policy document's YAML: at a key position the keys of that object not yet
//! written (type, documentation, required ones first), at a value position of a closed set
//! (`failurePolicy`, `operations` items, `validationActions` items…) the values it allows in the
//! target version. Half-typed text works: where the text does not parse as it stands, the cursor's
//! line is completed with a placeholder key (`X: `) or value (`X`) and parsed again.

use super::parsed::Parsed;
use crate::schema::api_docs::{self, ValueShape};
use crate::text::{TextRange, TextSize};
use crate::yaml::YamlFile;

use super::completion::{CompletionItem, CompletionKind};
use super::key_hover::allowed;
use super::yaml_spot::{self, Role, SchemaRoot, Spot, Step};

/// Key and value completions at `offset` (outside CEL expressions).
pub(super) fn completions(parsed: &Parsed, offset: TextSize, minor: u32) -> Vec<CompletionItem> {
    let text = &*parsed.text;
    let at = usize::from(offset);
    let (Some(before), Some(after)) = (text.get(..at), text.get(at..)) else {
        return Vec::new();
    };
    let start = before.trim_end_matches(is_word_char).len();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let lead = &before[line_start..start];
    let word = TextRange::new(TextSize::from(start as u32), offset);
    // A complete key or value under the cursor, in a document that parses.
    if let Some((root, spot)) = locate(&parsed.yaml, offset, minor)
        && spot.range.start() == word.start()
        && !spot.range.is_empty()
    {
        return match spot.role {
            Role::Key => keys(&root, &spot, minor, spot.range, false),
            Role::Value => values(&root, &spot, minor, spot.range),
        };
    }
    let mut items = Vec::new();
    if is_key_lead(lead)
        && let Some((root, spot)) = locate(
            &parsed.edited(&format!("{before}X: {after}")),
            offset,
            minor,
        )
        && spot.role == Role::Key
    {
        items.extend(keys(&root, &spot, minor, word, true));
    }
    if is_value_lead(lead)
        && let Some((root, spot)) =
            locate(&parsed.edited(&format!("{before}X{after}")), offset, minor)
        && spot.role == Role::Value
    {
        items.extend(values(&root, &spot, minor, word));
    }
    items
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '*'
}

/// Indentation and list dashes only, or just after a flow mapping's `{` or `,`.
fn is_key_lead(lead: &str) -> bool {
    let flow = lead.trim_end().ends_with(['{', ',']);
    flow || lead.chars().all(|c| c == ' ' || c == '-')
}

/// After a key's `:`, a list dash, or a flow sequence's `[` or `,`.
fn is_value_lead(lead: &str) -> bool {
    let trimmed = lead.trim_end();
    trimmed.ends_with([':', '[', ',']) || (trimmed.ends_with('-') && lead.ends_with(' '))
}

/// The admission document of `yaml` under `offset` and the key or value there, if that document
/// parses without errors.
fn locate(yaml: &YamlFile, offset: TextSize, minor: u32) -> Option<(SchemaRoot, Spot)> {
    let document = yaml_spot::document_at(yaml, offset)?;
    if document.has_errors {
        return None;
    }
    let root = yaml_spot::schema_root(document, minor)?;
    Some((root, yaml_spot::spot(document, offset)?))
}

/// The fields of the object holding the key under the cursor, except those already written.
fn keys(
    root: &SchemaRoot,
    spot: &Spot,
    minor: u32,
    replace: TextRange,
    add_colon: bool,
) -> Vec<CompletionItem> {
    let keys = spot.keys();
    let parent = &keys[..keys.len().saturating_sub(1)];
    let Some(mut fields) = api_docs::fields(minor, &root.definition, parent) else {
        return Vec::new();
    };
    fields.retain(|f| !spot.siblings.contains(&f.name));
    fields.sort_by(|a, b| (!a.required, &a.name).cmp(&(!b.required, &b.name)));
    fields
        .into_iter()
        .map(|field| {
            let need = if field.required { " (required)" } else { "" };
            CompletionItem {
                kind: CompletionKind::Key,
                detail: Some(format!("{}{need}", field.type_label)),
                documentation: field.description,
                insert: add_colon.then(|| format!("{}: ", field.name)),
                label: field.name,
                replace,
            }
        })
        .collect()
}

/// The values allowed where the cursor's scalar is: a field's value or a list item.
fn values(root: &SchemaRoot, spot: &Spot, minor: u32, replace: TextRange) -> Vec<CompletionItem> {
    let keys = spot.keys();
    let doc = api_docs::field(minor, &root.definition, &keys);
    let on_list_itself = matches!(spot.path.last(), Some(Step::Key(_)))
        && doc.as_ref().is_some_and(|d| d.shape == ValueShape::List);
    if on_list_itself {
        return Vec::new(); // `operations: CREATE` would be a string where a list belongs
    }
    allowed(root, &keys, doc.as_ref())
        .into_iter()
        .map(|value| CompletionItem {
            kind: CompletionKind::Value,
            label: value,
            detail: None,
            documentation: None,
            insert: None,
            replace,
        })
        .collect()
}
