//! The authorizer mock and the Kubernetes library extension point.

use expect_test::expect;

use super::{check_eval, run, show};
use crate::cel::eval::*;

#[test]
fn kubernetes_library_values() {
    check_eval(
        "quantity('1Gi').add(quantity('512Mi'))",
        &[],
        expect![[r#"quantity("1536Mi")"#]],
    );
    check_eval(
        "quantity('10Mo')",
        &[],
        expect![
            "error (InvalidArgument): quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
        ],
    );
    check_eval(
        "string(cidr('10.0.0.0/8').ip())",
        &[],
        expect![[r#""10.0.0.0""#]],
    );
    check_eval(
        "url('https://example.com:8443/a?x=1').getQuery()",
        &[],
        expect![[r#"{"x": ["1"]}"#]],
    );
    check_eval(
        "format.dns1123Label().validate('Not_OK')",
        &[],
        expect![[
            r#"optional.of(["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"])"#
        ]],
    );
    check_eval(
        "'a'.noSuchFunction()",
        &[],
        expect!["error (NoSuchOverload): no such overload: string.noSuchFunction"],
    );
    let cases = [
        "quantity('1Gi').isGreaterThan(quantity('1G')) && quantity('1k') == quantity('1000')",
        "ip('10.0.0.1').family() == 4 && cidr('10.0.0.0/8').containsIP('10.1.2.3')",
        "semver('1.2.3').isLessThan(semver('1.10.0')) && semver('v1.2', true).minor() == 2",
        "isURL('https://a/b') && !isQuantity('x') && ip.isCanonical('::1')",
        "type(quantity('1')) == kubernetes.Quantity && type(ip('::1')) == net.IP",
        "format.named('uuid').hasValue() && !format.named('nope').hasValue()",
    ];
    for case in cases {
        assert_eq!(show(&run(case, &[])), "true", "{case}");
    }
}

/// Allows `get` on anything and `create` on deployments in `prod`; errors on `delete`.
#[derive(Debug)]
struct MockAuthorizer;

impl Authorizer for MockAuthorizer {
    fn authorize(&self, r: &AuthzRequest) -> AuthzDecision {
        let allowed = r.verb == "get"
            || (r.verb == "create" && r.resource == "deployments" && r.namespace == "prod");
        AuthzDecision {
            allowed,
            reason: if allowed {
                "ok".into()
            } else {
                "denied".into()
            },
            error: (r.verb == "delete").then(|| "webhook unavailable".into()),
        }
    }
}

#[test]
fn authorizer_mock() {
    let authz = authorizer_value(std::sync::Arc::new(MockAuthorizer));
    let bindings = [("authorizer", authz)];
    check_eval(
        "authorizer.group('apps').resource('deployments').namespace('prod').check('create').allowed()",
        &bindings,
        expect!["true"],
    );
    check_eval(
        "authorizer.group('').resource('pods').check('create').reason()",
        &bindings,
        expect![[r#""denied""#]],
    );
    check_eval(
        "authorizer.path('/healthz').check('delete').error()",
        &bindings,
        expect![[r#""webhook unavailable""#]],
    );
    check_eval(
        "authorizer.path('').check('get')",
        &bindings,
        expect!["error (InvalidArgument): path must not be empty"],
    );
    let out = run(
        "authorizer.serviceAccount('ns', 'sa').group('').resource('pods').check('get').allowed()",
        &bindings,
    );
    assert_eq!(show(&out), "true");
    assert!(out.cost > 350_000);
}

/// A pattern Go refuses: `matches` gives Go's error as it is (cel-go `common/types/string.go`),
/// `find` and `findAll` prefix "Illegal regex: " (apiserver `pkg/cel/library/regex.go`).
#[test]
fn refused_patterns_give_the_upstream_errors() {
    let shown: Vec<String> = [
        "'a'.matches(dyn('(?=a)'))",
        "'a'.find(dyn('a**'))",
        "'a'.findAll(dyn('\\\\8'))",
    ]
    .iter()
    .map(|src| format!("{src} -> {}", super::show(&super::run(src, &[]))))
    .collect();
    expect_test::expect![[r#"
        'a'.matches(dyn('(?=a)')) -> error (InvalidArgument): error parsing regexp: invalid or unsupported Perl syntax: `(?=`
        'a'.find(dyn('a**')) -> error (InvalidArgument): Illegal regex: error parsing regexp: invalid nested repetition operator: `**`
        'a'.findAll(dyn('\\8')) -> error (InvalidArgument): Illegal regex: error parsing regexp: invalid escape sequence: `\8`"#]].assert_eq(&shown.join("\n"));
}
