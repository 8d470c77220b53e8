//! Kubernetes IP address library (`ip.go`, 1.30): `ip`, `isIP`, `ip.isCanonical` and the `net.IP`
//! predicates.

use super::super::build::*;
use super::super::{FunctionDecl, Library};
use crate::cel::types::Type;

const IP: Library = Library::Ip;

/// The IP functions.
pub(super) fn functions() -> Vec<FunctionDecl> {
    let ip = Type::ip;
    vec![
        func(IP, "ip", "Parses an IPv4 or IPv6 address; IPv4-mapped IPv6 addresses, zones and leading zeros are rejected.", &["ip('10.0.0.1').family() // 4"])
            .global("string_to_ip", [STRING], ip())
            .done(),
        func(IP, "isIP", "Whether `ip()` would accept the string.", &["isIP('fe80::1') // true"])
            .global("is_ip", [STRING], BOOL)
            .done(),
        func(IP, "ip.isCanonical", "Whether the string is a valid IP address in its canonical form (e.g. IPv6 compressed and lower case).", &["ip.isCanonical('2001:db8::1') // true", "ip.isCanonical('2001:DB8::1') // false"])
            .global("ip_is_canonical", [STRING], BOOL)
            .done(),
        func(IP, "family", "4 for an IPv4 address, 6 for IPv6.", &["ip('::1').family() // 6"])
            .member("ip_family", [ip()], INT)
            .done(),
        func(IP, "isUnspecified", "Whether the address is 0.0.0.0 or ::.", &["ip('0.0.0.0').isUnspecified() // true"])
            .member("ip_is_unspecified", [ip()], BOOL)
            .done(),
        func(IP, "isLoopback", "Whether the address is a loopback address (127.0.0.0/8 or ::1).", &["ip('127.0.0.1').isLoopback() // true"])
            .member("ip_is_loopback", [ip()], BOOL)
            .done(),
        func(IP, "isLinkLocalMulticast", "Whether the address is a link-local multicast address (224.0.0.0/24 or ff02::/16).", &["ip('224.0.0.1').isLinkLocalMulticast() // true"])
            .member("ip_is_link_local_multicast", [ip()], BOOL)
            .done(),
        func(IP, "isLinkLocalUnicast", "Whether the address is a link-local unicast address (169.254.0.0/16 or fe80::/10).", &["ip('169.254.1.1').isLinkLocalUnicast() // true"])
            .member("ip_is_link_local_unicast", [ip()], BOOL)
            .done(),
        func(IP, "isGlobalUnicast", "Whether the address is a global unicast address (not loopback, link-local, multicast or unspecified).", &["ip('8.8.8.8').isGlobalUnicast() // true"])
            .member("ip_is_global_unicast", [ip()], BOOL)
            .done(),
        func(IP, "string", "The canonical text form of an IP address.", &["string(ip('2001:DB8::1')) // '2001:db8::1'"])
            .global("ip_to_string", [ip()], STRING)
            .done(),
    ]
}
