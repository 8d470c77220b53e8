//! Which diagnostics of a masked Helm template a template action could change, and are therefore
//! left out: anything on the lines of an action or in a scalar that holds one (an expression with
//! an action in it is not checked), a missing required field in a document where an action writes
//! YAML of its own (it may write that field), and a duplicate key in a document where `if`/`else`
//! or `range` choose or repeat lines.

use crate::policy::diagnostic::Prediction;
use crate::policy::{Code, Diagnostic};
use crate::text::TextRange;
use crate::yaml::template::{Action, ActionKind};
use crate::yaml::{Node, NodeKind, YamlFile};

/// What the actions of one template leave unknown.
pub(super) struct Taint {
    /// Ranges whose diagnostics are dropped.
    ranges: Vec<TextRange>,
    /// Per document (in file order): an action writes YAML of its own there.
    writes_yaml: Vec<bool>,
    /// Per document: an action chooses or repeats lines there.
    branches: Vec<bool>,
    /// Where each document starts.
    starts: Vec<u32>,
}

impl Taint {
    /// The taint of `actions` in the masked text `text`, parsed as `yaml`.
    pub(super) fn of(text: &str, yaml: &YamlFile, actions: &[Action]) -> Taint {
        let starts: Vec<u32> = yaml
            .documents
            .iter()
            .map(|d| d.range.start().into())
            .collect();
        let mut taint = Taint {
            ranges: Vec::with_capacity(actions.len() * 2),
            writes_yaml: vec![false; starts.len()],
            branches: vec![false; starts.len()],
            starts,
        };
        for action in actions {
            taint.ranges.push(whole_lines(text, action.range));
            let scalar = yaml
                .documents
                .iter()
                .filter_map(|d| d.root.as_ref())
                .find_map(|root| scalar_around(root, action.range, 0));
            if let Some(scalar) = scalar {
                taint.ranges.push(scalar);
            }
            let doc = taint.document_of(action.range);
            let writes = action.kind == ActionKind::Output
                && (action.alone || scalar.is_some_and(|s| s == action.range));
            if let Some(flag) = taint.writes_yaml.get_mut(doc) {
                *flag |= writes;
            }
            if let Some(flag) = taint.branches.get_mut(doc) {
                *flag |= action.kind == ActionKind::Control;
            }
        }
        taint
    }

    /// The index of the document `range` belongs to: the last one starting at or before it (an
    /// action on the blank lines before a document's content belongs to the one before, or the
    /// first).
    fn document_of(&self, range: TextRange) -> usize {
        let at: u32 = range.start().into();
        self.starts
            .iter()
            .rposition(|start| *start <= at)
            .unwrap_or(0)
    }

    /// The diagnostics no action could change.
    pub(super) fn keep(&self, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        diagnostics
            .into_iter()
            .filter(|d| !self.unknown(d))
            .collect()
    }

    fn unknown(&self, d: &Diagnostic) -> bool {
        if self.ranges.iter().any(|r| r.intersect(d.range).is_some()) {
            return true;
        }
        let doc = self.document_of(d.range);
        let writes = self.writes_yaml.get(doc).copied().unwrap_or(false);
        let branches = self.branches.get(doc).copied().unwrap_or(false);
        (writes && d.code == Code::Required)
            || (branches && d.code == Code::Duplicate && d.prediction == Prediction::Refused)
    }
}

/// `range` grown to the start of its first line and the end of its last.
fn whole_lines(text: &str, range: TextRange) -> TextRange {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    let start = text
        .get(..start)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |n| n + 1);
    let end = text
        .get(end..)
        .and_then(|t| t.find('\n'))
        .map_or(text.len(), |n| end + n);
    TextRange::new(crate::text::to_size(start), crate::text::to_size(end))
}

/// Bound on the nesting walked (the tree's own depth is bounded by the parser).
const MAX_DEPTH: usize = crate::yaml::MAX_DEPTH + 2;

/// The range of the scalar (key or value) that holds `range`, if one does.
fn scalar_around(node: &Node, range: TextRange, depth: usize) -> Option<TextRange> {
    if depth > MAX_DEPTH || !node.range.contains_range(range) {
        return None;
    }
    match &node.kind {
        NodeKind::Scalar(_) => Some(node.range),
        NodeKind::Sequence(items) => items
            .iter()
            .find_map(|item| scalar_around(item, range, depth + 1)),
        NodeKind::Mapping(entries) => entries.iter().find_map(|entry| {
            scalar_around(&entry.key, range, depth + 1)
                .or_else(|| scalar_around(&entry.value, range, depth + 1))
        }),
    }
}
