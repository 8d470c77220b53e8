//! `net.IP`: the Kubernetes IP library over Go's `netip.ParseAddr`, with the library's own
//! rejections (zones, IPv4-mapped IPv6) and error texts. `ip()` error texts embed Go's, so the
//! parser below reproduces `netip`'s checks in `netip`'s order (leading zeros in IPv4 octets,
//! more than four hex digits in a group, misplaced embedded IPv4 …).

use super::go::quote;

/// An IPv4 or IPv6 address (never IPv4-mapped, never zoned once it passed [`parse_ip`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ip {
    /// The address as a 128-bit number; IPv4 is stored in the low 32 bits.
    pub(super) bits: u128,
    /// IPv4 rather than IPv6.
    pub(super) is4: bool,
}

fn addr_error(input: &str, msg: &str, at: &str) -> String {
    if at.is_empty() {
        format!("ParseAddr({}): {msg}", quote(input))
    } else {
        format!("ParseAddr({}): {msg} (at {})", quote(input), quote(at))
    }
}

/// `netip.ParseAddr`: the address and its zone (empty when none), or Go's error text.
pub fn netip_parse_addr(s: &str) -> Result<(Ip, &str), String> {
    for b in s.bytes() {
        match b {
            b'.' => {
                return parse_v4(s, s).map(|v| {
                    (
                        Ip {
                            bits: u128::from(v),
                            is4: true,
                        },
                        "",
                    )
                });
            }
            b':' => return parse_v6(s),
            b'%' => return Err(addr_error(s, "missing IPv6 address", "")),
            _ => {}
        }
    }
    Err(addr_error(s, "unable to parse IP", ""))
}

/// Dotted-quad `part` of the address `input` (errors name `input`).
fn parse_v4(input: &str, part: &str) -> Result<u32, String> {
    let b = part.as_bytes();
    let (mut fields, mut val, mut pos, mut digits) = (0u32, 0u32, 0, 0);
    for (i, &c) in b.iter().enumerate() {
        if c.is_ascii_digit() {
            if digits == 1 && val == 0 {
                return Err(addr_error(
                    input,
                    "IPv4 field has octet with leading zero",
                    "",
                ));
            }
            val = val * 10 + u32::from(c - b'0');
            digits += 1;
            if val > 255 {
                return Err(addr_error(input, "IPv4 field has value >255", ""));
            }
        } else if c == b'.' {
            if i == 0 || i == b.len() - 1 || b[i - 1] == b'.' {
                let msg = "IPv4 field must have at least one digit";
                return Err(addr_error(input, msg, &part[i..]));
            }
            if pos == 3 {
                return Err(addr_error(input, "IPv4 address too long", ""));
            }
            fields = fields << 8 | val;
            pos += 1;
            val = 0;
            digits = 0;
        } else {
            return Err(addr_error(input, "unexpected character", &part[i..]));
        }
    }
    if pos < 3 {
        return Err(addr_error(input, "IPv4 address too short", ""));
    }
    Ok(fields << 8 | val)
}

/// One hex group at the start of `s`: its value and length.
fn hex_group(input: &str, s: &str) -> Result<(u32, usize), String> {
    let mut acc = 0u32;
    let mut off = 0;
    for c in s.bytes() {
        let Some(d) = (c as char).to_digit(16) else {
            break;
        };
        acc = (acc << 4) + d;
        if off > 3 {
            return Err(addr_error(
                input,
                "each group must have 4 or less digits",
                s,
            ));
        }
        off += 1;
    }
    if off == 0 {
        let msg = "each colon-separated field must have at least one digit";
        return Err(addr_error(input, msg, s));
    }
    Ok((acc, off))
}

fn parse_v6(input: &str) -> Result<(Ip, &str), String> {
    let (mut s, zone) = match input.find('%') {
        Some(i) if i + 1 == input.len() => {
            return Err(addr_error(input, "zone must be a non-empty string", ""));
        }
        Some(i) => (&input[..i], &input[i + 1..]),
        None => (input, ""),
    };
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if s.starts_with("::") {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Ok((
                Ip {
                    bits: 0,
                    is4: false,
                },
                zone,
            ));
        }
    }
    let mut i = 0;
    while i < 16 {
        let (acc, off) = hex_group(input, s)?;
        if s.as_bytes().get(off) == Some(&b'.') {
            if ellipsis.is_none() && i != 12 {
                let msg = "embedded IPv4 address must replace the final 2 fields of the address";
                return Err(addr_error(input, msg, s));
            }
            if i + 4 > 16 {
                let msg = "too many hex fields to fit an embedded IPv4 at the end of the address";
                return Err(addr_error(input, msg, s));
            }
            let v4 = parse_v4(input, s)?;
            ip[i..i + 4].copy_from_slice(&v4.to_be_bytes());
            s = "";
            i += 4;
            break;
        }
        ip[i] = (acc >> 8) as u8;
        ip[i + 1] = acc as u8;
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if !s.starts_with(':') {
            return Err(addr_error(input, "unexpected character, want colon", s));
        }
        if s.len() == 1 {
            return Err(addr_error(
                input,
                "colon must be followed by more characters",
                s,
            ));
        }
        s = &s[1..];
        if s.starts_with(':') {
            if ellipsis.is_some() {
                return Err(addr_error(input, "multiple :: in address", s));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(addr_error(input, "trailing garbage after address", s));
    }
    expand_ellipsis(input, &mut ip, i, ellipsis)?;
    Ok((
        Ip {
            bits: u128::from_be_bytes(ip),
            is4: false,
        },
        zone,
    ))
}

/// Moves the groups after `::` to the end, zero-filling the gap.
fn expand_ellipsis(
    input: &str,
    ip: &mut [u8; 16],
    filled: usize,
    ellipsis: Option<usize>,
) -> Result<(), String> {
    match ellipsis {
        None if filled < 16 => Err(addr_error(input, "address string too short", "")),
        Some(_) if filled >= 16 => {
            let msg = "the :: must expand to at least one field of zeros";
            Err(addr_error(input, msg, ""))
        }
        Some(e) => {
            let n = 16 - filled;
            ip.copy_within(e..filled, e + n);
            ip[e..e + n].fill(0);
            Ok(())
        }
        None => Ok(()),
    }
}

/// `ip(string)`: Kubernetes' `parseIPAddr` and its error texts.
pub fn parse_ip(s: &str) -> Result<Ip, String> {
    let (ip, zone) = netip_parse_addr(s).map_err(|e| {
        format!(
            "IP Address {} parse error during conversion from string: {e}",
            quote(s)
        )
    })?;
    if !zone.is_empty() {
        return Err(format!(
            "IP address {} with zone value is not allowed",
            quote(s)
        ));
    }
    if ip.is_4in6() {
        return Err(format!(
            "IPv4-mapped IPv6 address {} is not allowed",
            quote(s)
        ));
    }
    Ok(ip)
}

/// `isIP(string)`.
pub fn is_ip(s: &str) -> bool {
    parse_ip(s).is_ok()
}

/// `ip.isCanonical(string)`: whether the string is the address's own string form.
pub fn is_canonical(s: &str) -> Result<bool, String> {
    parse_ip(s).map(|ip| ip.to_string() == s)
}

impl Ip {
    /// Whether this is `::ffff:a.b.c.d`.
    pub(super) fn is_4in6(&self) -> bool {
        !self.is4 && self.bits >> 32 == 0xffff
    }

    /// `family()`: 4 or 6.
    pub fn family(&self) -> i64 {
        if self.is4 { 4 } else { 6 }
    }

    /// The number of address bits: 32 or 128.
    pub fn bit_len(&self) -> u32 {
        if self.is4 { 32 } else { 128 }
    }

    fn first_u16(&self) -> u16 {
        (self.bits >> 112) as u16
    }

    fn v4_octets(&self) -> [u8; 4] {
        (self.bits as u32).to_be_bytes()
    }

    /// `isUnspecified()`: `0.0.0.0` or `::`.
    pub fn is_unspecified(&self) -> bool {
        self.bits == 0
    }

    /// `isLoopback()`: `127.0.0.0/8` or `::1`.
    pub fn is_loopback(&self) -> bool {
        if self.is4 {
            self.v4_octets()[0] == 127
        } else {
            self.bits == 1
        }
    }

    fn is_multicast(&self) -> bool {
        if self.is4 {
            self.v4_octets()[0] & 0xf0 == 0xe0
        } else {
            self.bits >> 120 == 0xff
        }
    }

    /// `isLinkLocalMulticast()`: `224.0.0.0/24` or `ff02::/16` (any flags).
    pub fn is_link_local_multicast(&self) -> bool {
        let o = self.v4_octets();
        if self.is4 {
            o[0] == 224 && o[1] == 0 && o[2] == 0
        } else {
            self.first_u16() & 0xff0f == 0xff02
        }
    }

    /// `isLinkLocalUnicast()`: `169.254.0.0/16` or `fe80::/10`.
    pub fn is_link_local_unicast(&self) -> bool {
        let o = self.v4_octets();
        if self.is4 {
            o[0] == 169 && o[1] == 254
        } else {
            self.first_u16() & 0xffc0 == 0xfe80
        }
    }

    /// `isGlobalUnicast()`: Go's definition (private ranges count as global).
    pub fn is_global_unicast(&self) -> bool {
        if self.is4 && self.bits == 0xffff_ffff {
            return false;
        }
        !self.is_unspecified()
            && !self.is_loopback()
            && !self.is_multicast()
            && !self.is_link_local_unicast()
    }
}

impl std::fmt::Display for Ip {
    /// `netip.Addr.String()`: dotted quad, or RFC 5952 (lower case, first longest zero run of at
    /// least two groups as `::`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is4 {
            let [a, b, c, d] = self.v4_octets();
            return write!(f, "{a}.{b}.{c}.{d}");
        }
        if self.is_4in6() {
            let [a, b, c, d] = self.v4_octets();
            return write!(f, "::ffff:{a}.{b}.{c}.{d}");
        }
        let groups: Vec<u16> = (0..8)
            .map(|i| (self.bits >> (112 - 16 * i)) as u16)
            .collect();
        let (mut start, mut len) = (8, 0);
        let mut i = 0;
        while i < 8 {
            let run = groups[i..].iter().take_while(|g| **g == 0).count();
            if run >= 2 && run > len {
                (start, len) = (i, run);
            }
            i += run.max(1);
        }
        let mut i = 0;
        while i < 8 {
            if i == start {
                f.write_str("::")?;
                i += len;
                continue;
            }
            if i > 0 && i != start + len {
                f.write_str(":")?;
            }
            write!(f, "{:x}", groups[i])?;
            i += 1;
        }
        Ok(())
    }
}
