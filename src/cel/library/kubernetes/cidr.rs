//! Kubernetes CIDR library (`cidr.go`, 1.30): `cidr`, `isCIDR` and the `net.CIDR` operations.

use super::super::build::*;
use super::super::{FunctionDecl, Library};
use crate::cel::types::Type;

const CIDR: Library = Library::Cidr;

/// The CIDR functions.
pub(super) fn functions() -> Vec<FunctionDecl> {
    let cidr = Type::cidr;
    let ip = Type::ip;
    vec![
        func(
            CIDR,
            "cidr",
            "Parses an IPv4 or IPv6 subnet in CIDR notation such as '10.0.0.0/8'.",
            &["cidr('10.0.0.0/8').prefixLength() // 8"],
        )
        .global("string_to_cidr", [STRING], cidr())
        .done(),
        func(
            CIDR,
            "isCIDR",
            "Whether `cidr()` would accept the string.",
            &["isCIDR('192.168.0.0/16') // true"],
        )
        .global("is_cidr", [STRING], BOOL)
        .done(),
        func(
            CIDR,
            "containsIP",
            "Whether the subnet contains the address, given as a string or an IP.",
            &["cidr('10.0.0.0/8').containsIP('10.1.2.3') // true"],
        )
        .member("cidr_contains_ip_string", [cidr(), STRING], BOOL)
        .member("cidr_contains_ip_ip", [cidr(), ip()], BOOL)
        .done(),
        func(
            CIDR,
            "containsCIDR",
            "Whether the subnet contains the other subnet, given as a string or a CIDR.",
            &["cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') // true"],
        )
        .member("cidr_contains_cidr_string", [cidr(), STRING], BOOL)
        .member("cidr_contains_cidr", [cidr(), cidr()], BOOL)
        .done(),
        func(
            CIDR,
            "ip",
            "The address part of a CIDR, as written.",
            &["cidr('10.0.0.1/8').ip() == ip('10.0.0.1') // true"],
        )
        .member("cidr_ip", [cidr()], ip())
        .done(),
        func(
            CIDR,
            "prefixLength",
            "The number of leading one bits of the mask.",
            &["cidr('192.168.0.0/24').prefixLength() // 24"],
        )
        .member("cidr_prefix_length", [cidr()], INT)
        .done(),
        func(
            CIDR,
            "masked",
            "The subnet with the host bits cleared.",
            &["cidr('10.1.2.3/8').masked() == cidr('10.0.0.0/8') // true"],
        )
        .member("cidr_masked", [cidr()], cidr())
        .done(),
        func(
            CIDR,
            "string",
            "The text form of a CIDR.",
            &["string(cidr('10.0.0.0/8')) // '10.0.0.0/8'"],
        )
        .global("cidr_to_string", [cidr()], STRING)
        .done(),
    ]
}
