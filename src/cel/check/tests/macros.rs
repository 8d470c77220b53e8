//! Macros: comprehensions, two-variable forms, `has`, `sortBy`, optional macros, `cel.bind`.

use expect_test::expect;

use super::*;

#[test]
fn map_and_filter_types() {
    check_result(
        "[1, 2].map(x, x * 2.0 > 1.0)",
        &env(),
        expect![[r#"
        list(bool)
        cel-no-overload: found no matching overload for '_*_' applied to '(int, double)'
          | [1, 2].map(x, x * 2.0 > 1.0)
          |                 ^
    "#]],
    );
    check_result(
        "{'a': 1}.map(k, k + '!')",
        &env(),
        expect![[r#"
        list(string)
    "#]],
    );
    check_result(
        "[1, 2].map(x, x > 1, string(x))",
        &env(),
        expect![[r#"
        list(string)
    "#]],
    );
    check_result(
        "object.spec.template.spec.containers.filter(c, c.name != '')",
        &env(),
        expect![[r#"
        list(Container)
    "#]],
    );
    check_result(
        "[1].map(x, [x, x]).map(x, [x, x])",
        &env(),
        expect![[r#"
        list(list(list(int)))
    "#]],
    );
}

#[test]
fn predicates_must_be_bool() {
    check_errors(
        "[1].all(x, x + 1)",
        &env(),
        expect![[r#"
        cel-type: expected type 'bool' but found 'int'
          | [1].all(x, x + 1)
          |            ^^^^^
    "#]],
    );
    check_errors(
        "[1].map(x, x, x)",
        &env(),
        expect![[r#"
        cel-type: expected type 'bool' but found 'int'
          | [1].map(x, x, x)
          |            ^
    "#]],
    );
}

#[test]
fn range_must_be_list_map_or_dyn() {
    check_errors(
        "object.spec.replicas.all(x, x > 0)",
        &env(),
        expect![[r#"
        cel-type: expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)
          | object.spec.replicas.all(x, x > 0)
          | ^^^^^^^^^^^^^^^^^^^^
    "#]],
    );
}

#[test]
fn variables_are_scoped() {
    check_errors(
        "[1].exists(y, y > 0) && y < 5",
        &env(),
        expect![[r#"
        cel-undeclared: undeclared reference to 'y' (in container '')
          | [1].exists(y, y > 0) && y < 5
          |                         ^
    "#]],
    );
    check_result(
        "[{'a': 1}].exists(object, object.a == 1)",
        &env(),
        expect![[r#"
        bool
    "#]],
    );
}

#[test]
fn two_variable_forms() {
    check_result(
        "['a'].all(i, v, i < 1 && v != '')",
        &env(),
        expect![[r#"
        bool
    "#]],
    );
    check_result(
        "{'a': 1}.transformMap(k, v, v * 2)",
        &env(),
        expect![[r#"
        map(string, int)
    "#]],
    );
    check_result(
        "['a'].transformList(i, v, i > 0, v + string(i))",
        &env(),
        expect![[r#"
        list(string)
    "#]],
    );
    check_result(
        "{'a': 'b'}.transformMapEntry(k, v, {v: k})",
        &env(),
        expect![[r#"
        map(string, string)
    "#]],
    );
    check_result(
        "[1].existsOne(i, v, v == 1) && [1].exists_one(x, x == 1)",
        &env(),
        expect![[r#"
        bool
    "#]],
    );
}

#[test]
fn has_rules() {
    check_result(
        "has(object.spec.replicas) && has(object.metadata.labels.app)",
        &env(),
        expect![[r#"
        bool
    "#]],
    );
    check_errors(
        "has(object.spec.replica)",
        &env(),
        expect![[r#"
        cel-undefined-field: undefined field 'replica'; did you mean 'replicas'?
          | has(object.spec.replica)
          |                 ^^^^^^^
    "#]],
    );
    check_errors(
        "has(object.spec.replicas.value)",
        &env(),
        expect![[r#"
        cel-type: type 'int' does not support field selection
          | has(object.spec.replicas.value)
          |                          ^^^^^
    "#]],
    );
    check_result(
        "has(object.x)",
        &dyn_env(37, true),
        expect![[r#"
        bool
    "#]],
    );
}

#[test]
fn sort_by() {
    check_result(
        "object.spec.template.spec.containers.sortBy(c, c.name)",
        &env(),
        expect![[r#"
        list(Container)
    "#]],
    );
    check_errors(
        "[[1]].sortBy(l, l)",
        &env(),
        expect![[r#"
        cel-no-overload: found no matching overload for 'sortBy' applied to 'list(list(int)).(list(int))'
          | [[1]].sortBy(l, l)
          |       ^^^^^^
    "#]],
    );
}

#[test]
fn optional_macros() {
    check_result(
        "object.?spec.optMap(s, s.replicas)",
        &env(),
        expect![[r#"
        optional_type(int)
    "#]],
    );
    check_result(
        "optional.of(1).optFlatMap(x, optional.of(x + 1))",
        &env(),
        expect![[r#"
        optional_type(int)
    "#]],
    );
    check_errors(
        "optional.of(1).optFlatMap(x, x)",
        &env(),
        expect![[r#"
        cel-type: expected type 'optional_type(int)' but found 'int'
          | optional.of(1).optFlatMap(x, x)
          |                              ^
    "#]],
    );
}

#[test]
fn bind_is_not_in_the_kubernetes_environment() {
    check_errors(
        "cel.bind(x, 1, x + 1)",
        &env(),
        expect![[r#"
        cel-undeclared: undeclared reference to 'cel.bind' (in container '')
          | cel.bind(x, 1, x + 1)
          | ^^^^^^^^
    "#]],
    );
    let mut with_bind = env();
    with_bind.bindings = true;
    check_result(
        "cel.bind(x, 1, x + 1)",
        &with_bind,
        expect![[r#"
        int
    "#]],
    );
}

#[test]
fn typed_macro_tree() {
    check_types(
        "{'a': 1}.exists(k, v, k == 'a' && v > 0)",
        &env(),
        expect![[r#"
        exists! ~bool ^macro exists
          {..} ~map(string, int)
            "a" ~string
            Int(1) ~int
          && ~bool ^logical_and
            == ~bool ^equals
              k ~string ^local k
              "a" ~string
            > ~bool ^greater_int64
              v ~int ^local v
              Int(0) ~int
    "#]],
    );
}
