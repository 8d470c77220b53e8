//! Anchors and alias expansion, within budgets.
//!
//! An alias becomes a copy of its anchored node. Copies are the only way a small file makes a big or
//! deep tree, so each document has a budget of copied nodes ([`MAX_NODES`], counting the kept
//! originals too), and a copy may not take the tree deeper than [`MAX_DEPTH`]: every later walk of
//! the tree (drop, clone, comparison) then stays within a small stack.
//!
//! go-yaml v2 refuses a document whose decoding is mostly alias expansion ("document contains
//! excessive aliasing", go.yaml.in/yaml/v2 `decode.go` `unmarshal` and `allowedAliasRatio`):
//! [`AliasRatio`] counts its decode operations as go-yaml does, so the refusal comes where
//! kubectl's comes, long before the budget of copies runs out.

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
    /// go-yaml's decode operations for it: its nodes, and one more for each alias in it.
    pub(crate) decodes: usize,
}

impl Size {
    /// The size of a single node.
    pub(crate) const ONE: Size = Size {
        nodes: 1,
        height: 1,
        decodes: 1,
    };

    /// The size of an alias of a node of this size: the same copy, one decode more.
    pub(crate) fn aliased(self) -> Size {
        Size {
            decodes: self.decodes.saturating_add(1),
            ..self
        }
    }

    /// This size grown by a child of size `child`.
    pub(crate) fn with_child(self, child: Size) -> Size {
        Size {
            nodes: self.nodes.saturating_add(child.nodes),
            height: self.height.max(child.height.saturating_add(1)),
            decodes: self.decodes.saturating_add(child.decodes),
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

    /// The size of the node anchored as `id`, if it is kept.
    pub(crate) fn size_of(&self, id: usize) -> Option<Size> {
        self.kept.get(&id)?.as_ref().map(|(_, size)| *size)
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

/// go-yaml's message for a document refused for its aliases.
pub(crate) const EXCESSIVE: &str = "document contains excessive aliasing";

/// go-yaml v2's counts of one document's decoding (`decode.go`, `decoder.decodeCount` and
/// `aliasCount`): every node decoded, the document itself included, and those decoded inside an
/// alias. Nodes are decoded in the order written, an alias's target once more at each alias.
pub(crate) struct AliasRatio {
    decoded: usize,
    aliased: usize,
    excessive: bool,
}

impl Default for AliasRatio {
    fn default() -> AliasRatio {
        AliasRatio {
            decoded: 1,
            aliased: 0,
            excessive: false,
        }
    }
}

impl AliasRatio {
    /// A node decoded outside any alias.
    pub(crate) fn node(&mut self) {
        self.decoded = self.decoded.saturating_add(1);
    }

    /// An alias whose target takes `target` decodes. True the first time go-yaml refuses the
    /// document: inside an alias the ratio only grows and the allowed ratio only falls, so its
    /// check at every node fails first, if at all, at the last node of an alias.
    pub(crate) fn alias(&mut self, target: usize) -> bool {
        self.decoded = self.decoded.saturating_add(target).saturating_add(1);
        self.aliased = self.aliased.saturating_add(target);
        let ratio = self.aliased as f64 / self.decoded as f64;
        let refused =
            self.aliased > 100 && self.decoded > 1000 && ratio > allowed_alias_ratio(self.decoded);
        let first = refused && !self.excessive;
        self.excessive |= refused;
        first
    }

    /// Whether go-yaml refuses the document for its aliases.
    pub(crate) fn is_excessive(&self) -> bool {
        self.excessive
    }
}

/// `decode.go` `allowedAliasRatio`: 99% of the decoding may come from aliases up to 400,000
/// decodes, 10% from 4,000,000, and in between a share falling in a straight line.
fn allowed_alias_ratio(decoded: usize) -> f64 {
    const LOW: usize = 400_000;
    const HIGH: usize = 4_000_000;
    match decoded {
        ..=LOW => 0.99,
        HIGH.. => 0.10,
        _ => 0.99 - 0.89 * ((decoded - LOW) as f64 / (HIGH - LOW) as f64),
    }
}
