//! Anchors and alias expansion, within budgets.
//!
//! An alias becomes a copy of its anchored node. Copies are the only way a small file makes a big or
//! deep tree, so each document has a budget of copied nodes ([`MAX_NODES`], counting the kept
//! originals too), and a copy may not take the tree deeper than [`MAX_DEPTH`]: every later walk of
//! the tree (drop, clone, comparison) then stays within a small stack.

use std::collections::HashMap;

use super::Node;
use super::build::{MAX_DEPTH, MAX_NODES};

/// How big and how deep a subtree is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Size {
    /// Nodes in it, itself included.
    pub(crate) nodes: usize,
    /// Levels in it: 1 for a scalar or an empty collection.
    pub(crate) height: usize,
}

impl Size {
    /// The size of a single node.
    pub(crate) const ONE: Size = Size {
        nodes: 1,
        height: 1,
    };

    /// This size grown by a child of size `child`.
    pub(crate) fn with_child(self, child: Size) -> Size {
        Size {
            nodes: self.nodes.saturating_add(child.nodes),
            height: self.height.max(child.height.saturating_add(1)),
        }
    }
}

/// Why an alias was not expanded.
pub(crate) enum AliasError {
    /// No anchor of that name in the document.
    Undefined,
    /// The copy would exceed the document's budget of copied nodes.
    TooMany,
    /// The copy would nest deeper than the depth limit.
    TooDeep,
}

impl AliasError {
    /// The message of the syntax error.
    pub(crate) fn message(&self) -> String {
        match self {
            AliasError::Undefined => "alias to an undefined anchor".to_owned(),
            AliasError::TooMany => {
                format!("alias expands to more than {MAX_NODES} nodes in this document")
            }
            AliasError::TooDeep => format!("alias makes nesting deeper than {MAX_DEPTH} levels"),
        }
    }
}

/// The anchors of the current document.
#[derive(Default)]
pub(crate) struct Anchors {
    /// Anchored nodes by anchor id, with their sizes; `None` when keeping one was over the budget.
    kept: HashMap<usize, Option<(Node, Size)>>,
    /// Nodes held in copies and kept originals so far.
    copied: usize,
}

impl Anchors {
    /// Forgets everything (a new document starts).
    pub(crate) fn clear(&mut self) {
        self.kept.clear();
        self.copied = 0;
    }

    /// Keeps a copy of the node anchored as `id`, if the budget allows.
    pub(crate) fn keep(&mut self, id: usize, node: &Node, size: Size) {
        let kept = self.take(size.nodes).then(|| (node.clone(), size));
        self.kept.insert(id, kept);
    }

    /// A copy of the node anchored as `id`, to be placed below `depth` open collections.
    pub(crate) fn expand(&mut self, id: usize, depth: usize) -> Result<(Node, Size), AliasError> {
        let size = match self.kept.get(&id) {
            None => return Err(AliasError::Undefined),
            Some(None) => return Err(AliasError::TooMany),
            Some(Some((_, size))) => *size,
        };
        if depth.saturating_add(size.height) > MAX_DEPTH + 1 {
            return Err(AliasError::TooDeep);
        }
        // Check the budget before copying, so that a billion laughs never allocates the copies.
        if !self.take(size.nodes) {
            return Err(AliasError::TooMany);
        }
        match self.kept.get(&id) {
            Some(Some((node, _))) => Ok((node.clone(), size)),
            _ => Err(AliasError::Undefined),
        }
    }

    /// Takes `nodes` from the budget, if they fit.
    fn take(&mut self, nodes: usize) -> bool {
        let total = self.copied.saturating_add(nodes);
        if total > MAX_NODES {
            return false;
        }
        self.copied = total;
        true
    }
}
