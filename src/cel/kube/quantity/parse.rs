//! `quantity(string)`: apimachinery's `ParseQuantity`, step by step. The scan is permissive the way
//! upstream's is (`"."` and `"+"` are zero, leading zeros are skipped); values that fit an `int64`
//! with a decimal exponent take the fast path (and may keep the input as their string form), the
//! rest become decimals rounded away from zero to nano precision, binary ones capped at 2^63-1.

use super::{Amount, Format, Quantity, QuantityError};
use crate::cel::kube::bigint::{BigInt, MAX_DIGITS};

/// `maxInt64Factors`: decimal digits that always fit an `int64`.
const MAX_INT64_FACTORS: i64 = 18;
/// The finest scale a parsed quantity keeps (nano, 10^-9).
const NANO: i64 = -9;

/// The pieces of the scan: sign, the numeric text (with sign), integer digits (leading zeros
/// removed, `"0"` when none), fraction digits and the suffix text.
struct Scanned<'a> {
    positive: bool,
    num: &'a str,
    denom: &'a str,
    suffix: &'a str,
    /// Whether the numeric text has no digit at all (`"."`), which `inf.Dec` rejects.
    no_digits: bool,
}

fn digits_end(s: &[u8], from: usize) -> usize {
    s[from..]
        .iter()
        .position(|b| !b.is_ascii_digit())
        .map_or(s.len(), |p| from + p)
}

fn scan(s: &str) -> Result<Scanned<'_>, QuantityError> {
    let b = s.as_bytes();
    let mut pos = 0;
    let mut positive = true;
    match b.first() {
        Some(b'-') => {
            positive = false;
            pos = 1;
        }
        Some(b'+') => pos = 1,
        _ => {}
    }
    let start = pos;
    while pos < b.len() && b[pos] == b'0' {
        pos += 1;
    }
    let zero = Scanned {
        positive,
        num: "0",
        denom: "",
        suffix: "",
        no_digits: false,
    };
    if pos == b.len() {
        return Ok(zero);
    }
    let num_end = digits_end(b, pos);
    let num = if num_end == pos {
        "0"
    } else {
        &s[pos..num_end]
    };
    pos = num_end;
    let mut denom = "";
    if pos < b.len() && b[pos] == b'.' {
        let end = digits_end(b, pos + 1);
        denom = &s[pos + 1..end];
        pos = end;
    }
    let suffix_start = pos;
    while pos < b.len() && b"eEinumkKMGTP".contains(&b[pos]) {
        pos += 1;
    }
    if pos < b.len() && (b[pos] == b'-' || b[pos] == b'+') {
        pos += 1;
    }
    if digits_end(b, pos) != b.len() {
        return Err(QuantityError::Format);
    }
    let no_digits = num_end == start && denom.is_empty();
    Ok(Scanned {
        positive,
        num,
        denom,
        suffix: &s[suffix_start..],
        no_digits,
    })
}

/// The base, exponent and format a suffix stands for.
fn interpret(suffix: &str) -> Option<(u32, i32, Format)> {
    let dec = |e| Some((10, e, Format::DecimalSI));
    let bin = |e| Some((2, e, Format::BinarySI));
    match suffix {
        "n" => dec(-9),
        "u" => dec(-6),
        "m" => dec(-3),
        "" => dec(0),
        "k" => dec(3),
        "M" => dec(6),
        "G" => dec(9),
        "T" => dec(12),
        "P" => dec(15),
        "E" => dec(18),
        "Ki" => bin(10),
        "Mi" => bin(20),
        "Gi" => bin(30),
        "Ti" => bin(40),
        "Pi" => bin(50),
        "Ei" => bin(60),
        _ => {
            let rest = suffix.strip_prefix(['e', 'E']).filter(|r| !r.is_empty())?;
            // Go parses 64 bits and then converts to int32, wrapping.
            let parsed: i64 = parse_go_int(rest)?;
            Some((10, parsed as i32, Format::DecimalExponent))
        }
    }
}

/// `strconv.ParseInt(s, 10, 64)`: optional sign, then at least one digit.
fn parse_go_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Parses a quantity string as `resource.ParseQuantity` does.
pub fn parse(s: &str) -> Result<Quantity, QuantityError> {
    if s.is_empty() {
        return Err(QuantityError::Format);
    }
    if s == "0" {
        return Ok(Quantity::new(
            Amount::Int { value: 0, scale: 0 },
            Format::DecimalSI,
            Some(s),
        ));
    }
    let scanned = scan(s)?;
    let (base, exponent, format) = interpret(scanned.suffix).ok_or(QuantityError::Suffix)?;
    if let Some(q) = fast_path(s, &scanned, exponent, format) {
        return q;
    }
    slow_path(&scanned, base, exponent, format)
}

/// The `int64Amount` path, when the digits surely fit; `None` to fall through to decimals.
fn fast_path(
    s: &str,
    sc: &Scanned<'_>,
    exponent: i32,
    format: Format,
) -> Option<Result<Quantity, QuantityError>> {
    let digits = (sc.num.len() + sc.denom.len()) as i64;
    let (mut scale, mantissa, precision) = match format {
        Format::BinarySI if exponent >= 0 && sc.denom.is_empty() => {
            let e = i64::from(exponent);
            (
                0i64,
                1i64 << exponent,
                15 - sc.num.len() as i64 - (e * 3 / 10) - 1,
            )
        }
        Format::BinarySI => return None,
        _ => (i64::from(exponent), 1, MAX_INT64_FACTORS - digits),
    };
    if precision < 0 {
        return None;
    }
    scale -= sc.denom.len() as i64;
    if scale < NANO {
        return None;
    }
    let shifted = format!("{}{}", sc.num, sc.denom);
    let Ok(value) = shifted.parse::<i64>() else {
        return Some(Err(QuantityError::Numeric));
    };
    let result = value.checked_mul(mantissa)?;
    let result = if sc.positive { result } else { -result };
    let keep = match format {
        Format::BinarySI => exponent % 10 == 0 && value & 0x07 != 0,
        _ => scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0'),
    };
    let amount = Amount::Int {
        value: result,
        scale: scale as i32,
    };
    Some(Ok(Quantity::new(amount, format, keep.then_some(s))))
}

/// The `inf.Dec` path: exact digits, scaled, rounded up to nano precision.
fn slow_path(
    sc: &Scanned<'_>,
    base: u32,
    exponent: i32,
    mut format: Format,
) -> Result<Quantity, QuantityError> {
    if sc.no_digits {
        return Err(QuantityError::Numeric);
    }
    let digits = format!("{}{}", sc.num, sc.denom);
    let mut unscaled = BigInt::parse_digits(&digits).ok_or(QuantityError::Numeric)?;
    let mut dscale = sc.denom.len() as i64;
    if base == 10 {
        dscale -= i64::from(exponent);
    } else {
        unscaled = unscaled.mul_pow2(exponent.unsigned_abs());
    }
    if !unscaled.is_zero() {
        (unscaled, dscale) = round_to_nano(unscaled, dscale)?;
    }
    let max = BigInt::from_i64(i64::MAX).mul_pow10(9);
    if format == Format::BinarySI && unscaled > max {
        (unscaled, dscale) = (BigInt::from_i64(i64::MAX), 0);
    }
    if format == Format::BinarySI
        && !unscaled.is_zero()
        && unscaled < BigInt::from_i64(1_000_000_000)
    {
        format = Format::DecimalSI;
    }
    if !sc.positive {
        unscaled = unscaled.neg();
    }
    let dscale = i32::try_from(dscale).map_err(|_| QuantityError::TooLarge)?;
    Ok(Quantity::new(
        Amount::Dec { unscaled, dscale },
        format,
        None,
    ))
}

/// `Round(amount, 9, RoundUp)` on a non-negative decimal: the result has scale exactly 9.
fn round_to_nano(unscaled: BigInt, dscale: i64) -> Result<(BigInt, i64), QuantityError> {
    let target = -NANO;
    if dscale > target {
        let k = (dscale - target).unsigned_abs();
        return Ok((unscaled.div_pow10_round_up(k), target));
    }
    let grow = (target - dscale).unsigned_abs();
    if grow.saturating_add(unscaled.digits() as u64) > MAX_DIGITS as u64 {
        return Err(QuantityError::TooLarge);
    }
    Ok((unscaled.mul_pow10(grow as u32), target))
}
