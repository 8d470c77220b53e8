//! Self-checking tables for the named formats.

use super::{ALL, NamedFormat, named};

fn check(f: &str, s: &str) -> Option<Vec<String>> {
    named(f).and_then(|f| f.validate(s))
}

#[test]
fn valid_strings() {
    let table = [
        ("dns1123Label", "my-label-name"),
        ("dns1123Subdomain", "apiextensions.k8s.io"),
        ("qualifiedName", "apiextensions.k8s.io/v1beta1"),
        ("qualifiedName", "my.name"),
        ("dns1123LabelPrefix", "my-label-prefix-"),
        ("dns1123SubdomainPrefix", "mysubdomain.prefix.-"),
        ("dns1035LabelPrefix", "my-label-prefix-"),
        ("dns1035Label", "my-label-name"),
        ("labelValue", "my-cool-label-Value"),
        ("labelValue", ""),
        ("uri", "http://example.com"),
        ("uuid", "123e4567-e89b-12d3-a456-426614174000"),
        ("uuid", "123E4567E89B12D3A456426614174000"),
        ("byte", "aGVsbG8="),
        ("date", "2020-02-29"),
        ("datetime", "2021-01-01T00:00:00Z"),
        ("datetime", "2021-01-01t23:59:59.123+05:30"),
    ];
    for (f, s) in table {
        assert_eq!(check(f, s), None, "{f} {s:?}");
    }
}

#[test]
fn messages() {
    let label = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
    let sub = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    let name = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    let value = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    let v = |x: &[&str]| Some(x.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(check("dns1123Label", "contains a space"), v(&[label]));
    assert_eq!(check("dns1123Label", "a.b"), v(&["must not contain dots"]));
    assert_eq!(
        check("dns1123LabelPrefix", "contains a space-"),
        v(&[label])
    );
    assert_eq!(check("dns1123Subdomain", "contains a space"), v(&[sub]));
    assert_eq!(check("qualifiedName", "contains a space"), v(&[name]));
    assert_eq!(
        check("qualifiedName", "/x"),
        v(&["prefix part must be non-empty"])
    );
    assert_eq!(
        check("qualifiedName", "a/"),
        v(&["name part must be non-empty", name])
    );
    assert_eq!(
        check("labelValue", "my-cool-label-Value!!\n\n!!!"),
        v(&[value])
    );
    let long = "a".repeat(64);
    assert_eq!(
        check("labelValue", &long),
        v(&["must be no more than 63 bytes"])
    );
    assert_eq!(
        check("dns1123Label", &long),
        v(&["must be no more than 63 characters"])
    );
    assert_eq!(check("byte", "aGVsbG8"), v(&["invalid base64"]));
    assert_eq!(check("date", "2020-01-32"), v(&["invalid date"]));
    assert_eq!(check("date", "2021-02-29"), v(&["invalid date"]));
    assert_eq!(
        check("datetime", "2020-01-32T00:00:00Z"),
        v(&["invalid datetime"])
    );
    assert_eq!(
        check("datetime", "2020-01-01T24:00:00Z"),
        v(&["invalid datetime"])
    );
    assert_eq!(
        check("uuid", "123e4567-e89b-12d3-a456-42661417400"),
        v(&["does not match the UUID format"])
    );
    assert_eq!(
        check("uri", "example.com"),
        v(&[r#"parse "example.com": invalid URI for request"#])
    );
    assert_eq!(check("dns1123LabelPrefix", "é-"), v(&[label]));
}

#[test]
fn names_round_trip() {
    assert_eq!(named("unknown"), None);
    for (n, f) in ALL {
        assert_eq!(named(n), Some(f));
        assert_eq!(f.cel_name(), n);
    }
    assert_ne!(NamedFormat::Uri, NamedFormat::Uuid);
    assert_eq!(NamedFormat::Date.max_regex_size(), 71);
}
