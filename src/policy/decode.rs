//! The decoding step: walks a document against the field sets of the bundled schemas (`fields.rs`) the way the API server's
//! strict JSON decoding would, and reports unknown fields (warnings), repeated keys and values of the
//! wrong kind (a string where a list is expected…). A wrong kind makes the API server reject the
//! whole object before validation, so the caller skips the validation rules when this returns false.

use super::Code;
use super::fields::{Shape, TypeDef};
use super::node::{self, Resolved};
use super::report::{Report, quote};
use crate::yaml::{Node, NodeKind};
use std::collections::BTreeSet;

/// Checks `root` against `def`; returns whether every value had the right kind.
pub(crate) fn decode(root: &Node, def: &TypeDef, report: &mut Report) -> bool {
    let mut decoder = Decoder { report, ok: true };
    decoder.object(root, def, Path::Root);
    decoder.ok
}

struct Decoder<'r, 'a> {
    report: &'r mut Report<'a>,
    ok: bool,
}

/// Where a value is (`spec.validations[0].expression`), spelled out only for a message: most
/// documents have none, and formatting every field's path was a tenth of a policy's check.
#[derive(Clone, Copy)]
enum Path<'p> {
    Root,
    Key(&'p Path<'p>, &'p str),
    Index(&'p Path<'p>, usize),
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(Path::Root, key) => f.write_str(key),
            Path::Key(parent, key) => write!(f, "{parent}.{key}"),
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

impl Decoder<'_, '_> {
    fn value(&mut self, node: &Node, shape: Shape, path: Path) {
        if node::is_null(node) {
            return; // null decodes to the zero value: absent.
        }
        match shape {
            Shape::Any => {}
            Shape::String => self.scalar(node, path, Resolved::String, "a string"),
            Shape::Integer => self.scalar(node, path, Resolved::Number, "an integer"),
            Shape::Object(def) => self.object(node, &def, path),
            Shape::ObjectList(def) => self.object_list(node, &def, path),
            Shape::StringList => self.string_list(node, path),
            Shape::StringMap => self.string_map(node, path),
        }
    }

    fn wrong_kind(&mut self, node: &Node, path: Path, expected: &str) {
        self.ok = false;
        let message = format!(
            "{path}: Invalid value: {}: expected {expected}, not {}",
            shown(node),
            describe(node)
        );
        self.report.other(Code::Invalid, node.range, message);
    }

    fn scalar(&mut self, node: &Node, path: Path, want: Resolved, expected: &str) {
        match node::scalar(node) {
            Some(s) if node::resolve(node, s) == want => {}
            _ => self.wrong_kind(node, path, expected),
        }
    }

    fn object(&mut self, node: &Node, def: &TypeDef, path: Path) {
        let Some(entries) = node::entries(node) else {
            let expected = format!("a {} object", def.name);
            return self.wrong_kind(node, path, &expected);
        };
        let mut seen = BTreeSet::new();
        let kept = kept_values(entries);
        for (entry, kept) in entries.iter().zip(kept) {
            let Some(key) = node::key_text(entry) else {
                self.wrong_kind(&entry.key, path, "a string key");
                continue;
            };
            let field_path = Path::Key(&path, key);
            if !seen.insert(key) {
                self.repeated_key(entry, field_path);
            }
            match def.field(key) {
                Some(shape) if kept => self.value(&entry.value, shape, field_path),
                Some(_) => {}
                None => self.unknown(entry.key.range, field_path, key, def),
            }
        }
    }

    /// A key written twice in one mapping. kubectl decodes the file with go-yaml v2 into a map
    /// (sigs.k8s.io/yaml `Unmarshal`, not `UnmarshalStrict`: "duplicate fields … are ignored"),
    /// so the last value silently wins and the API server never sees the first: a warning.
    fn repeated_key(&mut self, entry: &crate::yaml::Entry, path: Path) {
        let message = format!(
            "duplicate field {}: kubectl keeps the last value",
            quote(&path.to_string())
        );
        self.report
            .advice(Code::Duplicate, entry.key.range, message);
    }

    fn unknown(&mut self, range: crate::text::TextRange, path: Path, key: &str, def: &TypeDef) {
        let mut message = format!("unknown field {}", quote(&path.to_string()));
        if let Some(best) = suggestion(key, def) {
            message.push_str(&format!(" (did you mean {}?)", quote(best)));
        }
        self.report.other(Code::UnknownField, range, message);
    }

    fn object_list(&mut self, node: &Node, def: &TypeDef, path: Path) {
        let NodeKind::Sequence(items) = &node.kind else {
            let expected = format!("a list of {}", def.name);
            return self.wrong_kind(node, path, &expected);
        };
        for (i, item) in items.iter().enumerate() {
            self.value(item, Shape::Object(def.clone()), Path::Index(&path, i));
        }
    }

    fn string_list(&mut self, node: &Node, path: Path) {
        let NodeKind::Sequence(items) = &node.kind else {
            return self.wrong_kind(node, path, "a list of strings");
        };
        for (i, item) in items.iter().enumerate() {
            self.value(item, Shape::String, Path::Index(&path, i));
        }
    }

    fn string_map(&mut self, node: &Node, path: Path) {
        let Some(entries) = node::entries(node) else {
            return self.wrong_kind(node, path, "a map of strings");
        };
        let mut seen = BTreeSet::new();
        let kept = kept_values(entries);
        for (entry, kept) in entries.iter().zip(kept) {
            let key = node::key_text(entry).unwrap_or_default();
            let field_path = Path::Key(&path, key);
            if !seen.insert(key) {
                self.repeated_key(entry, field_path);
            }
            if kept {
                self.value(&entry.value, Shape::String, field_path);
            }
        }
    }
}

/// Whether each entry's value is the one kubectl keeps: the last of its key. go-yaml v2 decodes
/// into a map, so an earlier value of a repeated key never reaches the API server and its type
/// cannot be refused (sigs.k8s.io/yaml `Unmarshal` → `yamlToJSONTarget`).
fn kept_values(entries: &[crate::yaml::Entry]) -> Vec<bool> {
    let mut later = BTreeSet::new();
    let mut kept: Vec<bool> = entries
        .iter()
        .rev()
        .map(|entry| later.insert(node::key_text(entry)))
        .collect();
    kept.reverse();
    kept
}

/// The value as the message shows it: a quoted string, a bare number or boolean, `{…}` or `[…]`.
fn shown(node: &Node) -> String {
    match &node.kind {
        NodeKind::Scalar(s) if node::resolve(node, s) == Resolved::String => quote(&s.value),
        NodeKind::Scalar(s) => s.value.clone(),
        NodeKind::Sequence(_) => "[…]".to_string(),
        NodeKind::Mapping(_) => "{…}".to_string(),
    }
}

/// What the value is, in words.
fn describe(node: &Node) -> &'static str {
    match &node.kind {
        NodeKind::Scalar(s) => match node::resolve(node, s) {
            Resolved::Null => "null",
            Resolved::Bool => "a boolean",
            Resolved::Number => "a number",
            Resolved::String => "a string",
        },
        NodeKind::Sequence(_) => "a list",
        NodeKind::Mapping(_) => "a map",
    }
}

/// The known field closest to a misspelt key, if one is close enough to be a likely typo.
fn suggestion<'d>(key: &str, def: &'d TypeDef) -> Option<&'d str> {
    let lower = key.to_ascii_lowercase();
    def.field_names()
        .into_iter()
        .map(|name| (edit_distance(&lower, &name.to_ascii_lowercase()), name))
        .filter(|(distance, name)| *distance <= 2.max(name.len() / 5))
        .min()
        .map(|(_, name)| name)
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != *cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("expresion", "expression"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
