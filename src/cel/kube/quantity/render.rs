//! The canonical string of a quantity (`CanonicalizeBytes`) and Go's `math.Pow10`, which
//! `asApproximateFloat` multiplies by. Upstream quirks kept on purpose: an exponent with no SI
//! suffix (e.g. 10^21 in `DecimalSI`) prints with no suffix at all, and binary quantities that are
//! not whole or lie strictly between -1024 and 1024 print as decimal SI.

use std::cmp::Ordering;

use super::{Amount, Format, compare_big};
use crate::cel::kube::bigint::{BigInt, MAX_DIGITS};

/// `Quantity.String()` without the kept input.
pub(super) fn canonical(amount: &Amount, format: Format) -> String {
    let (u, e) = amount.as_big();
    if u.is_zero() {
        return "0".to_owned();
    }
    if format == Format::BinarySI {
        if let Some(s) = binary(&u, e) {
            return s;
        }
        return decimal(&u, e, Format::DecimalSI);
    }
    decimal(&u, e, format)
}

/// The binary form, or `None` when upstream falls back to decimal SI.
fn binary(u: &BigInt, e: i64) -> Option<String> {
    if compare_big((u.abs(), e), (BigInt::from_i64(1024), 0)) == Ordering::Less {
        return None;
    }
    let (trimmed, zeros) = u.remove_factors(10);
    if e + i64::from(zeros) < 0 || e > MAX_DIGITS as i64 {
        return None;
    }
    let integer = trimmed.mul_pow10((e + i64::from(zeros)) as u32);
    let (m, times) = integer.remove_factors(1024);
    let suffix = match times {
        1 => "Ki",
        2 => "Mi",
        3 => "Gi",
        4 => "Ti",
        5 => "Pi",
        6 => "Ei",
        _ => "",
    };
    Some(format!("{m}{suffix}"))
}

/// Mantissa without trailing zeros, exponent floored to a multiple of three, SI or `e` suffix.
fn decimal(u: &BigInt, e: i64, format: Format) -> String {
    let (mut m, times) = u.remove_factors(10);
    let mut exp = e + i64::from(times);
    let rem = exp.rem_euclid(3);
    if rem != 0 {
        m = m.mul_pow10(rem as u32);
        exp -= rem;
    }
    let suffix = match format {
        Format::DecimalExponent if exp == 0 => String::new(),
        Format::DecimalExponent => format!("e{exp}"),
        _ => si_suffix(exp).to_owned(),
    };
    format!("{m}{suffix}")
}

fn si_suffix(exp: i64) -> &'static str {
    match exp {
        -9 => "n",
        -6 => "u",
        -3 => "m",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        18 => "E",
        _ => "",
    }
}

/// Go's `math.Pow10`: exact table products, `+Inf` above 308, zero below -323.
pub(super) fn go_pow10(n: i64) -> f64 {
    let p = |k: i64| -> f64 { format!("1e{k}").parse().unwrap_or(f64::NAN) };
    match n {
        0..=308 => p(n / 32 * 32) * p(n % 32),
        -323..=-1 => p(-((-n) / 32 * 32)) / p((-n) % 32),
        n if n > 0 => f64::INFINITY,
        _ => 0.0,
    }
}
