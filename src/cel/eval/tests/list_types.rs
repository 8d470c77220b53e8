//! Lists read under `x-kubernetes-list-type: set` or `map`: equality and `+` as apiserver
//! `pkg/cel/common/values.go` (`unstructuredSetList`, `unstructuredMapList`) implements them,
//! the left operand deciding.

use std::sync::Arc;

use expect_test::expect;

use super::check_eval;
use crate::cel::eval::{ListKind, MapValue, Value};

fn strings(items: &[&str]) -> Vec<Value> {
    items.iter().map(|s| Value::string(s)).collect()
}

fn set(items: &[&str]) -> Value {
    Value::typed_list(strings(items), ListKind::Set)
}

/// A map list keyed by `k`, of `{k: …, v: …}` elements.
fn map_list(entries: &[(&str, &str)]) -> Value {
    let items = entries
        .iter()
        .map(|(k, v)| {
            let mut map = MapValue::default();
            map.insert_str("k", Value::string(k));
            map.insert_str("v", Value::string(v));
            Value::Map(Arc::new(map))
        })
        .collect();
    Value::typed_list(items, ListKind::Map(Arc::from([Arc::from("k")])))
}

#[test]
fn set_lists_compare_without_order_from_the_left() {
    let bindings = [("s", set(&["a", "b", "c"])), ("t", set(&["a", "c", "b"]))];
    let cases = "[s == ['c', 'b', 'a'], s == t, ['c', 'b', 'a'] == s, s == ['a', 'b'], s == ['a', 'b', 'd']]";
    check_eval(
        cases,
        &bindings,
        expect!["[true, true, false, false, false]"],
    );
}

#[test]
fn set_lists_add_as_a_union_keeping_the_set() {
    let bindings = [("s", set(&["a", "b"])), ("t", set(&["b", "c"]))];
    check_eval("s + t", &bindings, expect![[r#"["a", "b", "c"]"#]]);
    check_eval(
        "(s + ['c', 'a']) == ['c', 'b', 'a']",
        &bindings,
        expect!["true"],
    );
    check_eval("['b'] + s", &bindings, expect![[r#"["b", "a", "b"]"#]]);
}

#[test]
fn map_lists_compare_by_key_and_merge() {
    let bindings = [
        ("x", map_list(&[("a", "1"), ("b", "2")])),
        ("y", map_list(&[("b", "3"), ("c", "4")])),
    ];
    // Like upstream, only the other list's elements are looked up: `[x[0], x[0]]` matches.
    check_eval(
        "[x == [x[1], x[0]], x == y, x == [x[0], x[0]], x == [1, 2]]",
        &bindings,
        expect!["[true, false, true, false]"],
    );
    check_eval(
        "(x + y).map(e, e.k + e.v)",
        &bindings,
        expect![[r#"["a1", "b3", "c4"]"#]],
    );
    check_eval("y + x == [x[1], y[1], x[0]]", &bindings, expect!["true"]);
}
