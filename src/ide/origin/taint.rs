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
        let mut scalars = Vec::new();
        for root in yaml.documents.iter().filter_map(|d| d.root.as_ref()) {
            collect_scalars(root, 0, &mut scalars);
        }
        scalars.sort_by_key(|r| r.start());
        let lines = LineStarts::of(text);
        for action in actions {
            taint.ranges.push(lines.whole_lines(action.range));
            let scalar = scalar_around(&scalars, action.range);
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
        taint.ranges = union(std::mem::take(&mut taint.ranges));
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
        // `ranges` are disjoint and sorted: only the last one starting at or before the
        // diagnostic's end can meet it.
        let after = self.ranges.partition_point(|r| r.start() <= d.range.end());
        let meets = after
            .checked_sub(1)
            .and_then(|k| self.ranges.get(k))
            .is_some_and(|r| r.intersect(d.range).is_some());
        if meets {
            return true;
        }
        let doc = self.document_of(d.range);
        let writes = self.writes_yaml.get(doc).copied().unwrap_or(false);
        let branches = self.branches.get(doc).copied().unwrap_or(false);
        (writes && d.code == Code::Required) || (branches && is_branch_duplicate(d))
    }
}

/// A repeated key (kubectl keeps the last, so it is advice) or a repeated list value (refused):
/// either may be one key or item written in both branches of an `if`. Other advice of the same
/// code, a policy name shared across files, is not about the template's branches.
fn is_branch_duplicate(d: &Diagnostic) -> bool {
    d.code == Code::Duplicate
        && (d.prediction == Prediction::Refused || d.message.starts_with("duplicate field "))
}

/// The start of every line of a text, to grow ranges to whole lines without rescanning them.
struct LineStarts {
    starts: Vec<usize>,
    len: usize,
}

impl LineStarts {
    fn of(text: &str) -> LineStarts {
        let breaks = text.match_indices('\n').map(|(at, _)| at + 1);
        LineStarts {
            starts: std::iter::once(0).chain(breaks).collect(),
            len: text.len(),
        }
    }

    /// `range` grown to the start of its first line and the end of its last (before its break).
    fn whole_lines(&self, range: TextRange) -> TextRange {
        let (start, end) = (usize::from(range.start()), usize::from(range.end()));
        let first = self
            .starts
            .partition_point(|s| *s <= start)
            .saturating_sub(1);
        let next = self.starts.partition_point(|s| *s <= end);
        let line_start = self.starts.get(first).copied().unwrap_or(0);
        let line_end = self
            .starts
            .get(next)
            .map_or(self.len, |s| s.saturating_sub(1))
            .max(end);
        TextRange::new(
            crate::text::to_size(line_start),
            crate::text::to_size(line_end),
        )
    }
}

/// `ranges` merged into disjoint ranges sorted by start (touching ones joined).
fn union(mut ranges: Vec<TextRange>) -> Vec<TextRange> {
    ranges.sort_by_key(|r| r.start());
    let mut merged: Vec<TextRange> = Vec::with_capacity(ranges.len());
    for range in ranges {
        match merged.last_mut() {
            Some(last) if range.start() <= last.end() => *last = last.cover(range),
            _ => merged.push(range),
        }
    }
    merged
}

/// Bound on the nesting walked (the tree's own depth is bounded by the parser).
const MAX_DEPTH: usize = crate::yaml::MAX_DEPTH + 2;

/// The range of the scalar (key or value) that holds `range`, if one does; `scalars` sorted by
/// start.
fn scalar_around(scalars: &[TextRange], range: TextRange) -> Option<TextRange> {
    let after = scalars.partition_point(|s| s.start() <= range.start());
    let candidate = *scalars.get(after.checked_sub(1)?)?;
    candidate.contains_range(range).then_some(candidate)
}

/// The ranges of every scalar under `node`, keys included.
fn collect_scalars(node: &Node, depth: usize, out: &mut Vec<TextRange>) {
    if depth > MAX_DEPTH {
        return;
    }
    match &node.kind {
        NodeKind::Scalar(_) => out.push(node.range),
        NodeKind::Sequence(items) => {
            for item in items {
                collect_scalars(item, depth + 1, out);
            }
        }
        NodeKind::Mapping(entries) => {
            for entry in entries {
                collect_scalars(&entry.key, depth + 1, out);
                collect_scalars(&entry.value, depth + 1, out);
            }
        }
    }
}
