//! Property test of values and source maps: generated strings are written in every style that can
//! express them, embedded in a document, parsed, and every decoded character must map back to the
//! source text that represents it.

use proptest::prelude::*;

use super::emit_tests::{Context, emit};
use super::{ScalarStyle, parse};
use crate::text::TextSize;

const STYLES: [ScalarStyle; 5] = [
    ScalarStyle::Plain,
    ScalarStyle::SingleQuoted,
    ScalarStyle::DoubleQuoted,
    ScalarStyle::Literal,
    ScalarStyle::Folded,
];

fn value_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::sample::select(vec!['a', 'b', 'x', 'Z', '0', '7']),
        3 => Just(' '),
        2 => Just('\n'),
        1 => prop::sample::select(vec!['\t', 'é', '😀', '\'', '"', '\\', '#', ':', '-', '/', ',', '[', '}']),
    ]
}

/// Writes `value` in `style` at `parent` indentation, parses it and checks value, style and map.
fn check_one(
    value: &str,
    style: ScalarStyle,
    parent: usize,
    newline: &str,
    choices: &[u8],
) -> Result<bool, TestCaseError> {
    let cx = Context {
        parent,
        newline,
        choices,
    };
    let Some(emitted) = emit(value, style, &cx) else {
        return Ok(false);
    };
    let pad = " ".repeat(parent);
    let head = if parent > 0 {
        format!("root:{newline}{pad}")
    } else {
        String::new()
    };
    // Node properties in front of the scalar move its start; the map must not care.
    let props = match choices.first().map(|c| c % 5) {
        Some(0) => "!!str ",
        Some(1) => "&anchor ",
        Some(2) => "!local &a ",
        _ => "",
    };
    // The scalar is a mapping value or a sequence item.
    let item = choices.get(1).is_some_and(|c| c % 2 == 1);
    let (lead, tail) = if item {
        ("- ", "- after")
    } else {
        ("key: ", "after: end")
    };
    let prefix = format!("{head}{lead}{props}");
    // A block scalar's text ends with its last line break already.
    let sep = if emitted.text.ends_with('\n') {
        ""
    } else {
        newline
    };
    let doc = format!("{prefix}{}{sep}{pad}{tail}{newline}", emitted.text);
    let file = parse(&doc);
    prop_assert!(
        file.errors.is_empty(),
        "errors {:?} in {:?}",
        file.errors,
        doc
    );
    let root = file.documents.first().and_then(|d| d.root.as_ref());
    let parent_node = if parent > 0 {
        root.and_then(|r| r.get("root"))
    } else {
        root
    };
    let node = parent_node.and_then(|p| {
        if item {
            p.as_sequence().and_then(<[_]>::first)
        } else {
            p.get("key")
        }
    });
    let scalar = node.and_then(|n| n.as_scalar());
    let (Some(node), Some(scalar)) = (node, scalar) else {
        return Err(TestCaseError::fail(format!("no scalar in {doc:?}")));
    };
    prop_assert_eq!(&scalar.value, value, "value of {:?}", doc);
    prop_assert_eq!(scalar.style, style, "style of {:?}", doc);
    prop_assert!(scalar.source_map.is_exact(), "degraded map for {:?}", doc);
    let base = prefix.len();
    prop_assert_eq!(usize::from(node.range.start()), base, "range of {:?}", doc);
    for ((at, c), expected) in value.char_indices().zip(&emitted.offsets) {
        let at = TextSize::from(u32::try_from(at).unwrap_or(u32::MAX));
        let file_at = scalar.source_map.to_file(at);
        prop_assert_eq!(
            usize::from(file_at),
            base + expected,
            "char {:?} at {:?} of {:?}",
            c,
            at,
            doc
        );
        prop_assert_eq!(
            scalar.source_map.to_decoded(file_at),
            Some(at),
            "inverse at {:?} of {:?}",
            at,
            doc
        );
    }
    prop_assert_eq!(
        value.chars().count(),
        emitted.offsets.len(),
        "emitter offsets for {:?}",
        doc
    );
    if !value.is_empty() {
        let end = scalar.source_map.to_file(TextSize::of(value));
        prop_assert_eq!(usize::from(end), base + emitted.end, "end of {:?}", doc);
        let whole = scalar
            .source_map
            .to_file_range(crate::text::TextRange::up_to(TextSize::of(value)));
        prop_assert_eq!(
            whole.start(),
            scalar.source_map.to_file(0.into()),
            "range of {:?}",
            doc
        );
        prop_assert_eq!(whole.end(), end, "range end of {:?}", doc);
    }
    Ok(true)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn source_map_points_at_the_source(
        chars in prop::collection::vec(value_char(), 0..24),
        parent in 0usize..3,
        crlf in any::<bool>(),
        choices in prop::collection::vec(any::<u8>(), 1..16),
    ) {
        let value: String = chars.into_iter().collect();
        let newline = if crlf { "\r\n" } else { "\n" };
        let parent = parent * 2;
        let mut written = 0;
        for style in STYLES {
            if check_one(&value, style, parent, newline, &choices)? {
                written += 1;
            }
        }
        // Double quotes can write any string.
        prop_assert!(written >= 1);
    }
}

fn raw_piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "a",
        "b",
        "é",
        "😀",
        " ",
        "  ",
        "\t",
        "\n",
        "\r\n",
        "\n  ",
        "\n\t",
        "\\",
        "\\n",
        "\\t",
        "\\ ",
        "\\x41",
        "\\u00e9",
        "\\U0001F600",
        "\\\"",
        "'",
        "''",
        "\"",
        "#",
        " #",
        ":",
        ": ",
        "-",
        "|",
        ">",
        "2",
        "+",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Whatever raw text the parser accepts as a scalar, our decoder agrees with it: the map is never
    /// degraded.
    #[test]
    fn decoder_agrees_with_parser(
        pieces in prop::collection::vec(raw_piece(), 0..16),
        opener in prop::sample::select(vec!["", "'", "\"", "|", ">", "|-", ">+", "|2", ">1-", "!!str |"]),
        parent in 0usize..2,
        lead in prop::sample::select(vec!["key: ", "- ", "k:\n- ", "k:\n  - ", "- - "]),
    ) {
        let body: String = pieces.concat();
        let closer = match opener { "'" => "'", "\"" => "\"", _ => "" };
        let pad = " ".repeat(parent * 2);
        let head = if parent > 0 { format!("root:\n{pad}") } else { String::new() };
        let doc = format!("{head}{lead}{opener}{body}{closer}\n{pad}after: end\n");
        let file = parse(&doc);
        if let Some(root) = file.documents.first().and_then(|d| d.root.as_ref()) {
            let mut stack = vec![root];
            while let Some(node) = stack.pop() {
                match &node.kind {
                    super::NodeKind::Scalar(s) => {
                        prop_assert!(s.source_map.is_exact(), "degraded map for {:?} in {:?}", s.value, doc);
                    }
                    super::NodeKind::Sequence(items) => stack.extend(items),
                    super::NodeKind::Mapping(entries) => {
                        stack.extend(entries.iter().flat_map(|e| [&e.key, &e.value]));
                    }
                }
            }
        }
    }
}
