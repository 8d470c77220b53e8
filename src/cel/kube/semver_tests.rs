//! Self-checking table for `semver`: blang's error texts, normalisation and precedence.

use super::semver::{is_semver, parse, parse_with};

#[test]
fn parse_errors_and_forms() {
    let table = [
        ("1.2.3-beta.1+build.1", false, "1.2.3-beta.1+build.1"),
        ("v1.0", false, "No Major.Minor.Patch elements found"),
        ("", false, "Version string empty"),
        (
            "01.1.1",
            false,
            r#"Major number must not contain leading zeroes "01""#,
        ),
        (
            "1. 0.0",
            false,
            r#"Invalid character(s) found in minor number " 0""#,
        ),
        (
            "1.0.0 ",
            false,
            r#"Invalid character(s) found in patch number "0 ""#,
        ),
        (
            "1.0.0-01",
            false,
            r#"Numeric PreRelease version must not contain leading zeroes "01""#,
        ),
        ("1.0.0-a..b", false, "Prerelease is empty"),
        (
            "1.0.0+a_b",
            false,
            r#"Invalid character(s) found in build meta data "a_b""#,
        ),
        ("1.0.0+", false, "Build meta data is empty"),
        (
            "1.99999999999999999999.0",
            false,
            r#"strconv.ParseUint: parsing "99999999999999999999": value out of range"#,
        ),
        ("v01.01", true, "1.1.0"),
        ("01.01.01", true, "1.1.1"),
        ("1", true, "1.0.0"),
        ("v1.0.0", true, "1.0.0"),
        (
            "1-rc",
            true,
            "short version cannot contain PreRelease/Build meta data",
        ),
        (
            "v",
            true,
            r#"strconv.ParseUint: parsing "": invalid syntax"#,
        ),
        ("1.00.0-rc.1", true, "1.0.0-rc.1"),
    ];
    for (input, normalize, want) in table {
        let got = parse_with(input, normalize)
            .map(|v| v.to_string())
            .unwrap_or_else(|e| e);
        assert_eq!(got, want, "{input} normalize={normalize}");
    }
}

#[test]
fn validity_and_order() {
    let v = |s: &str| parse(s).unwrap_or_else(|e| panic!("{e}"));
    for s in [
        "", "v1.0.0", " 1.0.0", "1. 0.0", "1.0.0 ", "01.01.01", "1", "1.1",
    ] {
        assert!(!is_semver(s, false), "{s}");
    }
    for s in ["v1.0.0", "01.01.01", "1", "1.1"] {
        assert!(is_semver(s, true), "{s}");
    }
    assert!(!is_semver(" 1.0.0", true) && !is_semver("", true));
    assert!(v("1.0.0").is_less_than(&v("1.2.3")) && !v("1.0.0").is_less_than(&v("1.0.0")));
    assert!(v("1.2.3").is_greater_than(&v("1.0.0")));
    assert_eq!(v("1.2.3").compare_to(&v("1.2.3")), 0);
    assert!(v("1.0.0-alpha") < v("1.0.0-alpha.1") && v("1.0.0-alpha.1") < v("1.0.0-alpha.beta"));
    assert!(v("1.0.0-beta.11") > v("1.0.0-beta.2") && v("1.0.0-rc.1") < v("1.0.0"));
    assert!(v("1.0.0+a") == v("1.0.0+b"));
    let x = v("1.2.3");
    assert_eq!((x.major_int(), x.minor_int(), x.patch_int()), (1, 2, 3));
}
