//! Positioned, tolerant YAML: a tree of nodes with byte ranges, the style of every scalar and a source
//! map from each character of a decoded scalar back to its offset in the file.
//!
//! A file is split into documents first so that one broken document does not hide the others. Alias
//! expansion and nesting depth are bounded; problems are `SyntaxError`s, never panics. This module knows
//! nothing of CEL or of admission policies.

mod alias;
pub(crate) mod binary;
mod block;
mod bom;
mod build;
mod cursor;
mod decode;
#[cfg(test)]
mod emit_tests;
#[cfg(test)]
mod go_yaml_tests;
pub mod incremental;
mod json_values;
#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod limit_tests;
mod locate;
#[cfg(test)]
mod map_tests;
mod mask;
mod merge;
#[cfg(test)]
mod merge_tests;
mod node;
#[cfg(test)]
mod prop_tests;
mod scalar;
mod separators;
mod source_map;
mod split;
pub mod template;
#[cfg(test)]
mod tests;

pub use build::{MAX_DEPTH, MAX_NODES};
pub use source_map::SourceMap;

use crate::text::TextRange;

/// A parsed file: every document, and every syntax error found in any of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlFile {
    /// The documents in file order; a document that failed to parse keeps what was read before the error.
    pub documents: Vec<Document>,
    /// Syntax errors in file order.
    pub errors: Vec<SyntaxError>,
}

/// One YAML document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// The document's range in the file, from its first content (or `---`) to the end of its root
    /// node (or of its `...`); for a document cut short by an error, up to the error.
    pub range: TextRange,
    /// The root node; `None` for an empty document.
    pub root: Option<Node>,
    /// Whether a syntax error cut this document short (its tree is partial).
    pub has_errors: bool,
}

/// A syntax error at a range of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where the error is; may be empty (a point).
    pub range: TextRange,
    /// Lower-case message without a trailing full stop.
    pub message: String,
}

/// A node of the tree.
///
/// An alias (`*name`) is expanded into a copy of its anchored node: the copy's own range is the
/// alias, the nodes inside it keep the ranges of the original.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The node's range, without its tag or anchor: for a scalar, the raw text including quotes, or a
    /// block scalar from its `|`/`>` header to the end of its last content line; for a collection,
    /// from its first to its last character (`[` to `]`, or first key to the end of the last value).
    pub range: TextRange,
    /// An explicit tag such as `!!str`, as written (boxed: most nodes have none, and a `String`
    /// would make every node of a large file 8 bytes larger).
    pub tag: Option<Box<str>>,
    /// What the node holds.
    pub kind: NodeKind,
}

/// The content of a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A scalar with its decoded value.
    Scalar(Scalar),
    /// A sequence of nodes.
    Sequence(Vec<Node>),
    /// A mapping, in file order; duplicate keys are kept.
    Mapping(Vec<Entry>),
}

/// A key and its value in a mapping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The key node (a scalar in every file we care about, but any node is allowed).
    pub key: Node,
    /// The value node; a missing value is an empty plain scalar with an empty range after the colon.
    pub value: Node,
}

/// A decoded scalar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scalar {
    /// The decoded text (escapes resolved, lines folded, block indentation removed).
    pub value: String,
    /// How it was written.
    pub style: ScalarStyle,
    /// Maps byte offsets of `value` back to byte offsets in the file.
    pub source_map: SourceMap,
}

/// The five YAML scalar styles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarStyle {
    /// `value`
    Plain,
    /// `'value'`
    SingleQuoted,
    /// `"value"`
    DoubleQuoted,
    /// `|` block
    Literal,
    /// `>` block
    Folded,
}

/// Parses a whole file; never fails, never panics.
pub fn parse(text: &str) -> YamlFile {
    let mut file = YamlFile {
        documents: Vec::new(),
        errors: Vec::new(),
    };
    let pieces = split::split_documents(text);
    for (mut documents, mut errors) in parse_pieces(text, &pieces) {
        file.documents.append(&mut documents);
        file.errors.append(&mut errors);
    }
    file
}

/// The documents and errors of each of `pieces` of `text`, in order. Pieces are independent; a
/// large file's are read on several threads.
pub(crate) fn parse_pieces(
    text: &str,
    pieces: &[(usize, usize)],
) -> Vec<(Vec<Document>, Vec<SyntaxError>)> {
    let per_thread = if text.len() >= PARALLEL_BYTES {
        16
    } else {
        usize::MAX
    };
    crate::text::parallel::map_chunks(pieces, per_thread, |piece| {
        let mut documents = Vec::new();
        let mut errors = Vec::new();
        build::parse_piece(text, *piece, &mut documents, &mut errors);
        (documents, errors)
    })
}

/// Files at least this large (in bytes) are parsed on several threads when they hold many
/// documents; smaller ones parse faster than threads start.
const PARALLEL_BYTES: usize = 256 * 1024;
