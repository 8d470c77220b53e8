//! Turning a scalar event into a node: its exact range in the file, its tag as written, and its value
//! with a source map from our own decoder, checked against the parser's value.

use saphyr_parser::{ScalarStyle as SaphyrStyle, Span, Tag};

use super::build::Builder;
use super::locate::{self, Properties};
use super::source_map::SourceMap;
use super::source_map::size;
use super::{Node, NodeKind, Scalar, ScalarStyle, block, decode};
use crate::text::{TextRange, TextSize};

/// What the parser said about a scalar.
pub(crate) struct ScalarSite<'s> {
    /// The parser's decoded value (the reference our decoder must match).
    pub(crate) value: &'s str,
    /// The parser's style.
    pub(crate) style: SaphyrStyle,
    /// The resolved tag, if any.
    pub(crate) tag: Option<&'s Tag>,
    /// The anchor id, 0 for none.
    pub(crate) anchor: usize,
    /// The event's span in characters of the piece.
    pub(crate) span: Span,
}

/// The node for a scalar event; `key_end` is the end of the key whose value it is, if it is one.
pub(crate) fn build_scalar(
    builder: &mut Builder<'_>,
    site: &ScalarSite<'_>,
    key_end: Option<usize>,
) -> Node {
    let (start, end) = builder.bytes(site.span);
    let text = builder.text;
    let props =
        (site.tag.is_some() || site.anchor > 0).then(|| locate::skip_properties(text, start));
    let tag = tag_text(text, site.tag, props.as_ref());
    let style = convert_style(site.style);
    let (range, value, source_map) = match style {
        ScalarStyle::Plain if site.value.is_empty() => {
            // Nothing written: after the properties, or right after the key's colon.
            let at = match (&props, key_end) {
                (Some(props), _) => props.end,
                (None, Some(key_end)) => locate::after_colon(text, key_end),
                (None, None) => start,
            };
            let range = TextRange::empty(size(at));
            (range, String::new(), SourceMap::new(Vec::new(), range))
        }
        ScalarStyle::Plain | ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
            let from = props.as_ref().map_or(start, |p| p.content).min(end);
            flow_scalar(builder, site, style, (from, end))
        }
        ScalarStyle::Literal | ScalarStyle::Folded => {
            let from = props
                .as_ref()
                .map_or(builder.last_end.min(start), |p| p.end);
            block_scalar(builder, site, (from, start, end))
        }
    };
    Node {
        range,
        tag,
        kind: NodeKind::Scalar(Scalar {
            value,
            style,
            source_map,
        }),
    }
}

/// Range, value and map of a plain or quoted scalar written from `from` to about `end` (the
/// parser's end, which for a quoted scalar may include white space and a comment after it).
fn flow_scalar(
    builder: &Builder<'_>,
    site: &ScalarSite<'_>,
    style: ScalarStyle,
    (from, end): (usize, usize),
) -> (TextRange, String, SourceMap) {
    let text = builder.text;
    let end = match style {
        ScalarStyle::Plain => end,
        _ => locate::quoted_end(text, from, end).unwrap_or(end),
    };
    let range = TextRange::new(size(from), size(end));
    let indent = || builder.block_indent().map_or(0, |column| column + 1);
    let decoded = decode::decode_flow(text, style, (from, end), indent);
    let (value, map) = match decoded {
        // The parser read this scalar with its breaks as spaces; only our decoding folds them.
        Some(decoded) if builder.is_masked(from) => decoded,
        decoded => checked(decoded, site.value, flow_content(style, range)),
    };
    (range, value, map)
}

/// Range, value and map of a block scalar whose header follows `from`; `start` and `end` are the
/// parser's span.
fn block_scalar(
    builder: &Builder<'_>,
    site: &ScalarSite<'_>,
    (from, start, end): (usize, usize, usize),
) -> (TextRange, String, SourceMap) {
    let text = builder.text;
    // The header precedes the parser's start (the first content line) or, at the end of the
    // input, is where it starts; either way it lies before the end.
    let limit = end.max(start + 1);
    let Some(header) = locate::find_block_header(text, from, limit) else {
        let range = TextRange::new(size(start), size(locate::trim_end(text, start, end)));
        return (range, site.value.to_owned(), SourceMap::degraded(range));
    };
    let parent = builder.block_indent();
    match block::decode_block(text, header, builder.limit, parent) {
        Some(decoded) => {
            let range = TextRange::new(size(header), size(decoded.end.max(header + 1)));
            let content = decoded.map.content_range();
            let (value, map) = checked(Some((decoded.value, decoded.map)), site.value, content);
            (range, value, map)
        }
        None => {
            let range = TextRange::new(
                size(header),
                size(locate::trim_end(text, header, end).max(header + 1)),
            );
            (range, site.value.to_owned(), SourceMap::degraded(range))
        }
    }
}

/// Our decoding if it agrees with the parser's value, else the parser's value with a degraded map.
fn checked(
    decoded: Option<(String, SourceMap)>,
    expected: &str,
    content: TextRange,
) -> (String, SourceMap) {
    match decoded {
        Some((value, map)) if value == expected => (value, map),
        _ => (expected.to_owned(), SourceMap::degraded(content)),
    }
}

/// The content of a flow scalar's raw range: inside the quotes, if any.
fn flow_content(style: ScalarStyle, range: TextRange) -> TextRange {
    if style == ScalarStyle::Plain || range.len() < TextSize::from(2) {
        return range;
    }
    TextRange::new(
        range.start() + TextSize::from(1),
        range.end() - TextSize::from(1),
    )
}

/// Column of `at` within its line, in bytes (indentation is ASCII).
pub(crate) fn column(text: &str, at: usize) -> usize {
    let start = line_start(text, at);
    // The parser does not count a byte order mark at the start of a line as a column.
    let bom = text
        .get(start..)
        .is_some_and(|rest| rest.starts_with('\u{feff}'));
    let columns = at.saturating_sub(start);
    if bom {
        columns.saturating_sub('\u{feff}'.len_utf8())
    } else {
        columns
    }
}

/// Start of the line containing `at`.
pub(crate) fn line_start(text: &str, at: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = at.min(bytes.len());
    while i > 0 && !matches!(bytes.get(i - 1), Some(b'\n' | b'\r')) {
        i -= 1;
    }
    i
}

/// An empty plain scalar at `at` (a missing value).
pub(crate) fn empty_scalar(at: TextSize) -> Node {
    let range = TextRange::empty(at);
    let scalar = Scalar {
        value: String::new(),
        style: ScalarStyle::Plain,
        source_map: SourceMap::new(Vec::new(), range),
    };
    Node {
        range,
        tag: None,
        kind: NodeKind::Scalar(scalar),
    }
}

/// The tag as written in the source, or rebuilt from the parser's tag when it cannot be found.
pub(crate) fn tag_text(
    text: &str,
    tag: Option<&Tag>,
    props: Option<&Properties>,
) -> Option<Box<str>> {
    let tag = tag?;
    if let Some(written) = props.and_then(|p| p.tag).and_then(|(s, e)| text.get(s..e)) {
        return Some(written.into());
    }
    let rebuilt = match tag.handle.as_str() {
        "tag:yaml.org,2002:" => format!("!!{}", tag.suffix),
        "" if tag.suffix == "!" => "!".to_owned(),
        "" => format!("!<{}>", tag.suffix),
        handle if handle.starts_with('!') => format!("{handle}{}", tag.suffix),
        handle => format!("!<{handle}{}>", tag.suffix),
    };
    Some(rebuilt.into_boxed_str())
}

/// Our style for saphyr's.
fn convert_style(style: SaphyrStyle) -> ScalarStyle {
    match style {
        SaphyrStyle::Plain => ScalarStyle::Plain,
        SaphyrStyle::SingleQuoted => ScalarStyle::SingleQuoted,
        SaphyrStyle::DoubleQuoted => ScalarStyle::DoubleQuoted,
        SaphyrStyle::Literal => ScalarStyle::Literal,
        SaphyrStyle::Folded => ScalarStyle::Folded,
    }
}
