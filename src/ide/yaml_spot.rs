//! Position → place in a policy document's YAML, for the editor features on keys and values: the
//! key path from the document root to the cursor, whether the cursor is on a key or a value, and
//! the bundled schema of the document's kind in the target Kubernetes version.
//! Every lookup is total: a cursor outside a policy document's nodes gives `None`.

use std::sync::Arc;

use crate::policy::PolicyKind;
use crate::text::{TextRange, TextSize};
use crate::yaml::{Document, Node, NodeKind};

/// One step from a node to a child.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A mapping entry's value.
    Key(String),
    /// A sequence item.
    Index(usize),
}

/// Which part of an entry the cursor is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// A key (the path's last step is that key).
    Key,
    /// A scalar value (the path leads to it).
    Value,
}

/// The cursor's place in a document.
#[derive(Clone, Debug)]
pub(crate) struct Spot {
    /// From the root to the key or value under the cursor.
    pub path: Vec<Step>,
    /// Key or value.
    pub role: Role,
    /// The key's or scalar's range.
    pub range: TextRange,
    /// For a key: the other keys of its mapping.
    pub siblings: Vec<String>,
}

impl Spot {
    /// The keys of the path, list indices left out (`spec`, `validations`, `reason`).
    pub fn keys(&self) -> Vec<&str> {
        keys_of(&self.path)
    }
}

/// The keys of `path`, list indices left out.
pub(crate) fn keys_of(path: &[Step]) -> Vec<&str> {
    path.iter()
        .filter_map(|step| match step {
            Step::Key(key) => Some(key.as_str()),
            Step::Index(_) => None,
        })
        .collect()
}

/// A policy document's kind and the bundled definition of its root in one version.
#[derive(Clone, Debug)]
pub(crate) struct SchemaRoot {
    /// The kind.
    pub kind: PolicyKind,
    /// The root definition's name (`io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy`).
    pub definition: Arc<str>,
}

/// The schema of `document` when it is an admission document the bundle of `minor` defines.
pub(crate) fn schema_root(document: &Document, minor: u32) -> Option<SchemaRoot> {
    let (kind, version) = crate::policy::read_kinds::recognise(document.root.as_ref()?)?;
    let entry = crate::policy::served::bundled_kind(minor, version, kind)?;
    Some(SchemaRoot {
        kind,
        definition: entry.definition.clone(),
    })
}

/// The document of `yaml` that holds `offset` (ends included).
pub(crate) fn document_at(yaml: &crate::yaml::YamlFile, offset: TextSize) -> Option<&Document> {
    yaml.documents
        .iter()
        .find(|d| d.range.contains_inclusive(offset))
}

/// The key or scalar value of `document` under `offset`.
pub(crate) fn spot(document: &Document, offset: TextSize) -> Option<Spot> {
    let mut path = Vec::new();
    let (role, range, siblings) = descend(document.root.as_ref()?, offset, &mut path)?;
    Some(Spot {
        path,
        role,
        range,
        siblings,
    })
}

/// Recursion follows the tree, whose depth the YAML parser bounds (`yaml::MAX_DEPTH`).
fn descend(
    node: &Node,
    offset: TextSize,
    path: &mut Vec<Step>,
) -> Option<(Role, TextRange, Vec<String>)> {
    match &node.kind {
        NodeKind::Mapping(entries) => {
            for (index, entry) in entries.iter().enumerate() {
                let Some(key) = entry.key_str() else {
                    continue;
                };
                if entry.key.range.contains_inclusive(offset) {
                    path.push(Step::Key(key.to_owned()));
                    let siblings = entries
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != index)
                        .filter_map(|(_, e)| e.key_str().map(str::to_owned))
                        .collect();
                    return Some((Role::Key, entry.key.range, siblings));
                }
                if entry.value.range.contains_inclusive(offset) {
                    path.push(Step::Key(key.to_owned()));
                    return descend(&entry.value, offset, path);
                }
            }
            None
        }
        NodeKind::Sequence(items) => {
            let (index, item) = items
                .iter()
                .enumerate()
                .find(|(_, item)| item.range.contains_inclusive(offset))?;
            path.push(Step::Index(index));
            descend(item, offset, path)
        }
        NodeKind::Scalar(_) => Some((Role::Value, node.range, Vec::new())),
    }
}
