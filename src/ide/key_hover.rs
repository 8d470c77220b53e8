//! Hover on a policy document's YAML key: the field's type, whether it is required, the values it
//! allows and its description, from the bundled API schema of the document's kind in the target
//! Kubernetes version.

use crate::schema::api_docs::{self, FieldDoc};
use crate::text::TextSize;

use super::HoverResult;
use super::parsed::Parsed;
use super::yaml_spot::{self, Role, SchemaRoot, Step};

/// The hover of the key under `offset`, if it is a key of an admission document.
pub(super) fn hover(parsed: &Parsed, offset: TextSize, minor: u32) -> Option<HoverResult> {
    let document = yaml_spot::document_at(&parsed.yaml, offset)?;
    let root = yaml_spot::schema_root(document, minor)?;
    let spot = yaml_spot::spot(document, offset)?;
    if spot.role != Role::Key {
        return None;
    }
    let keys = spot.keys();
    let doc = api_docs::field(minor, &root.definition, &keys)?;
    Some(HoverResult {
        range: spot.range,
        markdown: markdown(&doc, &spot.path, &allowed(&root, &keys, Some(&doc))),
    })
}

/// The values a field allows: the schema's enum, else the policy API's closed set.
pub(super) fn allowed(root: &SchemaRoot, keys: &[&str], doc: Option<&FieldDoc>) -> Vec<String> {
    if let Some(doc) = doc.filter(|d| !d.enum_values.is_empty()) {
        return doc.enum_values.clone();
    }
    crate::policy::allowed::values(root.kind, keys)
        .iter()
        .map(|v| (*v).to_owned())
        .collect()
}

fn markdown(doc: &FieldDoc, path: &[Step], allowed: &[String]) -> String {
    let need = if doc.required { "required" } else { "optional" };
    let mut sections = vec![
        format!("```yaml\n{}: {}\n```", doc.name, doc.type_label),
        format!("`{}` · {need}", dotted(path)),
    ];
    if !allowed.is_empty() {
        let list: Vec<String> = allowed.iter().map(|v| format!("`{v}`")).collect();
        sections.push(format!("allowed values: {}", list.join(", ")));
    }
    sections.extend(doc.description.clone());
    sections.join("\n\n---\n\n")
}

/// `spec.validations[].messageExpression`: the path as the API documentation writes it.
fn dotted(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(key) if out.is_empty() => out.push_str(key),
            Step::Key(key) => {
                out.push('.');
                out.push_str(key);
            }
            Step::Index(_) => out.push_str("[]"),
        }
    }
    out
}
