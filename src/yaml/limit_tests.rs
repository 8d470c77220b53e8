//! Tests of the bounds: nesting depth, alias expansion, big inputs, hostile bytes.

use expect_test::expect;

use super::{MAX_DEPTH, Node, NodeKind, parse};

/// Depth and node count of a tree, walked without recursion.
fn measure(root: &Node) -> (usize, usize) {
    let mut stack = vec![(root, 1)];
    let (mut depth, mut count) = (0, 0);
    while let Some((node, d)) = stack.pop() {
        depth = depth.max(d);
        count += 1;
        match &node.kind {
            NodeKind::Scalar(_) => {}
            NodeKind::Sequence(items) => stack.extend(items.iter().map(|n| (n, d + 1))),
            NodeKind::Mapping(entries) => stack.extend(
                entries
                    .iter()
                    .flat_map(|e| [(&e.key, d + 1), (&e.value, d + 1)]),
            ),
        }
    }
    (depth, count)
}

fn summary(yaml: &str) -> String {
    let file = parse(yaml);
    let mut out = String::new();
    for doc in &file.documents {
        let (depth, count) = doc.root.as_ref().map_or((0, 0), measure);
        out.push_str(&format!(
            "doc {:?} depth {depth} nodes {count}{}\n",
            doc.range,
            if doc.has_errors { " (errors)" } else { "" }
        ));
    }
    for error in &file.errors {
        out.push_str(&format!("error {:?}: {}\n", error.range, error.message));
    }
    out
}

#[test]
fn deep_flow_nesting_stops_at_the_limit() {
    let yaml = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    expect![[r#"
        doc 0..256 depth 0 nodes 0 (errors)
        error 255..256: recursion limit exceeded
    "#]]
    .assert_eq(&summary(&yaml));
    let yaml = format!(
        "a: {}x{}\n---\nb: 1\n",
        "{a: ".repeat(10_000),
        "}".repeat(10_000)
    );
    expect![[r#"
        doc 0..1024 depth 257 nodes 513 (errors)
        doc 50005..50013 depth 2 nodes 3
        error 1023..1024: recursion limit exceeded
    "#]]
    .assert_eq(&summary(&yaml));
}

#[test]
fn deep_block_nesting_stops_at_the_limit() {
    let yaml = format!("{}x\n", "- ".repeat(10_000));
    expect![[r#"
        doc 0..2001 depth 1000 nodes 1000 (errors)
        error 2000..2001: nesting deeper than 1000 levels
    "#]]
    .assert_eq(&summary(&yaml));
    let mut yaml = String::new();
    for depth in 0..1_500 {
        yaml.push_str(&" ".repeat(depth));
        yaml.push_str("a:\n");
    }
    expect![[r#"
        doc 0..503501 depth 1001 nodes 2001 (errors)
        error 503500..503501: nesting deeper than 1000 levels
    "#]]
    .assert_eq(&summary(&yaml));
}

#[test]
fn nesting_at_the_limit_is_accepted() {
    // saphyr-parser itself stops flow nesting at 255 levels, so test with block sequences.
    let yaml = format!("{}x\n", "- ".repeat(MAX_DEPTH));
    let file = parse(&yaml);
    assert!(file.errors.is_empty());
    let root = file.documents.first().and_then(|d| d.root.as_ref());
    assert_eq!(root.map(measure), Some((MAX_DEPTH + 1, MAX_DEPTH + 1)));
}

#[test]
fn billion_laughs_is_an_error_at_the_alias() {
    let mut yaml = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for pair in names.windows(2) {
        let refs = vec![format!("*{}", pair[0]); 9].join(", ");
        yaml.push_str(&format!("{}: &{} [{refs}]\n", pair[1], pair[1]));
    }
    yaml.push_str("---\nnext: document\n");
    expect![[r#"
        doc 0..395 depth 6 nodes 3448 (errors)
        doc 396..414 depth 2 nodes 3
        error 157..158: document contains excessive aliasing
    "#]]
    .assert_eq(&summary(&yaml));
}

/// go-yaml v2 refuses a document once more than 99% of its decoding (past 1,000 decodes and 100
/// from aliases) comes from aliases (go.yaml.in/yaml/v2 `decode.go` `unmarshal`,
/// `allowedAliasRatio`): with these anchors, at the 122nd alias of `b` and not at the 121st.
#[test]
fn excessive_aliasing_is_refused_where_go_yaml_refuses_it() {
    let document = |aliases: usize| {
        let a = ["x"; 10].join(", ");
        let b = ["*a"; 10].join(", ");
        let c = vec!["*b"; aliases].join(", ");
        format!("a: &a [{a}]\nb: &b [{b}]\nc: [{c}]\n")
    };
    expect![[r#"
        doc 0..571 depth 5 nodes 13558
    "#]]
    .assert_eq(&summary(&document(121)));
    expect![[r#"
        doc 0..575 depth 5 nodes 13559 (errors)
        error 572..573: document contains excessive aliasing
    "#]]
    .assert_eq(&summary(&document(122)));
}

#[test]
fn aliases_cannot_nest_deeper_than_the_limit() {
    let chain = format!("{}v\n", "- ".repeat(600));
    let yaml = format!("x: &x\n  {chain}y:\n  {}*x\n", "- ".repeat(600));
    expect![[r#"
        doc 0..2416 depth 602 nodes 1204 (errors)
        error 2415..2416: alias makes nesting deeper than 1000 levels
    "#]]
    .assert_eq(&summary(&yaml));
}

#[test]
fn aliases_are_copies() {
    let file = parse("base: &b {x: 1}\nuse: *b\n");
    let root = file.documents.first().and_then(|d| d.root.as_ref());
    let used = root.and_then(|r| r.get("use"));
    assert_eq!(
        used.and_then(|u| u.get("x")).and_then(Node::as_str),
        Some("1")
    );
    assert!(file.errors.is_empty());
}

#[test]
fn hostile_bytes_never_panic() {
    let junk = "\u{0}\u{1}\u{2}\u{7}\u{8}\u{b}\u{c}\u{e}\u{1f}\u{7f}\u{feff}\u{fffe}\r\r\n\t\"'\\";
    for (i, _) in junk.char_indices() {
        let text = format!("a: {}\n- {}\n", &junk[i..], &junk[..i]);
        let _ = parse(&text);
    }
    expect![[r#"
        doc 3..7 depth 2 nodes 3 (errors)
        doc 9..14 depth 1 nodes 1
        doc 15..24 depth 2 nodes 3
        error 6..7: found unprintable character
    "#]]
    .assert_eq(&summary("\u{feff}a: \u{0}b\n---\n\u{1}\n---\nok: 1\n"));
}

#[test]
fn many_documents() {
    let yaml = "---\na: 1\n".repeat(10_000);
    let file = parse(&yaml);
    assert_eq!(file.documents.len(), 10_000);
    assert!(file.errors.is_empty());
}

#[test]
fn big_input_parses() {
    // About 3 MB in 60,000 list items; the release timing of a 20 MB file is in the notes.
    let mut yaml = String::from("items:\n");
    for i in 0..60_000 {
        yaml.push_str(&format!(
            "- name: item-{i}\n  expression: \"object.spec.x == 'é{i}'\"\n  n: {i}\n"
        ));
    }
    let file = parse(&yaml);
    assert!(file.errors.is_empty());
    let items = file
        .documents
        .first()
        .and_then(|d| d.root.as_ref())
        .and_then(|r| r.get("items"));
    assert_eq!(
        items.and_then(Node::as_sequence).map(<[Node]>::len),
        Some(60_000)
    );
}

fn token() -> impl proptest::strategy::Strategy<Value = &'static str> {
    proptest::sample::select(vec![
        "a",
        "é",
        "😀",
        " ",
        "\t",
        "\n",
        "\r\n",
        "\r",
        "- ",
        "? ",
        ": ",
        ":",
        "[",
        "]",
        "{",
        "}",
        ",",
        "'",
        "\"",
        "\\",
        "#",
        "|",
        ">",
        "|2-",
        ">+",
        "&a ",
        "*a",
        "!t ",
        "!!str ",
        "%YAML 1.2\n",
        "---\n",
        "...\n",
        "\u{0}",
        "\u{feff}",
        "\u{85}",
        "  ",
        "\n  ",
        "\n- ",
    ])
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 3000,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]

    /// Any text parses without a panic; every range lies inside the text on character boundaries;
    /// in a file without errors every source map is exact.
    #[test]
    fn never_panics(tokens in proptest::collection::vec(token(), 0..40)) {
        let text = tokens.concat();
        let file = parse(&text);
        for error in &file.errors {
            proptest::prop_assert!(text.get(std::ops::Range::<usize>::from(error.range)).is_some());
            proptest::prop_assert!(error.message.chars().next().is_some_and(|c| !c.is_uppercase()));
        }
        for doc in &file.documents {
            proptest::prop_assert!(text.get(std::ops::Range::<usize>::from(doc.range)).is_some());
            if let Some(root) = &doc.root {
                let mut stack = vec![root];
                while let Some(node) = stack.pop() {
                    proptest::prop_assert!(text.get(std::ops::Range::<usize>::from(node.range)).is_some(), "{:?} in {:?}", node.range, text);
                    match &node.kind {
                        NodeKind::Scalar(s) => {
                            // Whatever the parser accepts, our decoder agrees with it.
                            proptest::prop_assert!(
                                s.source_map.is_exact() || !file.errors.is_empty(),
                                "degraded map for {:?} in {:?}", s.value, text
                            );
                            for (at, _) in s.value.char_indices() {
                                let f = s.source_map.to_file(crate::text::TextSize::from(at as u32));
                                proptest::prop_assert!(text.is_char_boundary(usize::from(f)));
                            }
                        }
                        NodeKind::Sequence(items) => stack.extend(items),
                        NodeKind::Mapping(entries) => stack.extend(entries.iter().flat_map(|e| [&e.key, &e.value])),
                    }
                }
            }
        }
    }
}
