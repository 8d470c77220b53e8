//! `ext.Strings` (`cel-go: ext/strings.go`). Kubernetes enables version 0 until 1.29 and version 2
//! from 1.29; version 1 added `format` and `strings.quote`, version 2 only reimplemented `join`.
//! Versions 3 (`reverse`) and 4 are not enabled by Kubernetes and are not declared.

use super::build::*;
use super::{FunctionDecl, Library};

const V0: Library = Library::StringsV0;
const V1: Library = Library::StringsV1;

/// The string extension functions.
pub(super) fn functions() -> Vec<FunctionDecl> {
    vec![
        func(V0, "charAt", "The character at a zero-based code-point index, or '' when the index equals the length; beyond that is an error.", &["'hello'.charAt(1) // 'e'"])
            .member("string_char_at_int", [STRING, INT], STRING)
            .done(),
        func(V0, "indexOf", "Code-point index of the first occurrence of a substring, optionally searching from an offset; -1 when absent.", &["'hello'.indexOf('l') // 2", "'hello'.indexOf('l', 3) // 3"])
            .member("string_index_of_string", [STRING, STRING], INT)
            .member("string_index_of_string_int", [STRING, STRING, INT], INT)
            .done(),
        func(V0, "lastIndexOf", "Code-point index of the last occurrence of a substring, optionally searching backward from an offset; -1 when absent.", &["'hello'.lastIndexOf('l') // 3"])
            .member("string_last_index_of_string", [STRING, STRING], INT)
            .member("string_last_index_of_string_int", [STRING, STRING, INT], INT)
            .done(),
        func(V0, "lowerAscii", "The string with ASCII letters in lower case; other characters unchanged.", &["'Hello'.lowerAscii() // 'hello'"])
            .member("string_lower_ascii", [STRING], STRING)
            .done(),
        func(V0, "upperAscii", "The string with ASCII letters in upper case; other characters unchanged.", &["'Hello'.upperAscii() // 'HELLO'"])
            .member("string_upper_ascii", [STRING], STRING)
            .done(),
        func(V0, "replace", "Replaces occurrences of a substring, all of them or at most the given number (negative means all).", &["'a-b-c'.replace('-', '.') // 'a.b.c'", "'a-b-c'.replace('-', '.', 1) // 'a.b-c'"])
            .member("string_replace_string_string", [STRING, STRING, STRING], STRING)
            .member("string_replace_string_string_int", [STRING, STRING, STRING, INT], STRING)
            .done(),
        func(V0, "split", "Splits the string at a separator into a list, optionally into at most the given number of parts.", &["'a,b,c'.split(',') // ['a', 'b', 'c']", "'a,b,c'.split(',', 2) // ['a', 'b,c']"])
            .member("string_split_string", [STRING, STRING], list(STRING))
            .member("string_split_string_int", [STRING, STRING, INT], list(STRING))
            .done(),
        func(V0, "substring", "The code points from a start index to the end, or up to (excluding) an end index.", &["'kubernetes'.substring(4) // 'rnetes'", "'kubernetes'.substring(0, 4) // 'kube'"])
            .member("string_substring_int", [STRING, INT], STRING)
            .member("string_substring_int_int", [STRING, INT, INT], STRING)
            .done(),
        func(V0, "trim", "The string without leading and trailing Unicode white space.", &["'  a b  '.trim() // 'a b'"])
            .member("string_trim", [STRING], STRING)
            .done(),
        func(V0, "join", "Concatenates a list of strings, optionally with a separator between them.", &["['a', 'b'].join() // 'ab'", "['a', 'b'].join(', ') // 'a, b'"])
            .member("list_join", [list(STRING)], STRING)
            .member("list_join_string", [list(STRING), STRING], STRING)
            .done(),
        func(V1, "format", "printf-style formatting with the verbs %s, %d, %f (with precision, e.g. %.2f), %e, %b, %o, %x, %X; literal format strings are checked at compile time.", &["'%s has %d replicas'.format(['web', 3]) // 'web has 3 replicas'"])
            .member("string_format", [STRING, list(DYN)], STRING)
            .done(),
        func(V1, "strings.quote", "The string as a double-quoted CEL string literal, with special characters escaped.", &["strings.quote('a\"b') // '\"a\\\\\"b\"'"])
            .global("strings_quote", [STRING], STRING)
            .done(),
    ]
}
