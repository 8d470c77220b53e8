//! `ext.Sets` (`cel-go: ext/sets.go`): set relations between lists, enabled by Kubernetes from 1.29.

use super::build::*;
use super::{FunctionDecl, Library};

const SETS: Library = Library::Sets;

/// The set functions.
pub(super) fn functions() -> Vec<FunctionDecl> {
    let t = || list(tp("T"));
    vec![
        func(SETS, "sets.contains", "Whether the first list contains every element of the second (true for an empty second list).", &["sets.contains([1, 2, 3], [3, 1]) // true"])
            .global("list_sets_contains_list", [t(), t()], BOOL)
            .done(),
        func(SETS, "sets.equivalent", "Whether both lists contain the same elements, ignoring order and duplicates.", &["sets.equivalent([1, 1, 2], [2, 1]) // true"])
            .global("list_sets_equivalent_list", [t(), t()], BOOL)
            .done(),
        func(SETS, "sets.intersects", "Whether the lists have at least one element in common.", &["sets.intersects(['a'], ['b', 'a']) // true"])
            .global("list_sets_intersects_list", [t(), t()], BOOL)
            .done(),
    ]
}
