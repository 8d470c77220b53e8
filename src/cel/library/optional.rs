//! Optional types (`cel-go: cel/library.go`, `OptionalTypes`): constructors, accessors, the `.?`
//! and `[?]` operators, and the macros. Kubernetes enables the latest version of its vendored
//! cel-go: version 0 in 1.28, 1 (`optFlatMap`) from 1.29, 2 (`first`, `last`, `optional.unwrap`,
//! `unwrapOpt`) from 1.33. Overload ids are those of cel-go v0.26.

use super::build::*;
use super::{FunctionDecl, Library, MacroDecl};

const V0: Library = Library::Optional;
const V2: Library = Library::OptionalV2;

/// The optional-type functions.
pub(super) fn functions() -> Vec<FunctionDecl> {
    let v = || tp("V");
    let k = || tp("K");
    vec![
        func(V0, "optional.of", "Wraps a value in an optional that has a value.", &["optional.of(1).value() // 1"])
            .global("optional_of", [v()], opt(v()))
            .done(),
        func(V0, "optional.ofNonZeroValue", "An optional holding the value, or `optional.none()` when the value is the zero value of its type (0, '', [], {}, false, null).", &["optional.ofNonZeroValue('').hasValue() // false"])
            .global("optional_ofNonZeroValue", [v()], opt(v()))
            .done(),
        func(V0, "optional.none", "The empty optional.", &["optional.none().orValue(5) // 5"])
            .global("optional_none", [], opt(v()))
            .done(),
        func(V0, "value", "The value inside an optional; an error when it is empty.", &["optional.of('a').value() // 'a'"])
            .member("optional_value", [opt(v())], v())
            .done(),
        func(V0, "hasValue", "Whether the optional holds a value.", &["object.?spec.?replicas.hasValue()"])
            .member("optional_hasValue", [opt(v())], BOOL)
            .done(),
        func(V0, "or", "The receiver if it has a value, otherwise the argument optional (evaluated only when needed).", &["optional.none().or(optional.of(2)) // optional.of(2)"])
            .member("optional_or_optional", [opt(v()), opt(v())], opt(v()))
            .done(),
        func(V0, "orValue", "The value of the optional, or the argument when it is empty.", &["object.?spec.?replicas.orValue(1)"])
            .member("optional_orValue_value", [opt(v()), v()], v())
            .done(),
        func(V0, "_?._", "Optional field selection `x.?f`: an optional of the field, empty when the field or key is absent.", &["{'a': 1}.?b // optional.none()"])
            .global("select_optional_field", [DYN, STRING], opt(v()))
            .done(),
        func(V0, "_[?_]", "Optional indexing `x[?k]`: an optional of the element or value, empty when the index or key is absent.", &["[1, 2][?5] // optional.none()", "{'a': 1}[?'a'] // optional.of(1)"])
            .global("list_optindex_optional_int", [list(v()), INT], opt(v()))
            .global("optional_list_optindex_optional_int", [opt(list(v())), INT], opt(v()))
            .global("map_optindex_optional_value", [map(k(), v()), k()], opt(v()))
            .global("optional_map_optindex_optional_value", [opt(map(k(), v())), k()], opt(v()))
            .done(),
        func(V0, "_[_]", "Indexing an optional list or map gives an optional result.", &["optional.of([1, 2])[0] // optional.of(1)"])
            .global("optional_list_index_int", [opt(list(v())), INT], opt(v()))
            .global("optional_map_index_value", [opt(map(k(), v())), k()], opt(v()))
            .done(),
        func(V2, "first", "The first element of a list as an optional, empty for an empty list.", &["[1, 2, 3].first() // optional.of(1)"])
            .member("list_first", [list(v())], opt(v()))
            .done(),
        func(V2, "last", "The last element of a list as an optional, empty for an empty list.", &["[1, 2, 3].last() // optional.of(3)"])
            .member("list_last", [list(v())], opt(v()))
            .done(),
        func(V2, "optional.unwrap", "The values of the optionals in a list that have one, dropping the empty ones.", &["optional.unwrap([optional.of(1), optional.none()]) // [1]"])
            .global("optional_unwrap", [list(opt(v()))], list(v()))
            .done(),
        func(V2, "unwrapOpt", "Receiver-style `optional.unwrap`: the values of the non-empty optionals in the list.", &["[optional.of(1), optional.none()].unwrapOpt() // [1]"])
            .member("optional_unwrapOpt", [list(opt(v()))], list(v()))
            .done(),
    ]
}

/// The optional-type macros.
pub(super) fn macros() -> Vec<MacroDecl> {
    vec![
        macro_decl(
            V0,
            "optMap",
            true,
            &[2],
            "Applies an expression to the value of an optional, giving an optional of the result; an empty optional stays empty.",
            &["optional.of(2).optMap(x, x * 10) // optional.of(20)"],
        ),
        macro_decl(
            Library::OptionalV1,
            "optFlatMap",
            true,
            &[2],
            "Like `optMap`, but the expression itself returns an optional, which becomes the result.",
            &["optional.of([1]).optFlatMap(l, l[?0]) // optional.of(1)"],
        ),
    ]
}
