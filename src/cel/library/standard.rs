//! The CEL standard library: operators with every overload, conversions, `size`, string matching,
//! time accessors, and the standard macros. Overload ids are cel-go's (`common/overloads`); the
//! cross-type numeric comparisons sit in their own library because Kubernetes enables them in 1.28.

use super::build::*;
use super::{FunctionDecl, Library, MacroDecl};
use crate::cel::types::Type;

const STD: Library = Library::Standard;

/// Every standard function declaration.
pub(super) fn functions() -> Vec<FunctionDecl> {
    let mut out = operators();
    out.extend(comparisons());
    out.extend(conversions());
    out.extend(strings_and_size());
    out.extend(time_accessors());
    out
}

fn operators() -> Vec<FunctionDecl> {
    let a = || tp("A");
    let b = || tp("B");
    vec![
        func(STD, "_?_:_", "The conditional operator `c ? x : y`: `x` when `c` is true, else `y`; only the chosen branch is evaluated.", &["true ? 'yes' : 'no' // 'yes'"])
            .global("conditional", [BOOL, a(), a()], a())
            .done(),
        func(STD, "_&&_", "Logical and. Commutative with respect to errors: `false && error` is false, whichever side fails.", &["true && false // false"])
            .global("logical_and", [BOOL, BOOL], BOOL)
            .done(),
        func(STD, "_||_", "Logical or. Commutative with respect to errors: `true || error` is true, whichever side fails.", &["false || true // true"])
            .global("logical_or", [BOOL, BOOL], BOOL)
            .done(),
        func(STD, "!_", "Logical negation.", &["!true // false"])
            .global("logical_not", [BOOL], BOOL)
            .done(),
        func(STD, "@not_strictly_false", "Internal: true unless the argument is `false`; used by comprehension loop conditions so errors do not stop iteration.", &[])
            .global("not_strictly_false", [BOOL], BOOL)
            .done(),
        func(STD, "_==_", "Equality. Both sides must have the same type (or `dyn`); numbers compare across int, uint and double at runtime.", &["[1, 2] == [1, 2] // true"])
            .global("equals", [a(), a()], BOOL)
            .done(),
        func(STD, "_!=_", "Inequality, the negation of `==`.", &["'a' != 'b' // true"])
            .global("not_equals", [a(), a()], BOOL)
            .done(),
        func(STD, "_+_", "Addition of numbers, concatenation of strings, bytes and lists, and time arithmetic (timestamp plus duration, duration plus duration). Integer overflow is an error.", &["1 + 2 // 3", "'ab' + 'c' // 'abc'", "timestamp('2024-01-01T00:00:00Z') + duration('1h')"])
            .global("add_bytes", [BYTES, BYTES], BYTES)
            .global("add_double", [DOUBLE, DOUBLE], DOUBLE)
            .global("add_duration_duration", [DURATION, DURATION], DURATION)
            .global("add_duration_timestamp", [DURATION, TIMESTAMP], TIMESTAMP)
            .global("add_timestamp_duration", [TIMESTAMP, DURATION], TIMESTAMP)
            .global("add_int64", [INT, INT], INT)
            .global("add_list", [list(a()), list(a())], list(a()))
            .global("add_string", [STRING, STRING], STRING)
            .global("add_uint64", [UINT, UINT], UINT)
            .done(),
        func(STD, "_-_", "Subtraction of numbers, and time arithmetic: timestamp minus timestamp is a duration, timestamp or duration minus duration keeps the left type.", &["5 - 3 // 2", "timestamp('2024-01-02T00:00:00Z') - timestamp('2024-01-01T00:00:00Z') // duration('86400s')"])
            .global("subtract_double", [DOUBLE, DOUBLE], DOUBLE)
            .global("subtract_duration_duration", [DURATION, DURATION], DURATION)
            .global("subtract_int64", [INT, INT], INT)
            .global("subtract_timestamp_duration", [TIMESTAMP, DURATION], TIMESTAMP)
            .global("subtract_timestamp_timestamp", [TIMESTAMP, TIMESTAMP], DURATION)
            .global("subtract_uint64", [UINT, UINT], UINT)
            .done(),
        func(STD, "_*_", "Multiplication. Integer overflow is an error.", &["6 * 7 // 42"])
            .global("multiply_double", [DOUBLE, DOUBLE], DOUBLE)
            .global("multiply_int64", [INT, INT], INT)
            .global("multiply_uint64", [UINT, UINT], UINT)
            .done(),
        func(STD, "_/_", "Division; integer division truncates toward zero and dividing an integer by zero is an error.", &["7 / 2 // 3", "7.0 / 2.0 // 3.5"])
            .global("divide_double", [DOUBLE, DOUBLE], DOUBLE)
            .global("divide_int64", [INT, INT], INT)
            .global("divide_uint64", [UINT, UINT], UINT)
            .done(),
        func(STD, "_%_", "Remainder of integer division; the sign follows the dividend, and modulus by zero is an error.", &["7 % 3 // 1"])
            .global("modulo_int64", [INT, INT], INT)
            .global("modulo_uint64", [UINT, UINT], UINT)
            .done(),
        func(STD, "-_", "Arithmetic negation of an int or double.", &["-(3) // -3"])
            .global("negate_double", [DOUBLE], DOUBLE)
            .global("negate_int64", [INT], INT)
            .done(),
        func(STD, "_[_]", "Indexing: the element of a list at a zero-based position, or the value of a map at a key. A missing index or key is an error.", &["[1, 2, 3][1] // 2", "{'a': 1}['a'] // 1"])
            .global("index_list", [list(a()), INT], a())
            .global("index_map", [map(a(), b()), a()], b())
            .done(),
        func(STD, "@in", "Membership: `x in list` tests for an equal element, `k in map` for a key.", &["2 in [1, 2, 3] // true", "'a' in {'a': 1} // true"])
            .global("in_list", [a(), list(a())], BOOL)
            .global("in_map", [a(), map(a(), b())], BOOL)
            .done(),
    ]
}

const ORDERED: [(&str, Type); 8] = [
    ("bool", BOOL),
    ("int64", INT),
    ("uint64", UINT),
    ("double", DOUBLE),
    ("string", STRING),
    ("bytes", BYTES),
    ("timestamp", TIMESTAMP),
    ("duration", DURATION),
];

const NUMERIC: [(&str, Type); 3] = [("int64", INT), ("uint64", UINT), ("double", DOUBLE)];

const RELATIONS: [(&str, &str, &str, &[&str]); 4] = [
    (
        "_<_",
        "less",
        "Less than, for numbers, strings (by code point), bytes, bools (false < true), timestamps and durations.",
        &["1 < 2 // true", "'a' < 'b' // true"],
    ),
    (
        "_<=_",
        "less_equals",
        "Less than or equal, for the same types as `<`.",
        &["2 <= 2 // true"],
    ),
    (
        "_>_",
        "greater",
        "Greater than, for the same types as `<`.",
        &["duration('2m') > duration('1m') // true"],
    ),
    (
        "_>=_",
        "greater_equals",
        "Greater than or equal, for the same types as `<`.",
        &["3 >= 2 // true"],
    ),
];

fn comparisons() -> Vec<FunctionDecl> {
    let mut out = Vec::new();
    for (name, prefix, doc, examples) in RELATIONS {
        let mut same = func(STD, name, doc, examples);
        for (suffix, ty) in ORDERED {
            same = same.global(&format!("{prefix}_{suffix}"), [ty.clone(), ty], BOOL);
        }
        out.push(same.done());
        let mut cross = func(
            Library::CrossTypeNumericComparisons,
            name,
            "Comparison across numeric types (int, uint, double), by mathematical value; enabled by Kubernetes from 1.28.",
            &["1 < 1.5 // true", "2u > 1 // true"],
        );
        for (left_name, left) in NUMERIC {
            for (right_name, right) in NUMERIC {
                if left_name != right_name {
                    let id = format!("{prefix}_{left_name}_{right_name}");
                    cross = cross.global(&id, [left.clone(), right], BOOL);
                }
            }
        }
        out.push(cross.done());
    }
    out
}

fn conversions() -> Vec<FunctionDecl> {
    let a = || tp("A");
    vec![
        func(STD, "int", "Converts to int: truncates doubles (out of range is an error), parses decimal strings, and gives seconds since the epoch for a timestamp or the seconds of a duration.", &["int('42') // 42", "int(3.9) // 3"])
            .global("int64_to_int64", [INT], INT)
            .global("uint64_to_int64", [UINT], INT)
            .global("double_to_int64", [DOUBLE], INT)
            .global("string_to_int64", [STRING], INT)
            .global("timestamp_to_int64", [TIMESTAMP], INT)
            .global("duration_to_int64", [DURATION], INT)
            .done(),
        func(STD, "uint", "Converts to uint; negative or out-of-range values are errors.", &["uint(42) // 42u"])
            .global("uint64_to_uint64", [UINT], UINT)
            .global("int64_to_uint64", [INT], UINT)
            .global("double_to_uint64", [DOUBLE], UINT)
            .global("string_to_uint64", [STRING], UINT)
            .done(),
        func(STD, "double", "Converts to double; strings are parsed as floating-point literals.", &["double(1) // 1.0", "double('2.5') // 2.5"])
            .global("double_to_double", [DOUBLE], DOUBLE)
            .global("int64_to_double", [INT], DOUBLE)
            .global("uint64_to_double", [UINT], DOUBLE)
            .global("string_to_double", [STRING], DOUBLE)
            .done(),
        func(STD, "bool", "Converts to bool; accepts the strings true/false in a few spellings (`'true'`, `'TRUE'`, `'t'`, `'1'`…).", &["bool('true') // true"])
            .global("bool_to_bool", [BOOL], BOOL)
            .global("string_to_bool", [STRING], BOOL)
            .done(),
        func(STD, "bytes", "Converts a string to its UTF-8 bytes.", &["bytes('abc') // b'abc'"])
            .global("bytes_to_bytes", [BYTES], BYTES)
            .global("string_to_bytes", [STRING], BYTES)
            .done(),
        func(STD, "string", "Converts to string: numbers in decimal, bools as true/false, bytes as UTF-8 (invalid UTF-8 is an error), timestamps in RFC 3339, durations as seconds with an `s` suffix.", &["string(42) // '42'", "string(duration('1m')) // '60s'"])
            .global("string_to_string", [STRING], STRING)
            .global("bool_to_string", [BOOL], STRING)
            .global("int64_to_string", [INT], STRING)
            .global("uint64_to_string", [UINT], STRING)
            .global("double_to_string", [DOUBLE], STRING)
            .global("bytes_to_string", [BYTES], STRING)
            .global("timestamp_to_string", [TIMESTAMP], STRING)
            .global("duration_to_string", [DURATION], STRING)
            .done(),
        func(STD, "timestamp", "Makes a timestamp from an RFC 3339 string or from seconds since the Unix epoch.", &["timestamp('2024-05-01T10:00:00Z')", "timestamp(0) // 1970-01-01T00:00:00Z"])
            .global("timestamp_to_timestamp", [TIMESTAMP], TIMESTAMP)
            .global("string_to_timestamp", [STRING], TIMESTAMP)
            .global("int64_to_timestamp", [INT], TIMESTAMP)
            .done(),
        func(STD, "duration", "Parses a duration such as `'1h30m'`, `'2.5s'` or `'-10ms'` (units h, m, s, ms, us, ns).", &["duration('1h30m') > duration('90m') // false"])
            .global("duration_to_duration", [DURATION], DURATION)
            .global("string_to_duration", [STRING], DURATION)
            .done(),
        func(STD, "dyn", "Marks a value as `dyn`, turning off static type checking for it.", &["dyn(1) == 1.0 // true"])
            .global("to_dyn", [a()], DYN)
            .done(),
        func(STD, "type", "The type of a value, as a value that can be compared with type names.", &["type(1) == int // true", "type('a') // string"])
            .global("type", [a()], Type::type_of(a()))
            .done(),
    ]
}

fn strings_and_size() -> Vec<FunctionDecl> {
    let a = || tp("A");
    let b = || tp("B");
    vec![
        func(STD, "size", "Number of elements of a list or map, of Unicode code points of a string, or of bytes of a bytes value. Both `size(x)` and `x.size()` work.", &["size([1, 2]) // 2", "'héllo'.size() // 5"])
            .global("size_bytes", [BYTES], INT)
            .member("bytes_size", [BYTES], INT)
            .global("size_list", [list(a())], INT)
            .member("list_size", [list(a())], INT)
            .global("size_map", [map(a(), b())], INT)
            .member("map_size", [map(a(), b())], INT)
            .global("size_string", [STRING], INT)
            .member("string_size", [STRING], INT)
            .done(),
        func(STD, "contains", "Whether the string contains the argument as a substring.", &["'kubernetes'.contains('bern') // true"])
            .member("contains_string", [STRING, STRING], BOOL)
            .done(),
        func(STD, "startsWith", "Whether the string begins with the argument.", &["'kube-system'.startsWith('kube-') // true"])
            .member("starts_with_string", [STRING, STRING], BOOL)
            .done(),
        func(STD, "endsWith", "Whether the string ends with the argument.", &["'image:latest'.endsWith(':latest') // true"])
            .member("ends_with_string", [STRING, STRING], BOOL)
            .done(),
        func(STD, "matches", "Whether the string contains a match of the RE2 regular expression (anchor with ^ and $ for a full match). Both `s.matches(re)` and `matches(s, re)` work.", &["'v1.2.3'.matches('^v[0-9]+\\\\.[0-9]+\\\\.[0-9]+$') // true"])
            .global("matches", [STRING, STRING], BOOL)
            .member("matches_string", [STRING, STRING], BOOL)
            .done(),
    ]
}

/// (name, overload id stem, doc, example, has a duration overload, with-timezone id).
type Accessor = (
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
    bool,
    &'static str,
);

const ACCESSORS: [Accessor; 10] = [
    (
        "getFullYear",
        "timestamp_to_year",
        "The year of a timestamp, in UTC or in the given time zone (IANA name or UTC offset).",
        &["timestamp('2024-05-01T10:00:00Z').getFullYear() // 2024"],
        false,
        "timestamp_to_year_with_tz",
    ),
    (
        "getMonth",
        "timestamp_to_month",
        "The zero-based month of a timestamp (January is 0), in UTC or in the given time zone.",
        &["timestamp('2024-05-01T10:00:00Z').getMonth() // 4"],
        false,
        "timestamp_to_month_with_tz",
    ),
    (
        "getDayOfYear",
        "timestamp_to_day_of_year",
        "The zero-based day of the year of a timestamp, in UTC or in the given time zone.",
        &["timestamp('2024-01-02T00:00:00Z').getDayOfYear() // 1"],
        false,
        "timestamp_to_day_of_year_with_tz",
    ),
    (
        "getDate",
        "timestamp_to_day_of_month_1_based",
        "The one-based day of the month of a timestamp, in UTC or in the given time zone.",
        &["timestamp('2024-05-01T10:00:00Z').getDate() // 1"],
        false,
        "timestamp_to_day_of_month_1_based_with_tz",
    ),
    (
        "getDayOfMonth",
        "timestamp_to_day_of_month",
        "The zero-based day of the month of a timestamp, in UTC or in the given time zone.",
        &["timestamp('2024-05-01T10:00:00Z').getDayOfMonth() // 0"],
        false,
        "timestamp_to_day_of_month_with_tz",
    ),
    (
        "getDayOfWeek",
        "timestamp_to_day_of_week",
        "The day of the week of a timestamp, Sunday being 0, in UTC or in the given time zone.",
        &["timestamp('2024-05-01T10:00:00Z').getDayOfWeek() // 3"],
        false,
        "timestamp_to_day_of_week_with_tz",
    ),
    (
        "getHours",
        "timestamp_to_hours",
        "The hour of a timestamp (in UTC or the given time zone), or the whole hours of a duration.",
        &["duration('90m').getHours() // 1"],
        true,
        "timestamp_to_hours_with_tz",
    ),
    (
        "getMinutes",
        "timestamp_to_minutes",
        "The minute of a timestamp (in UTC or the given time zone), or the whole minutes of a duration.",
        &["duration('90m').getMinutes() // 90"],
        true,
        "timestamp_to_minutes_with_tz",
    ),
    (
        "getSeconds",
        "timestamp_to_seconds",
        "The second of a timestamp (in UTC or the given time zone), or the whole seconds of a duration.",
        &["duration('1m30s').getSeconds() // 90"],
        true,
        "timestamp_to_seconds_tz",
    ),
    (
        "getMilliseconds",
        "timestamp_to_milliseconds",
        "The millisecond within the second of a timestamp (in UTC or the given time zone), or the whole milliseconds of a duration.",
        &["duration('1.5s').getMilliseconds() // 1500"],
        true,
        "timestamp_to_milliseconds_with_tz",
    ),
];

fn time_accessors() -> Vec<FunctionDecl> {
    let mut out = Vec::new();
    for (name, id, doc, examples, on_duration, tz_id) in ACCESSORS {
        let mut decl = func(STD, name, doc, examples)
            .member(id, [TIMESTAMP], INT)
            .member(tz_id, [TIMESTAMP, STRING], INT);
        if on_duration {
            let duration_id = id.replacen("timestamp", "duration", 1);
            decl = decl.member(&duration_id, [DURATION], INT);
        }
        out.push(decl.done());
    }
    out
}

/// The standard macros.
pub(super) fn macros() -> Vec<MacroDecl> {
    vec![
        macro_decl(
            STD,
            "has",
            false,
            &[1],
            "Tests whether a field is present: `has(a.b)` is true when map `a` has key `b` or object `a` has field `b` set. The argument must be a field selection.",
            &["has(object.spec.replicas)"],
        ),
        macro_decl(
            STD,
            "all",
            true,
            &[2],
            "True when the predicate holds for every element of a list (or key of a map). Errors are absorbed when any element gives false.",
            &["[1, 2].all(x, x > 0) // true"],
        ),
        macro_decl(
            STD,
            "exists",
            true,
            &[2],
            "True when the predicate holds for at least one element of a list (or key of a map).",
            &["['a', 'b'].exists(s, s == 'b') // true"],
        ),
        macro_decl(
            STD,
            "exists_one",
            true,
            &[2],
            "True when the predicate holds for exactly one element of a list (or key of a map).",
            &["[1, 2, 3].exists_one(x, x > 2) // true"],
        ),
        macro_decl(
            STD,
            "map",
            true,
            &[2, 3],
            "Transforms each element of a list (or key of a map) into a new list; with three arguments, only the elements that pass the filter.",
            &[
                "[1, 2].map(x, x * 2) // [2, 4]",
                "[1, 2, 3].map(x, x > 1, x * 10) // [20, 30]",
            ],
        ),
        macro_decl(
            STD,
            "filter",
            true,
            &[2],
            "The elements of a list (or keys of a map) for which the predicate holds.",
            &["[1, 2, 3].filter(x, x > 1) // [2, 3]"],
        ),
    ]
}
