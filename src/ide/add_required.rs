//! Quick fix for a `required` diagnostic: insert the missing key with a placeholder value of its
//! schema type (`""`, `0`, `false`, `[]`, `{}`) into the mapping that lacks it — a new line at the
//! indentation of its keys in a block mapping, `, key: ""` before the `}` of a flow mapping. No
//! action where the mapping cannot be found or the key is present (an empty list, say).

use super::parsed::Parsed;
use crate::policy::{Code, Diagnostic};
use crate::schema::api_docs::{self, ValueShape};
use crate::text::{TextRange, TextSize};
use crate::yaml::{Node, NodeKind};

use super::actions::{ActionKind, CodeAction};
use super::yaml_spot::{self, Step, keys_of};

/// The fixes for the `required` diagnostics that touch `range`.
pub(super) fn actions(
    parsed: &Parsed,
    diagnostics: &[Diagnostic],
    range: TextRange,
    minor: u32,
) -> Vec<CodeAction> {
    let wanted: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.code == Code::Required && d.range.intersect(range).is_some())
        .collect();
    if wanted.is_empty() {
        return Vec::new();
    }
    let (text, yaml) = (&*parsed.text, &parsed.yaml);
    wanted
        .into_iter()
        .filter_map(|diagnostic| {
            let document = yaml_spot::document_at(yaml, diagnostic.range.start())?;
            let path = missing_path(&diagnostic.message)?;
            let (Step::Key(name), parents) = path.split_last()? else {
                return None;
            };
            let parent = node_at(document.root.as_ref()?, parents)?;
            if parent.get(name).is_some() {
                return None;
            }
            let value = yaml_spot::schema_root(document, minor)
                .and_then(|root| api_docs::field(minor, &root.definition, &keys_of(&path)))
                .map_or("\"\"", |field| placeholder(field.shape));
            let edit = insertion(text, parent, &format!("{name}: {value}"))?;
            Some(CodeAction {
                title: format!("Add required field '{name}'"),
                kind: ActionKind::QuickFix,
                edits: vec![edit],
                fixes: Some(diagnostic.range),
            })
        })
        .collect()
}

/// `spec.validations[0].expression: Required value…` → `spec`, `validations`, 0, `expression`.
fn missing_path(message: &str) -> Option<Vec<Step>> {
    let (path, _) = message.split_once(": Required value")?;
    let mut steps = Vec::new();
    for segment in path.split('.') {
        let mut parts = segment.split('[');
        let key = parts.next()?;
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric()) {
            return None;
        }
        steps.push(Step::Key(key.to_owned()));
        for index in parts {
            steps.push(Step::Index(index.strip_suffix(']')?.parse().ok()?));
        }
    }
    Some(steps)
}

fn node_at<'a>(root: &'a Node, path: &[Step]) -> Option<&'a Node> {
    let mut node = root;
    for step in path {
        node = match step {
            Step::Key(key) => node.get(key)?,
            Step::Index(index) => node.as_sequence()?.get(*index)?,
        };
    }
    Some(node)
}

fn placeholder(shape: ValueShape) -> &'static str {
    match shape {
        ValueShape::Scalar => "\"\"",
        ValueShape::Number => "0",
        ValueShape::Boolean => "false",
        ValueShape::List => "[]",
        ValueShape::Object => "{}",
    }
}

/// Where and what to insert so that `entry` becomes a key of the mapping `parent`.
fn insertion(text: &str, parent: &Node, entry: &str) -> Option<(TextRange, String)> {
    let NodeKind::Mapping(entries) = &parent.kind else {
        return None;
    };
    let start = usize::from(parent.range.start());
    if text.as_bytes().get(start) == Some(&b'{') {
        return flow_insertion(text, parent, entries.is_empty(), entry);
    }
    let first = usize::from(entries.first()?.key.range.start());
    let line_start = text.get(..first)?.rfind('\n').map_or(0, |i| i + 1);
    let lead = text.get(line_start..first)?;
    // Only spaces and list dashes may come before a block mapping's first key on its line.
    if !lead.chars().all(|c| c == ' ' || c == '-') {
        return None;
    }
    let last = entries.last()?;
    let end = usize::from(last.value.range.end().max(last.key.range.end()));
    let line_end = text
        .get(end..)?
        .find(['\n', '\r'])
        .map_or(text.len(), |i| end + i);
    let at = TextSize::from(line_end as u32);
    let indent = " ".repeat(lead.len());
    Some((TextRange::empty(at), format!("\n{indent}{entry}")))
}

/// `{a: 1}` → `{a: 1, entry}`; `{}` → `{entry}`.
fn flow_insertion(
    text: &str,
    parent: &Node,
    empty: bool,
    entry: &str,
) -> Option<(TextRange, String)> {
    let close = usize::from(parent.range.end()).checked_sub(1)?;
    if text.as_bytes().get(close) != Some(&b'}') {
        return None;
    }
    let content_end = text.get(..close)?.trim_end().len();
    let after_comma = text.get(..content_end)?.ends_with(',');
    let insert = if empty {
        entry.to_owned()
    } else if after_comma {
        format!(" {entry}")
    } else {
        format!(", {entry}")
    };
    let at = TextSize::from(content_end as u32);
    Some((TextRange::empty(at), insert))
}
