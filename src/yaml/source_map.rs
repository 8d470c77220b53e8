//! The map from offsets in a decoded scalar to offsets in the file.
//!
//! A scalar's value is made of segments: runs copied verbatim from the file (one entry for the whole
//! run, since decoded and file offsets advance together) and single produced pieces (an escape, a
//! folded line break, a `''`) whose every byte maps to the start of the source text that produced it.
//! Storing runs keeps the map small: a one-line scalar has a single segment, and when that segment
//! is the whole content (most scalars) it is not stored at all.

use std::ops::Deref;

use crate::text::{TextRange, TextSize};

/// One piece of a decoded scalar and where it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Segment {
    /// Start of the piece in the decoded value.
    pub(crate) decoded: u32,
    /// Start of its source in the file.
    pub(crate) file: u32,
    /// Length of the piece in the decoded value.
    pub(crate) decoded_len: u32,
    /// Length of its source in the file.
    pub(crate) file_len: u32,
    /// Whether the piece is the file text itself (offsets advance together).
    pub(crate) verbatim: bool,
}

/// For every byte offset of a decoded scalar, the file offset of the character it came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    /// Segments in decoded order, covering the whole value, or the mark of a degraded map.
    segments: Segments,
    /// File range of the scalar's content (inside quotes, after a block header).
    content: TextRange,
}

impl SourceMap {
    /// A map built from segments covering the value, for content at `content` in the file.
    pub(crate) fn new(segments: Vec<Segment>, content: TextRange) -> SourceMap {
        let segments = match segments.as_slice() {
            [one] if *one == whole_segment(content) => Segments::Whole,
            _ => Segments::Listed(segments.into_boxed_slice()),
        };
        SourceMap { segments, content }
    }

    /// The map of a value that is the file text at `content` itself: one verbatim run (none for
    /// an empty value), as [`MapBuilder::verbatim`] would build it.
    pub(crate) fn verbatim(content: TextRange) -> SourceMap {
        let segments = if content.is_empty() {
            Segments::Listed(Box::default())
        } else {
            Segments::Whole
        };
        SourceMap { segments, content }
    }

    /// A map that sends every decoded offset to the start of the content: used when the exact
    /// correspondence is unknown, so that positions stay inside the scalar.
    pub(crate) fn degraded(content: TextRange) -> SourceMap {
        SourceMap {
            segments: Segments::Listed(Box::new([DEGRADED])),
            content,
        }
    }

    /// Whether the map is exact (built by the decoder) rather than degraded.
    pub fn is_exact(&self) -> bool {
        !self.segments.is_degraded()
    }

    /// The file range of the scalar's content (without quotes or block header).
    pub fn content_range(&self) -> TextRange {
        self.content
    }

    /// File offset of the decoded offset `at` (`at == value.len()` maps to just after the last
    /// character's source).
    pub fn to_file(&self, at: TextSize) -> TextSize {
        let at = u32::from(at);
        match self.segment_containing(at) {
            Some(seg) if seg.verbatim => TextSize::from(seg.file.saturating_add(at - seg.decoded)),
            Some(seg) => TextSize::from(seg.file),
            // Past the end: just after the source of the last piece.
            None => self.segments().last().map_or(self.content.start(), |seg| {
                TextSize::from(seg.file.saturating_add(seg.file_len))
            }),
        }
    }

    /// File range covering the decoded range.
    pub fn to_file_range(&self, range: TextRange) -> TextRange {
        let start = self.to_file(range.start());
        if range.is_empty() {
            return TextRange::empty(start);
        }
        let last = u32::from(range.end()).saturating_sub(1);
        let end = match self.segment_containing(last) {
            Some(seg) if seg.verbatim => seg
                .file
                .saturating_add(last - seg.decoded)
                .saturating_add(1),
            Some(seg) => seg.file.saturating_add(seg.file_len),
            None => u32::from(self.to_file(range.end())),
        };
        TextRange::new(start, TextSize::from(end.max(u32::from(start))))
    }

    /// Decoded offset of the character at file offset `at`, if it lies inside the scalar's content.
    /// A file character that produced nothing (indentation, a stripped space) maps to the decoded
    /// offset of what follows it.
    pub fn to_decoded(&self, at: TextSize) -> Option<TextSize> {
        if !self.content.contains_inclusive(at) {
            return None;
        }
        if !self.is_exact() {
            return Some(TextSize::from(0));
        }
        let at = u32::from(at);
        let segments = self.segments();
        // Segments are in decoded order, and decoded order follows file order.
        let index = segments.partition_point(|seg| seg.file.saturating_add(seg.file_len) <= at);
        let Some(seg) = segments.get(index) else {
            let len = segments
                .last()
                .map_or(0, |seg| seg.decoded + seg.decoded_len);
            return Some(TextSize::from(len));
        };
        let decoded = if at < seg.file {
            seg.decoded
        } else if seg.verbatim {
            seg.decoded + (at - seg.file)
        } else {
            seg.decoded
        };
        Some(TextSize::from(decoded))
    }

    /// The segments in decoded order.
    fn segments(&self) -> View<'_> {
        match &self.segments {
            Segments::Whole => View::One(whole_segment(self.content)),
            Segments::Listed(_) if self.segments.is_degraded() => View::Listed(&[]),
            Segments::Listed(segments) => View::Listed(segments),
        }
    }

    /// The segment holding decoded byte `at`.
    fn segment_containing(&self, at: u32) -> Option<Segment> {
        let segments = self.segments();
        let index =
            segments.partition_point(|seg| seg.decoded.saturating_add(seg.decoded_len) <= at);
        segments.get(index).filter(|seg| seg.decoded <= at).copied()
    }
}

/// The one verbatim run that is the whole content.
fn whole_segment(content: TextRange) -> Segment {
    let len = u32::from(content.len());
    Segment {
        decoded: 0,
        file: u32::from(content.start()),
        decoded_len: len,
        file_len: len,
        verbatim: true,
    }
}

/// What a degraded map lists: an empty piece, which no decoded value has (the builder skips them).
const DEGRADED: Segment = Segment {
    decoded: 0,
    file: 0,
    decoded_len: 0,
    file_len: 0,
    verbatim: false,
};

/// Segments, sized for the tree: a policy file has thousands of one-line scalars, whose map is one
/// run over the whole content and needs no storage. Other maps are listed in one allocation (none
/// when empty), and a degraded map (rare) lists only [`DEGRADED`]. With two variants the enum
/// fits in the list's 16 bytes (the pointer's niche tells them apart); a third variant without
/// data would add 8 bytes to every node of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Segments {
    Whole,
    Listed(Box<[Segment]>),
}

impl Default for Segments {
    fn default() -> Segments {
        Segments::Listed(Box::default())
    }
}

impl Segments {
    fn is_degraded(&self) -> bool {
        matches!(self, Segments::Listed(list) if **list == [DEGRADED])
    }
}

/// The segments of a map: borrowed from the list, or the whole-content run made on the spot.
enum View<'a> {
    Listed(&'a [Segment]),
    One(Segment),
}

impl Deref for View<'_> {
    type Target = [Segment];

    fn deref(&self) -> &[Segment] {
        match self {
            View::Listed(segments) => segments,
            View::One(segment) => std::slice::from_ref(segment),
        }
    }
}

/// Builds a decoded value and its map together.
#[derive(Debug, Default)]
pub(crate) struct MapBuilder {
    /// The decoded value so far.
    pub(crate) value: String,
    /// The segments so far.
    segments: Vec<Segment>,
}

impl MapBuilder {
    /// A builder for a value of about `capacity` bytes.
    pub(crate) fn with_capacity(capacity: usize) -> MapBuilder {
        MapBuilder {
            value: String::with_capacity(capacity),
            segments: Vec::new(),
        }
    }

    /// Appends `text`, which is the file text at `file`.
    pub(crate) fn verbatim(&mut self, text: &str, file: usize) {
        if text.is_empty() {
            return;
        }
        let (decoded, file, len) = (to_u32(self.value.len()), to_u32(file), to_u32(text.len()));
        self.value.push_str(text);
        if let Some(last) = self.segments.last_mut() {
            let contiguous = last.verbatim
                && last.decoded + last.decoded_len == decoded
                && last.file.saturating_add(last.file_len) == file;
            if contiguous {
                last.decoded_len += len;
                last.file_len += len;
                return;
            }
        }
        self.segments.push(Segment {
            decoded,
            file,
            decoded_len: len,
            file_len: len,
            verbatim: true,
        });
    }

    /// Appends `text`, produced by the `file_len` bytes of source at `file`.
    pub(crate) fn produced(&mut self, text: &str, file: usize, file_len: usize) {
        if text.is_empty() {
            return;
        }
        let decoded = to_u32(self.value.len());
        self.value.push_str(text);
        self.segments.push(Segment {
            decoded,
            file: to_u32(file),
            decoded_len: to_u32(text.len()),
            file_len: to_u32(file_len),
            verbatim: false,
        });
    }

    /// Appends one produced character.
    pub(crate) fn produced_char(&mut self, c: char, file: usize, file_len: usize) {
        let mut buf = [0; 4];
        self.produced(c.encode_utf8(&mut buf), file, file_len);
    }

    /// End in the file of the source of the last piece, if any.
    pub(crate) fn source_end(&self) -> Option<usize> {
        self.segments
            .last()
            .map(|seg| seg.file.saturating_add(seg.file_len) as usize)
    }

    /// The value and its map for content at `content`.
    pub(crate) fn finish(self, content: TextRange) -> (String, SourceMap) {
        (self.value, SourceMap::new(self.segments, content))
    }
}

/// Offsets fit in `u32` because `TextSize` does; larger files saturate rather than wrap.
pub(crate) fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A byte offset as a `TextSize` (saturating for texts past 4 GiB).
pub(crate) fn size(n: usize) -> TextSize {
    TextSize::from(to_u32(n))
}

impl SourceMap {
    /// The same map for the scalar moved from `from` to `to` in the file (an unchanged document
    /// reused at another place by [`super::incremental`]).
    pub(crate) fn moved(&mut self, from: TextSize, to: TextSize) {
        let shift = |at: u32| super::incremental::moved_offset(at, from, to);
        self.content = super::incremental::moved_range(self.content, from, to);
        if self.segments.is_degraded() {
            return;
        }
        if let Segments::Listed(segments) = &mut self.segments {
            for segment in segments.iter_mut() {
                segment.file = shift(segment.file);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{MapBuilder, SourceMap};
    use crate::text::{TextRange, TextSize};

    /// The map of a value read verbatim is the one the builder makes for the same run.
    #[test]
    fn verbatim_map_is_the_builders() {
        for (start, text) in [(0, "abc"), (7, "x"), (3, "")] {
            let content = TextRange::at(TextSize::from(start), TextSize::of(text));
            let mut built = MapBuilder::default();
            built.verbatim(text, start as usize);
            let (_, expected) = built.finish(content);
            assert_eq!(
                SourceMap::verbatim(content),
                expected,
                "{text:?} at {start}"
            );
        }
    }

    /// Every node of the tree holds a map: it must stay as small as the layout comment says.
    #[test]
    fn map_is_three_words() {
        assert_eq!(std::mem::size_of::<SourceMap>(), 24);
        // A tree node is then ten words: 80 bytes, where a map of four words made it 88.
        assert_eq!(std::mem::size_of::<crate::yaml::Node>(), 80);
    }

    /// A moved map still covers its content as one run, and a degraded one stays degraded.
    #[test]
    fn moved_maps_keep_their_shape() {
        let content = TextRange::at(TextSize::from(4), TextSize::from(3));
        let mut whole = SourceMap::verbatim(content);
        whole.moved(TextSize::from(0), TextSize::from(10));
        assert_eq!(whole.to_file(TextSize::from(1)), TextSize::from(15));
        let mut degraded = SourceMap::degraded(content);
        degraded.moved(TextSize::from(0), TextSize::from(10));
        assert!(!degraded.is_exact());
        assert_eq!(degraded, SourceMap::degraded(content + TextSize::from(10)));
    }
}
