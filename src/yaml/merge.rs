//! Merge keys (`<<: *base`, `<<: [*a, *b]`), resolved as go-yaml v2 decodes them: go.yaml.in/yaml/v2
//! `decode.go` (`isMerge`, `mapping`, `merge`), the decoder sigs.k8s.io/yaml runs for kubectl before
//! a document reaches the API server.
//!
//! A `<<` key that is plain and untagged, or tagged `!!merge`, brings in the entries of the mapping
//! it names. go-yaml sets the entries of a mapping into one Go map in the order written, so a merge
//! replaces a key written before it and a key written after it replaces the merged one; of a
//! sequence of mappings, go-yaml merges the last first, so the earliest mapping wins. Anything else
//! as the value of a merge key is refused: "map merge requires map or sequence of maps as the
//! value".

use std::collections::HashMap;

use super::{Entry, Node, NodeKind, ScalarStyle};
use crate::text::TextRange;

/// go-yaml's message for a merge of something that is not a mapping.
pub(crate) const NOT_A_MAP: &str = "map merge requires map or sequence of maps as the value";

/// The entries of a mapping with its merge keys resolved, and the range of a merge value go-yaml
/// refuses, if any (that entry is left as written).
pub(crate) fn resolve(entries: Vec<Entry>) -> (Vec<Entry>, Option<TextRange>) {
    if !entries.iter().any(is_merge) {
        return (entries, None);
    }
    let mut map = Merged::default();
    let mut refused = None;
    for entry in entries {
        if !is_merge(&entry) {
            map.set(entry, false);
            continue;
        }
        match merged_entries(entry.value) {
            Ok(merged) => merged.into_iter().for_each(|new| map.set(new, true)),
            Err(value) => {
                refused = refused.or(Some(value.range));
                map.slots.push(Some((
                    Entry {
                        key: entry.key,
                        value,
                    },
                    false,
                )));
            }
        }
    }
    (map.into_entries(), refused)
}

/// Whether the entry is a merge: a plain `<<` key without a tag, or one tagged `!!merge`.
fn is_merge(entry: &Entry) -> bool {
    let Some(scalar) = entry.key.as_scalar() else {
        return false;
    };
    let tag = entry.key.tag.as_deref();
    scalar.value == "<<"
        && ((tag.is_none() && scalar.style == ScalarStyle::Plain)
            || matches!(tag, Some("!!merge" | "!<tag:yaml.org,2002:merge>")))
}

/// The entries a merge value brings, in the order go-yaml sets them, or the value back when go-yaml
/// refuses it.
fn merged_entries(value: Node) -> Result<Vec<Entry>, Node> {
    let all_mappings = match &value.kind {
        NodeKind::Mapping(_) => true,
        NodeKind::Sequence(items) => items.iter().all(|item| item.as_mapping().is_some()),
        NodeKind::Scalar(_) => false,
    };
    if !all_mappings {
        return Err(value);
    }
    Ok(match value.kind {
        NodeKind::Mapping(entries) => entries,
        // Last to first, each over the one before: the first mapping of the list wins.
        NodeKind::Sequence(items) => items
            .into_iter()
            .rev()
            .flat_map(|item| match item.kind {
                NodeKind::Mapping(entries) => entries,
                _ => Vec::new(),
            })
            .collect(),
        NodeKind::Scalar(_) => Vec::new(),
    })
}

/// The entries set so far, with where each key is (a key written twice by hand keeps both entries,
/// for the duplicate-key check; a merged entry replaces every earlier one of its key).
#[derive(Default)]
struct Merged {
    /// Each entry and whether it came from a merge; `None` once replaced.
    slots: Vec<Option<(Entry, bool)>>,
    /// The live slots of each scalar key.
    by_key: HashMap<String, Vec<usize>>,
}

impl Merged {
    /// Sets `entry` as go-yaml sets a map key: over what the key held.
    fn set(&mut self, entry: Entry, merged: bool) {
        let at = self.slots.len();
        if let Some(key) = entry.key.as_str().map(str::to_owned) {
            let live = self.by_key.entry(key).or_default();
            live.retain(|&slot| {
                let replaced = merged || self.slots[slot].as_ref().is_some_and(|(_, m)| *m);
                if replaced {
                    self.slots[slot] = None;
                }
                !replaced
            });
            live.push(at);
        }
        self.slots.push(Some((entry, merged)));
    }

    fn into_entries(self) -> Vec<Entry> {
        self.slots
            .into_iter()
            .flatten()
            .map(|(entry, _)| entry)
            .collect()
    }
}
