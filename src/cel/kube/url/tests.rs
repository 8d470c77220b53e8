//! Self-checking tables for the URL library (the CRD "URL parsing" rules plus Go error texts).

use super::{is_url, parse_url};

fn url(s: &str) -> super::Url {
    parse_url(s).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn accessors() {
    let table: [(&str, [&str; 5]); 9] = [
        ("/path", ["", "", "", "", "/path"]),
        (
            "https://example.com/",
            ["https", "example.com", "example.com", "", "/"],
        ),
        (
            "https://example.com:80/",
            ["https", "example.com:80", "example.com", "80", "/"],
        ),
        ("https://[::1]:80/", ["https", "[::1]:80", "::1", "80", "/"]),
        ("https://[::1]/", ["https", "[::1]", "::1", "", "/"]),
        (
            "https://127.0.0.1/",
            ["https", "127.0.0.1", "127.0.0.1", "", "/"],
        ),
        (
            "https://example.com/with space/",
            ["https", "example.com", "example.com", "", "/with%20space/"],
        ),
        (
            "https://example.com",
            ["https", "example.com", "example.com", "", ""],
        ),
        (
            "HTTP://Example.COM:0443/a%2Fb#frag",
            ["http", "Example.COM:0443", "Example.COM", "0443", "/a%2Fb"],
        ),
    ];
    for (input, want) in table {
        let u = url(input);
        let got = [
            u.scheme().to_owned(),
            u.host(),
            u.hostname(),
            u.port(),
            u.escaped_path(),
        ];
        assert_eq!(got, want.map(str::to_owned), "{input}");
    }
    assert_eq!(url("https:://kubernetes.io/").hostname(), "");
}

#[test]
fn queries() {
    let q = url("https://example.com/path?k1=a&k2=b&k2=c").query();
    assert_eq!(format!("{q:?}"), r#"{"k1": ["a"], "k2": ["b", "c"]}"#);
    let q = url("https://example.com/path?key with spaces=value+with%20spaces").query();
    assert_eq!(
        format!("{q:?}"),
        r#"{"key with spaces": ["value with spaces"]}"#
    );
    assert!(url("https://example.com/path?").query().is_empty());
    let q = url("https://x/?a=1;b=2&c&d=%zz&=e").query();
    assert_eq!(format!("{q:?}"), r#"{"": ["e"], "c": [""]}"#);
}

#[test]
fn validity_and_errors() {
    assert!(is_url(
        "https://user:pass@example.com:80/path?query=val#fragment"
    ));
    assert!(is_url("/path") && !is_url("https://a:b:c/") && !is_url("../relative-path"));
    assert!(is_url("mongodb://a:1,b:2/") && !is_url("http://a:1,b:2/"));
    let wrap = "URL parse error during conversion from string: ";
    let table = [
        ("", r#"parse "": empty url"#),
        ("../x", r#"parse "../x": invalid URI for request"#),
        ("://x", r#"parse "://x": missing protocol scheme"#),
        (
            "https://example.com/%zz",
            r#"parse "https://example.com/%zz": invalid URL escape "%zz""#,
        ),
        (
            "https://a{b}/",
            r#"parse "https://a{b}/": invalid character "{" in host name"#,
        ),
        (
            "https://[1.2.3.4]/",
            r#"parse "https://[1.2.3.4]/": invalid IP-literal"#,
        ),
        (
            "https://x[::1]/",
            r#"parse "https://x[::1]/": invalid IP-literal"#,
        ),
        (
            "https://[::1/",
            r#"parse "https://[::1/": missing ']' in host"#,
        ),
        (
            "http://a:b/",
            r#"parse "http://a:b/": invalid port ":b" after host"#,
        ),
        (
            "https://[v1.x]/",
            r#"parse "https://[v1.x]/": invalid host: ParseAddr("v1.x"): unexpected character (at "v1.x")"#,
        ),
        (
            "http://\u{1}/",
            r#"parse "http://\x01/": net/url: invalid control character in URL"#,
        ),
        (
            "http://a b@c/",
            r#"parse "http://a b@c/": net/url: invalid userinfo"#,
        ),
    ];
    for (input, want) in table {
        assert_eq!(
            parse_url(input).err(),
            Some(format!("{wrap}{want}")),
            "{input}"
        );
    }
}

#[test]
fn string_form_and_equality() {
    let table = [
        (
            "https://example.com/with space/?q#f g",
            "https://example.com/with%20space/?q#f%20g",
        ),
        ("https://u%40:p@h/", "https://u%40:p@h/"),
        ("file:///etc", "file:///etc"),
        ("mailto:x@y", "mailto:x@y"),
        ("/a:b", "/a:b"),
        ("*", "*"),
    ];
    for (input, want) in table {
        assert_eq!(url(input).to_string(), want, "{input}");
    }
    assert!(url("https://a/b") == url("https://a/b") && url("https://a/b") != url("https://A/b"));
}
