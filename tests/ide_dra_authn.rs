//! Editor features inside DRA device selectors and the API server's authentication and
//! authorization configuration: completion offers the variables each expression sees (`device`,
//! `claims`, `user`, `request`) and their fields, as their environments declare them.

mod ide_support;

use expect_test::{Expect, expect};

#[track_caller]
fn check_completions_of(filter: &str, fixture: &str, expect: Expect) {
    let loaded = ide_support::load(fixture);
    let items = loaded
        .analysis
        .completions(loaded.file, loaded.offset, &loaded.config);
    let mut actual = String::new();
    for item in items.iter().filter(|i| i.kind.tag() == filter) {
        let detail = item.detail.clone().unwrap_or_default();
        actual.push_str(&format!("{} {} {detail}\n", item.kind.tag(), item.label));
    }
    expect.assert_eq(&actual);
}

#[test]
fn device_fields_in_a_selector() {
    check_completions_of(
        "fd",
        "
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel:
      expression: device.$0
",
        expect![[r#"
            fd allowMultipleAllocations bool
            fd attributes map(string, map(string, dyn))
            fd capacity map(string, map(string, kubernetes.Quantity))
            fd driver string
        "#]],
    );
}

#[test]
fn claims_and_user_in_an_authentication_configuration() {
    let head = "
apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer: {url: 'https://example.com', audiences: [a]}
  claimMappings:
    username:
      expression: claims.sub
";
    check_completions_of(
        "va",
        &format!("{head}  claimValidationRules:\n  - expression: $0\n"),
        expect![[r#"
            va claims map(string, dyn)
        "#]],
    );
    check_completions_of(
        "fd",
        &format!("{head}  userValidationRules:\n  - expression: user.$0\n"),
        expect![[r#"
            fd extra map(string, list(string))
            fd groups list(string)
            fd uid string
            fd username string
        "#]],
    );
}

#[test]
fn request_fields_in_an_authorizer_match_condition() {
    check_completions_of(
        "fd",
        "
apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
- type: Webhook
  name: hook
  webhook:
    matchConditions:
    - expression: request.resourceAttributes.$0
",
        expect![[r#"
            fd fieldSelector kubernetes.FieldSelectorAttributes
            fd group string
            fd labelSelector kubernetes.LabelSelectorAttributes
            fd name string
            fd namespace string
            fd resource string
            fd subresource string
            fd verb string
            fd version string
        "#]],
    );
}
