//! The authorizer mock and the Kubernetes library extension point.

use expect_test::expect;

use super::{check_eval, run, show};
use crate::cel::eval::*;

#[test]
fn kubernetes_library_calls_reach_the_extension_point() {
    check_eval(
        "quantity('1Gi')",
        &[],
        expect![
            "error (NoSuchOverload): no such overload: quantity (the Kubernetes library is not bound in this build)"
        ],
    );
    check_eval(
        "'a'.noSuchFunction()",
        &[],
        expect!["error (NoSuchOverload): no such overload: string.noSuchFunction"],
    );
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
