//! Incremental parsing of a multi-document file: an edit re-reads only the pieces (see
//! [`super::split`]) whose text changed; the documents and errors of every other piece are reused,
//! moved to where the piece now starts. This is exact, not a heuristic: a piece's parse depends
//! only on its own text (the parser starts afresh at every piece), so an unchanged piece parses to
//! the same tree at any offset, up to that offset.

use std::collections::HashMap;
use std::ops::Range;

use super::build::parse_piece;
use super::split::split_documents;
use super::{Document, Node, NodeKind, SyntaxError, YamlFile};
use crate::text::{TextRange, TextSize};

/// Where each piece of a parsed file is, and which of its documents and errors it produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pieces {
    pieces: Vec<Piece>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Piece {
    /// Byte range of the piece in the file.
    text: Range<usize>,
    /// Its documents in [`YamlFile::documents`].
    documents: Range<usize>,
    /// Its errors in [`YamlFile::errors`].
    errors: Range<usize>,
}

/// A file's previous parse: its text, its tree and its pieces.
pub struct Previous<'a> {
    /// The text the tree was read from.
    pub text: &'a str,
    /// The tree.
    pub yaml: &'a YamlFile,
    /// Its pieces.
    pub pieces: &'a Pieces,
}

/// Parses `text` (as [`super::parse`] does) and records its pieces for a later [`reparse`].
pub fn parse_with_pieces(text: &str) -> (YamlFile, Pieces) {
    reparse(text, None)
}

/// Parses `text`, reusing the pieces of `previous` whose text is unchanged (wherever they now
/// are); equal to a fresh [`super::parse`] of `text`. Returns the tree and how many pieces it
/// parsed rather than reused, with the pieces for the next edit.
pub fn reparse(text: &str, previous: Option<&Previous>) -> (YamlFile, Pieces) {
    let (file, pieces, _) = reparse_counted(text, previous);
    (file, pieces)
}

/// [`reparse`], with how many pieces were parsed rather than reused (evidence for tests).
pub fn reparse_counted(text: &str, previous: Option<&Previous>) -> (YamlFile, Pieces, usize) {
    let Some(previous) = previous else {
        return parse_fresh(text);
    };
    let old = Old {
        text: previous.text,
        pieces: previous.pieces,
        trees: Trees::Shared(previous.yaml),
    };
    reparse_from(text, Some(old))
}

/// [`reparse`] from a previous parse the caller gives away: the trees of unchanged pieces are
/// moved into the new tree rather than copied, so an edit of a large file neither copies the
/// thousand documents it did not touch nor holds two trees of the file at once.
pub fn reparse_owned(
    text: &str,
    old_text: &str,
    old_yaml: YamlFile,
    old_pieces: &Pieces,
) -> (YamlFile, Pieces) {
    let taken = vec![false; old_pieces.pieces.len()];
    let old = Old {
        text: old_text,
        pieces: old_pieces,
        trees: Trees::Owned(old_yaml, taken),
    };
    let (file, pieces, _) = reparse_from(text, Some(old));
    (file, pieces)
}

/// A previous parse, with its trees borrowed or owned.
struct Old<'a> {
    text: &'a str,
    pieces: &'a Pieces,
    trees: Trees<'a>,
}

/// The previous trees: borrowed (reused by copying) or owned (reused by moving, each piece's
/// documents once; `taken` marks the pieces already moved).
enum Trees<'a> {
    Shared(&'a YamlFile),
    Owned(YamlFile, Vec<bool>),
}

impl Trees<'_> {
    fn file(&self) -> &YamlFile {
        match self {
            Trees::Shared(file) => file,
            Trees::Owned(file, _) => file,
        }
    }

    /// The documents of the old piece number `index`; `None` when an owned piece was already
    /// moved (a file holding the same piece twice), which is then parsed again.
    fn documents(&mut self, index: usize, piece: &Piece) -> Option<Vec<Document>> {
        match self {
            Trees::Shared(file) => file
                .documents
                .get(piece.documents.clone())
                .map(<[_]>::to_vec),
            Trees::Owned(file, taken) => {
                let slot = taken.get_mut(index).filter(|t| !**t)?;
                *slot = true;
                let documents = file.documents.get_mut(piece.documents.clone())?;
                // The husk keeps its range and flag, which `reaches_past_its_end` still reads.
                Some(documents.iter_mut().map(take_tree).collect())
            }
        }
    }
}

/// The document, leaving its range and flag behind without the tree.
fn take_tree(document: &mut Document) -> Document {
    Document {
        range: document.range,
        root: document.root.take(),
        has_errors: document.has_errors,
    }
}

fn reparse_from(text: &str, mut old: Option<Old>) -> (YamlFile, Pieces, usize) {
    let by_text = old.as_ref().map(old_pieces).unwrap_or_default();
    let mut file = YamlFile {
        documents: Vec::new(),
        errors: Vec::new(),
    };
    let mut pieces = Vec::new();
    let mut parsed = 0;
    for (start, end) in split_documents(text) {
        let (documents, errors) = (file.documents.len(), file.errors.len());
        let reusable = text
            .get(start..end)
            .and_then(|piece| by_text.get(piece))
            .zip(old.as_mut())
            .filter(|((_, piece), old)| !reaches_past_its_end(old.trees.file(), piece));
        let reused = reusable.is_some_and(|((index, piece), old)| {
            reuse(&mut old.trees, *index, piece, start, &mut file)
        });
        if !reused {
            parse_piece(text, (start, end), &mut file.documents, &mut file.errors);
            parsed += 1;
        }
        pieces.push(Piece {
            text: start..end,
            documents: documents..file.documents.len(),
            errors: errors..file.errors.len(),
        });
    }
    (file, Pieces { pieces }, parsed)
}

/// The first parse of `text`: every piece is parsed, a large file's on several threads (an
/// editor opening a 30,000-line file waits for this).
fn parse_fresh(text: &str) -> (YamlFile, Pieces, usize) {
    let mut file = YamlFile {
        documents: Vec::new(),
        errors: Vec::new(),
    };
    let ranges = split_documents(text);
    let parsed = super::parse_pieces(text, &ranges);
    let mut pieces = Vec::with_capacity(ranges.len());
    for ((start, end), (mut documents, mut errors)) in ranges.iter().copied().zip(parsed) {
        let (first_document, first_error) = (file.documents.len(), file.errors.len());
        file.documents.append(&mut documents);
        file.errors.append(&mut errors);
        pieces.push(Piece {
            text: start..end,
            documents: first_document..file.documents.len(),
            errors: first_error..file.errors.len(),
        });
    }
    let count = pieces.len();
    (file, Pieces { pieces }, count)
}

/// The previous pieces by their text, each with its index. FxHash rather than SipHash: every
/// edit hashes the whole previous text (SipHash was a twelfth of a keystroke's CPU time in a
/// 33,000-line file), and a collision costs a comparison only.
type PiecesByText<'a> = HashMap<&'a str, (usize, &'a Piece), rustc_hash::FxBuildHasher>;

/// The previous pieces by their text, each with its index.
fn old_pieces<'a>(old: &Old<'a>) -> PiecesByText<'a> {
    let text = old.text;
    old.pieces
        .pieces
        .iter()
        .enumerate()
        .filter_map(|(index, piece)| Some((text.get(piece.text.clone())?, (index, piece))))
        .collect()
}

/// Whether the parse of `piece` measured the character after it: an error at its very end, and
/// the document that error cuts short, span the first character of the next piece (or the end of
/// the file), so they are not a function of the piece's text alone. Such a piece is parsed again.
fn reaches_past_its_end(old: &YamlFile, piece: &Piece) -> bool {
    let end = size(piece.text.end);
    let errors = old.errors.get(piece.errors.clone()).unwrap_or_default();
    let documents = old
        .documents
        .get(piece.documents.clone())
        .unwrap_or_default();
    errors.iter().any(|e| e.range.end() >= end)
        || documents
            .iter()
            .any(|d| d.range.end() > end || (d.has_errors && d.range.end() >= end))
}

/// Appends the documents and errors of the old `piece` to `file`, moved to `start`; `false`
/// (and nothing appended) when its documents are no longer there to reuse.
fn reuse(old: &mut Trees, index: usize, piece: &Piece, start: usize, file: &mut YamlFile) -> bool {
    let Some(documents) = old.documents(index, piece) else {
        return false;
    };
    let from = size(piece.text.start);
    let to = size(start);
    for mut document in documents {
        if from != to {
            move_document(&mut document, from, to);
        }
        file.documents.push(document);
    }
    for error in old
        .file()
        .errors
        .get(piece.errors.clone())
        .unwrap_or_default()
    {
        file.errors.push(SyntaxError {
            range: moved_range(error.range, from, to),
            message: error.message.clone(),
        });
    }
    true
}

fn move_document(document: &mut Document, from: TextSize, to: TextSize) {
    document.range = moved_range(document.range, from, to);
    if let Some(root) = &mut document.root {
        move_node(root, from, to);
    }
}

/// Moves every range of `node`; the depth is bounded by the parser's `MAX_DEPTH`.
fn move_node(node: &mut Node, from: TextSize, to: TextSize) {
    node.range = moved_range(node.range, from, to);
    match &mut node.kind {
        NodeKind::Scalar(scalar) => scalar.source_map.moved(from, to),
        NodeKind::Sequence(items) => {
            for item in items {
                move_node(item, from, to);
            }
        }
        NodeKind::Mapping(entries) => {
            for entry in entries {
                move_node(&mut entry.key, from, to);
                move_node(&mut entry.value, from, to);
            }
        }
    }
}

/// `range`, which lies at or after `from`, moved by `to - from`.
pub(super) fn moved_range(range: TextRange, from: TextSize, to: TextSize) -> TextRange {
    let start = moved_offset(u32::from(range.start()), from, to);
    let end = moved_offset(u32::from(range.end()), from, to);
    TextRange::new(TextSize::from(start), TextSize::from(end.max(start)))
}

/// `at`, an offset at or after `from`, moved by `to - from` (saturating, never wrapping).
pub(super) fn moved_offset(at: u32, from: TextSize, to: TextSize) -> u32 {
    let moved = i64::from(at) - i64::from(u32::from(from)) + i64::from(u32::from(to));
    u32::try_from(moved.max(0)).unwrap_or(u32::MAX)
}

fn size(n: usize) -> TextSize {
    super::source_map::size(n)
}
