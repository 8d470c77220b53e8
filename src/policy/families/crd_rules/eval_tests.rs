//! Rules compiled for a schema node and run against a value, with the API server's messages
//! (apiextensions-apiserver `pkg/apiserver/schema/cel/compilation.go` and `validation.go`).

use expect_test::{Expect, expect};
use serde_json::json;

use super::eval::{RuleOptions, compile_node_rule};

/// The rule's outcome on `value` under `schema`, or its compile or runtime error.
fn outcome(schema: serde_json::Value, value: serde_json::Value, rule: &str) -> String {
    let options = RuleOptions {
        minor: 33,
        resource_root: false,
        optional_old_self: false,
    };
    match compile_node_rule(&schema, rule, options) {
        Err(message) => format!("compile error: {message}"),
        Ok(compiled) => format!("{:?}", compiled.evaluate(&value, None)),
    }
}

fn check(schema: serde_json::Value, value: serde_json::Value, rule: &str, want: Expect) {
    want.assert_eq(&outcome(schema, value, rule));
}

fn string_field() -> serde_json::Value {
    json!({"type": "object", "properties": {"str": {"type": "string"}}})
}

#[test]
fn a_refused_find_pattern_fails_when_the_program_is_built() {
    // `program instantiation failed: …` stands alone; check errors still come first.
    check(
        string_field(),
        json!({"str": "a"}),
        "self.str.findAll(')') == []",
        expect![
            "compile error: program instantiation failed: error parsing regexp: unexpected ): `)`"
        ],
    );
    check(
        string_field(),
        json!({"str": "a"}),
        "self.str.find(')') == self.nope",
        expect!["compile error: compilation failed: ERROR: <input>:1:28: undefined field 'nope'"],
    );
}

#[test]
fn the_sum_of_an_empty_list_is_the_zero_of_its_element_type() {
    let lists = json!({"type": "object", "properties": {
        "durations": {"type": "array", "items": {"type": "string", "format": "duration"}},
        "doubles": {"type": "array", "items": {"type": "number"}},
    }});
    let empty = json!({"durations": [], "doubles": []});
    check(
        lists.clone(),
        empty.clone(),
        "self.durations.sum() == duration('0') && type(self.doubles.sum()) == double",
        expect!["Ok(Pass)"],
    );
    check(
        lists,
        empty,
        "self.durations.filter(d, d > duration('1s')).sum() == duration('0')",
        expect!["Ok(Pass)"],
    );
}
