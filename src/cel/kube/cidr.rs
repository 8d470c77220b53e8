//! `net.CIDR`: the Kubernetes CIDR library over Go's `netip.ParsePrefix`. Upstream wraps the
//! parse error twice ("network address parse error during conversion from string: " appears two
//! times in `cidr()`'s error); that is reproduced.

use super::go::quote;
use super::ip::{Ip, netip_parse_addr, parse_ip};

/// An address and a prefix length (the address is not masked: `cidr("10.0.0.1/8").ip()` is
/// `10.0.0.1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cidr {
    addr: Ip,
    bits: u32,
}

const WRAP: &str = "network address parse error during conversion from string: ";

fn prefix_error(input: &str, msg: &str) -> String {
    format!("netip.ParsePrefix({}): {msg}", quote(input))
}

/// `netip.ParsePrefix` with Go's error texts.
fn netip_parse_prefix(s: &str) -> Result<Cidr, String> {
    let Some(slash) = s.rfind('/') else {
        return Err(prefix_error(s, "no '/'"));
    };
    let (addr, zone) = netip_parse_addr(&s[..slash]).map_err(|e| prefix_error(s, &e))?;
    if !zone.is_empty() {
        return Err(prefix_error(s, "IPv6 zones cannot be present in a prefix"));
    }
    let bits_str = &s[slash + 1..];
    let bad = || prefix_error(s, &format!("bad bits after slash: {}", quote(bits_str)));
    if bits_str.len() > 1 && !matches!(bits_str.as_bytes()[0], b'1'..=b'9') {
        return Err(bad());
    }
    let bits: i64 = go_atoi(bits_str).ok_or_else(bad)?;
    if bits < 0 || bits > i64::from(addr.bit_len()) {
        return Err(prefix_error(s, "prefix length out of range"));
    }
    Ok(Cidr {
        addr,
        bits: bits as u32,
    })
}

/// `strconv.Atoi`: an optional sign and decimal digits that fit 64 bits.
fn go_atoi(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `cidr(string)`: the prefix, or upstream's (doubly wrapped) error text.
pub fn parse_cidr(s: &str) -> Result<Cidr, String> {
    let prefix = netip_parse_prefix(s).map_err(|e| format!("{WRAP}{WRAP}{e}"))?;
    if prefix.addr.is_4in6() {
        return Err(format!(
            "{WRAP}IPv4-mapped IPv6 address {} is not allowed",
            quote(s)
        ));
    }
    Ok(prefix)
}

/// `isCIDR(string)`.
pub fn is_cidr(s: &str) -> bool {
    parse_cidr(s).is_ok()
}

/// The mask of the top `bits` bits of a `width`-bit address, in the low bits of a `u128`.
fn mask(bits: u32, width: u32) -> u128 {
    let all = if width == 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    if bits == 0 {
        0
    } else {
        all & !((1u128 << (width - bits)) - 1) & all
    }
}

impl Cidr {
    /// `ip()`: the address as written.
    pub fn ip(&self) -> Ip {
        self.addr
    }

    /// `prefixLength()`.
    pub fn prefix_length(&self) -> i64 {
        i64::from(self.bits)
    }

    /// `masked()`: host bits cleared.
    pub fn masked(&self) -> Cidr {
        let bits = self.addr.bits & mask(self.bits, self.addr.bit_len());
        Cidr {
            addr: Ip { bits, ..self.addr },
            bits: self.bits,
        }
    }

    /// `containsIP(ip)`: same family and the same network bits.
    pub fn contains_ip(&self, ip: &Ip) -> bool {
        ip.is4 == self.addr.is4
            && (ip.bits ^ self.addr.bits) & mask(self.bits, self.addr.bit_len()) == 0
    }

    /// `containsIP(string)`. Upstream passes the parse error to a helper that reports the CIDR
    /// argument instead, so an unparsable string gives "no such overload", not the parse error.
    pub fn contains_ip_str(&self, s: &str) -> Result<bool, String> {
        parse_ip(s)
            .map(|ip| self.contains_ip(&ip))
            .map_err(|_| "no such overload".to_owned())
    }

    /// `containsCIDR(cidr)`: overlapping and no shorter than this prefix.
    pub fn contains_cidr(&self, other: &Cidr) -> bool {
        self.overlaps(other) && self.bits <= other.bits
    }

    /// `containsCIDR(string)`: the string is parsed as `cidr()` would, errors included.
    pub fn contains_cidr_str(&self, s: &str) -> Result<bool, String> {
        parse_cidr(s).map(|c| self.contains_cidr(&c))
    }

    /// `netip.Prefix.Overlaps`.
    fn overlaps(&self, other: &Cidr) -> bool {
        if self.addr.is4 != other.addr.is4 {
            return false;
        }
        let m = mask(self.bits.min(other.bits), self.addr.bit_len());
        self.addr.bits & m == other.addr.bits & m
    }
}

impl std::fmt::Display for Cidr {
    /// `netip.Prefix.String()`: `<ip>/<bits>`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.addr, self.bits)
    }
}
