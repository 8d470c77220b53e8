//! Expressions of the shapes published admission policies use must check clean in the untyped
//! acceptance environment (the false-positive guard at unit level); typed mistakes are caught.

use expect_test::expect;

use super::*;

/// The API server's acceptance environment for a validation of a policy with params and one
/// `int` variable `replicas`.
fn acceptance_env() -> Env {
    let mut env = Env::kubernetes(37, false);
    let mut variables = crate::cel::check::ObjectTypes::new();
    variables.add_field("kubernetes.variables", "replicas", Type::Int, None);
    env.push_provider(Arc::new(variables));
    env.declare_admission(&crate::cel::check::AdmissionVariables {
        object: Type::Dyn,
        params: Some(Type::Dyn),
        variables: Some(Type::object("kubernetes.variables")),
        authorizer: true,
    });
    env
}

#[test]
fn published_shapes_check_clean() {
    let env = acceptance_env();
    let sources = [
        "object.spec.replicas <= 5",
        "has(object.spec.replicas) ? object.spec.replicas : 1",
        "has(namespaceObject.metadata.labels) ? namespaceObject.metadata.labels : {}",
        "request.userInfo.username != 'system:serviceaccount:foo:default'",
        "oldObject.metadata.?labels['deletable'].orValue('') == 'true'",
        "request.operation == 'CREATE' || oldObject.?metadata.?labels['immutable'].orValue('') != 'true'",
        "variables.replicas < int(params.data.maxReplicas)",
        "'replicas must be less than ' + params.data.maxReplicas",
        "object.spec.template.spec.containers.all(c, c.image.startsWith('registry.example.com/'))",
        "object.spec.containers.exists(c, has(c.securityContext) && c.securityContext.privileged == true)",
        "!has(object.metadata.labels) || !('env' in object.metadata.labels) || object.metadata.labels.env in ['prod', 'dev']",
        "object.metadata.name.matches('^[a-z0-9-]+$') && size(object.metadata.name) < 64",
        "authorizer.group('apps').resource('deployments').namespace(request.namespace).check('update').allowed()",
        "authorizer.requestResource.check('delete').allowed() || request.userInfo.groups.exists(g, g == 'system:masters')",
        "quantity(object.spec.resources.limits.memory).compareTo(quantity('1Gi')) <= 0",
        "object.spec.ports.map(p, p.port).all(p, p > 1024)",
        "object.spec.containers.filter(c, !c.image.contains('@sha256:')).size() == 0",
        "timestamp(object.metadata.creationTimestamp) < request.options.now + duration('1h')",
        "object.metadata.?annotations['a'].hasValue() ? object.metadata.annotations['a'] : 'none'",
        "[int(object.spec.replicas), 3].max() >= 3",
        "type(object.spec.replicas) == int ? object.spec.replicas : int(object.spec.replicas)",
        "url(object.spec.url).getScheme() == 'https' && isURL(object.spec.url)",
        "cidr('10.0.0.0/8').containsIP(object.spec.clusterIP)",
        "object.spec.rules.all(r, r.host.endsWith('.example.com'))",
        "object.metadata.labels.all(k, k.startsWith('app.kubernetes.io/'))",
        "object.spec.containers.map(c, c.name).join(', ')",
        "'%s has %d containers'.format([object.metadata.name, size(object.spec.containers)])",
        "object.spec.template.spec.containers.sortBy(c, c.name)[0].name != ''",
        "object.spec.containers.transformList(i, c, c.name + string(i)).size() > 0",
    ];
    let mut out = String::new();
    for src in sources {
        let (_, checked) = checked(src, &env);
        if !checked.errors.is_empty() {
            out.push_str(&render_errors(src, &checked));
        }
    }
    expect![""].assert_eq(&out);
}

#[test]
fn typed_mistakes_are_caught() {
    let env = acceptance_env();
    check_errors(
        "'replicas must be less than ' + variables.replicas",
        &env,
        expect![[r#"
            cel-no-overload: found no matching overload for '_+_' applied to '(string, int)'
              | 'replicas must be less than ' + variables.replicas
              |                               ^
        "#]],
    );
    // cel-go's validator compares element types exactly: `dyn` next to `int` is mixed.
    check_errors(
        "[object.spec.replicas, 3].max() >= 3",
        &env,
        expect![[r#"
        cel-type: expected type 'dyn' but found 'int'
          | [object.spec.replicas, 3].max() >= 3
          |                        ^
    "#]],
    );
    check_errors(
        "request.userInfo.user == 'x'",
        &env,
        expect![[r#"
        cel-undefined-field: undefined field 'user'
          | request.userInfo.user == 'x'
          |                  ^^^^
    "#]],
    );
    check_errors(
        "namespaceObject.metadata.labels.env == 1",
        &env,
        expect![[r#"
        cel-no-overload: found no matching overload for '_==_' applied to '(string, int)'
          | namespaceObject.metadata.labels.env == 1
          |                                     ^^
    "#]],
    );
}

#[test]
fn mutation_environment() {
    let mut env = acceptance_env();
    check_errors(
        "Object{spec: Object.spec{replicas: 1}}",
        &env,
        expect![[r#"
        cel-undeclared: undeclared reference to 'Object' (in container '')
          | Object{spec: Object.spec{replicas: 1}}
          | ^^^^^^
        cel-undeclared: undeclared reference to 'Object.spec' (in container '')
          | Object{spec: Object.spec{replicas: 1}}
          |              ^^^^^^^^^^^
    "#]],
    );
    env.enable_mutation();
    check_errors(
        "Object{spec: Object.spec{replicas: variables.replicas}} != null && [JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey('a/b'), value: 'x'}].size() == 1",
        &env,
        expect![[r#""#]],
    );
}

#[test]
fn a_variable_with_errors_is_dyn() {
    let mut typed = env();
    typed.declare("object", Type::object("Deployment"), None);
    let (_, broken) = checked("object.spec.replica + 1", &typed);
    let (_, fine) = checked("object.spec.replicas + 1", &typed);
    let shown = format!(
        "{} {}",
        typed.variable_type_of(&broken),
        typed.variable_type_of(&fine)
    );
    expect!["dyn int"].assert_eq(&shown);
    check_errors(
        "authorizer.allowed()",
        &typed,
        expect![[r#"
        cel-no-overload: found no matching overload for 'allowed' applied to 'kubernetes.authorization.Authorizer.()'
          | authorizer.allowed()
          |            ^^^^^^^
    "#]],
    );
}
