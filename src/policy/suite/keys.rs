//! Problems found while reading a suite file, each with its position (`file:line:col: message`),
//! and the check that every key of a mapping is one the format has: a misspelt key is an error with a
//! "did you mean", never a silent skip (a case whose `expect` key is misspelt would otherwise pass
//! without checking anything), and that no key is written twice in a mapping (YAML keeps the
//! last, so the first would be dropped without a word).

use crate::cel::check::closest;
use crate::text::TextRange;
use crate::yaml::Node;

/// The problems of one suite file, formatted with the file's name and 1-based line and column.
pub struct Problems<'t> {
    file_name: &'t str,
    text: &'t str,
    /// The messages, in the order found.
    pub messages: Vec<String>,
}

impl<'t> Problems<'t> {
    /// An empty list for `text`, named `file_name` in messages.
    pub fn new(text: &'t str, file_name: &'t str) -> Problems<'t> {
        Problems {
            file_name,
            text,
            messages: Vec::new(),
        }
    }

    /// `file:line:col` of the start of `range` (the column counts characters).
    pub fn position(&self, range: TextRange) -> String {
        let (line, col) = line_col(self.text, usize::from(range.start()));
        format!("{}:{line}:{col}", self.file_name)
    }

    /// Records `message` at `range`.
    pub fn add(&mut self, range: TextRange, message: impl std::fmt::Display) {
        let line = format!("{}: {message}", self.position(range));
        self.messages.push(line);
    }

    /// Records every key of the mapping `node` that is not in `allowed`, naming `what` holds it and
    /// the closest allowed key; `node` that is not a mapping is reported as such.
    pub fn check_keys(&mut self, node: &Node, what: &str, allowed: &[&str]) {
        if node.is_null() {
            return;
        }
        let Some(entries) = node.as_mapping() else {
            self.add(
                node.range,
                format!("{what}: expected a mapping, got {}", node.kind_name()),
            );
            return;
        };
        for entry in entries {
            let Some(key) = entry.key.as_str() else {
                self.add(entry.key.range, format!("{what}: a key must be a string"));
                continue;
            };
            if allowed.contains(&key) {
                continue;
            }
            let hint = closest(key, allowed.iter().copied())
                .map(|c| format!("; did you mean `{c}`?"))
                .unwrap_or_default();
            self.add(
                entry.key.range,
                format!(
                    "unknown key `{key}` in {what} (known: {}){hint}",
                    allowed.join(", ")
                ),
            );
        }
    }

    /// Records every key written a second time in a mapping anywhere under `node`, with its path
    /// and where the first is, in the order of the text. The walk keeps its own stack, so a deep
    /// document cannot overflow the thread's.
    pub fn duplicate_keys(&mut self, node: &Node) {
        let mut found: Vec<(TextRange, String)> = Vec::new();
        let mut stack = vec![(node, String::new())];
        while let Some((node, path)) = stack.pop() {
            if let Some(items) = node.as_sequence() {
                let items = items.iter().enumerate();
                stack.extend(items.map(|(i, item)| (item, format!("{path}[{i}]"))));
                continue;
            }
            let mut seen: Vec<(&str, TextRange)> = Vec::new();
            for entry in node.as_mapping().unwrap_or_default() {
                let Some(key) = entry.key.as_str() else {
                    continue;
                };
                let child = if path.is_empty() {
                    key.to_owned()
                } else {
                    format!("{path}.{key}")
                };
                match seen.iter().find(|(k, _)| *k == key) {
                    Some((_, first)) => {
                        let first = self.position(*first);
                        let message = format!(
                            "duplicate key `{child}` (first at {first}): YAML keeps only the last"
                        );
                        found.push((entry.key.range, message));
                    }
                    None => seen.push((key, entry.key.range)),
                }
                stack.push((&entry.value, child));
            }
        }
        found.sort_by_key(|(range, _)| range.start());
        for (range, message) in found {
            self.add(range, message);
        }
    }

    /// The string value of `node`, with a problem when it is not one of `allowed`: `message` gets
    /// the value and the allowed values joined by commas.
    pub fn one_of<'n>(
        &mut self,
        node: &'n Node,
        allowed: &[&str],
        message: impl FnOnce(&str, &str) -> String,
    ) -> &'n str {
        let value = node.as_str().unwrap_or("");
        if !allowed.contains(&value) {
            self.add(node.range, message(value, &allowed.join(", ")));
        }
        value
    }

    /// The items of the sequence under `key` of `node`; anything else there is recorded (a missing
    /// key or `null` is an empty list).
    pub fn items<'n>(&mut self, node: &'n Node, key: &str) -> &'n [Node] {
        let Some(value) = node.get(key).filter(|v| !v.is_null()) else {
            return &[];
        };
        match value.as_sequence() {
            Some(items) => items,
            None => {
                self.add(
                    value.range,
                    format!("`{key}` must be a list, got {}", value.kind_name()),
                );
                &[]
            }
        }
    }
}

/// 1-based line and character column of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}
