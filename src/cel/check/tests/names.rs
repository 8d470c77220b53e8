//! Identifiers, dotted names, field selection and "did you mean".

use expect_test::expect;

use super::*;

#[test]
fn typed_field_chain() {
    check_types(
        "object.spec.replicas > 1",
        &env(),
        expect![[r#"
            > ~bool ^greater_int64
              .replicas ~int ^field Deployment.spec.replicas
                .spec ~Deployment.spec ^field Deployment.spec
                  object ~Deployment ^var object
              Int(1) ~int
        "#]],
    );
}

#[test]
fn undefined_field_underlines_the_name_and_suggests() {
    check_errors(
        "object.spec.replica <= 5",
        &env(),
        expect![[r#"
            cel-undefined-field: undefined field 'replica'; did you mean 'replicas'?
              | object.spec.replica <= 5
              |             ^^^^^^^
        "#]],
    );
}

#[test]
fn undeclared_variable_with_suggestion() {
    check_errors(
        "objekt.spec == null || foo",
        &env(),
        expect![[r#"
        cel-undeclared: undeclared reference to 'objekt' (in container ''); did you mean 'object'?
          | objekt.spec == null || foo
          | ^^^^^^
        cel-undeclared: undeclared reference to 'foo' (in container '')
          | objekt.spec == null || foo
          |                        ^^^
    "#]],
    );
}

#[test]
fn dotted_variable_and_prefix_hover() {
    check_types(
        "authorizer.requestResource.check('get').allowed()",
        &env(),
        expect![[r#"
            allowed() ~bool ^decision_allowed
              check() ~kubernetes.authorization.Decision ^resourcecheck_check
                .requestResource ~kubernetes.authorization.ResourceCheck ^var authorizer.requestResource
                  authorizer ~kubernetes.authorization.Authorizer ^var authorizer
                "get" ~string
        "#]],
    );
}

#[test]
fn type_identifiers_and_type_values() {
    check_types(
        "type(object.spec.replicas) == int && type(1) != net.IP",
        &env(),
        expect![[r#"
        && ~bool ^logical_and
          == ~bool ^equals
            type() ~type(int) ^type
              .replicas ~int ^field Deployment.spec.replicas
                .spec ~Deployment.spec ^field Deployment.spec
                  object ~Deployment ^var object
            int ~type(int) ^type int
          != ~bool ^not_equals
            type() ~type(int) ^type
              Int(1) ~int
            .IP ~type(net.IP) ^type net.IP
              net ~!error!
    "#]],
    );
}

#[test]
fn field_selection_on_primitive_is_a_type_error() {
    check_errors(
        "object.spec.replicas.value == 1",
        &env(),
        expect![[r#"
        cel-type: type 'int' does not support field selection
          | object.spec.replicas.value == 1
          |                      ^^^^^
    "#]],
    );
}

#[test]
fn dyn_propagates_through_selection() {
    check_result(
        "object.spec.containers[0].image",
        &dyn_env(37, true),
        expect![[r#"
        dyn
    "#]],
    );
}

#[test]
fn maps_select_values() {
    check_result(
        "object.metadata.labels.app",
        &env(),
        expect![[r#"
        string
    "#]],
    );
}

#[test]
fn request_fields_from_the_builtin_provider() {
    check_errors(
        "request.userInfo.username == 'x' && request.uid == ''",
        &env(),
        expect![[r#"
        cel-undefined-field: undefined field 'uid'
          | request.userInfo.username == 'x' && request.uid == ''
          |                                             ^^^
    "#]],
    );
}

#[test]
fn optional_selection() {
    check_result(
        "object.?spec.?replicas.orValue(1)",
        &env(),
        expect![[r#"
        int
    "#]],
    );
    check_result(
        "object.spec.?replicas",
        &env(),
        expect![[r#"
        optional_type(int)
    "#]],
    );
}

#[test]
fn container_resolution() {
    let mut env = Env::new(vec![crate::cel::library::Library::Standard]);
    env.container = "a.b".into();
    env.declare("a.x", Type::Int, None);
    check_result(
        "x + 1",
        &env,
        expect![[r#"
        int
    "#]],
    );
    check_errors(
        "y",
        &env,
        expect![[r#"
        cel-undeclared: undeclared reference to 'y' (in container 'a.b')
          | y
          | ^
    "#]],
    );
}

#[test]
fn variables_and_params_through_a_composed_provider() {
    let mut env = env();
    let mut declared = crate::cel::check::ObjectTypes::new();
    let image_count = env.variable_type(&Type::Int);
    let limit = env.variable_type(&Type::quantity());
    declared.add_field("kubernetes.variables", "imageCount", image_count, None);
    declared.add_field("kubernetes.variables", "limit", limit, Some("A quantity."));
    env.push_provider(Arc::new(declared));
    env.declare("variables", Type::object("kubernetes.variables"), None);
    check_types(
        "variables.imageCount <= params.maxReplicas && variables.limit.isInteger() && variables.imageConut > 0",
        &env,
        expect![[r#"
            && ~bool ^logical_and
              && ~bool ^logical_and
                <= ~bool ^less_equals_int64
                  .imageCount ~int ^field kubernetes.variables.imageCount
                    variables ~kubernetes.variables ^var variables
                  .maxReplicas ~int ^field Params.maxReplicas
                    params ~Params ^var params
                isInteger() ~bool ^quantity_is_integer
                  .limit ~dyn ^field kubernetes.variables.limit
                    variables ~kubernetes.variables ^var variables
              > ~bool ^greater_int64|greater_uint64_int64|greater_double_int64
                .imageConut ~!error!
                  variables ~kubernetes.variables ^var variables
                Int(0) ~int
            cel-undefined-field: undefined field 'imageConut'; did you mean 'imageCount'?
              | variables.imageCount <= params.maxReplicas && variables.limit.isInteger() && variables.imageConut > 0
              |                                                                                        ^^^^^^^^^^
        "#]],
    );
}

#[test]
fn variable_type_conversion() {
    let env = env();
    let shown: Vec<String> = [
        Type::list(Type::map(Type::String, Type::Timestamp)),
        Type::quantity(),
        Type::object("Deployment"),
        Type::optional(Type::Int),
        Type::Error,
    ]
    .iter()
    .map(|t| env.variable_type(t).to_string())
    .collect();
    expect!["list(map(string, google.protobuf.Timestamp)) | dyn | Deployment | dyn | dyn"]
        .assert_eq(&shown.join(" | "));
}

#[test]
fn cel_go_style_report() {
    let src = "1 + x == 2\n  && objekt.y";
    let (_, checked) = checked(src, &env());
    expect![[r#"
        ERROR: <input>:1:5: undeclared reference to 'x' (in container '')
         | 1 + x == 2
         | ....^
        ERROR: <input>:2:6: undeclared reference to 'objekt' (in container ''); did you mean 'object'?
         |   && objekt.y
         | .....^"#]]
    .assert_eq(&crate::cel::check::cel_go_report(src, &checked.errors));
}

/// A dotted variable is found under its root whatever other names sort between the root and it
/// (`a-c` sorts after `a` and before `a.b`).
#[test]
fn dotted_variable_past_names_sorting_between() {
    let mut env = env();
    env.declare("a", Type::Int, None);
    env.declare("a-c", Type::Int, None);
    env.declare("a.b", Type::String, None);
    check_types(
        "a.b",
        &env,
        expect![[r#"
        .b ~string ^var a.b
          a ~int ^var a
    "#]],
    );
}
