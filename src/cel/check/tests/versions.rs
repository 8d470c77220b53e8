//! `cel-version`: functions, overloads, macros and optional syntax from later versions.

use expect_test::expect;

use super::*;

#[test]
fn function_from_a_later_version() {
    check_errors(
        "isIP('1.2.3.4')",
        &dyn_env(29, false),
        expect![[r#"
        cel-version: 'isIP' is not available in Kubernetes 1.29; it was introduced in Kubernetes 1.30 and is accepted in new expressions from 1.31
          | isIP('1.2.3.4')
          | ^^^^
    "#]],
    );
    check_errors(
        "format.dns1123Label().validate('a')",
        &dyn_env(30, true),
        expect![[r#"
        cel-version: 'format.dns1123Label' is not available in Kubernetes 1.30; it was introduced in Kubernetes 1.31
          | format.dns1123Label().validate('a')
          | ^^^^^^^^^^^^^^^^^^^
    "#]],
    );
}

#[test]
fn new_expressions_lag_one_version() {
    check_errors(
        "isIP('1.2.3.4')",
        &dyn_env(30, false),
        expect![[r#"
        cel-version: 'isIP' is only available to stored expressions in Kubernetes 1.30; new expressions may use it from Kubernetes 1.31
          | isIP('1.2.3.4')
          | ^^^^
    "#]],
    );
    check_errors("isIP('1.2.3.4')", &dyn_env(30, true), expect![[r#""#]]);
    check_errors("isIP('1.2.3.4')", &dyn_env(31, false), expect![[r#""#]]);
}

#[test]
fn overload_from_a_later_version() {
    let mut env = dyn_env(29, true);
    env.declare("addr", Type::ip(), None);
    check_errors(
        "string(addr)",
        &env,
        expect![[r#"
        cel-version: 'string' applied to '(net.IP)' is not available in Kubernetes 1.29; it was introduced in Kubernetes 1.30
          | string(addr)
          | ^^^^^^
    "#]],
    );
}

#[test]
fn macros_from_a_later_version() {
    check_errors(
        "[1].transformList(i, v, v)",
        &dyn_env(32, false),
        expect![[r#"
        cel-version: macro 'transformList' is only available to stored expressions in Kubernetes 1.32; new expressions may use it from Kubernetes 1.33
          | [1].transformList(i, v, v)
          |     ^^^^^^^^^^^^^
    "#]],
    );
    check_errors(
        "[1].sortBy(x, x)",
        &dyn_env(34, false),
        expect![[r#"
        cel-version: macro 'sortBy' is only available to stored expressions in Kubernetes 1.34; new expressions may use it from Kubernetes 1.35
          | [1].sortBy(x, x)
          |     ^^^^^^
    "#]],
    );
}

#[test]
fn optional_syntax_from_1_29() {
    check_errors(
        "object.?spec",
        &dyn_env(28, false),
        expect![[r#"
        cel-version: optional syntax is only available to stored expressions in Kubernetes 1.28; new expressions may use it from Kubernetes 1.29
          | object.?spec
          | ^^^^^^^^^^^^
    "#]],
    );
}

#[test]
fn jsonpatch_only_in_mutations() {
    check_errors(
        "jsonpatch.escapeKey('a/b')",
        &dyn_env(37, true),
        expect![[r#"
            cel-undeclared: undeclared reference to 'jsonpatch' (in container '')
              | jsonpatch.escapeKey('a/b')
              | ^^^^^^^^^
            cel-undeclared: undeclared reference to 'escapeKey' (in container '')
              | jsonpatch.escapeKey('a/b')
              |           ^^^^^^^^^
        "#]],
    );
}

#[test]
fn result_type_rule() {
    let mut env = dyn_env(37, true);
    env.libraries.push(crate::cel::library::Library::JsonPatch);
    let result = |src: &str, expected: &[Type]| {
        let (_, checked) = checked(src, &env);
        format!("{:?}", super::super::result_type_error(&checked, expected))
    };
    let out = [
        result("object.spec.paused", &[Type::Bool]),
        result("object.spec.paused == true", &[Type::Bool]),
        result("1", &[Type::String, Type::Null]),
        result("null", &[Type::String, Type::Null]),
        result("Object{}", &[Type::object("Object")]),
        result("Object.spec{}", &[Type::object("Object")]),
        result("[JSONPatch{}]", &[Type::list(Type::json_patch())]),
        result("object.x", &[Type::Dyn]),
        result("foo", &[Type::Bool]),
    ];
    expect![[r#"
        Some("must evaluate to bool but got dyn")
        None
        Some("must evaluate to one of [string null_type] but got int")
        None
        None
        Some("must evaluate to Object but got Object.spec")
        None
        None
        None"#]]
    .assert_eq(&out.join("\n"));
}
