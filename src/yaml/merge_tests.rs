//! Merge keys as go-yaml v2 decodes them (go.yaml.in/yaml/v2 `decode.go`: `isMerge`, `mapping`,
//! `merge`). Each expectation is what sigs.k8s.io/yaml's `YAMLToJSON` gives for the same text.

use expect_test::{Expect, expect};

use super::{Node, NodeKind, parse};

/// The documents of `text` in a compact flow form, and its errors.
fn check(text: &str, expect: Expect) {
    let file = parse(text);
    let mut out = String::new();
    for document in &file.documents {
        if let Some(root) = &document.root {
            out.push_str(&flow(root));
            out.push('\n');
        }
    }
    for error in &file.errors {
        let at = &text[usize::from(error.range.start())..];
        let line = text[..text.len() - at.len()].matches('\n').count() + 1;
        out.push_str(&format!("error line {line}: {}\n", error.message));
    }
    expect.assert_eq(&out);
}

fn flow(node: &Node) -> String {
    match &node.kind {
        NodeKind::Scalar(scalar) => scalar.value.clone(),
        NodeKind::Sequence(items) => {
            let items: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", items.join(", "))
        }
        NodeKind::Mapping(entries) => {
            let entries: Vec<String> = entries
                .iter()
                .map(|entry| format!("{}: {}", flow(&entry.key), flow(&entry.value)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

/// `<<: *base` brings in the base's entries; a key written after the merge replaces the merged one
/// (go-yaml: `{"m":{"b":3,"a":1}}`).
#[test]
fn a_merged_mapping_under_later_keys() {
    check(
        "base: &b {a: 1, b: 2}\nm:\n  <<: *b\n  b: 3\n",
        expect![[r#"
            {base: {a: 1, b: 2}, m: {a: 1, b: 3}}
        "#]],
    );
}

/// A merge written after a key replaces it: go-yaml sets the map's keys in the order written.
#[test]
fn a_merge_replaces_the_keys_before_it() {
    check(
        "base: &b {a: 1}\nm:\n  a: 0\n  <<: *b\n",
        expect![[r#"
            {base: {a: 1}, m: {a: 1}}
        "#]],
    );
}

/// Of a list of mappings the first wins (go-yaml merges them last to first); keys after the merge
/// still win over all of them.
#[test]
fn a_list_of_merged_mappings_earliest_first() {
    check(
        "p: &p {a: 1, b: 1}\nq: &q {b: 2, c: 2}\nm:\n  <<: [*p, *q]\n  c: 3\n",
        expect![[r#"
            {p: {a: 1, b: 1}, q: {b: 2, c: 2}, m: {a: 1, b: 1, c: 3}}
        "#]],
    );
}

/// A mapping written in place merges too, and so does the alias of a mapping that itself merged.
#[test]
fn inline_and_nested_merges() {
    check(
        "m:\n  <<: {a: 1}\nbase: &b\n  <<: {x: 1}\n  y: 2\nn:\n  <<: *b\n  z: 3\n",
        expect![[r#"
            {m: {a: 1}, base: {x: 1, y: 2}, n: {x: 1, y: 2, z: 3}}
        "#]],
    );
}

/// Only a plain untagged `<<` (or `!!merge`) is a merge key: a quoted one is an ordinary key.
#[test]
fn a_quoted_merge_key_is_a_key() {
    check(
        "m:\n  \"<<\": {a: 1}\nn:\n  !!merge <<: {a: 1}\n",
        expect![[r#"
            {m: {<<: {a: 1}}, n: {a: 1}}
        "#]],
    );
}

/// go-yaml refuses a merge of a scalar, or of a list holding one, and kubectl then refuses the
/// whole document ("map merge requires map or sequence of maps as the value").
#[test]
fn a_merge_of_anything_but_mappings_is_refused() {
    check(
        "a: &a 5\nm:\n  <<: *a\n---\nm:\n  <<: [{a: 1}, x]\n",
        expect![[r#"
            {a: 5, m: {<<: 5}}
            {m: {<<: [{a: 1}, x]}}
            error line 3: map merge requires map or sequence of maps as the value
            error line 6: map merge requires map or sequence of maps as the value
        "#]],
    );
}

/// A key written twice by hand keeps both entries (the duplicate check reports it); a merge over
/// it leaves one.
#[test]
fn hand_written_duplicates_stay_for_the_duplicate_check() {
    check(
        "m:\n  a: 1\n  a: 2\nn:\n  a: 1\n  a: 2\n  <<: {a: 3}\n",
        expect![[r#"
            {m: {a: 1, a: 2}, n: {a: 3}}
        "#]],
    );
}
