//! A small signed arbitrary-precision integer, just enough for quantities: apimachinery falls back
//! to `inf.Dec` (a `big.Int` with a decimal scale) when a value leaves `int64`, and CEL users can
//! reach that path (`quantity("9999999999999999999999999999999999999G")`). Limbs are base 10^9 so
//! decimal printing and scaling by ten are cheap; callers bound the size (see `MAX_DIGITS`).

use std::cmp::Ordering;

const BASE: u64 = 1_000_000_000;

/// The largest number of decimal digits a quantity may reach; beyond it parsing fails instead of
/// allocating without bound (upstream would try to build the number).
pub const MAX_DIGITS: usize = 4096;

/// A signed integer: `neg` and a magnitude in little-endian base-10^9 limbs without high zeros.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BigInt {
    neg: bool,
    mag: Vec<u32>,
}

impl BigInt {
    /// Zero.
    pub fn zero() -> BigInt {
        BigInt::default()
    }

    /// The value of an `i64`.
    pub fn from_i64(v: i64) -> BigInt {
        let mut m = v.unsigned_abs();
        let mut mag = Vec::new();
        while m > 0 {
            mag.push((m % BASE) as u32);
            m /= BASE;
        }
        BigInt { neg: v < 0, mag }.normalized()
    }

    /// Parses ASCII decimal digits (no sign); `None` when a non-digit appears.
    pub fn parse_digits(s: &str) -> Option<BigInt> {
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let bytes = s.as_bytes();
        let mut mag = Vec::with_capacity(bytes.len() / 9 + 1);
        let mut end = bytes.len();
        while end > 0 {
            let start = end.saturating_sub(9);
            let limb = bytes[start..end]
                .iter()
                .fold(0u32, |acc, b| acc * 10 + u32::from(b - b'0'));
            mag.push(limb);
            end = start;
        }
        Some(BigInt { neg: false, mag }.normalized())
    }

    fn normalized(mut self) -> BigInt {
        while self.mag.last() == Some(&0) {
            self.mag.pop();
        }
        if self.mag.is_empty() {
            self.neg = false;
        }
        self
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.mag.is_empty()
    }

    /// -1, 0 or 1.
    pub fn signum(&self) -> i64 {
        match (self.is_zero(), self.neg) {
            (true, _) => 0,
            (false, true) => -1,
            (false, false) => 1,
        }
    }

    /// The negated value.
    pub fn neg(&self) -> BigInt {
        BigInt {
            neg: !self.neg,
            mag: self.mag.clone(),
        }
        .normalized()
    }

    /// The absolute value.
    pub fn abs(&self) -> BigInt {
        BigInt {
            neg: false,
            mag: self.mag.clone(),
        }
    }

    /// The number of decimal digits of the magnitude (0 for zero).
    pub fn digits(&self) -> usize {
        match self.mag.last() {
            None => 0,
            Some(top) => (self.mag.len() - 1) * 9 + top.to_string().len(),
        }
    }

    fn mul_small(&self, m: u32) -> BigInt {
        let mut carry = 0u64;
        let mut mag = Vec::with_capacity(self.mag.len() + 1);
        for &limb in &self.mag {
            let p = u64::from(limb) * u64::from(m) + carry;
            mag.push((p % BASE) as u32);
            carry = p / BASE;
        }
        while carry > 0 {
            mag.push((carry % BASE) as u32);
            carry /= BASE;
        }
        BigInt { neg: self.neg, mag }.normalized()
    }

    /// `self * 10^k`; the caller bounds `k`.
    pub fn mul_pow10(&self, k: u32) -> BigInt {
        if self.is_zero() {
            return BigInt::zero();
        }
        let whole = (k / 9) as usize;
        let mut mag = vec![0u32; whole];
        mag.extend_from_slice(&self.mag);
        BigInt { neg: self.neg, mag }.mul_small(10u32.pow(k % 9))
    }

    /// `self * 2^k`; the caller bounds `k`.
    pub fn mul_pow2(&self, k: u32) -> BigInt {
        let mut out = self.clone();
        let mut left = k;
        while left > 0 {
            let step = left.min(29);
            out = out.mul_small(1u32 << step);
            left -= step;
        }
        out
    }

    /// Truncating division by a small divisor: the quotient and whether the remainder is zero,
    /// with the remainder's magnitude.
    pub fn div_small(&self, d: u32) -> (BigInt, u32) {
        let mut rem = 0u64;
        let mut mag = vec![0u32; self.mag.len()];
        for i in (0..self.mag.len()).rev() {
            let cur = rem * BASE + u64::from(self.mag[i]);
            mag[i] = (cur / u64::from(d)) as u32;
            rem = cur % u64::from(d);
        }
        (BigInt { neg: self.neg, mag }.normalized(), rem as u32)
    }

    /// Divides by 10^k rounding away from zero (inf.Dec's `RoundUp`).
    pub fn div_pow10_round_up(&self, k: u64) -> BigInt {
        if self.is_zero() {
            return BigInt::zero();
        }
        if k as usize >= self.digits() {
            // Every digit is dropped and the value is non-zero: one unit away from zero.
            return BigInt::from_i64(self.signum());
        }
        let mut q = self.clone();
        let mut inexact = false;
        let mut left = k;
        while left > 0 {
            let step = left.min(9) as u32;
            let (next, rem) = q.div_small(10u32.pow(step));
            inexact |= rem != 0;
            q = next;
            left -= u64::from(step);
        }
        if inexact {
            q = q.add(&BigInt::from_i64(self.signum()));
        }
        q
    }

    /// Removes factors of `f` (10 or 1024), returning the rest and how many were removed.
    pub fn remove_factors(&self, f: u32) -> (BigInt, i32) {
        let mut q = self.clone();
        let mut times = 0;
        while !q.is_zero() {
            let (next, rem) = q.div_small(f);
            if rem != 0 {
                break;
            }
            q = next;
            times += 1;
        }
        (q, times)
    }

    fn cmp_mag(a: &[u32], b: &[u32]) -> Ordering {
        a.len()
            .cmp(&b.len())
            .then_with(|| a.iter().rev().cmp(b.iter().rev()))
    }

    fn add_mag(a: &[u32], b: &[u32]) -> Vec<u32> {
        let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
        let mut carry = 0u64;
        for i in 0..a.len().max(b.len()) {
            let s = u64::from(*a.get(i).unwrap_or(&0)) + u64::from(*b.get(i).unwrap_or(&0)) + carry;
            out.push((s % BASE) as u32);
            carry = s / BASE;
        }
        if carry > 0 {
            out.push(carry as u32);
        }
        out
    }

    /// `a - b` for magnitudes with `a >= b`.
    fn sub_mag(a: &[u32], b: &[u32]) -> Vec<u32> {
        let mut out = Vec::with_capacity(a.len());
        let mut borrow = 0i64;
        for (i, &limb) in a.iter().enumerate() {
            let mut d = i64::from(limb) - i64::from(*b.get(i).unwrap_or(&0)) - borrow;
            borrow = i64::from(d < 0);
            if d < 0 {
                d += BASE as i64;
            }
            out.push(d as u32);
        }
        out
    }

    /// The sum.
    pub fn add(&self, other: &BigInt) -> BigInt {
        if self.neg == other.neg {
            let mag = BigInt::add_mag(&self.mag, &other.mag);
            return BigInt { neg: self.neg, mag }.normalized();
        }
        match BigInt::cmp_mag(&self.mag, &other.mag) {
            Ordering::Equal => BigInt::zero(),
            Ordering::Greater => BigInt {
                neg: self.neg,
                mag: BigInt::sub_mag(&self.mag, &other.mag),
            }
            .normalized(),
            Ordering::Less => BigInt {
                neg: other.neg,
                mag: BigInt::sub_mag(&other.mag, &self.mag),
            }
            .normalized(),
        }
    }

    /// The nearest `f64` (ties to even, like `big.Float.Float64`).
    pub fn to_f64(&self) -> f64 {
        self.to_string().parse().unwrap_or(f64::NAN)
    }
}

impl PartialOrd for BigInt {
    fn partial_cmp(&self, other: &BigInt) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BigInt {
    fn cmp(&self, other: &BigInt) -> Ordering {
        match (self.neg, other.neg) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => BigInt::cmp_mag(&self.mag, &other.mag),
            (true, true) => BigInt::cmp_mag(&other.mag, &self.mag),
        }
    }
}

impl std::fmt::Display for BigInt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Some((top, rest)) = self.mag.split_last() else {
            return f.write_str("0");
        };
        if self.neg {
            f.write_str("-")?;
        }
        write!(f, "{top}")?;
        for limb in rest.iter().rev() {
            write!(f, "{limb:09}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::BigInt;

    fn big(s: &str) -> BigInt {
        match s.strip_prefix('-') {
            Some(rest) => BigInt::parse_digits(rest).unwrap_or_default().neg(),
            None => BigInt::parse_digits(s).unwrap_or_default(),
        }
    }

    #[test]
    fn arithmetic_round_trips() {
        let a = big("123456789012345678901234567890");
        let b = big("-987654321098765432109876543210");
        assert_eq!(a.add(&b).to_string(), "-864197532086419753208641975320");
        assert_eq!(
            b.add(&a.neg()).to_string(),
            "-1111111110111111111011111111100"
        );
        assert_eq!(
            a.mul_pow10(11).to_string(),
            "12345678901234567890123456789000000000000"
        );
        assert_eq!(big("3").mul_pow2(70).to_string(), "3541774862152233910272");
        assert_eq!(big("1001").div_pow10_round_up(2).to_string(), "11");
        assert_eq!(big("-1000").div_pow10_round_up(2).to_string(), "-10");
        assert_eq!(big("5").div_pow10_round_up(40).to_string(), "1");
        assert_eq!(big("1024000").remove_factors(10), (big("1024"), 3));
        assert_eq!(big("000").to_string(), "0");
        assert!(big("-2") < big("1") && big("-3") < big("-2"));
    }
}
