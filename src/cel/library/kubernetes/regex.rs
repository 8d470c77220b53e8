//! Kubernetes regex library (`regex.go`): `find` and `findAll`.

use super::super::build::*;
use super::super::{FunctionDecl, Library};

const REGEX: Library = Library::Regex;

/// The regex functions.
pub(super) fn functions() -> Vec<FunctionDecl> {
    vec![
        func(REGEX, "find", "The first match of an RE2 regular expression in the string, or '' when there is none.", &["'abc 123'.find('[0-9]+') // '123'"])
            .member("string_find_string", [STRING, STRING], STRING)
            .done(),
        func(REGEX, "findAll", "Every match of an RE2 regular expression in the string, or at most the given number of them (negative means all).", &["'123 abc 456'.findAll('[0-9]+') // ['123', '456']", "'123 abc 456'.findAll('[0-9]+', 1) // ['123']"])
            .member("string_find_all_string", [STRING, STRING], list(STRING))
            .member("string_find_all_string_int", [STRING, STRING, INT], list(STRING))
            .done(),
    ]
}
