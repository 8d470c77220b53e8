//! Kubernetes lists library (`lists.go`): `isSorted`, `sum`, `min`, `max`, `indexOf`,
//! `lastIndexOf` (version 0) and `includes` (version 1, Kubernetes 1.37).

use super::super::build::*;
use super::super::{FunctionDecl, Library};

const V0: Library = Library::KubeListsV0;

/// The Kubernetes list functions.
pub(super) fn functions() -> Vec<FunctionDecl> {
    let a = || tp("A");
    let mut is_sorted = func(
        V0,
        "isSorted",
        "Whether the list is in ascending order; elements must be of one comparable type.",
        &["[1, 2, 3].isSorted() // true"],
    );
    let mut sum = func(
        V0,
        "sum",
        "The sum of a list of numbers or durations; 0 (or a zero duration) for an empty list.",
        &["[1, 2, 3].sum() // 6"],
    );
    let mut min = func(
        V0,
        "min",
        "The smallest element of a list of comparable values; an error for an empty list.",
        &["[3, 1, 2].min() // 1"],
    );
    let mut max = func(
        V0,
        "max",
        "The largest element of a list of comparable values; an error for an empty list.",
        &["[3, 1, 2].max() // 3"],
    );
    for (name, ty) in comparable_types() {
        is_sorted = is_sorted.member(
            &format!("list_{name}_is_sorted_bool"),
            [list(ty.clone())],
            BOOL,
        );
        max = max.member(
            &format!("list_{name}_max_{name}"),
            [list(ty.clone())],
            ty.clone(),
        );
        min = min.member(
            &format!("list_{name}_min_{name}"),
            [list(ty.clone())],
            ty.clone(),
        );
        if matches!(name, "int" | "uint" | "double" | "duration") {
            sum = sum.member(&format!("list_{name}_sum_{name}"), [list(ty.clone())], ty);
        }
    }
    vec![
        is_sorted.done(),
        sum.done(),
        max.done(),
        min.done(),
        func(V0, "indexOf", "Index of the first element equal to the argument; -1 when absent.", &["['a', 'b', 'a'].indexOf('a') // 0"])
            .member("list_a_index_of_int", [list(a()), a()], INT)
            .done(),
        func(V0, "lastIndexOf", "Index of the last element equal to the argument; -1 when absent.", &["['a', 'b', 'a'].lastIndexOf('a') // 2"])
            .member("list_a_last_index_of_int", [list(a()), a()], INT)
            .done(),
        func(Library::KubeListsV1, "includes", "Whether a list has an element equal to the argument; for a receiver that is not a list, whether the two are equal.", &["['a', 'b'].includes('b') // true"])
            .member("list_includes_dyn_dyn", [DYN, DYN], BOOL)
            .done(),
    ]
}
