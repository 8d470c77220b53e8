//! Quoted scalars whose continuation lines are indented less than the block around them.
//!
//! go-yaml's scanner (`yaml_parser_scan_flow_scalar` in `scannerc.go` of go.yaml.in/yaml/v2, the
//! go-yaml v2 that sigs.k8s.io/yaml decodes with for kubectl and the API server) checks no
//! indentation inside a quoted scalar, so a continuation line may start at any column:
//!
//! ```yaml
//!     - expression: "object.a &&
//!   object.b"
//! ```
//!
//! saphyr-parser refuses that ("invalid indentation in quoted scalar"), and a tab in the
//! indentation of such a line ("tab cannot be used as indentation"; go-yaml skips blanks there
//! without looking). When it does, the piece is read again with that scalar's line breaks, or that
//! tab, shown to the parser as spaces: the same number of bytes, so every offset stays where it
//! was. The scalar's value and source map then come from our own decoding of the real text, which
//! folds the lines as go-yaml does.
//!
//! saphyr also wants a space, not a tab, right after the `:` of a key (`key:\tvalue`, in a block
//! or a flow mapping), where go-yaml skips tabs as it skips spaces (`yaml_parser_scan_to_next_token`
//! skips tabs whenever a simple key is not allowed, which it is not after a key's `:`). That tab
//! is shown as a space too. After the `:` of an explicit `? key` go-yaml refuses the tab ("found
//! character that cannot start any token"), so that one stays an error.

use std::borrow::Cow;

use super::locate;

/// The message saphyr-parser gives for a continuation line left of the block indentation.
pub(crate) const UNDER_INDENTED: &str = "invalid indentation in quoted scalar";
/// The message it gives for a tab in such a line's indentation (it points at the tab).
pub(crate) const TAB_INDENTED: &str = "tab cannot be used as indentation";
/// The message it gives for a tab right after a key's `:` (it points past the blanks).
pub(crate) const TAB_AFTER_COLON: &str = "':' must be followed by a valid YAML whitespace";

/// What the parser is shown differently (file offsets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mask {
    /// A quoted scalar, from its opening quote to past its closing one: its breaks are spaces.
    Breaks(usize, usize),
    /// A tab in the indentation of a quoted scalar's continuation line, or right after a key's
    /// `:`: a space.
    Tab(usize),
}

/// Most scalars unmasked in one piece (each costs a new read of the piece); past it the error
/// stands.
pub(crate) const MAX_MASKS: usize = 64;

/// The quoted scalar opening at file offset `quote`, as the range to show on one line: when it
/// closes before `limit`, crosses no document marker and is not a mapping key (a key cannot span
/// lines in go-yaml either).
pub(crate) fn maskable(text: &str, quote: usize, limit: usize) -> Option<Mask> {
    if !matches!(text.as_bytes().get(quote), Some(b'"' | b'\'')) {
        return None;
    }
    let end = locate::quoted_end(text, quote, limit)?;
    let inside = text.get(quote..end)?;
    let marker = inside.lines().skip(1).any(|line| {
        (line.starts_with("---") || line.starts_with("..."))
            && line[3..].chars().next().is_none_or(char::is_whitespace)
    });
    let after = text.get(end..limit)?.trim_start_matches([' ', '\t']);
    (!marker && !after.starts_with(':')).then_some(Mask::Breaks(quote, end))
}

/// The tab at file offset `at`, as a mask, if that is what is there.
pub(crate) fn tab(text: &str, at: usize) -> Option<Mask> {
    (text.as_bytes().get(at) == Some(&b'\t')).then_some(Mask::Tab(at))
}

/// The tab right after the `:` that the blanks before file offset `at` follow, when that `:`
/// ends a key on its line (not the `:` of an explicit `? key`, alone at the start of its line).
pub(crate) fn tab_after_colon(text: &str, at: usize) -> Option<Mask> {
    let before = text.get(..at)?.trim_end_matches([' ', '\t']);
    let colon = before.strip_suffix(':')?.len();
    let line_start = before[..colon].rfind('\n').map_or(0, |i| i + 1);
    let is_key = !before[line_start..colon].trim().is_empty();
    (is_key && text.as_bytes().get(colon + 1) == Some(&b'\t')).then_some(Mask::Tab(colon + 1))
}

/// `piece` (at file offset `base`) as the parser is shown it: the line breaks and tabs of `masks`
/// replaced by spaces.
pub(crate) fn masked<'p>(piece: &'p str, base: usize, masks: &[Mask]) -> Cow<'p, str> {
    if masks.is_empty() {
        return Cow::Borrowed(piece);
    }
    let hidden = |at: usize, c: char| {
        masks.iter().any(|mask| match *mask {
            Mask::Breaks(from, to) => matches!(c, '\n' | '\r') && from <= at && at < to,
            Mask::Tab(tab) => c == '\t' && tab == at,
        })
    };
    Cow::Owned(
        piece
            .char_indices()
            .map(|(i, c)| if hidden(base + i, c) { ' ' } else { c })
            .collect(),
    )
}

/// Whether `masks` show the parser the quoted scalar opening at `from` on one line.
pub(crate) fn on_one_line(masks: &[Mask], from: usize) -> bool {
    masks
        .iter()
        .any(|mask| matches!(*mask, Mask::Breaks(start, _) if start == from))
}
