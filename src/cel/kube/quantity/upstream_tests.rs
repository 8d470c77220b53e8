//! Parse vectors from apimachinery's `TestQuantityParse` / `TestQuantityParseEmit` /
//! `TestStringQuantityAsApproximateFloat64` (inputs and expected values only), checked with the
//! sign variants upstream also checks.

use super::{Format, parse};

/// (input, expected value as `<int>e<exp>`, expected format).
const PARSE: &[(&str, &str, Format)] = &[
    ("0", "0e0", Format::DecimalSI),
    ("0n", "0e0", Format::DecimalSI),
    ("0u", "0e0", Format::DecimalSI),
    ("0m", "0e0", Format::DecimalSI),
    ("0Ki", "0e0", Format::BinarySI),
    ("0k", "0e0", Format::DecimalSI),
    ("0Mi", "0e0", Format::BinarySI),
    ("0M", "0e0", Format::DecimalSI),
    ("0Gi", "0e0", Format::BinarySI),
    ("0G", "0e0", Format::DecimalSI),
    ("0Ti", "0e0", Format::BinarySI),
    ("0T", "0e0", Format::DecimalSI),
    ("1", "1e0", Format::DecimalSI),
    ("1Ki", "1024e0", Format::BinarySI),
    ("8Ki", "8192e0", Format::BinarySI),
    ("7Mi", "7340032e0", Format::BinarySI),
    ("6Gi", "6442450944e0", Format::BinarySI),
    ("5Ti", "5497558138880e0", Format::BinarySI),
    ("4Pi", "4503599627370496e0", Format::BinarySI),
    ("3Ei", "3458764513820540928e0", Format::BinarySI),
    ("10Ti", "10995116277760e0", Format::BinarySI),
    ("100Ti", "109951162777600e0", Format::BinarySI),
    ("5n", "5e-9", Format::DecimalSI),
    ("4u", "4e-6", Format::DecimalSI),
    ("3m", "3e-3", Format::DecimalSI),
    ("9", "9e0", Format::DecimalSI),
    ("8k", "8e3", Format::DecimalSI),
    ("50k", "5e4", Format::DecimalSI),
    ("7M", "7e6", Format::DecimalSI),
    ("6G", "6e9", Format::DecimalSI),
    ("5T", "5e12", Format::DecimalSI),
    ("40T", "4e13", Format::DecimalSI),
    ("300T", "3e14", Format::DecimalSI),
    ("2P", "2e15", Format::DecimalSI),
    ("1E", "1e18", Format::DecimalSI),
    ("1E-3", "1e-3", Format::DecimalExponent),
    ("1e3", "1e3", Format::DecimalExponent),
    ("1E6", "1e6", Format::DecimalExponent),
    ("1e9", "1e9", Format::DecimalExponent),
    ("1E12", "1e12", Format::DecimalExponent),
    ("1e15", "1e15", Format::DecimalExponent),
    ("1E18", "1e18", Format::DecimalExponent),
    ("1e14", "1e14", Format::DecimalExponent),
    ("1e13", "1e13", Format::DecimalExponent),
    ("1e3", "1e3", Format::DecimalExponent),
    ("100.035k", "100035e0", Format::DecimalSI),
    ("0.001", "1e-3", Format::DecimalSI),
    ("0.0005k", "5e-1", Format::DecimalSI),
    ("0.005", "5e-3", Format::DecimalSI),
    ("0.05", "5e-2", Format::DecimalSI),
    ("0.5", "5e-1", Format::DecimalSI),
    ("0.00050k", "5e-1", Format::DecimalSI),
    ("0.00500", "5e-3", Format::DecimalSI),
    ("0.05000", "5e-2", Format::DecimalSI),
    ("0.50000", "5e-1", Format::DecimalSI),
    ("0.5e0", "5e-1", Format::DecimalExponent),
    ("0.5e-1", "5e-2", Format::DecimalExponent),
    ("0.5e-2", "5e-3", Format::DecimalExponent),
    ("0.5e0", "5e-1", Format::DecimalExponent),
    ("10.035M", "10035e3", Format::DecimalSI),
    ("1.2e3", "12e2", Format::DecimalExponent),
    ("1.3E+6", "13e5", Format::DecimalExponent),
    ("1.40e9", "14e8", Format::DecimalExponent),
    ("1.53E12", "153e10", Format::DecimalExponent),
    ("1.6e15", "16e14", Format::DecimalExponent),
    ("1.7E18", "17e17", Format::DecimalExponent),
    ("9.01", "901e-2", Format::DecimalSI),
    ("8.1k", "81e2", Format::DecimalSI),
    ("7.123456M", "7123456e0", Format::DecimalSI),
    ("6.987654321G", "6987654321e0", Format::DecimalSI),
    ("5.444T", "5444e9", Format::DecimalSI),
    ("40.1T", "401e11", Format::DecimalSI),
    ("300.2T", "3002e11", Format::DecimalSI),
    ("2.5P", "25e14", Format::DecimalSI),
    ("1.01E", "101e16", Format::DecimalSI),
    ("3.001n", "4e-9", Format::DecimalSI),
    ("1.1E-9", "2e-9", Format::DecimalExponent),
    ("0.0000000001", "1e-9", Format::DecimalSI),
    ("0.0000000005", "1e-9", Format::DecimalSI),
    ("0.00000000050", "1e-9", Format::DecimalSI),
    ("0.5e-9", "1e-9", Format::DecimalExponent),
    ("0.9n", "1e-9", Format::DecimalSI),
    ("0.00000012345", "124e-9", Format::DecimalSI),
    ("0.00000012354", "124e-9", Format::DecimalSI),
    ("12E", "12e18", Format::DecimalSI),
    ("100.035Ki", "10243584e-2", Format::BinarySI),
    ("0.5Mi", "524288e0", Format::BinarySI),
    ("0.05Gi", "536870912e-1", Format::BinarySI),
    ("0.025Ti", "274877906944e-1", Format::BinarySI),
    ("0.000000000001Ki", "2e-9", Format::DecimalSI),
    (".001", "1e-3", Format::DecimalSI),
    (".0001k", "100e-3", Format::DecimalSI),
    ("1.", "1e0", Format::DecimalSI),
    ("1.G", "1e9", Format::DecimalSI),
];

#[test]
fn upstream_parse_vectors() {
    let mut bad = Vec::new();
    for &(input, value, format) in PARSE {
        for (sign, negated) in [("", false), ("+", false), ("-", true)] {
            let text = format!("{sign}{input}");
            let Ok(got) = parse(&text) else {
                bad.push(format!("{text}: error"));
                continue;
            };
            let Ok(mut want) = parse(value) else {
                bad.push(format!("{value}: bad expectation"));
                continue;
            };
            if negated {
                want = parse("0").and_then(|z| z.sub(&want)).unwrap_or(want);
            }
            if got != want || got.format() != format {
                bad.push(format!(
                    "{text}: got {got} {:?}, want {value} {format:?}",
                    got.format()
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn upstream_emit_and_float_vectors() {
    let emit = [
        ("1Ki", "1Ki"),
        ("1Mi", "1Mi"),
        ("1Gi", "1Gi"),
        ("1024Mi", "1Gi"),
        ("1000M", "1G"),
        (".001Ki", "1024m"),
        (".000001Ki", "1024u"),
        (".000000001Ki", "1024n"),
        (".000000000001Ki", "2n"),
    ];
    for (input, want) in emit {
        assert_eq!(
            parse(input).map(|q| q.to_string()),
            Ok(want.to_owned()),
            "{input}"
        );
        let neg = format!("-{input}");
        assert_eq!(
            parse(&neg).map(|q| q.to_string()),
            Ok(format!("-{want}")),
            "{neg}"
        );
    }
    for (input, want) in [
        ("2Ki", 2048.0),
        ("1.1Ki", 1126.4),
        ("1Mi", 1048576.0),
        ("2Gi", 2147483648.0),
    ] {
        assert_eq!(
            parse(input).map(|q| q.as_approximate_float()),
            Ok(want),
            "{input}"
        );
    }
    let invalid = [
        "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 ",
    ];
    for input in invalid {
        assert!(parse(input).is_err(), "{input}");
    }
    let max = parse("9223372036854775807").map(|q| q.to_string());
    assert_eq!(parse("9Ei").map(|q| q.to_string()), max);
    assert_eq!(parse("9223372036854775807Ki").map(|q| q.to_string()), max);
}
