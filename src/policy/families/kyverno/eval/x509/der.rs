//! A reader of DER (ITU-T X.690), enough for certificates and requests: one element at a time
//! (tag, contents, the whole encoding), object identifiers, integers, bit strings, and the two
//! time forms of RFC 5280. Definite lengths only, as DER requires; every read is bounds-checked
//! and a malformed input is an error, never a panic.

/// A universal or context tag byte.
pub const BOOLEAN: u8 = 0x01;
pub const INTEGER: u8 = 0x02;
pub const BIT_STRING: u8 = 0x03;
pub const OCTET_STRING: u8 = 0x04;
pub const OID: u8 = 0x06;
pub const SEQUENCE: u8 = 0x30;
pub const SET: u8 = 0x31;
pub const UTC_TIME: u8 = 0x17;
pub const GENERALIZED_TIME: u8 = 0x18;

/// One element: its tag byte, its contents and its whole encoding.
#[derive(Clone, Copy, Debug)]
pub struct Element<'d> {
    pub tag: u8,
    pub contents: &'d [u8],
    pub raw: &'d [u8],
}

/// The error of a malformed encoding (the wording of Go's `encoding/asn1`).
pub fn malformed(what: &str) -> String {
    format!("x509: malformed {what}")
}

/// Elements read in turn from a buffer.
#[derive(Clone, Copy, Debug)]
pub struct Reader<'d> {
    rest: &'d [u8],
}

impl<'d> Reader<'d> {
    pub fn new(data: &'d [u8]) -> Reader<'d> {
        Reader { rest: data }
    }

    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The next element, whatever its tag.
    pub fn any(&mut self) -> Result<Element<'d>, String> {
        let bad = || malformed("DER element");
        let (&tag, after_tag) = self.rest.split_first().ok_or_else(bad)?;
        if tag & 0x1f == 0x1f {
            // High tag numbers appear in no field read here.
            return Err(bad());
        }
        let (&first, mut after_len) = after_tag.split_first().ok_or_else(bad)?;
        let length = if first < 0x80 {
            usize::from(first)
        } else {
            let count = usize::from(first & 0x7f);
            if count == 0 || count > 4 {
                return Err(bad());
            }
            let bytes = after_len.get(..count).ok_or_else(bad)?;
            after_len = &after_len[count..];
            bytes.iter().fold(0usize, |n, b| (n << 8) | usize::from(*b))
        };
        let contents = after_len.get(..length).ok_or_else(bad)?;
        let used = self.rest.len() - after_len.len() + length;
        let raw = &self.rest[..used];
        self.rest = &self.rest[used..];
        Ok(Element { tag, contents, raw })
    }

    /// The next element, which must have `tag`.
    pub fn expect(&mut self, tag: u8, what: &str) -> Result<Element<'d>, String> {
        let element = self.any().map_err(|_| malformed(what))?;
        if element.tag == tag {
            Ok(element)
        } else {
            Err(malformed(what))
        }
    }

    /// The next element if it has `tag`; nothing read otherwise.
    pub fn optional(&mut self, tag: u8) -> Result<Option<Element<'d>>, String> {
        if self.rest.first() == Some(&tag) {
            self.any().map(Some)
        } else {
            Ok(None)
        }
    }
}

/// The arcs of an object identifier.
pub fn oid(contents: &[u8]) -> Result<Vec<u64>, String> {
    let mut arcs = Vec::new();
    let mut value: u64 = 0;
    for byte in contents {
        value = value
            .checked_mul(128)
            .map(|v| v | u64::from(byte & 0x7f))
            .ok_or_else(|| malformed("OID"))?;
        if byte & 0x80 == 0 {
            if arcs.is_empty() {
                let first = (value / 40).min(2);
                arcs.push(first);
                arcs.push(value - first * 40);
            } else {
                arcs.push(value);
            }
            value = 0;
        }
    }
    if arcs.is_empty() || contents.last().is_some_and(|b| b & 0x80 != 0) {
        return Err(malformed("OID"));
    }
    Ok(arcs)
}

/// The bytes of a bit string (its unused-bits count dropped).
pub fn bit_string(contents: &[u8]) -> Result<&[u8], String> {
    match contents.split_first() {
        Some((unused, bytes)) if *unused < 8 && (!bytes.is_empty() || *unused == 0) => Ok(bytes),
        _ => Err(malformed("bit string")),
    }
}

/// A two's-complement integer as sign and big-endian magnitude without leading zeros.
pub fn integer(contents: &[u8]) -> Result<(bool, Vec<u8>), String> {
    let (&first, _) = contents.split_first().ok_or_else(|| malformed("integer"))?;
    let negative = first & 0x80 != 0;
    let mut magnitude = contents.to_vec();
    if negative {
        // Two's complement: invert and add one.
        for byte in magnitude.iter_mut() {
            *byte = !*byte;
        }
        for byte in magnitude.iter_mut().rev() {
            let (sum, carry) = byte.overflowing_add(1);
            *byte = sum;
            if !carry {
                break;
            }
        }
    }
    let start = magnitude
        .iter()
        .position(|b| *b != 0)
        .unwrap_or(magnitude.len());
    Ok((negative, magnitude[start..].to_vec()))
}

/// A small integer (a path length, an exponent), if it fits.
pub fn small_integer(contents: &[u8]) -> Result<i64, String> {
    let (negative, magnitude) = integer(contents)?;
    if magnitude.len() > 7 {
        return Err(malformed("integer"));
    }
    let value = magnitude.iter().fold(0i64, |n, b| (n << 8) | i64::from(*b));
    Ok(if negative { -value } else { value })
}

/// The decimal digits of a big-endian magnitude (Go's `big.Int.String`).
pub fn decimal(magnitude: &[u8]) -> String {
    let mut digits: Vec<u8> = Vec::new();
    for byte in magnitude {
        let mut carry = u32::from(*byte);
        for digit in digits.iter_mut() {
            let value = u32::from(*digit) * 256 + carry;
            *digit = (value % 10) as u8;
            carry = value / 10;
        }
        while carry > 0 {
            digits.push((carry % 10) as u8);
            carry /= 10;
        }
    }
    if digits.is_empty() {
        return "0".to_string();
    }
    digits.iter().rev().map(|d| char::from(b'0' + d)).collect()
}

/// A UTCTime or GeneralizedTime as RFC 3339 in UTC (Go formats the parsed time so).
pub fn time(element: &Element) -> Result<String, String> {
    let text = std::str::from_utf8(element.contents).map_err(|_| malformed("time"))?;
    let digits = text.strip_suffix('Z').ok_or_else(|| malformed("time"))?;
    let (year, rest) = match element.tag {
        UTC_TIME if digits.len() == 12 => {
            let yy: u32 = digits[..2].parse().map_err(|_| malformed("time"))?;
            (if yy < 50 { 2000 + yy } else { 1900 + yy }, &digits[2..])
        }
        GENERALIZED_TIME if digits.len() == 14 => (
            digits[..4].parse().map_err(|_| malformed("time"))?,
            &digits[4..],
        ),
        _ => return Err(malformed("time")),
    };
    if !rest.bytes().all(|b| b.is_ascii_digit()) {
        return Err(malformed("time"));
    }
    let part = |i: usize| &rest[i..i + 2];
    Ok(format!(
        "{year:04}-{}-{}T{}:{}:{}Z",
        part(0),
        part(2),
        part(4),
        part(6),
        part(8)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_basic_types() {
        assert_eq!(
            oid(&[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d]),
            Ok(vec![1, 2, 840, 113549])
        );
        assert_eq!(decimal(&[0x01, 0x00, 0x01]), "65537");
        assert_eq!(small_integer(&[0xff]), Ok(-1));
        assert_eq!(small_integer(&[0x00, 0x80]), Ok(128));
        let mut reader = Reader::new(&[0x02, 0x01, 0x05, 0x30]);
        assert_eq!(reader.any().map(|e| e.contents), Ok(&[5u8][..]));
        assert!(reader.any().is_err(), "a truncated element");
        assert!(
            Reader::new(&[0x30, 0x84, 0xff, 0xff, 0xff, 0xff])
                .any()
                .is_err()
        );
    }
}
