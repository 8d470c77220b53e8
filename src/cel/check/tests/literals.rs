//! List, map and message literals; the homogeneous-literal rule; optional entries.

use expect_test::expect;

use super::*;

#[test]
fn list_and_map_types() {
    let cel_go = Env::new(crate::cel::library::libraries_for(37, true));
    check_result(
        "[]",
        &cel_go,
        expect![[r#"
        list(dyn)
    "#]],
    );
    check_result(
        "[1, 'A']",
        &cel_go,
        expect![[r#"
        list(dyn)
    "#]],
    );
    check_result(
        "{1: 2u, 2u: 3}",
        &cel_go,
        expect![[r#"
        map(dyn, dyn)
    "#]],
    );
    check_result(
        "[] + [1, 2] + [3]",
        &cel_go,
        expect![[r#"
        list(int)
    "#]],
    );
    check_result(
        "[[], [[]], [[[]]]]",
        &cel_go,
        expect![[r#"
        list(list(list(list(dyn))))
    "#]],
    );
}

#[test]
fn mixed_literals_are_errors_in_kubernetes() {
    check_errors(
        "[1, 'a', 2.0]",
        &env(),
        expect![[r#"
        cel-type: expected type 'int' but found 'string'
          | [1, 'a', 2.0]
          |     ^^^
    "#]],
    );
    check_errors(
        "{'a': 1, 2: 'b'}",
        &env(),
        expect![[r#"
        cel-type: expected type 'string' but found 'int'
          | {'a': 1, 2: 'b'}
          |          ^
        cel-type: expected type 'int' but found 'string'
          | {'a': 1, 2: 'b'}
          |             ^^^
    "#]],
    );
    check_errors("'%s %d'.format(['a', 1])", &env(), expect![[r#""#]]);
}

#[test]
fn optional_entries() {
    check_result(
        "[?optional.of(1), 2]",
        &env(),
        expect![[r#"
        list(int)
    "#]],
    );
    check_errors(
        "[?'value']",
        &env(),
        expect![[r#"
        cel-type: expected type 'optional_type(string)' but found 'string'
          | [?'value']
          |   ^^^^^^^
    "#]],
    );
    check_result(
        "{?'k': object.?spec.?replicas}",
        &env(),
        expect![[r#"
        map(string, int)
    "#]],
    );
    check_errors(
        "{?'key': 'hi'}",
        &env(),
        expect![[r#"
        cel-type: expected type 'optional_type(string)' but found 'string'
          | {?'key': 'hi'}
          |          ^^^^
    "#]],
    );
}

#[test]
fn apply_configuration_objects() {
    check_types(
        "Object{spec: Object.spec{replicas: 1}}",
        &mutation_env(),
        expect![[r#"
        Object{..} ~Object ^type Object
          Object.spec{..} ~Object.spec ^type Object.spec
            Int(1) ~int
    "#]],
    );
    check_errors(
        "JSONPatch{op: 'add', path: 1, valu: 2}",
        &mutation_env(),
        expect![[r#"
        cel-type: expected type of field 'path' is 'string' but provided type is 'int'
          | JSONPatch{op: 'add', path: 1, valu: 2}
          |                      ^^^^
        cel-undefined-field: undefined field 'valu'; did you mean 'value'?
          | JSONPatch{op: 'add', path: 1, valu: 2}
          |                               ^^^^
    "#]],
    );
    check_result(
        "[JSONPatch{op: 'test', path: '/a', value: 1}]",
        &mutation_env(),
        expect![[r#"
        list(JSONPatch)
    "#]],
    );
}

#[test]
fn typed_message_construction() {
    check_errors(
        "Deployment{spec: Deployment.spec{replica: 1, paused: 'no'}}",
        &env(),
        expect![[r#"
        cel-undefined-field: undefined field 'replica'; did you mean 'replicas'?
          | Deployment{spec: Deployment.spec{replica: 1, paused: 'no'}}
          |                                  ^^^^^^^
        cel-type: expected type of field 'paused' is 'bool' but provided type is 'string'
          | Deployment{spec: Deployment.spec{replica: 1, paused: 'no'}}
          |                                              ^^^^^^
    "#]],
    );
    check_errors(
        "int{}",
        &env(),
        expect![[r#"
        cel-type: 'int' is not a message type
          | int{}
          | ^^^
    "#]],
    );
    check_errors(
        "Msg{}",
        &env(),
        expect![[r#"
        cel-undeclared: undeclared reference to 'Msg' (in container '')
          | Msg{}
          | ^^^
    "#]],
    );
}

#[test]
fn mutation_types_only_in_mutations() {
    check_errors(
        "Object{} == null",
        &env(),
        expect![[r#"
        cel-undeclared: undeclared reference to 'Object' (in container '')
          | Object{} == null
          | ^^^^^^
    "#]],
    );
    check_result(
        "jsonpatch.escapeKey('a/b')",
        &mutation_env(),
        expect![[r#"
        string
    "#]],
    );
}

#[test]
fn literal_validators_from_1_29() {
    let src = "duration('5 minutes') < duration('1h') && timestamp('2024-02-30T00:00:00Z') < timestamp(0)";
    check_errors(
        src,
        &dyn_env(30, false),
        expect![[r#"
        cel-type: invalid duration argument
          | duration('5 minutes') < duration('1h') && timestamp('2024-02-30T00:00:00Z') < timestamp(0)
          |          ^^^^^^^^^^^
        cel-type: invalid timestamp argument
          | duration('5 minutes') < duration('1h') && timestamp('2024-02-30T00:00:00Z') < timestamp(0)
          |                                                     ^^^^^^^^^^^^^^^^^^^^^^
    "#]],
    );
    check_errors(src, &dyn_env(29, false), expect![[r#""#]]);
}

/// The timestamp validator evaluates `timestamp(n)` on a literal int (cel-go `cel/validator.go`
/// `evalCall`): seconds before 0001-01-01 or after 9999-12-31 fail.
#[test]
fn literal_timestamp_seconds_are_range_checked() {
    let src = "timestamp(-62135596801) < timestamp(-62135596800) && timestamp(253402300800) > timestamp(0)";
    check_errors(
        src,
        &dyn_env(30, false),
        expect![[r#"
        cel-type: invalid timestamp argument
          | timestamp(-62135596801) < timestamp(-62135596800) && timestamp(253402300800) > timestamp(0)
          |           ^^^^^^^^^^^^
        cel-type: invalid timestamp argument
          | timestamp(-62135596801) < timestamp(-62135596800) && timestamp(253402300800) > timestamp(0)
          |                                                                ^^^^^^^^^^^^
    "#]],
    );
}

/// cel-go `ValidateRegexLiterals` (`cel/validator.go`): the first literal argument of `matches`
/// must compile with Go's `regexp.Compile` (lookahead does not; `\\w` in a class does).
#[test]
fn regex_literals_are_validated_as_go_compiles_them() {
    let src = "'a'.matches('(?=a)') || 'a'.matches('[\\\\w]{0,127}') || matches('(', 'a') || 'a'.matches('a{1001}')";
    check_errors(
        src,
        &dyn_env(30, false),
        expect![[r#"
            cel-type: invalid matches argument
              | 'a'.matches('(?=a)') || 'a'.matches('[\\w]{0,127}') || matches('(', 'a') || 'a'.matches('a{1001}')
              |             ^^^^^^^
            cel-type: invalid matches argument
              | 'a'.matches('(?=a)') || 'a'.matches('[\\w]{0,127}') || matches('(', 'a') || 'a'.matches('a{1001}')
              |                                                                ^^^
            cel-type: invalid matches argument
              | 'a'.matches('(?=a)') || 'a'.matches('[\\w]{0,127}') || matches('(', 'a') || 'a'.matches('a{1001}')
              |                                                                                         ^^^^^^^^^
        "#]],
    );
}

/// The Kubernetes regex library compiles a literal `find` / `findAll` pattern when the program is
/// built (apiserver `pkg/cel/library/regex.go`, `cel.OptimizeRegex`), in every version.
#[test]
fn regex_library_patterns_are_compiled_with_the_program() {
    check_errors(
        "'a'.find('[') == '' && 'a'.findAll('a{2,1}', 1) == [] && 'a'.find('[a-z]+') == 'a'",
        &dyn_env(28, false),
        expect![[r#"
            cel-type: program instantiation failed: error parsing regexp: missing closing ]: `[`
              | 'a'.find('[') == '' && 'a'.findAll('a{2,1}', 1) == [] && 'a'.find('[a-z]+') == 'a'
              |          ^^^
            cel-type: program instantiation failed: error parsing regexp: invalid repeat count: `{2,1}`
              | 'a'.find('[') == '' && 'a'.findAll('a{2,1}', 1) == [] && 'a'.find('[a-z]+') == 'a'
              |                                    ^^^^^^^^
        "#]],
    );
}

/// The validators look for their calls and literals anywhere in the tree: inside macro bodies
/// and as operands, not only at the top.
#[test]
fn validators_reach_into_macro_bodies() {
    check_errors(
        "[1].all(x, [x].exists(y, duration('5 minutes') > duration('1s') && [y, 'a'].size() > 0))",
        &dyn_env(30, false),
        expect![[r#"
            cel-type: invalid duration argument
              | [1].all(x, [x].exists(y, duration('5 minutes') > duration('1s') && [y, 'a'].size() > 0))
              |                                   ^^^^^^^^^^^
            cel-type: expected type 'int' but found 'string'
              | [1].all(x, [x].exists(y, duration('5 minutes') > duration('1s') && [y, 'a'].size() > 0))
              |                                                                        ^^^
        "#]],
    );
    check_errors(
        "[1].all(x, 'a'.find('[') == '' || matches('(', 'a'))",
        &dyn_env(30, false),
        expect![[r#"
            cel-type: program instantiation failed: error parsing regexp: missing closing ]: `[`
              | [1].all(x, 'a'.find('[') == '' || matches('(', 'a'))
              |                     ^^^
            cel-type: invalid matches argument
              | [1].all(x, 'a'.find('[') == '' || matches('(', 'a'))
              |                                           ^^^
        "#]],
    );
}
