//! Self-checking tables for `ip` and `cidr`: Go `netip` error texts, string forms, predicates.

use super::cidr::{is_cidr, parse_cidr};
use super::ip::{is_canonical, is_ip, parse_ip};

fn show_ip(s: &str) -> String {
    parse_ip(s).map(|ip| ip.to_string()).unwrap_or_else(|e| e)
}

#[test]
fn ip_parse_and_print() {
    let table = [
        ("192.168.0.1", "192.168.0.1"),
        ("2001:DB8::68", "2001:db8::68"),
        ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
        ("2001:0:0:1:0:0:0:1", "2001:0:0:1::1"),
        ("1:0:2:3:4:5:6:7", "1:0:2:3:4:5:6:7"),
        ("::", "::"),
        ("::1", "::1"),
        ("1::", "1::"),
        ("::1.2.3.4", "::102:304"),
        (
            "192.168.0.1.0",
            r#"IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long"#,
        ),
        (
            "2001:db8:::68",
            r#"IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")"#,
        ),
        (
            "010.0.0.1",
            r#"IP Address "010.0.0.1" parse error during conversion from string: ParseAddr("010.0.0.1"): IPv4 field has octet with leading zero"#,
        ),
        (
            "::ffff:1.2.3.4",
            r#"IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed"#,
        ),
        (
            "fe80::1%eth0",
            r#"IP address "fe80::1%eth0" with zone value is not allowed"#,
        ),
        (
            "1.2.3",
            r#"IP Address "1.2.3" parse error during conversion from string: ParseAddr("1.2.3"): IPv4 address too short"#,
        ),
        (
            "1::2::3",
            r#"IP Address "1::2::3" parse error during conversion from string: ParseAddr("1::2::3"): multiple :: in address (at ":3")"#,
        ),
        (
            "12345::",
            r#"IP Address "12345::" parse error during conversion from string: ParseAddr("12345::"): each group must have 4 or less digits (at "12345::")"#,
        ),
        (
            "1:2:3:4:5:6:7:8:9",
            r#"IP Address "1:2:3:4:5:6:7:8:9" parse error during conversion from string: ParseAddr("1:2:3:4:5:6:7:8:9"): trailing garbage after address (at "9")"#,
        ),
        (
            "::1.2.3.04",
            r#"IP Address "::1.2.3.04" parse error during conversion from string: ParseAddr("::1.2.3.04"): IPv4 field has octet with leading zero"#,
        ),
        (
            "abc",
            r#"IP Address "abc" parse error during conversion from string: ParseAddr("abc"): unable to parse IP"#,
        ),
        (
            "",
            r#"IP Address "" parse error during conversion from string: ParseAddr(""): unable to parse IP"#,
        ),
    ];
    for (input, want) in table {
        assert_eq!(show_ip(input), want, "{input}");
    }
}

#[test]
fn ip_predicates() {
    let ip = |s: &str| parse_ip(s).unwrap_or_else(|e| panic!("{e}"));
    assert!(is_ip("192.168.0.1") && !is_ip("192.168.0.1.0"));
    assert_eq!(is_canonical("2001:DB8::68"), Ok(false));
    assert_eq!(is_canonical("2001:db8::68"), Ok(true));
    assert!(is_canonical("127.0.0.1.0").is_err());
    assert_eq!((ip("1.2.3.4").family(), ip("::1").family()), (4, 6));
    assert!(ip("0.0.0.0").is_unspecified() && ip("::").is_unspecified());
    assert!(!ip("127.0.0.1").is_unspecified() && ip("127.0.0.1").is_loopback());
    assert!(ip("::1").is_loopback() && !ip("2001:db8::abcd").is_loopback());
    assert!(
        ip("224.0.0.1").is_link_local_multicast() && !ip("224.0.1.1").is_link_local_multicast()
    );
    assert!(ip("ff02::1").is_link_local_multicast() && !ip("fd00::1").is_link_local_multicast());
    assert!(ip("169.254.169.254").is_link_local_unicast() && ip("fe80::1").is_link_local_unicast());
    assert!(!ip("fd80::1").is_link_local_unicast());
    assert!(ip("192.168.0.1").is_global_unicast() && ip("2001:db8::abcd").is_global_unicast());
    assert!(!ip("255.255.255.255").is_global_unicast() && !ip("ff00::1").is_global_unicast());
    assert!(ip("1.2.3.4") == ip("1.2.3.4") && ip("::") != ip("0.0.0.0"));
}

#[test]
fn cidr_parse_and_ops() {
    let c = |s: &str| parse_cidr(s).unwrap_or_else(|e| panic!("{e}"));
    let ip = |s: &str| parse_ip(s).unwrap_or_else(|e| panic!("{e}"));
    let wrap = "network address parse error during conversion from string: ";
    let err = |s: &str| parse_cidr(s).err().unwrap_or_default();
    assert_eq!(
        err("192.168.0.0/"),
        format!(r#"{wrap}{wrap}netip.ParsePrefix("192.168.0.0/"): bad bits after slash: """#)
    );
    assert_eq!(
        err("10.0.0.0/33"),
        format!(r#"{wrap}{wrap}netip.ParsePrefix("10.0.0.0/33"): prefix length out of range"#)
    );
    assert_eq!(
        err("10.0.0.0/08"),
        format!(r#"{wrap}{wrap}netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08""#)
    );
    assert_eq!(
        err("10.0.0.0"),
        format!(r#"{wrap}{wrap}netip.ParsePrefix("10.0.0.0"): no '/'"#)
    );
    assert_eq!(
        err("1.2.3/8"),
        format!(
            r#"{wrap}{wrap}netip.ParsePrefix("1.2.3/8"): ParseAddr("1.2.3"): IPv4 address too short"#
        )
    );
    assert_eq!(
        err("::ffff:1.2.3.4/120"),
        format!(r#"{wrap}IPv4-mapped IPv6 address "::ffff:1.2.3.4/120" is not allowed"#)
    );
    assert!(is_cidr("0.0.0.0/0") && !is_cidr("fe80::1%eth0/64"));
    let net = c("192.168.0.0/24");
    assert!(net.contains_ip(&ip("192.168.0.1")) && !net.contains_ip(&ip("192.168.1.1")));
    assert_eq!(net.contains_ip_str("192.168.0.9"), Ok(true));
    assert_eq!(
        net.contains_ip_str("nope"),
        Err("no such overload".to_owned())
    );
    assert!(net.contains_cidr(&c("192.168.0.0/25")) && net.contains_cidr(&c("192.168.0.1/32")));
    assert!(!net.contains_cidr(&c("192.168.0.0/23")) && !net.contains_cidr(&c("192.169.0.1/32")));
    assert!(!net.contains_ip(&ip("::1")) && c("0.0.0.0/0").contains_ip(&ip("8.8.8.8")));
    assert_eq!(c("192.168.0.1/24").masked(), net);
    assert_eq!(c("192.168.0.1/24").ip().to_string(), "192.168.0.1");
    assert_eq!(c("2001:db8:1::/32").masked().to_string(), "2001:db8::/32");
    assert_eq!(c("2001:db8::/32").ip(), ip("2001:db8::"));
    assert_eq!(c("2001:db8::/32").prefix_length(), 32);
    assert!(c("2001:db8::/32").contains_cidr(&c("2001:db8::/33")));
    assert!(!c("2001:db8::/32").contains_cidr(&c("2001:db8::/31")));
    assert!(c("::/0").contains_ip(&ip("2001:dc8::1")) && !c("::/0").contains_ip(&ip("1.1.1.1")));
    assert_eq!(c("ffff::/128").masked().to_string(), "ffff::/128");
    assert_ne!(c("10.0.0.1/8"), c("10.0.0.0/8"));
}

/// Go's `TestParseAddr` inputs (zone-free ones), through `netip_parse_addr` and `Display`.
#[test]
fn go_netip_vectors() {
    use super::ip::netip_parse_addr;
    let valid = [
        ("0.0.0.0", "0.0.0.0"),
        ("192.168.140.255", "192.168.140.255"),
        ("::", "::"),
        ("::1", "::1"),
        (
            "fd7a:115c:a1e0:ab12:4843:cd96:626b:430b",
            "fd7a:115c:a1e0:ab12:4843:cd96:626b:430b",
        ),
        ("fd7a:115c::626b:430b", "fd7a:115c::626b:430b"),
        (
            "fd7a:115c:a1e0:ab12:4843:cd96::",
            "fd7a:115c:a1e0:ab12:4843:cd96::",
        ),
        (
            "fd7a:115c:a1e0:ab12:4843:cd96:626b::",
            "fd7a:115c:a1e0:ab12:4843:cd96:626b:0",
        ),
        (
            "fd7a:115c:a1e0::4843:cd96:626b:430b",
            "fd7a:115c:a1e0:0:4843:cd96:626b:430b",
        ),
        ("::ffff:192.168.140.255", "::ffff:192.168.140.255"),
        ("1:2::ffff:192.168.140.255", "1:2::ffff:c0a8:8cff"),
        ("FD9E:1A04:F01D::1", "fd9e:1a04:f01d::1"),
    ];
    for (input, want) in valid {
        let got = netip_parse_addr(input).map(|(ip, _)| ip.to_string());
        assert_eq!(got, Ok(want.to_owned()), "{input}");
    }
    assert_eq!(netip_parse_addr("fe80::1%eth0").map(|(_, z)| z), Ok("eth0"));
    let invalid = [
        "",
        "bad",
        "1234",
        "1.2.3.4%eth0",
        ".1.2.3",
        "1.2.3.",
        "1..2.3",
        "1.2.3.4.5",
        "0300.0250.0214.0377",
        "0xc0.0xa8.0x8c.0xff",
        "192.168.12345",
        "127.0.1",
        "192.1234567",
        "127.1",
        "192.168.300.1",
        "192.168.0.1.5.6",
        "1:2:3:4:5:6:7",
        "1:2:3:4:5:6:7:8:9",
        "1:2:3:4::5:6:7:8",
        "fe801::1",
        "fe80:tail:scal:e::",
        "fe80::1%",
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:192.168.140.255",
        "ffff::ffff:ffff:ffff:ffff:ffff:ffff:192.168.140.255",
        "::ffff:192.168.140.bad",
        "fe80::1::1",
        "fe80:1?:1",
        "fe80:",
        "010.000.015.001",
        "::ffff:1.2.03.4",
    ];
    for input in invalid {
        assert!(netip_parse_addr(input).is_err(), "{input}");
    }
}
