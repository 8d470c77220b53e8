//! `admission-ls eval` of an AuthenticationConfiguration against a token's claims, end to end:
//! the username, uid, groups and extra the API server derives, the failing claim validation rule
//! in the API server's words, JSON output and the exit statuses.

use std::process::Command;

use expect_test::{Expect, expect};

fn check(args: &[&str], status: i32, expected: Expect) {
    let output = Command::new(env!("CARGO_BIN_EXE_admission-ls"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let out = format!("{}{}", text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(status), "{out}");
    expected.assert_eq(&out);
}

const CONFIG: &str = "tests/cli_fixtures/authn/authentication-config.yaml";

#[test]
fn claims_give_the_user() {
    check(
        &[
            "eval",
            CONFIG,
            "--object",
            "tests/cli_fixtures/authn/claims.json",
        ],
        0,
        expect![[r#"
            AuthenticationConfiguration (issuer https://issuer.example.com): authenticated
              username: oidc:jane
              uid: 119abc
              groups: [admin, dev]
              extra example.com/tenant: [blue]
        "#]],
    );
}

#[test]
fn failing_rule_gives_its_message_and_exit_code() {
    check(
        &[
            "eval",
            CONFIG,
            "--object",
            "tests/cli_fixtures/authn/claims-other-domain.json",
            "--exit-code",
        ],
        1,
        expect![[r#"
            AuthenticationConfiguration: refused: oidc: error evaluating claim validation expression: validation expression 'claims.hd == "example.com"' failed: the hd claim must be set to example.com
        "#]],
    );
}

#[test]
fn json_output() {
    check(
        &[
            "eval",
            CONFIG,
            "--object",
            "tests/cli_fixtures/authn/claims.json",
            "--format",
            "json",
        ],
        0,
        expect![[r#"
            {
              "authenticated": true,
              "extra": {
                "example.com/tenant": [
                  "blue"
                ]
              },
              "groups": [
                "admin",
                "dev"
              ],
              "issuer": "https://issuer.example.com",
              "uid": "119abc",
              "username": "oidc:jane"
            }
        "#]],
    );
}

#[test]
fn claims_are_needed() {
    check(
        &["eval", CONFIG],
        2,
        expect![[r#"
        admission-ls eval: error: --object: an authentication configuration is evaluated against a file of token claims
    "#]],
    );
}

#[test]
fn every_claim_validation_rule_runs_before_a_result_is_checked() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/authn/rules-evaluated-first.yaml",
            "--object",
            "tests/cli_fixtures/authn/claims.json",
        ],
        0,
        expect![[r#"
            AuthenticationConfiguration: refused: oidc: error evaluating claim validation expression: expression 'claims.email.endsWith("@example.com")' resulted in error: no such key: email
        "#]],
    );
}

#[test]
fn claim_mappings_run_before_the_validation_rules() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/authn/mappings-first.yaml",
            "--object",
            "tests/cli_fixtures/authn/claims.json",
        ],
        0,
        expect![[r#"
            AuthenticationConfiguration: refused: oidc: error evaluating username claim expression: expression '"oidc:" + claims.login' resulted in error: no such key: login
        "#]],
    );
}

#[test]
fn every_extra_mapping_runs_before_a_result_is_converted() {
    check(
        &[
            "eval",
            "tests/cli_fixtures/authn/extra-evaluated-first.yaml",
            "--object",
            "tests/cli_fixtures/authn/claims.json",
        ],
        0,
        expect![[r#"
            AuthenticationConfiguration: refused: expression 'claims.email' resulted in error: no such key: email
        "#]],
    );
}

#[test]
fn a_jti_claim_gives_the_credential_id_from_1_32() {
    let claims = "tests/cli_fixtures/authn/claims-jti.json";
    check(
        &["eval", CONFIG, "--object", claims],
        0,
        expect![[r#"
            AuthenticationConfiguration (issuer https://issuer.example.com): authenticated
              username: oidc:jane
              uid: 119abc
              groups: [admin, dev]
              extra authentication.kubernetes.io/credential-id: [JTI=7c1d5e2a]
              extra example.com/tenant: [blue]
        "#]],
    );
    check(
        &["eval", CONFIG, "--object", claims, "--kube-version", "1.31"],
        0,
        expect![[r#"
            AuthenticationConfiguration (issuer https://issuer.example.com): authenticated
              username: oidc:jane
              uid: 119abc
              groups: [admin, dev]
              extra example.com/tenant: [blue]
        "#]],
    );
}
