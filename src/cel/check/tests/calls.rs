//! Overload resolution, operators, call styles, equality typing and index rules.

use expect_test::expect;

use super::*;

#[test]
fn member_call_resolves_overload() {
    check_types(
        "object.spec.template.spec.containers.all(c, c.image.startsWith('registry.example.com/'))",
        &env(),
        expect![[r#"
            all! ~bool ^macro all
              .containers ~list(Container) ^field PodSpec.containers
                .spec ~PodSpec ^field Deployment.spec.template.spec
                  .template ~Deployment.spec.template ^field Deployment.spec.template
                    .spec ~Deployment.spec ^field Deployment.spec
                      object ~Deployment ^var object
              startsWith() ~bool ^starts_with_string
                .image ~string ^field Container.image
                  c ~Container ^local c
                "registry.example.com/" ~string
        "#]],
    );
}

#[test]
fn misspelled_function_suggests() {
    check_errors(
        "object.metadata.name.startWith('a')",
        &env(),
        expect![[r#"
        cel-undeclared: undeclared reference to 'startWith' (in container ''); did you mean 'startsWith'?
          | object.metadata.name.startWith('a')
          |                      ^^^^^^^^^
    "#]],
    );
}

#[test]
fn equality_needs_the_same_types() {
    check_errors(
        "1 == 'a' || object.spec.replicas == 'three'",
        &env(),
        expect![[r#"
        cel-no-overload: found no matching overload for '_==_' applied to '(int, string)'
          | 1 == 'a' || object.spec.replicas == 'three'
          |   ^^
        cel-no-overload: found no matching overload for '_==_' applied to '(int, string)'
          | 1 == 'a' || object.spec.replicas == 'three'
          |                                  ^^
    "#]],
    );
}

#[test]
fn no_overload_lists_argument_types() {
    check_errors(
        "object.spec.replicas + 'a'",
        &env(),
        expect![[r#"
        cel-no-overload: found no matching overload for '_+_' applied to '(int, string)'
          | object.spec.replicas + 'a'
          |                      ^
    "#]],
    );
    check_errors(
        "size(1)",
        &env(),
        expect![[r#"
        cel-no-overload: found no matching overload for 'size' applied to '(int)'
          | size(1)
          | ^^^^
    "#]],
    );
}

#[test]
fn cross_type_numeric_comparisons_follow_the_library() {
    check_errors("1 < 2u && 1.5 >= 1", &env(), expect![[r#""#]]);
    let plain = Env::new(vec![crate::cel::library::Library::Standard]);
    check_errors(
        "1 < 2u",
        &plain,
        expect![[r#"
        cel-no-overload: found no matching overload for '_<_' applied to '(int, uint)'
          | 1 < 2u
          |   ^
    "#]],
    );
}

#[test]
fn receiver_style_only_matches_member_overloads() {
    check_errors(
        "quantity('1').sign() == 1",
        &env(),
        expect![[r#"
        cel-no-overload: found no matching overload for 'sign' applied to 'kubernetes.Quantity.()'
          | quantity('1').sign() == 1
          |               ^^^^
    "#]],
    );
    check_result(
        "sign(quantity('1'))",
        &env(),
        expect![[r#"
        int
    "#]],
    );
}

#[test]
fn namespaced_functions() {
    check_result(
        "sets.contains([1], [1]) && optional.none().hasValue()",
        &env(),
        expect![[r#"
        bool
    "#]],
    );
    check_result(
        "format.dns1123Label().validate('a')",
        &env(),
        expect![[r#"
        optional_type(list(string))
    "#]],
    );
    check_result(
        "ip.isCanonical('::1') && lists.range(3).size() == 3",
        &env(),
        expect![[r#"
        bool
    "#]],
    );
}

#[test]
fn indexing() {
    check_result(
        "object.metadata.labels['app']",
        &env(),
        expect![[r#"
        string
    "#]],
    );
    check_errors(
        "object.spec['replicas']",
        &env(),
        expect![[r#"
        cel-no-overload: found no matching overload for '_[_]' applied to '(Deployment.spec, string)'
          | object.spec['replicas']
          |            ^
    "#]],
    );
    check_errors(
        "[1][1u]",
        &env(),
        expect![[r#"
        cel-no-overload: found no matching overload for '_[_]' applied to '(list(int), uint)'
          | [1][1u]
          |    ^
    "#]],
    );
    check_result(
        "dyn([1])[0]",
        &env(),
        expect![[r#"
        dyn
    "#]],
    );
}

#[test]
fn in_on_lists_and_maps() {
    check_result(
        "'a' in object.metadata.labels && 1 in [1, 2]",
        &env(),
        expect![[r#"
        bool
    "#]],
    );
    check_errors(
        "'a' in [1]",
        &env(),
        expect![[r#"
        cel-no-overload: found no matching overload for '@in' applied to '(string, list(int))'
          | 'a' in [1]
          |     ^^
    "#]],
    );
}

#[test]
fn logical_operators_need_bools() {
    check_errors(
        "object.spec.replicas && true",
        &env(),
        expect![[r#"
        cel-type: expected type 'bool' but found 'int'
          | object.spec.replicas && true
          | ^^^^^^^^^^^^^^^^^^^^
    "#]],
    );
}

#[test]
fn conditional_joins_branches() {
    check_result(
        "true ? 1 : 2",
        &env(),
        expect![[r#"
        int
    "#]],
    );
    check_errors(
        "object.spec.replicas ? 1 : 2",
        &env(),
        expect![[r#"
        cel-no-overload: found no matching overload for '_?_:_' applied to '(int, int, int)'
          | object.spec.replicas ? 1 : 2
          |                      ^
    "#]],
    );
}

#[test]
fn errors_do_not_cascade() {
    check_errors(
        "(foo + 1) * 2 > bar.size()",
        &env(),
        expect![[r#"
            cel-undeclared: undeclared reference to 'foo' (in container '')
              | (foo + 1) * 2 > bar.size()
              |  ^^^
            cel-undeclared: undeclared reference to 'bar' (in container '')
              | (foo + 1) * 2 > bar.size()
              |                 ^^^
        "#]],
    );
}

#[test]
fn conversions_and_time() {
    check_result(
        "timestamp('2024-01-01T00:00:00Z') + duration('1h') > timestamp(int(1))",
        &env(),
        expect![[r#"
            bool
        "#]],
    );
    check_result(
        "string(1) + string(2u) + string(b'a')",
        &env(),
        expect![[r#"
        string
    "#]],
    );
}

#[test]
fn kubernetes_libraries() {
    check_result(
        "quantity('1Gi').isGreaterThan(quantity('1Mi'))",
        &env(),
        expect![[r#"
        bool
    "#]],
    );
    check_result(
        "url('https://x').getHost()",
        &env(),
        expect![[r#"
        string
    "#]],
    );
    check_result(
        "cidr('10.0.0.0/8').containsIP(ip('10.0.0.1'))",
        &env(),
        expect![[r#"
        bool
    "#]],
    );
    check_result(
        "semver('1.2.3').major()",
        &env(),
        expect![[r#"
        int
    "#]],
    );
    check_result(
        "authorizer.group('apps').resource('deployments').check('get').reason()",
        &env(),
        expect![[r#"
        string
    "#]],
    );
    check_result(
        "'abc'.find('b') + 'x'.findAll('x')[0]",
        &env(),
        expect![[r#"
        string
    "#]],
    );
    check_result(
        "[1, 2].sum() + [3].max() + [1].indexOf(1)",
        &env(),
        expect![[r#"
        int
    "#]],
    );
    check_result(
        "'%s'.format([1, 'a'])",
        &env(),
        expect![[r#"
        string
    "#]],
    );
}

#[test]
fn string_extensions() {
    check_result(
        "'a,b'.split(',').join('-').upperAscii().substring(1)",
        &env(),
        expect![[r#"
        string
    "#]],
    );
}
