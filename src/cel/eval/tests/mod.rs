//! Unit tests of the evaluator: snapshots of values and errors and self-checking lists here;
//! cost limits and bombs in `limits`, the authorizer and library hooks in `library`.

use expect_test::{Expect, expect};

use super::*;

mod library;
mod limits;
mod list_types;
mod trace;
use crate::cel::parse;

pub(super) fn run(src: &str, bindings: &[(&str, Value)]) -> Evaluation {
    let parsed = parse(src);
    assert!(parsed.is_ok(), "{src}: {:?}", parsed.errors);
    let mut act = Activation::new();
    for (name, value) in bindings {
        act.bind(name, value.clone());
    }
    evaluate(&parsed.ast, &act, &EvalOptions::default())
}

pub(super) fn show(e: &Evaluation) -> String {
    match &e.result {
        Ok(v) => v.to_string(),
        Err(err) => format!("error ({:?}): {}", err.kind, err.message),
    }
}

pub(super) fn check_eval(src: &str, bindings: &[(&str, Value)], expect: Expect) {
    expect.assert_eq(&show(&run(src, bindings)));
}

#[test]
fn literals_and_arithmetic() {
    check_eval("1 + 2 * 3", &[], expect!["7"]);
    check_eval(
        "9223372036854775807 + 1",
        &[],
        expect!["error (Overflow): integer overflow"],
    );
}

#[test]
fn errors_and_values() {
    check_eval(
        "1 / 0",
        &[],
        expect!["error (DivisionByZero): division by zero"],
    );
    check_eval(
        "1 % 0",
        &[],
        expect!["error (DivisionByZero): modulus by zero"],
    );
    check_eval(
        "int(1e20)",
        &[],
        expect!["error (Overflow): integer overflow"],
    );
    check_eval(
        "uint(-1)",
        &[],
        expect!["error (Overflow): unsigned integer overflow"],
    );
    check_eval(
        "string(b'\\xff')",
        &[],
        expect!["error (InvalidArgument): invalid UTF-8 in bytes, cannot convert to string"],
    );
    check_eval(
        "[1, 2][5]",
        &[],
        expect!["error (IndexOutOfBounds): index out of bounds: 5"],
    );
    check_eval(
        "{'a': 1}.b",
        &[],
        expect!["error (NoSuchKey): no such key: b"],
    );
    // An index prints the key as cel-go's `%v` does (common/types/map.go `baseMap.Get`): no
    // quotes, no `u`.
    check_eval(
        "{'a': 1}['c']",
        &[],
        expect!["error (NoSuchKey): no such key: c"],
    );
    check_eval(
        "{1u: 1}[2u]",
        &[],
        expect!["error (NoSuchKey): no such key: 2"],
    );
    check_eval("false && 1/0 == 1", &[], expect!["false"]);
    check_eval("1/0 == 1 && false", &[], expect!["false"]);
    check_eval("1/0 == 1 || true", &[], expect!["true"]);
    check_eval("{'a': 1}.?b.orValue(7)", &[], expect!["7"]);
    check_eval(
        "[1, ?optional.none(), ?optional.of(3)]",
        &[],
        expect!["[1, 3]"],
    );
    check_eval("[3, 1, 2].sortBy(x, -x)", &[], expect!["[3, 2, 1]"]);
    check_eval(
        "{'a': 1, 'b': 2}.transformMap(k, v, v * 10)",
        &[],
        expect![[r#"{"a": 10, "b": 20}"#]],
    );
    check_eval(
        "timestamp('2009-02-13T23:31:30Z').getHours('America/New_York')",
        &[],
        expect!["18"],
    );
    check_eval(
        "duration('1h2m3.5s')",
        &[],
        expect![[r#"duration("3723.5s")"#]],
    );
    check_eval(
        "'%d items at %.2f'.format([3, 1.5])",
        &[],
        expect![[r#""3 items at 1.50""#]],
    );
    check_eval(
        "Object{spec: Object.spec{replicas: 1}}",
        &[],
        expect!["Object{spec: Object.spec{replicas: 1}}"],
    );
    check_eval("type(1) == int && type(int) == type", &[], expect!["true"]);
}

#[test]
fn self_checks() {
    let cases = [
        "1 == 1.0 && 1 == 1u && 1u == 1.0",
        "[1, 2] + [3] == [1, 2, 3]",
        "{1: 'a'}[1u] == 'a' && {1: 'a'}[1.0] == 'a'",
        "'héllo'.size() == 5 && b'h\\xc3\\xa9'.size() == 3",
        "'abc'.matches('^a.c$') && !'abc'.matches('^b')",
        "[1, 2, 3].all(x, x > 0) && [1, 2, 3].exists(x, x == 2)",
        "[1, 2, 3].exists_one(x, x > 2) && ![1, 2, 3].exists_one(x, x > 1)",
        "[1, 2, 3].map(x, x * 2) == [2, 4, 6] && [1, 2, 3].filter(x, x > 1) == [2, 3]",
        "[1, 2, 3].map(x, x > 1, x) == [2, 3]",
        "{'a': 1}.all(k, v, k == 'a' && v == 1)",
        "[10, 20].transformList(i, v, i + v) == [10, 21]",
        "cel.bind(x, 2, x * x) == 4",
        "optional.of(2).optMap(x, x + 1) == optional.of(3)",
        "optional.none().orValue(5) == 5 && !optional.none().hasValue()",
        "has({'a': 1}.a) && !has({'a': 1}.b)",
        "'a,b,c'.split(',') == ['a', 'b', 'c'] && ['a', 'b'].join('-') == 'a-b'",
        "'hello'.charAt(1) == 'e' && 'hello'.indexOf('l') == 2 && 'hello'.lastIndexOf('l') == 3",
        "'  x '.trim() == 'x' && 'AbC'.lowerAscii() == 'abc' && 'abc'.substring(1) == 'bc'",
        "strings.quote('a\"b') == '\"a\\\\\"b\"'",
        "sets.contains([1, 2, 3], [2]) && sets.intersects([1], [1, 2]) && sets.equivalent([1, 2], [2, 1])",
        "[1, 2, 3].slice(1, 3) == [2, 3] && [[1], [2, 3]].flatten() == [1, 2, 3]",
        "[3, 1, 2].sort() == [1, 2, 3] && [1, 1, 2].distinct() == [1, 2] && lists.range(3) == [0, 1, 2]",
        "[1, 2, 3].isSorted() && [1, 2, 3].sum() == 6 && [1, 5, 3].max() == 5 && [4, 2].min() == 2",
        "[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2",
        "['a', 'b'].includes('b') && !['a'].includes('c') && 'x'.includes('x')",
        "jsonpatch.escapeKey('example.com/a~b') == 'example.com~1a~0b'",
        "[1, 2].first() == optional.of(1) && [1, 2].last() == optional.of(2) && [].first() == optional.none()",
        "optional.unwrap([optional.of(1), optional.none()]) == [1] && [optional.of(2)].unwrapOpt() == [2]",
        "'abc 123 def 456'.find('[0-9]+') == '123' && 'a1b2'.findAll('[0-9]') == ['1', '2']",
        "timestamp('2009-02-13T23:31:30Z') + duration('1h') == timestamp('2009-02-14T00:31:30Z')",
        "timestamp('2009-02-13T23:31:30Z').getDayOfWeek() == 5 && timestamp('2009-02-13T23:31:30Z').getMonth() == 1",
        "timestamp('2009-02-13T23:31:30Z').getHours('+02:00') == 1",
        "duration('90m').getHours() == 1 && duration('1.5s').getMilliseconds() == 1500 && duration('1h2m3s4ms').getMilliseconds() == 3723004",
        "string(duration('1h')) == '3600s' && string(timestamp('2009-02-13T23:31:30.5Z')) == '2009-02-13T23:31:30.5Z'",
        "string(1.5) == '1.5' && string(1e6) == '1e+06' && double('2.5') == 2.5",
        "'%e'.format([3.14]) == '3.140000×10⁰⁰' && '%.2e'.format([0.000314]) == '3.14×10⁻⁰⁴'",
        "optional.ofNonZeroValue(timestamp('0001-01-01T00:00:00Z')) == optional.none()",
        "optional.ofNonZeroValue(timestamp(0)).hasValue()",
        "dyn(1) + 1 == 2 && type(dyn('a')) == string",
        "type(timestamp(0)) == google.protobuf.Timestamp && type(net.IP) == type",
        "1 < 1.5 && 2u > 1 && 'a' < 'b' && b'a' < b'b'",
        "!(double('NaN') == double('NaN')) && !(double('NaN') < 1.0)",
        "string(timestamp('9999-12-31T23:59:59.999999999Z')) == '9999-12-31T23:59:59.999999999Z'",
        "timestamp('2024-12-31T12:00:00Z').getDayOfYear() == 365",
        "timestamp('2024-03-10T12:00:00+05:30') == timestamp('2024-03-10T06:30:00Z')",
        // A timestamp keeps the offset it was written with (cel-go common/types/timestamp.go:
        // Go's time.Time prints and reads its fields in its own zone).
        "string(timestamp('2011-08-18T19:03:37.01+01:00')) == '2011-08-18T19:03:37.01+01:00'",
        "timestamp('2009-02-13T23:31:30-05:30').getHours() == 23 && timestamp('2009-02-13T23:31:30-05:30').getHours('UTC') == 5",
        "string(timestamp('2009-02-13T23:31:30+01:00') + duration('1h')) == '2009-02-14T00:31:30+01:00'",
        "timestamp('2024-07-01T12:00:00Z').getHours('Europe/Paris') == 14",
        "timestamp('2024-01-01T12:00:00Z').getHours('Europe/Paris') == 13",
        "int(timestamp('1970-01-01T00:01:00Z')) == 60 && timestamp(60) == timestamp('1970-01-01T00:01:00Z')",
        "timestamp('2024-01-01T00:00:00Z') - timestamp('2023-12-31T00:00:00Z') == duration('24h')",
    ];
    for case in cases {
        let got = show(&run(case, &[]));
        assert_eq!(got, "true", "{case}");
    }
}

#[test]
fn bindings_and_json() {
    let json = serde_json::json!({"spec": {"replicas": 3, "ratio": 0.5, "name": "x"}});
    let object = Value::from_json(&json).unwrap_or(Value::Null);
    check_eval(
        "object.spec.replicas + 1 == 4 && object.spec.ratio == 0.5 && type(object.spec.replicas) == int",
        &[("object", object.clone())],
        expect!["true"],
    );
    let back = object.to_json().unwrap_or_default();
    assert_eq!(back, json);
}

#[test]
fn optional_or_short_circuits() {
    check_eval("optional.of(1).orValue(1 / 0)", &[], expect!["1"]);
    check_eval(
        "optional.of(1).or(optional.of(1 / 0))",
        &[],
        expect!["optional.of(1)"],
    );
    check_eval(
        "optional.none().orValue(1 / 0)",
        &[],
        expect!["error (DivisionByZero): division by zero"],
    );
}

#[test]
fn timestamp_range_and_parsing_errors() {
    check_eval(
        "timestamp('9999-12-31T23:59:59Z') + duration('1s')",
        &[],
        expect!["error (Overflow): timestamp overflow"],
    );
    check_eval(
        "timestamp('0001-01-01T00:00:00Z') - duration('1ns')",
        &[],
        expect!["error (Overflow): timestamp overflow"],
    );
    check_eval(
        "timestamp('2024-02-30T00:00:00Z')",
        &[],
        expect![
            "error (InvalidArgument): type conversion error from 'string' to 'google.protobuf.Timestamp'"
        ],
    );
    check_eval(
        "timestamp('2024-01-01 00:00:00Z')",
        &[],
        expect![
            "error (InvalidArgument): type conversion error from 'string' to 'google.protobuf.Timestamp'"
        ],
    );
    check_eval(
        "timestamp('2024-01-01T00:00:00Z').getHours('Mars/Olympus')",
        &[],
        expect![[r#"error (InvalidArgument): unknown time zone "Mars/Olympus""#]],
    );
    check_eval(
        "duration('1x')",
        &[],
        expect![
            "error (InvalidArgument): type conversion error from 'string' to 'google.protobuf.Duration'"
        ],
    );
}

/// A timestamp value prints in UTC whatever its zone, as cel-go's `Timestamp.format` does.
#[test]
fn timestamps_print_in_utc() {
    check_eval(
        "timestamp('2009-02-13T23:31:30+01:00')",
        &[],
        expect![[r#"timestamp("2009-02-13T22:31:30Z")"#]],
    );
}
