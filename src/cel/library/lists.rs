//! `ext.Lists` version 3 (`cel-go: ext/lists.go`, Kubernetes 1.34+) and the two-variable
//! comprehensions (`ext/comprehensions.go`, Kubernetes 1.32+). Overload ids of `sort` and the
//! internal `@sortByAssociatedKeys` embed cel-go's type names (`google.protobuf.Duration`…).

use super::build::*;
use super::{FunctionDecl, Library, MacroDecl};
use crate::cel::types::Type;

const LISTS: Library = Library::ExtListsV3;
const COMPRE: Library = Library::TwoVarComprehensions;

/// cel-go's type name of a comparable type, as used in the `sort` overload ids.
fn cel_go_type_name(ty: &Type) -> String {
    ty.to_string()
}

/// The list extension functions and the two-variable comprehension helper.
pub(super) fn functions() -> Vec<FunctionDecl> {
    let t = || tp("T");
    let mut sort = func(
        LISTS,
        "sort",
        "The list sorted in ascending order; elements must be of one comparable type (numbers, strings, bytes, bools, timestamps, durations).",
        &["[3, 1, 2].sort() // [1, 2, 3]"],
    );
    let mut sort_by_keys = func(
        LISTS,
        "@sortByAssociatedKeys",
        "Internal: sorts a list by a parallel list of keys; the expansion of `sortBy`.",
        &[],
    );
    for (_, ty) in comparable_types() {
        let name = cel_go_type_name(&ty);
        sort = sort.member(
            &format!("list_{name}_sort"),
            [list(ty.clone())],
            list(ty.clone()),
        );
        sort_by_keys = sort_by_keys.member(
            &format!("list_{name}_sortByAssociatedKeys"),
            [list(t()), list(ty)],
            list(t()),
        );
    }
    let k = || tp("K");
    let v = || tp("V");
    vec![
        func(LISTS, "slice", "The elements from a start index up to (excluding) an end index.", &["[1, 2, 3, 4].slice(1, 3) // [2, 3]"])
            .member("list_slice", [list(t()), INT, INT], list(t()))
            .done(),
        func(LISTS, "flatten", "Flattens nested lists by one level, or by the given depth.", &["[[1], [2, 3]].flatten() // [1, 2, 3]", "[[[1]], [[2, 3]]].flatten(2) // [1, 2, 3]"])
            .member("list_flatten", [list(list(t()))], list(t()))
            .member("list_flatten_int", [list(DYN), INT], list(DYN))
            .done(),
        sort.done(),
        sort_by_keys.done(),
        func(LISTS, "lists.range", "The list of integers from 0 up to (excluding) n.", &["lists.range(3) // [0, 1, 2]"])
            .global("lists_range", [INT], list(INT))
            .done(),
        func(LISTS, "reverse", "The list in reverse order.", &["[1, 2, 3].reverse() // [3, 2, 1]"])
            .member("list_reverse", [list(t())], list(t()))
            .done(),
        func(LISTS, "distinct", "The list without duplicates, keeping the first occurrence of each element.", &["[1, 2, 1, 3].distinct() // [1, 2, 3]"])
            .member("list_distinct", [list(t())], list(t()))
            .done(),
        func(COMPRE, "cel.@mapInsert", "Internal: inserts a key and value, or all entries of a map, into a map; the expansion of `transformMap` and `transformMapEntry`.", &[])
            .global("@mapInsert_map_key_value", [map(k(), v()), k(), v()], map(k(), v()))
            .global("@mapInsert_map_map", [map(k(), v()), map(k(), v())], map(k(), v()))
            .done(),
    ]
}

/// `sortBy` and the two-variable comprehension macros.
pub(super) fn macros() -> Vec<MacroDecl> {
    vec![
        macro_decl(
            LISTS,
            "sortBy",
            true,
            &[2],
            "Sorts a list by a key computed from each element.",
            &["[{'n': 2}, {'n': 1}].sortBy(e, e.n) // [{'n': 1}, {'n': 2}]"],
        ),
        macro_decl(
            COMPRE,
            "all",
            true,
            &[3],
            "Two-variable form: true when the predicate holds for every (index, value) of a list or (key, value) of a map.",
            &["{'a': 1, 'b': 2}.all(k, v, v > 0) // true"],
        ),
        macro_decl(
            COMPRE,
            "exists",
            true,
            &[3],
            "Two-variable form: true when the predicate holds for some (index, value) or (key, value).",
            &["['a', 'b'].exists(i, v, i == 1 && v == 'b') // true"],
        ),
        macro_decl(
            COMPRE,
            "existsOne",
            true,
            &[3],
            "Two-variable form: true when the predicate holds for exactly one (index, value) or (key, value).",
            &["{'a': 1, 'b': 2}.existsOne(k, v, v == 2) // true"],
        ),
        macro_decl(
            COMPRE,
            "exists_one",
            true,
            &[3],
            "Two-variable form of `exists_one`, same as `existsOne`.",
            &["[1, 2].exists_one(i, v, v == 2) // true"],
        ),
        macro_decl(
            COMPRE,
            "transformList",
            true,
            &[3, 4],
            "A list built from each (index, value) or (key, value), optionally only those passing a filter.",
            &["['a', 'b'].transformList(i, v, v + string(i)) // ['a0', 'b1']"],
        ),
        macro_decl(
            COMPRE,
            "transformMap",
            true,
            &[3, 4],
            "A map with the same keys (or list indices) and transformed values, optionally only those passing a filter.",
            &["{'a': 1}.transformMap(k, v, v * 10) // {'a': 10}"],
        ),
        macro_decl(
            COMPRE,
            "transformMapEntry",
            true,
            &[3, 4],
            "A map built from map literals computed from each (key, value), optionally only those passing a filter.",
            &["{'a': 'x'}.transformMapEntry(k, v, {v: k}) // {'x': 'a'}"],
        ),
    ]
}
