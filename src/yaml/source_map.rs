//! The map from offsets in a decoded scalar to offsets in the file.

use crate::text::{TextRange, TextSize};

/// For every byte offset of a decoded scalar, the file offset of the character it came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    _private: (),
}

impl SourceMap {
    /// File offset of the decoded offset `at` (`at == value.len()` maps to just after the last
    /// character's source).
    pub fn to_file(&self, at: TextSize) -> TextSize {
        at
    }

    /// File range covering the decoded range.
    pub fn to_file_range(&self, range: TextRange) -> TextRange {
        range
    }

    /// Decoded offset of the character at file offset `at`, if it lies inside the scalar's content.
    pub fn to_decoded(&self, at: TextSize) -> Option<TextSize> {
        Some(at)
    }
}
