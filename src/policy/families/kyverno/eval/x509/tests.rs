//! `x509.decode` against Go: each certificate and request in `testdata/` beside the JSON that
//! Go's `crypto/x509` and `encoding/json` give for it in the shape of Kyverno's output
//! (`*.go.json`, written by go1.19 from the fields kyverno/sdk `libs/x509/impl.go` lists).

use super::*;

fn go(json: &str) -> Json {
    as_go_numbers(serde_json::from_str(json).unwrap_or(Json::Null))
}

#[test]
fn certificates_and_requests_decode_as_go_reads_them() {
    let cases = [
        (
            include_str!("testdata/full.pem"),
            include_str!("testdata/full.go.json"),
        ),
        (
            include_str!("testdata/plain.pem"),
            include_str!("testdata/plain.go.json"),
        ),
        (
            include_str!("testdata/req.pem"),
            include_str!("testdata/req.go.json"),
        ),
    ];
    for (pem, expected) in cases {
        let decoded = decode(pem);
        let expected = go(expected);
        let Ok(Json::Object(decoded)) = decoded else {
            panic!("{decoded:?}");
        };
        let Json::Object(expected) = expected else {
            panic!("bad test data");
        };
        for (field, value) in &expected {
            assert_eq!(decoded.get(field), Some(value), "{field}");
        }
        assert_eq!(decoded.len(), expected.len(), "no other field");
    }
}

#[test]
fn what_kyverno_refuses_is_an_error() {
    let cases = [
        ("not a valid PEM", "failed to decode PEM block"),
        (
            "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n",
            "PEM block neither contains a CERTIFICATE or CERTIFICATE REQUEST",
        ),
        (
            include_str!("testdata/ec.pem"),
            "certificate should use rsa algorithm",
        ),
        (
            include_str!("testdata/negative-serial.pem"),
            "x509: negative serial number",
        ),
        (
            "-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n",
            "x509: malformed",
        ),
    ];
    for (pem, message) in cases {
        let result = decode(pem);
        assert!(
            result.as_ref().is_err_and(|e| e.contains(message)),
            "{message}: {result:?}"
        );
    }
}

#[test]
fn values_are_cel_maps_with_double_numbers() {
    let value = call(
        "x509.decode",
        &[Value::string(include_str!("testdata/plain.pem"))],
    );
    let Some(Value::Map(map)) = value else {
        panic!("{value:?}");
    };
    assert!(matches!(map.get_str("SerialNumber"), Some(Value::Double(n)) if *n == 7.0));
    let e = match map.get_str("PublicKey") {
        Some(Value::Map(key)) => key.get_str("E").cloned(),
        _ => None,
    };
    assert!(matches!(e, Some(Value::Double(n)) if n == 65537.0));
}
