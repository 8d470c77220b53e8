//! Structured authentication and authorization configuration (`apiserver.config.k8s.io`
//! AuthenticationConfiguration, AuthorizationConfiguration): the versions each release reads
//! (`k8s.io/apiserver` `pkg/apis/apiserver/*/register.go`), the structure around the CEL in the
//! wording of `pkg/apis/apiserver/validation/validation.go`, and the CEL compiled with `claims`,
//! `user` (`pkg/authentication/cel/compile.go`) and `request` (`pkg/authorization/cel/compile.go`).

use crate::{check_diagnostics, check_diagnostics_at};
use expect_test::expect;

/// Configurations in the style of the Kubernetes documentation's examples: clean.
#[test]
fn documented_style_configurations_are_clean() {
    check_diagnostics(
        r#"
apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: https://example.com
    discoveryURL: https://discovery.example.com/.well-known/openid-configuration
    audiences:
    - my-app
    - my-other-app
    audienceMatchPolicy: MatchAny
  claimValidationRules:
  - expression: 'claims.hd == "example.com"'
    message: the hd claim must be set to example.com
  - claim: admin
    requiredValue: "true"
  claimMappings:
    username:
      expression: 'claims.username + ":external-user"'
    groups:
      expression: 'claims.roles.split(",")'
    uid:
      expression: 'claims.sub'
    extra:
    - key: 'example.com/tenant'
      valueExpression: 'claims.tenant'
  userValidationRules:
  - expression: "!user.username.startsWith('system:')"
    message: 'username cannot used reserved system: prefix'
  - expression: "user.groups.all(group, !group.startsWith('system:'))"
    message: 'groups cannot used reserved system: prefix'
- issuer:
    url: https://other.example.com
    audiences: [other]
  claimMappings:
    username:
      claim: email
      prefix: ""
    groups:
      claim: groups
      prefix: "oidc:"
---
apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
- type: Webhook
  name: webhook
  webhook:
    timeout: 3s
    subjectAccessReviewVersion: v1
    matchConditionSubjectAccessReviewVersion: v1
    failurePolicy: NoOpinion
    connectionInfo:
      type: KubeConfigFile
      kubeConfigFile: /kube-system-authz-webhook.yaml
    matchConditions:
    - expression: has(request.resourceAttributes)
    - expression: request.resourceAttributes.namespace != 'kube-system'
    - expression: "!('system:serviceaccounts:kube-system' in request.groups)"
- type: Node
  name: node
- type: RBAC
  name: rbac
"#,
        expect![[r#""#]],
    );
}

/// A misspelled variable or field is caught at its characters; a rule or condition must be a bool.
#[test]
fn misspelled_variables_and_fields_and_result_types() {
    check_diagnostics(
        r#"
apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: https://example.com
    audiences: [my-app]
  claimValidationRules:
  - expression: 'claim.hd == "example.com"'
  - expression: claims.admin
  claimMappings:
    username:
      expression: claims.sub
  userValidationRules:
  - expression: "!user.usrname.startsWith('system:')"
---
apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
- type: Webhook
  name: webhook
  webhook:
    timeout: 3s
    subjectAccessReviewVersion: v1
    matchConditionSubjectAccessReviewVersion: v1
    failurePolicy: Deny
    connectionInfo: {type: InClusterConfig}
    matchConditions:
    - expression: request.resourceAttribute.namespace != 'kube-system'
    - expression: request.user
"#,
        expect![[r#"
            policy.yaml:8:18: error[cel-undeclared] (refused on create): jwt[0].claimValidationRules[0].expression: compilation failed: undeclared reference to 'claim' (in container ''); did you mean 'claims'?
              |
            8 |   - expression: 'claim.hd == "example.com"'
              |                  ^^^^^
            policy.yaml:9:17: error[cel-result-type] (refused on create): jwt[0].claimValidationRules[1].expression: must evaluate to bool
              |
            9 |   - expression: claims.admin
              |                 ^^^^^^^^^^^^
            policy.yaml:14:24: error[cel-undefined-field] (refused on create): jwt[0].userValidationRules[0].expression: compilation failed: undefined field 'usrname'; did you mean 'username'?
               |
            14 |   - expression: "!user.usrname.startsWith('system:')"
               |                        ^^^^^^^
            policy.yaml:28:27: error[cel-undefined-field] (refused on create): authorizers[0].webhook.matchConditions[0].expression: compilation failed: undefined field 'resourceAttribute'; did you mean 'resourceAttributes'?
               |
            28 |     - expression: request.resourceAttribute.namespace != 'kube-system'
               |                           ^^^^^^^^^^^^^^^^^
            policy.yaml:29:19: error[cel-result-type] (refused on create): authorizers[0].webhook.matchConditions[1].expression: must evaluate to bool but got string
               |
            29 |     - expression: request.user
               |                   ^^^^^^^^^^^^
        "#]],
    );
}

/// The structure the API server validates, in its words.
#[test]
fn authentication_structure() {
    check_diagnostics(
        r#"
apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    audiences: []
  claimValidationRules:
  - claim: hd
    expression: 'claims.hd == "x"'
  - message: nothing
  - claim: hd
    requiredValue: example.com
    message: not with a claim
  - claim: hd
    requiredValue: example.com
  claimMappings:
    username:
      claim: email
    groups:
      claim: groups
      expression: claims.groups
    extra:
    - key: Example.com/Tenant
      valueExpression: claims.tenant
    - key: kubernetes.io/tenant
      valueExpression: claims.tenant
    - key: example.com/a
    - key: example.com/a
      valueExpression: claims.a
  userValidationRules:
  - message: empty
- issuer:
    url: https://example.com
    audiences: [a]
  claimValidationRules:
  - expression: claims.a == 'b'
  - expression: claims.a == 'b'
  userValidationRules:
  - expression: user.uid != ''
  - expression: user.uid != ''
- issuer:
    url: https://example.com
    audiences: [a]
  claimMappings:
    username: {expression: claims.sub}
"#,
        expect![[r#"
            policy.yaml:5:5: error[required] (refused on create): jwt[0].issuer.url: Required value
              |
            5 |     audiences: []
              |     ^^^^^^^^^^^^^
            policy.yaml:5:16: error[required] (refused on create): jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required
              |
            5 |     audiences: []
              |                ^^
            policy.yaml:7:5: error[invalid] (refused on create): jwt[0].claimValidationRules[0]: Invalid value: "hd": claim and expression can't both be set
              |
            7 |   - claim: hd
              |     ^^^^^^^^^
            policy.yaml:9:5: error[required] (refused on create): jwt[0].claimValidationRules[1]: Required value: claim or expression is required
              |
            9 |   - message: nothing
              |     ^^^^^^^^^^^^^^^^
            policy.yaml:12:14: error[invalid] (refused on create): jwt[0].claimValidationRules[2].message: Invalid value: "not with a claim": may not be specified when claim is set
               |
            12 |     message: not with a claim
               |              ^^^^^^^^^^^^^^^^
            policy.yaml:13:12: error[duplicate] (refused on create): jwt[0].claimValidationRules[3].claim: Duplicate value: "hd"
               |
            13 |   - claim: hd
               |            ^^
            policy.yaml:17:7: error[required] (refused on create): jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing
               |
            17 |       claim: email
               |       ^^^^^^^^^^^^
            policy.yaml:19:7: error[invalid] (refused on create): jwt[0].claimMappings.groups: Invalid value: "": claim and expression can't both be set
               |
            19 |       claim: groups
               |       ^^^^^^^^^^^^^
            policy.yaml:22:12: error[invalid] (refused on create): jwt[0].claimMappings.extra[0].key: Invalid value: "Example.com/Tenant": must be lowercase
               |
            22 |     - key: Example.com/Tenant
               |            ^^^^^^^^^^^^^^^^^^
            policy.yaml:24:12: error[invalid] (refused on create): jwt[0].claimMappings.extra[1].key: Invalid value: "kubernetes.io/tenant": k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use
               |
            24 |     - key: kubernetes.io/tenant
               |            ^^^^^^^^^^^^^^^^^^^^
            policy.yaml:26:7: error[required] (refused on create): jwt[0].claimMappings.extra[2].valueExpression: Required value
               |
            26 |     - key: example.com/a
               |       ^^^^^^^^^^^^^^^^^^
            policy.yaml:27:12: error[duplicate] (refused on create): jwt[0].claimMappings.extra[3].key: Duplicate value: "example.com/a"
               |
            27 |     - key: example.com/a
               |            ^^^^^^^^^^^^^
            policy.yaml:30:5: error[required] (refused on create): jwt[0].userValidationRules[0].expression: Required value
               |
            30 |   - message: empty
               |     ^^^^^^^^^^^^^^
            policy.yaml:31:3: error[required] (refused on create): jwt[1].claimMappings.username: Required value: claim or expression is required
               |
            31 | - issuer:
               |   ^^^^^^^
            policy.yaml:36:17: error[duplicate] (refused on create): jwt[1].claimValidationRules[1].expression: Duplicate value: "claims.a == 'b'"
               |
            36 |   - expression: claims.a == 'b'
               |                 ^^^^^^^^^^^^^^^
            policy.yaml:39:17: error[duplicate] (refused on create): jwt[1].userValidationRules[1].expression: Duplicate value: "user.uid != ''"
               |
            39 |   - expression: user.uid != ''
               |                 ^^^^^^^^^^^^^^
            policy.yaml:41:10: error[duplicate] (refused on create): jwt[2].issuer.url: Duplicate value: "https://example.com"
               |
            41 |     url: https://example.com
               |          ^^^^^^^^^^^^^^^^^^^
        "#]],
    );
}

/// The issuer: https URLs without user, query or fragment, a discovery URL other than the URL,
/// audiences present, unique and matched with `MatchAny` when there are several.
#[test]
fn issuer_structure() {
    check_diagnostics(
        r#"
apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: http://user:pw@example.com/?a=b#c
    discoveryURL: http://user:pw@example.com/
    audiences: [a, a, ""]
  claimMappings:
    username: {expression: claims.sub}
- issuer:
    url: https://two.example.com
    audiences: [a]
    audienceMatchPolicy: MatchAll
  claimMappings:
    username: {expression: claims.sub}
"#,
        expect![[r#"
            policy.yaml:5:5: error[invalid] (refused on create): jwt[0].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences
              |
            5 |     url: http://user:pw@example.com/?a=b#c
              |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:5:10: error[invalid] (refused on create): jwt[0].issuer.url: Invalid value: "http://user:pw@example.com/?a=b#c": URL must not contain a fragment
              |
            5 |     url: http://user:pw@example.com/?a=b#c
              |          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:5:10: error[invalid] (refused on create): jwt[0].issuer.url: Invalid value: "http://user:pw@example.com/?a=b#c": URL must not contain a query
              |
            5 |     url: http://user:pw@example.com/?a=b#c
              |          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:5:10: error[invalid] (refused on create): jwt[0].issuer.url: Invalid value: "http://user:pw@example.com/?a=b#c": URL must not contain a username or password
              |
            5 |     url: http://user:pw@example.com/?a=b#c
              |          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:5:10: error[invalid] (refused on create): jwt[0].issuer.url: Invalid value: "http://user:pw@example.com/?a=b#c": URL scheme must be https
              |
            5 |     url: http://user:pw@example.com/?a=b#c
              |          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:6:19: error[invalid] (refused on create): jwt[0].issuer.discoveryURL: Invalid value: "http://user:pw@example.com/": URL must not contain a username or password
              |
            6 |     discoveryURL: http://user:pw@example.com/
              |                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:6:19: error[invalid] (refused on create): jwt[0].issuer.discoveryURL: Invalid value: "http://user:pw@example.com/": URL scheme must be https
              |
            6 |     discoveryURL: http://user:pw@example.com/
              |                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:7:20: error[duplicate] (refused on create): jwt[0].issuer.audiences[1]: Duplicate value: "a"
              |
            7 |     audiences: [a, a, ""]
              |                    ^
            policy.yaml:7:23: error[required] (refused on create): jwt[0].issuer.audiences[2]: Required value
              |
            7 |     audiences: [a, a, ""]
              |                       ^^
            policy.yaml:13:26: error[invalid] (refused on create): jwt[1].issuer.audienceMatchPolicy: Invalid value: "MatchAll": audienceMatchPolicy must be empty or MatchAny for single audience
               |
            13 |     audienceMatchPolicy: MatchAll
               |                          ^^^^^^^^
        "#]],
    );
}

#[test]
fn authorization_structure() {
    check_diagnostics(
        r#"
apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
- type: Webhok
  name: a
- type: Webhook
  name: a
- type: Webhook
  name: hook
  webhook:
    subjectAccessReviewVersion: v2
    failurePolicy: Allow
    connectionInfo: {type: Somewhere}
    matchConditions:
    - expression: request.user == 'x'
    - expression: request.user == 'x'
- type: RBAC
  name: rbac
  webhook: {timeout: 3s}
---
apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers: []
"#,
        expect![[r#"
            policy.yaml:4:9: error[not-supported] (refused on create): authorizers[0].type: Unsupported value: "Webhok": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"
              |
            4 | - type: Webhok
              |         ^^^^^^
            policy.yaml:6:3: error[required] (refused on create): authorizers[1].webhook: Required value: required when type=Webhook
              |
            6 | - type: Webhook
              |   ^^^^^^^^^^^^^
            policy.yaml:7:9: error[duplicate] (refused on create): authorizers[1].name: Duplicate value: "a"
              |
            7 |   name: a
              |         ^
            policy.yaml:11:5: error[required] (refused on create): authorizers[2].webhook.matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified
               |
            11 |     subjectAccessReviewVersion: v2
               |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:11:5: error[required] (refused on create): authorizers[2].webhook.timeout: Required value
               |
            11 |     subjectAccessReviewVersion: v2
               |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            policy.yaml:11:33: error[not-supported] (refused on create): authorizers[2].webhook.subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1"
               |
            11 |     subjectAccessReviewVersion: v2
               |                                 ^^
            policy.yaml:12:20: error[not-supported] (refused on create): authorizers[2].webhook.failurePolicy: Unsupported value: "Allow": supported values: "NoOpinion", "Deny"
               |
            12 |     failurePolicy: Allow
               |                    ^^^^^
            policy.yaml:13:21: error[not-supported] (refused on create): authorizers[2].webhook.connectionInfo.type: Unsupported value: "Somewhere": supported values: "InClusterConfig", "KubeConfigFile"
               |
            13 |     connectionInfo: {type: Somewhere}
               |                     ^^^^^^^^^^^^^^^^^
            policy.yaml:16:19: error[duplicate] (refused on create): authorizers[2].webhook.matchConditions[1].expression: Duplicate value: "request.user == 'x'"
               |
            16 |     - expression: request.user == 'x'
               |                   ^^^^^^^^^^^^^^^^^^^
            policy.yaml:19:12: error[invalid] (refused on create): authorizers[3].webhook: Invalid value: "non-null": may only be specified when type=Webhook
               |
            19 |   webhook: {timeout: 3s}
               |            ^^^^^^^^^^^^^
            policy.yaml:23:14: error[required] (refused on create): authorizers: Required value: at least one authorization mode must be defined
               |
            23 | authorizers: []
               |              ^^
        "#]],
    );
}

/// A version the target release does not read is refused on `apiVersion` (the authentication
/// configuration's v1 is read from 1.34, the authorization configuration's from 1.32).
#[test]
fn versions_by_release() {
    let fixture = r#"
apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt: []
---
apiVersion: apiserver.config.k8s.io/v2
kind: AuthorizationConfiguration
authorizers:
- type: RBAC
  name: rbac
"#;
    check_diagnostics_at(
        33,
        fixture,
        expect![[r#"
        policy.yaml:1:13: error[not-supported] (refused on create): apiVersion: Unsupported value: "apiserver.config.k8s.io/v1": the API server of Kubernetes 1.33 does not read AuthenticationConfiguration v1; it is first read by 1.34 (it reads: apiserver.config.k8s.io/v1alpha1, apiserver.config.k8s.io/v1beta1)
          |
        1 | apiVersion: apiserver.config.k8s.io/v1
          |             ^^^^^^^^^^^^^^^^^^^^^^^^^^
        policy.yaml:5:13: error[not-supported] (refused on create): apiVersion: Unsupported value: "apiserver.config.k8s.io/v2": the API server of Kubernetes 1.33 does not read AuthorizationConfiguration v2 (it reads: apiserver.config.k8s.io/v1alpha1, apiserver.config.k8s.io/v1beta1, apiserver.config.k8s.io/v1)
          |
        5 | apiVersion: apiserver.config.k8s.io/v2
          |             ^^^^^^^^^^^^^^^^^^^^^^^^^^
    "#]],
    );
}
