//! The user derived from claims, for the claim-based mappings and the failures whose wording
//! comes from `k8s.io/apiserver` `plugin/pkg/authenticator/token/oidc/oidc.go`.

use super::eval::authenticate;
use serde_json::json;

/// The newest release's minor version.
fn newest() -> u32 {
    crate::schema::KubeVersion::newest().minor()
}

const CONFIG: &str = r#"
apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: https://issuer.example.com
    audiences: [a]
  claimValidationRules:
  - claim: hd
    requiredValue: example.com
  claimMappings:
    username:
      claim: email
      prefix: "oidc:"
    groups:
      claim: groups
      prefix: "oidc:"
  userValidationRules:
  - expression: "!user.groups.exists(g, g == 'oidc:banned')"
    message: banned
"#;

#[test]
fn claim_mappings_with_prefixes() {
    let claims = json!({"iss": "https://issuer.example.com", "hd": "example.com",
        "email": "jane@example.com", "email_verified": true, "groups": "dev"});
    let user = authenticate(CONFIG, &claims, newest()).expect("authenticated");
    assert_eq!(user.username, "oidc:jane@example.com");
    assert_eq!(user.groups, vec!["oidc:dev".to_string()]);
}

#[test]
fn failures_in_the_api_servers_words() {
    let cases = [
        (
            json!({"iss": "https://issuer.example.com", "hd": "example.org", "email": "x"}),
            "oidc: required claim hd value does not match. Got = example.org, want = example.com",
        ),
        (
            json!({"iss": "https://issuer.example.com", "hd": "example.com", "email": "x",
                   "email_verified": false}),
            "oidc: email not verified",
        ),
        (
            json!({"iss": "https://issuer.example.com", "hd": "example.com", "email": "x",
                   "groups": ["banned"]}),
            "oidc: error evaluating user info validation rule: validation expression \
             '!user.groups.exists(g, g == 'oidc:banned')' failed: banned",
        ),
        (
            json!({"iss": "https://elsewhere.example.com"}),
            "no JWT authenticator has issuer.url \"https://elsewhere.example.com\" (the token's iss)",
        ),
    ];
    for (claims, expected) in cases {
        assert_eq!(
            authenticate(CONFIG, &claims, newest()),
            Err(expected.to_string())
        );
    }
}
