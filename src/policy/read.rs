//! Reads the model from the YAML tree, leniently: a value of the wrong kind or `null` reads as absent
//! (the decoder reports the wrong kind), so the model always exists for a recognised document.

use super::model::*;
use super::node::{self, Resolved};
use crate::text::TextRange;
use crate::yaml::{Node, NodeKind};

/// The mapping an object is read from, with where to report its missing fields.
pub(crate) struct Fields<'a> {
    node: Option<&'a Node>,
    /// Where it is.
    pub place: Place,
}

impl<'a> Fields<'a> {
    /// `node`'s fields when it is a mapping (anything else reads as empty), anchored at `anchor`.
    pub(crate) fn new(node: &'a Node, anchor: TextRange) -> Fields<'a> {
        let anchor = if anchor.is_empty() {
            node.range
        } else {
            anchor
        };
        let node = node::entries(node).map(|_| node);
        Fields {
            node,
            place: Place {
                range: node.map_or(anchor, |n| n.range),
                anchor,
            },
        }
    }

    /// An empty object reported at `anchor` (for a missing `spec`).
    pub(crate) fn empty(anchor: TextRange) -> Fields<'a> {
        Fields {
            node: None,
            place: Place {
                range: anchor,
                anchor,
            },
        }
    }

    /// The non-null value of `key` and its key range.
    fn get(&self, key: &str) -> Option<(TextRange, &'a Node)> {
        let entry = node::lookup(self.node?, key)?;
        (!node::is_null(&entry.value)).then_some((entry.key.range, &entry.value))
    }

    /// The key range of `key`, even when its value is null.
    pub(crate) fn key_range(&self, key: &str) -> Option<TextRange> {
        node::lookup(self.node?, key).map(|e| e.key.range)
    }

    /// A string field.
    pub(crate) fn text(&self, key: &str) -> Opt<Text> {
        let (key, value) = self.get(key)?;
        Some(Field {
            key,
            value: text(value)?,
        })
    }

    /// A list-of-strings field; `null` items read as empty strings.
    pub(crate) fn texts(&self, key: &str) -> Opt<List<Text>> {
        let (key, value) = self.get(key)?;
        let NodeKind::Sequence(items) = &value.kind else {
            return None;
        };
        let items = items.iter().filter_map(text_or_empty).collect();
        Some(Field {
            key,
            value: List {
                range: value.range,
                items,
            },
        })
    }

    /// An object field.
    pub(crate) fn object<T>(&self, key: &str, read: impl Fn(&Fields) -> T) -> Opt<T> {
        let (key, value) = self.get(key)?;
        node::entries(value)?;
        Some(Field {
            key,
            value: read(&Fields::new(value, key)),
        })
    }

    /// A list-of-objects field; each item is anchored at itself.
    pub(crate) fn objects<T>(&self, key: &str, read: impl Fn(&Fields) -> T) -> Opt<List<T>> {
        let (key, value) = self.get(key)?;
        let NodeKind::Sequence(items) = &value.kind else {
            return None;
        };
        let items = items
            .iter()
            .map(|item| read(&Fields::new(item, item.range)))
            .collect();
        Some(Field {
            key,
            value: List {
                range: value.range,
                items,
            },
        })
    }

    /// A map-of-strings field.
    pub(crate) fn string_map(&self, key: &str) -> Opt<StringMap> {
        let (key, value) = self.get(key)?;
        let entries = node::entries(value)?;
        let pairs = entries
            .iter()
            .filter_map(|e| Some((text_or_empty(&e.key)?, text_or_empty(&e.value)?)))
            .collect();
        Some(Field {
            key,
            value: StringMap {
                range: value.range,
                entries: pairs,
            },
        })
    }
}

/// A non-null scalar as text.
fn text(node: &Node) -> Option<Text> {
    let scalar = node::scalar(node)?;
    if node::resolve(node, scalar) == Resolved::Null {
        return None;
    }
    Some(Text {
        range: node.range,
        value: scalar.value.clone(),
        source_map: scalar.source_map.clone(),
        style: scalar.style,
    })
}

/// A scalar as text, `null` as the empty string (what JSON `null` decodes to in a string list).
fn text_or_empty(node: &Node) -> Option<Text> {
    let scalar = node::scalar(node)?;
    let mut text = Text {
        range: node.range,
        value: scalar.value.clone(),
        source_map: scalar.source_map.clone(),
        style: scalar.style,
    };
    if node::resolve(node, scalar) == Resolved::Null {
        text.value.clear();
    }
    Some(text)
}

/// `metadata`.
pub(crate) fn metadata(f: &Fields) -> Metadata {
    Metadata {
        place: f.place,
        name: f.text("name"),
        generate_name: f.text("generateName"),
        labels: f.string_map("labels"),
        annotations: f.string_map("annotations"),
    }
}

/// `paramKind`.
pub(crate) fn param_kind(f: &Fields) -> ParamKind {
    ParamKind {
        place: f.place,
        api_version: f.text("apiVersion"),
        kind: f.text("kind"),
    }
}

/// A label selector.
pub(crate) fn selector(f: &Fields) -> Selector {
    Selector {
        place: f.place,
        match_labels: f.string_map("matchLabels"),
        match_expressions: f.objects("matchExpressions", requirement),
    }
}

fn requirement(f: &Fields) -> Requirement {
    Requirement {
        place: f.place,
        key: f.text("key"),
        operator: f.text("operator"),
        values: f.texts("values"),
    }
}

/// `matchConstraints` / `matchResources`.
pub(crate) fn match_resources(f: &Fields) -> MatchResources {
    MatchResources {
        place: f.place,
        namespace_selector: f.object("namespaceSelector", selector),
        object_selector: f.object("objectSelector", selector),
        resource_rules: f.objects("resourceRules", named_rule),
        exclude_resource_rules: f.objects("excludeResourceRules", named_rule),
        match_policy: f.text("matchPolicy"),
    }
}

pub(crate) fn named_rule(f: &Fields) -> NamedRule {
    NamedRule {
        place: f.place,
        resource_names: f.texts("resourceNames"),
        operations: f.texts("operations"),
        api_groups: f.texts("apiGroups"),
        api_versions: f.texts("apiVersions"),
        resources: f.texts("resources"),
        scope: f.text("scope"),
    }
}

/// A `matchConditions` item.
pub(crate) fn match_condition(f: &Fields) -> MatchCondition {
    MatchCondition {
        place: f.place,
        name: f.text("name"),
        expression: f.text("expression"),
    }
}

/// A `variables` item.
pub(crate) fn variable(f: &Fields) -> Variable {
    Variable {
        place: f.place,
        name: f.text("name"),
        expression: f.text("expression"),
    }
}
