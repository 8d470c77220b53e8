//! Go's `strconv` number syntax, which cel-go's string conversions use (`common/types/string.go`):
//! `ParseInt(s, 10, 64)` (optional sign, decimal digits only), `ParseUint(s, 10, 64)` (no sign at
//! all) and `ParseFloat(s, 64)` (decimal or `0x` hexadecimal with a `p` exponent, `_` between
//! digits, `inf`/`infinity`/`nan` in any case, and an error instead of ±Inf on overflow).
//! Rust's own `str::parse` accepts `+5` as unsigned and `1e400` as infinity, and refuses hex
//! floats and underscores, so each differs from the API server somewhere.

/// `strconv.ParseInt(text, 10, 64)`: `None` on a syntax or range error.
pub fn parse_int(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let magnitude = i128::from(parse_uint(digits)?);
    i64::try_from(if negative { -magnitude } else { magnitude }).ok()
}

/// `strconv.ParseUint(text, 10, 64)`: one or more ASCII digits, nothing else.
pub fn parse_uint(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Only digits are left, so the standard parser's one extra (a leading `+`) cannot occur.
    text.parse().ok()
}

/// `strconv.ParseFloat(text, 64)`: `None` on a syntax error and on overflow (Go's `ErrRange`);
/// underflow gives zero without an error, as in Go.
pub fn parse_float(text: &str) -> Option<f64> {
    if let Some(special) = special(text) {
        return Some(special);
    }
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if text.contains('_') && !underscores_between_digits(body) {
        return None;
    }
    let magnitude = match body.get(..2) {
        Some(prefix) if prefix.eq_ignore_ascii_case("0x") && body.len() > 2 => {
            hex_float(&body[2..])?
        }
        _ => decimal_float(body)?,
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// `inf`, `infinity` (optionally signed) and `nan` (unsigned), any case.
fn special(text: &str) -> Option<f64> {
    let (sign, rest) = match text.as_bytes().first() {
        Some(b'-') => (-1.0, &text[1..]),
        Some(b'+') => (1.0, &text[1..]),
        _ => (1.0, text),
    };
    if rest.eq_ignore_ascii_case("inf") || rest.eq_ignore_ascii_case("infinity") {
        return Some(sign * f64::INFINITY);
    }
    (text.eq_ignore_ascii_case("nan")).then_some(f64::NAN)
}

/// Go's rule for `_` in a number: each one sits between two digits, or right after a `0x`
/// (`0b`, `0o`) prefix, which counts as a digit. Applies to decimal numbers too (`1_000`).
fn underscores_between_digits(body: &str) -> bool {
    let bytes = body.as_bytes();
    let prefixed = bytes.len() >= 2
        && bytes[0] == b'0'
        && matches!(bytes[1].to_ascii_lowercase(), b'b' | b'o' | b'x');
    let hex = prefixed && bytes[1].eq_ignore_ascii_case(&b'x');
    let (mut after_digit, mut after_underscore) = (prefixed, false);
    for &b in &bytes[if prefixed { 2 } else { 0 }..] {
        let digit = b.is_ascii_digit() || (hex && b.is_ascii_hexdigit());
        if b == b'_' {
            if !after_digit {
                return false;
            }
            after_underscore = true;
            after_digit = false;
        } else if !digit && after_underscore {
            return false;
        } else {
            after_underscore = false;
            after_digit = digit;
        }
    }
    !after_underscore
}

/// `digits[.digits][e[+-]digits]` (either side of the point may be empty, not both), without
/// sign. The digits are exact in Rust's parser, which rounds correctly as Go's does.
fn decimal_float(body: &str) -> Option<f64> {
    let plain: String = body.chars().filter(|&c| c != '_').collect();
    let (mantissa, exponent) = match plain.find(['e', 'E']) {
        Some(at) => (&plain[..at], Some(&plain[at + 1..])),
        None => (plain.as_str(), None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits_only = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits_only(whole) || !digits_only(fraction) {
        return None;
    }
    if let Some(exponent) = exponent {
        let unsigned = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        if unsigned.is_empty() || !digits_only(unsigned) {
            return None;
        }
    }
    let value: f64 = plain.parse().ok()?;
    value.is_finite().then_some(value)
}

/// The part after `0x`: hex digits with an optional point, then a mandatory binary exponent
/// `p[+-]digits`; rounded to nearest, ties to even, like every IEEE conversion.
fn hex_float(body: &str) -> Option<f64> {
    let plain: String = body.chars().filter(|&c| c != '_').collect();
    let at = plain.find(['p', 'P'])?;
    let (mantissa, exponent) = (&plain[..at], &plain[at + 1..]);
    let unsigned = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Beyond ±100000 the result is 0 or an overflow whatever the mantissa's digits.
    let magnitude: i64 = unsigned.parse().unwrap_or(100_000).min(100_000);
    let mut exp2 = if exponent.starts_with('-') {
        -magnitude
    } else {
        magnitude
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if (whole.is_empty() && fraction.is_empty())
        || !whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_hexdigit())
    {
        return None;
    }
    let (mut significand, mut sticky) = (0u64, false);
    for (i, b) in whole.bytes().chain(fraction.bytes()).enumerate() {
        let digit = u64::from(char::from(b).to_digit(16).unwrap_or(0));
        if significand >> 60 == 0 {
            significand = significand * 16 + digit;
            if i >= whole.len() {
                exp2 -= 4;
            }
        } else {
            // Past 60 significant bits only whether anything is left matters for rounding.
            sticky |= digit != 0;
            if i < whole.len() {
                exp2 += 4;
            }
        }
    }
    round_binary(significand, sticky, exp2)
}

/// `significand × 2^exp2` (plus a little more when `sticky`) as the nearest double, `None` when
/// that is beyond the largest finite double.
fn round_binary(significand: u64, sticky: bool, exp2: i64) -> Option<f64> {
    if significand == 0 {
        return Some(0.0);
    }
    let width = i64::from(64 - significand.leading_zeros());
    // The binary exponent of the leading bit, and how many bits the result can keep there
    // (53 for normal numbers, fewer for subnormals, whose last bit is worth 2^-1074).
    let top = width - 1 + exp2;
    let keep = if top >= -1022 { 53 } else { top + 1075 };
    let drop = width - keep;
    let (mut kept, mut lsb_exp) = if drop <= 0 {
        (u128::from(significand) << (-drop).min(64), exp2 + drop)
    } else if drop > 64 {
        (0, exp2 + drop)
    } else {
        let wide = u128::from(significand);
        let kept = wide >> drop;
        let rest = wide - (kept << drop);
        let half = 1u128 << (drop - 1);
        let round_up = rest > half || (rest == half && (sticky || kept & 1 == 1));
        (kept + u128::from(round_up), exp2 + drop)
    };
    if kept == 1 << 53 {
        kept >>= 1;
        lsb_exp += 1;
    }
    if kept == 0 {
        return Some(0.0);
    }
    let biased = lsb_exp + 52 + 1023;
    if kept >= 1 << 52 {
        if biased > 2046 {
            return None;
        }
        let fraction = u64::try_from(kept).ok()? & ((1 << 52) - 1);
        return Some(f64::from_bits(
            (u64::try_from(biased).ok()? << 52) | fraction,
        ));
    }
    // A subnormal: the last kept bit is worth 2^-1074.
    Some(f64::from_bits(u64::try_from(kept).ok()?))
}

#[cfg(test)]
mod tests {
    use super::{parse_float, parse_int, parse_uint};

    #[test]
    fn integers() {
        assert_eq!(parse_int("+5"), Some(5));
        assert_eq!(parse_int("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_int("9223372036854775808"), None);
        for bad in ["", "+", "-", " 5", "5 ", "0x10", "1_000", "1e3", "--5"] {
            assert_eq!(parse_int(bad), None, "{bad}");
        }
        assert_eq!(parse_uint("18446744073709551615"), Some(u64::MAX));
        for bad in ["+5", "-0", "18446744073709551616", "0x10", ""] {
            assert_eq!(parse_uint(bad), None, "{bad}");
        }
    }

    #[test]
    fn floats() {
        let cases: &[(&str, f64)] = &[
            ("0x1p4", 16.0),
            ("0X1.8P1", 3.0),
            ("-0x.8p0", -0.5),
            ("0x_1p4", 16.0),
            ("0x1p-1074", 5e-324),
            ("0x1p-1075", 0.0),
            ("0x1.8p-1075", 5e-324),
            ("0x1.fffffffffffff8p1023", f64::INFINITY),
            ("0x1.fffffffffffff7p1023", f64::MAX),
            ("0x1.00000000000008p0", 1.0),
            ("0x1.00000000000018p0", 1.0 + 2.0 * f64::EPSILON),
            ("0x1.000000000000080000000001p0", 1.0 + f64::EPSILON),
            ("1_000", 1000.0),
            ("1e1_0", 1e10),
            ("1.", 1.0),
            (".5", 0.5),
            ("1e-400", 0.0),
            ("Infinity", f64::INFINITY),
            ("-inf", f64::NEG_INFINITY),
        ];
        for &(text, want) in cases {
            let got = parse_float(text);
            if want.is_infinite() && !text.to_ascii_lowercase().contains("inf") {
                assert_eq!(got, None, "{text}");
            } else {
                assert_eq!(got, Some(want), "{text}");
            }
        }
        assert!(parse_float("NaN").is_some_and(f64::is_nan));
        for bad in [
            "1e400", "-1e400", "+nan", "-nan", "infx", "0x1", "0x1p", "1__0", "_1", "1_", "1_.5",
            " 1", "1e", ".", "", "0x", "0x.p1", "1.5.", "0b101", "1d",
        ] {
            assert_eq!(parse_float(bad), None, "{bad}");
        }
    }
}
