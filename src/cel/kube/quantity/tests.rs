//! Self-checking tables for quantities: parse → string form, errors, integer and float views,
//! arithmetic and comparison, including upstream's quirks.

use super::{Quantity, parse};

fn q(s: &str) -> Quantity {
    parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn parse_and_string_form() {
    let table = [
        ("0", "0"),
        ("12Mi", "12Mi"),
        ("1Ki", "1Ki"),
        ("1024", "1024"),
        ("1.5Gi", "1536Mi"),
        ("-1.5Ki", "-1536"),
        ("0.5Ki", "512"),
        ("1000m", "1"),
        ("100m", "100m"),
        ("0.1m", "100u"),
        ("0.0001n", "1n"),
        ("1e3", "1e3"),
        ("1E3", "1E3"),
        ("1.5e3", "1500"),
        ("1.50e4", "15e3"),
        ("50.02k", "50020"),
        ("+1k", "+1k"),
        ("01k", "01k"),
        (".", "0"),
        ("+", "0"),
        ("1000E", "1"),
        ("8Ei", "9223372036854775807"),
        ("7Ei", "7Ei"),
        ("9Ei", "9223372036854775807"),
        (
            "9999999999999999999999999999999999999G",
            "9999999999999999999999999999999999999G",
        ),
        ("1e2000000000", "100e1999999998"),
        ("1e4294967296", "1e4294967296"),
    ];
    let mut bad = Vec::new();
    for (input, want) in table {
        let got = parse(input)
            .map(|q| q.to_string())
            .unwrap_or_else(|e| e.to_string());
        if got != want {
            bad.push(format!("{input}: got {got}, want {want}"));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn parse_errors() {
    let format = "quantities must match the regular expression \
                  '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    let table = [
        ("", format),
        ("10Mo", format),
        ("1.2.3", format),
        ("10Mm", "unable to parse quantity's suffix"),
        ("1e", "unable to parse quantity's suffix"),
        ("1Kii", "unable to parse quantity's suffix"),
        (".Ei", "unable to parse numeric part of quantity"),
    ];
    for (input, want) in table {
        let got = parse(input)
            .map(|q| q.to_string())
            .unwrap_or_else(|e| e.to_string());
        assert_eq!(got, want, "{input}");
    }
}

#[test]
fn integers_and_floats() {
    assert_eq!(q("50k").as_integer(), Ok(50000));
    assert_eq!(
        q("1.5Gi").as_integer(),
        Err("cannot convert value to integer")
    );
    assert_eq!(
        q("1.0").as_integer(),
        Err("cannot convert value to integer")
    );
    assert!(!q("9999999999999999999999999999999999999G").is_integer());
    // 19 digits take the decimal path upstream, so even i64::MAX is not an integer there.
    assert!(q("9223372036854775807").as_integer().is_err());
    assert_eq!(q("922337203685477580").as_integer(), Ok(922337203685477580));
    assert_eq!(q("9E").as_integer(), Ok(9_000_000_000_000_000_000));
    assert!(q("10E").as_integer().is_err());
    assert!(q("50").is_integer());
    assert_eq!(q("50.703k").as_approximate_float(), 50703.0);
    assert_eq!(q("1.5Gi").as_approximate_float(), 1610612736.0);
    assert_eq!(q("1e400").as_approximate_float(), f64::INFINITY);
    assert_eq!(q("-2m").sign(), -1);
    assert_eq!(q("0Ki").sign(), 0);
}

#[test]
fn arithmetic_and_order() {
    assert!(q("50k").add(&q("20")).ok() == Some(q("50.02k")));
    assert_eq!(
        q("50k").sub_int(20).map(|x| x.to_string()),
        Ok("49980".to_owned())
    );
    let r = q("50k").add_int(20).and_then(|x| x.sub(&q("100k")));
    assert_eq!(r.map(|x| x.as_integer()), Ok(Ok(-49980)));
    assert_eq!(q("0").add_int(5).map(|x| x.to_string()), Ok("5".to_owned()));
    assert_eq!(
        q("1Ki").add(&q("1Ki")).map(|x| x.to_string()),
        Ok("2Ki".to_owned())
    );
    assert_eq!(
        q("1Ki").add(&q("0.5")).map(|x| x.to_string()),
        Ok("1024500m".to_owned())
    );
    let big = q("9999999999999999999999999999999999999");
    let (a, b) = (big.add(&q("1")), big.add(&q("2")));
    assert_eq!(a.and_then(|a| b.map(|b| a.compare_to(&b))), Ok(-1));
    assert!(q("200M") == q("0.2G") && q("2000k") == q("2M"));
    assert!(q("200M") != q("0.3G"));
    assert!(q("50M").is_less_than(&q("50Mi")) && q("50Mi").is_greater_than(&q("50M")));
    assert_eq!(q("50M").compare_to(&q("50Mi")), -1);
    assert!(q("1e2000000000").is_greater_than(&q("9Ei")));
    assert!(q("1e2000000000").add(&q("1")).is_err());
    assert!(q("-1e-2000000000").is_less_than(&q("0")));
}
