//! `kubernetes.Quantity`: apimachinery's `resource.Quantity` as the CEL library uses it.
//!
//! Like upstream, a quantity is either a small amount (`int64` value times 10^scale) or a decimal
//! (`inf.Dec`: big unscaled value times 10^-scale). The two are kept apart because upstream's
//! answers depend on which one a value is: `asInteger` fails for every decimal (so
//! `quantity("1.5Gi").asInteger()` is an error although the value is whole), and
//! `asApproximateFloat` multiplies the unscaled value by a power of ten. Comparison and equality
//! are exact. The decimal is a local big integer ([`crate::cel::kube::bigint`]); sizes are bounded,
//! and a value that would need more than `MAX_DIGITS` digits is an error here where upstream would
//! try to allocate it (only reachable with exponents like `1e5000` combined with arithmetic).

mod parse;
mod render;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod upstream_tests;

use std::cmp::Ordering;

use super::bigint::{BigInt, MAX_DIGITS};

pub use parse::parse;

/// How a quantity prints: `DecimalExponent` (`1e3`), `BinarySI` (`1Ki`) or `DecimalSI` (`1k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `e`/`E` exponent suffixes.
    DecimalExponent,
    /// Power-of-two suffixes `Ki` … `Ei`.
    BinarySI,
    /// Power-of-ten suffixes `n` … `E`, or none.
    DecimalSI,
}

/// A parse or arithmetic failure; `Display` gives upstream's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuantityError {
    /// `ErrFormatWrong`.
    Format,
    /// `ErrNumeric`.
    Numeric,
    /// `ErrSuffix`.
    Suffix,
    /// A value beyond the size bound of this implementation (upstream has no limit).
    TooLarge,
}

impl std::fmt::Display for QuantityError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            QuantityError::Format => {
                "quantities must match the regular expression \
                 '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
            }
            QuantityError::Numeric => "unable to parse numeric part of quantity",
            QuantityError::Suffix => "unable to parse quantity's suffix",
            QuantityError::TooLarge => "quantity is too large to represent",
        })
    }
}

/// The error text of `asInteger` when the quantity is not an `int64` amount.
pub const AS_INTEGER_ERROR: &str = "cannot convert value to integer";

/// The two internal representations of upstream's `Quantity`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Amount {
    /// `int64Amount`: `value * 10^scale`.
    Int { value: i64, scale: i32 },
    /// `infDecAmount`: `unscaled * 10^-dscale`.
    Dec { unscaled: BigInt, dscale: i32 },
}

impl Amount {
    /// The value as `unscaled * 10^exp`.
    fn as_big(&self) -> (BigInt, i64) {
        match self {
            Amount::Int { value, scale } => (BigInt::from_i64(*value), i64::from(*scale)),
            Amount::Dec { unscaled, dscale } => (unscaled.clone(), -i64::from(*dscale)),
        }
    }

    fn is_zero(&self) -> bool {
        match self {
            Amount::Int { value, .. } => *value == 0,
            Amount::Dec { unscaled, .. } => unscaled.is_zero(),
        }
    }
}

/// A parsed quantity.
#[derive(Clone, Debug)]
pub struct Quantity {
    amount: Amount,
    format: Format,
    /// The input text, kept when upstream keeps it as the string form.
    cached: Option<String>,
}

impl Quantity {
    fn new(amount: Amount, format: Format, cached: Option<&str>) -> Quantity {
        Quantity {
            amount,
            format,
            cached: cached.map(str::to_owned),
        }
    }

    /// `resource.NewQuantity(v, DecimalExponent)`, as `add(int)` and `sub(int)` build it.
    pub fn from_int(v: i64) -> Quantity {
        Quantity::new(
            Amount::Int { value: v, scale: 0 },
            Format::DecimalExponent,
            None,
        )
    }

    /// The format the quantity prints with.
    pub fn format(&self) -> Format {
        self.format
    }

    /// `sign(q)`: -1, 0 or 1.
    pub fn sign(&self) -> i64 {
        match &self.amount {
            Amount::Int { value, .. } => value.signum(),
            Amount::Dec { unscaled, .. } => unscaled.signum(),
        }
    }

    /// `q.isInteger()`: whether `asInteger` would succeed.
    pub fn is_integer(&self) -> bool {
        self.as_integer().is_ok()
    }

    /// `q.asInteger()`: the `int64` value of a small amount with a non-negative scale.
    pub fn as_integer(&self) -> Result<i64, &'static str> {
        let Amount::Int { value, scale } = self.amount else {
            return Err(AS_INTEGER_ERROR);
        };
        if scale < 0 {
            return Err(AS_INTEGER_ERROR);
        }
        let mut v = value;
        for _ in 0..scale {
            v = v.checked_mul(10).ok_or(AS_INTEGER_ERROR)?;
            if v == 0 {
                break;
            }
        }
        Ok(v)
    }

    /// `q.asApproximateFloat()`: the unscaled value as a float times `math.Pow10(exponent)`.
    pub fn as_approximate_float(&self) -> f64 {
        let (base, exponent) = match &self.amount {
            Amount::Int { value, scale } => (*value as f64, i64::from(*scale)),
            Amount::Dec { unscaled, dscale } => (unscaled.to_f64(), -i64::from(*dscale)),
        };
        if exponent == 0 {
            return base;
        }
        base * render::go_pow10(exponent)
    }

    /// Exact comparison (`Cmp`): the order of the two values.
    pub fn compare(&self, other: &Quantity) -> Ordering {
        compare_big(self.amount.as_big(), other.amount.as_big())
    }

    /// `q.compareTo(other)`: -1, 0 or 1.
    pub fn compare_to(&self, other: &Quantity) -> i64 {
        self.compare(other) as i64
    }

    /// `q.isGreaterThan(other)`.
    pub fn is_greater_than(&self, other: &Quantity) -> bool {
        self.compare(other) == Ordering::Greater
    }

    /// `q.isLessThan(other)`.
    pub fn is_less_than(&self, other: &Quantity) -> bool {
        self.compare(other) == Ordering::Less
    }

    /// `q.add(other)`; the error only when the result would exceed the size bound.
    pub fn add(&self, other: &Quantity) -> Result<Quantity, QuantityError> {
        let mut out = self.clone();
        out.cached = None;
        if let (Amount::Int { value, .. }, Amount::Int { .. }) = (&self.amount, &other.amount) {
            if *value == 0 {
                out.format = other.format;
            }
            if let Some(sum) = int_add(&self.amount, &other.amount) {
                out.amount = sum;
                return Ok(out);
            }
        } else if self.amount.is_zero() {
            out.format = other.format;
        }
        out.amount = dec_add(&self.amount, &other.amount)?;
        Ok(out)
    }

    /// `q.sub(other)`.
    pub fn sub(&self, other: &Quantity) -> Result<Quantity, QuantityError> {
        let mut out = self.clone();
        out.cached = None;
        if self.amount.is_zero() {
            out.format = other.format;
        }
        let negated = match &other.amount {
            // Go negates an int64 with wrap-around.
            Amount::Int { value, scale } => Amount::Int {
                value: value.wrapping_neg(),
                scale: *scale,
            },
            Amount::Dec { unscaled, dscale } => Amount::Dec {
                unscaled: unscaled.neg(),
                dscale: *dscale,
            },
        };
        if let Some(diff) = int_add(&self.amount, &negated) {
            out.amount = diff;
            return Ok(out);
        }
        out.amount = dec_add(&self.amount, &negated)?;
        Ok(out)
    }

    /// `q.add(int)`.
    pub fn add_int(&self, v: i64) -> Result<Quantity, QuantityError> {
        self.add(&Quantity::from_int(v))
    }

    /// `q.sub(int)`.
    pub fn sub_int(&self, v: i64) -> Result<Quantity, QuantityError> {
        self.sub(&Quantity::from_int(v))
    }
}

/// CEL `==` on quantities is `Quantity.Equal`: equal values, whatever their form.
impl PartialEq for Quantity {
    fn eq(&self, other: &Quantity) -> bool {
        self.compare(other) == Ordering::Equal
    }
}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Quantity) -> Option<Ordering> {
        Some(self.compare(other))
    }
}

impl std::fmt::Display for Quantity {
    /// `Quantity.String()`: the kept input, else the canonical form.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.cached {
            Some(s) => f.write_str(s),
            None => f.write_str(&render::canonical(&self.amount, self.format)),
        }
    }
}

/// `value * 10^scale` multiplied by `10^k`, if it fits (`positiveScaleInt64`).
fn scale_up(value: i64, k: i64) -> Option<i64> {
    let mut v = value;
    for _ in 0..k {
        if v == 0 {
            break;
        }
        v = v.checked_mul(10)?;
    }
    Some(v)
}

/// `int64Amount.Add`: `None` on overflow.
fn int_add(a: &Amount, b: &Amount) -> Option<Amount> {
    let (
        Amount::Int {
            value: av,
            scale: asc,
        },
        Amount::Int {
            value: bv,
            scale: bsc,
        },
    ) = (a, b)
    else {
        return None;
    };
    let (value, scale) = match (*av, *bv) {
        (_, 0) => (*av, *asc),
        (0, _) => (*bv, *bsc),
        _ if asc == bsc => (av.checked_add(*bv)?, *asc),
        _ if asc > bsc => (scale_up(*av, i64::from(asc - bsc))?.checked_add(*bv)?, *bsc),
        _ => (av.checked_add(scale_up(*bv, i64::from(bsc - asc))?)?, *asc),
    };
    Some(Amount::Int { value, scale })
}

/// `inf.Dec.Add`: both aligned to the finer scale.
fn dec_add(a: &Amount, b: &Amount) -> Result<Amount, QuantityError> {
    let (au, ae) = a.as_big();
    let (bu, be) = b.as_big();
    let exp = ae.min(be);
    let grow = |u: &BigInt, e: i64| -> Result<BigInt, QuantityError> {
        let k = (e - exp).unsigned_abs();
        if u.is_zero() {
            return Ok(BigInt::zero());
        }
        if k.saturating_add(u.digits() as u64) > MAX_DIGITS as u64 {
            return Err(QuantityError::TooLarge);
        }
        Ok(u.mul_pow10(k as u32))
    };
    let sum = grow(&au, ae)?.add(&grow(&bu, be)?);
    let dscale = i32::try_from(-exp).map_err(|_| QuantityError::TooLarge)?;
    Ok(Amount::Dec {
        unscaled: sum,
        dscale,
    })
}

/// Exact order of `au * 10^ae` and `bu * 10^be` without building huge numbers.
fn compare_big((au, ae): (BigInt, i64), (bu, be): (BigInt, i64)) -> Ordering {
    let sign = au.signum().cmp(&bu.signum());
    if sign != Ordering::Equal || au.is_zero() {
        return sign;
    }
    // Same sign, both non-zero: compare magnitudes by the position of the leading digit first.
    let top_a = au.digits() as i64 + ae;
    let top_b = bu.digits() as i64 + be;
    let magnitude = if top_a != top_b {
        top_a.cmp(&top_b)
    } else {
        let exp = ae.min(be);
        let a = au.abs().mul_pow10((ae - exp) as u32);
        let b = bu.abs().mul_pow10((be - exp) as u32);
        a.cmp(&b)
    };
    if au.signum() < 0 {
        magnitude.reverse()
    } else {
        magnitude
    }
}
