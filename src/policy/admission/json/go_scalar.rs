//! Scalars as kubectl turns them into JSON: resolved by go-yaml v2 (go.yaml.in/yaml/v2
//! `resolve.go`, YAML 1.1: `yes`/`on`/`y` are booleans, `0755` is octal, `1_000` an integer,
//! a timestamp stays the text written, a `!!binary` scalar is the text of its bytes) and encoded by sigs.k8s.io/yaml `yaml.go` (a key that is
//! not a string becomes one: `true`, `493`, `1.5`) and `encoding/json`.

use serde_json::{Number, Value as Json};

use crate::yaml;

/// What go-yaml resolves a scalar to.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Resolved {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str,
    /// A `!!binary` scalar: the text its bytes make in JSON.
    Binary(String),
}

/// The resolution of `text` written plain, or with `tag` (`!!int "3"` is 3); a quoted or block
/// scalar without a tag is a string (`decode.go` `scalar`: not implicit).
pub(super) fn resolve(text: &str, tag: Option<&str>, plain: bool) -> Resolved {
    let tag = tag.map(|t| {
        t.trim_start_matches("tag:yaml.org,2002:")
            .trim_start_matches('!')
    });
    match tag {
        None if plain => resolve_plain(text),
        None => Resolved::Str,
        // go-yaml refuses one that is not base64; the text is what is left to show.
        Some("binary") => yaml::binary::decoded(text).map_or(Resolved::Str, Resolved::Binary),
        Some("int" | "float" | "bool" | "null") => {
            let resolved = resolve_plain(text);
            let wanted = match (tag, &resolved) {
                (Some("float"), Resolved::Int(i)) => return Resolved::Float(*i as f64),
                (Some("float"), Resolved::Uint(u)) => return Resolved::Float(*u as f64),
                (Some("int"), Resolved::Int(_) | Resolved::Uint(_)) => true,
                (Some("float"), Resolved::Float(_)) => true,
                (Some("bool"), Resolved::Bool(_)) => true,
                (Some("null"), Resolved::Null) => true,
                _ => false,
            };
            // go-yaml refuses a mismatch ("cannot decode …"); the text is what is left to show.
            if wanted { resolved } else { Resolved::Str }
        }
        Some(_) => Resolved::Str,
    }
}

/// `resolve.go` `resolve` for an untagged plain scalar.
fn resolve_plain(text: &str) -> Resolved {
    if let Some(fixed) = fixed_word(text) {
        return fixed;
    }
    match text.as_bytes().first() {
        Some(b'.') => text.parse::<f64>().map_or(Resolved::Str, Resolved::Float),
        Some(b'0'..=b'9' | b'+' | b'-') if !is_timestamp(text) => number(text),
        _ => Resolved::Str,
    }
}

/// The words of `resolve.go`'s table: booleans, nulls, infinities and NaN.
fn fixed_word(text: &str) -> Option<Resolved> {
    Some(match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Resolved::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Resolved::Bool(false)
        }
        "" | "~" | "null" | "Null" | "NULL" => Resolved::Null,
        ".nan" | ".NaN" | ".NAN" => Resolved::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Resolved::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Resolved::Float(f64::NEG_INFINITY),
        _ => return None,
    })
}

/// A number starting with a digit or a sign: underscores dropped, then Go's `ParseInt(s, 0, 64)`
/// (`0x`, `0o`, `0b` and a leading `0` for octal), `ParseUint`, then a YAML-style float.
fn number(text: &str) -> Resolved {
    let plain: String = text.chars().filter(|&c| c != '_').collect();
    let (negative, unsigned) = match plain.as_bytes().first() {
        Some(b'-') => (true, &plain[1..]),
        Some(b'+') => (false, &plain[1..]),
        _ => (false, plain.as_str()),
    };
    if let Some(magnitude) = go_uint(unsigned) {
        let signed = if negative {
            0i64.checked_sub_unsigned(magnitude)
        } else {
            i64::try_from(magnitude).ok()
        };
        match signed {
            Some(value) => return Resolved::Int(value),
            None if !negative => return Resolved::Uint(magnitude),
            None => {}
        }
    }
    if is_yaml_float(&plain)
        && let Ok(value) = plain.parse::<f64>()
    {
        return Resolved::Float(value);
    }
    Resolved::Str
}

/// An unsigned integer in Go's base-0 syntax.
fn go_uint(digits: &str) -> Option<u64> {
    let lower = digits.get(..2).map(str::to_ascii_lowercase);
    let (radix, body) = match lower.as_deref() {
        Some("0x") => (16, &digits[2..]),
        Some("0o") => (8, &digits[2..]),
        Some("0b") => (2, &digits[2..]),
        _ if digits.len() > 1 && digits.starts_with('0') => (8, &digits[1..]),
        _ => (10, digits),
    };
    if body.is_empty() || body.starts_with(['+', '-']) {
        return None;
    }
    u64::from_str_radix(body, radix).ok()
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`, `resolve.go`'s `yamlStyleFloat`.
fn is_yaml_float(text: &str) -> bool {
    let text = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", fraction)) => digits(fraction),
        Some((whole, fraction)) => digits(whole) && (fraction.is_empty() || digits(fraction)),
        None => digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e)));
    mantissa_ok && exponent_ok
}

/// `resolve.go` `parseTimestamp`: four digits and a `-`, then one of the accepted layouts; such a
/// value stays the text written when decoded into an interface (`decode.go` `scalar`).
fn is_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() > 4 && bytes[..4].iter().all(u8::is_ascii_digit) && bytes[4] == b'-'
}

/// The JSON value the API server reads: `encoding/json` writes a float with no fraction below
/// 1e21 without one, which the API server then decodes as an integer. NaN and infinities, which
/// `encoding/json` refuses, stay text.
pub(super) fn to_json(resolved: Resolved, text: &str) -> Json {
    match resolved {
        Resolved::Null => Json::Null,
        Resolved::Bool(b) => Json::Bool(b),
        Resolved::Int(i) => Json::from(i),
        Resolved::Uint(u) => Json::from(u),
        Resolved::Float(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => Json::from(f as i64),
        Resolved::Float(f) => {
            Number::from_f64(f).map_or_else(|| Json::String(text.into()), Json::Number)
        }
        Resolved::Str => Json::String(text.to_owned()),
        Resolved::Binary(decoded) => Json::String(decoded),
    }
}

/// The key sigs.k8s.io/yaml makes of a resolved key (`convertToJSONableObject`): an integer in
/// decimal, a boolean as `true`/`false`, a float as Go's `FormatFloat(f, 'g', -1, 32)`; `None`
/// for a null key, which it refuses.
pub(super) fn to_key(resolved: Resolved, text: &str) -> Option<String> {
    Some(match resolved {
        Resolved::Null => return None,
        Resolved::Bool(b) => b.to_string(),
        Resolved::Int(i) => i.to_string(),
        Resolved::Uint(u) => u.to_string(),
        Resolved::Float(f) => float_key(f),
        Resolved::Str => text.to_owned(),
        Resolved::Binary(decoded) => decoded,
    })
}

/// `FormatFloat(f, 'g', -1, 32)` with `+Inf`, `-Inf` and `NaN` written as YAML writes them.
fn float_key(f: f64) -> String {
    if f.is_nan() {
        return ".nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    let single = f as f32;
    let exponent = if single == 0.0 {
        0
    } else {
        single.abs().log10().floor() as i32
    };
    // %g with the shortest digits: the exponent form below 1e-4 or from 1e6 (strconv `%e is used
    // if the exponent … is less than -4 or greater than or equal to the precision`, 6 here).
    if !(-4..6).contains(&exponent) {
        let formatted = format!("{single:e}");
        match formatted.split_once('e') {
            Some((mantissa, exp)) => {
                let (sign, exp) = exp.strip_prefix('-').map_or(("+", exp), |e| ("-", e));
                format!("{mantissa}e{sign}{exp:0>2}")
            }
            None => formatted,
        }
    } else {
        format!("{single}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each plain value with the JSON sigs.k8s.io/yaml's `YAMLToJSON` (over go-yaml v2) gives.
    #[test]
    fn values_as_kubectl_decodes_them() {
        let cases = [
            ("yes", "true"),
            ("On", "true"),
            ("off", "false"),
            ("y", "true"),
            ("N", "false"),
            ("0755", "493"),
            ("08", "8"),
            ("0o17", "15"),
            ("0x1F", "31"),
            ("0b101", "5"),
            ("1_000", "1000"),
            ("+12", "12"),
            ("-0", "0"),
            ("1e3", "1000"),
            ("1.0", "1"),
            (".5", "0.5"),
            ("18446744073709551615", "18446744073709551615"),
            ("~", "null"),
            ("2020-01-02", "\"2020-01-02\""),
            ("2020-01-02T03:04:05Z", "\"2020-01-02T03:04:05Z\""),
            ("0o", "\"0o\""),
            ("Yes please", "\"Yes please\""),
        ];
        for (text, json) in cases {
            let value = to_json(resolve(text, None, true), text);
            assert_eq!(value.to_string(), json, "{text}");
        }
    }

    /// Keys that are not strings, as sigs.k8s.io/yaml writes them; a null key is refused.
    #[test]
    fn keys_as_kubectl_writes_them() {
        let cases = [
            ("on", "true"),
            ("n", "false"),
            ("0755", "493"),
            ("1.5", "1.5"),
            ("1e6", "1e+06"),
        ];
        for (text, key) in cases {
            assert_eq!(
                to_key(resolve(text, None, true), text).as_deref(),
                Some(key),
                "{text}"
            );
        }
        assert_eq!(to_key(resolve("~", None, true), "~"), None);
        assert_eq!(
            to_key(resolve("on", None, false), "on").as_deref(),
            Some("on")
        );
    }

    /// A `!!binary` scalar is the text of its bytes in JSON (go.yaml.in/yaml/v2 `decode.go`
    /// `scalar`: `base64.StdEncoding.DecodeString`, then `encoding/json`), as a value or a key.
    #[test]
    fn binary_scalars_are_their_bytes() {
        let text = "aGVs\nbG8=\n";
        let value = to_json(resolve(text, Some("!!binary"), false), text);
        assert_eq!(value.to_string(), "\"hello\"");
        let key = to_key(
            resolve("aGk=", Some("tag:yaml.org,2002:binary"), true),
            "aGk=",
        );
        assert_eq!(key.as_deref(), Some("hi"));
    }

    /// A tag decides: `!!int "3"` is 3, `!!str yes` text, `!!float 1` the number 1.
    #[test]
    fn tags_as_go_yaml_resolves_them() {
        assert_eq!(resolve("3", Some("!!int"), false), Resolved::Int(3));
        assert_eq!(resolve("yes", Some("!!bool"), false), Resolved::Bool(true));
        assert_eq!(resolve("yes", Some("!!str"), true), Resolved::Str);
        assert_eq!(resolve("1", Some("!!float"), true), Resolved::Float(1.0));
        assert_eq!(resolve("x", Some("!!int"), true), Resolved::Str);
    }
}
