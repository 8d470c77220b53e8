//! Runtime semantics of the Kubernetes CEL libraries, as plain Rust types and functions that the
//! evaluator binds to CEL overloads. Nothing here knows CEL values; errors carry upstream's text.
//!
//! | CEL | Rust |
//! | --- | --- |
//! | `quantity(s)`, `isQuantity(s)` | [`quantity::parse`] (`Err` → runtime error text, `is_ok` → bool) |
//! | `sign(q)`, `q.isInteger()`, `q.asInteger()`, `q.asApproximateFloat()` | [`quantity::Quantity::sign`], `is_integer`, `as_integer`, `as_approximate_float` |
//! | `q.add(q2\|int)`, `q.sub(q2\|int)` | `add`, `add_int`, `sub`, `sub_int` |
//! | `q.isGreaterThan`, `q.isLessThan`, `q.compareTo`, `==` | `is_greater_than`, `is_less_than`, `compare_to`, `PartialEq` |
//! | `ip(s)`, `isIP(s)`, `ip.isCanonical(s)` | [`ip::parse_ip`], [`ip::is_ip`], [`ip::is_canonical`] |
//! | `ip.family()`, `isUnspecified`, `isLoopback`, `isLinkLocalMulticast`, `isLinkLocalUnicast`, `isGlobalUnicast` | methods of [`ip::Ip`] |
//! | `string(ip)`, `string(cidr)` | `Display` of [`ip::Ip`], [`cidr::Cidr`] |
//! | `cidr(s)`, `isCIDR(s)` | [`cidr::parse_cidr`], [`cidr::is_cidr`] |
//! | `c.containsIP(ip\|s)`, `c.containsCIDR(c2\|s)` | `contains_ip`, `contains_ip_str`, `contains_cidr`, `contains_cidr_str` |
//! | `c.ip()`, `c.masked()`, `c.prefixLength()` | `ip`, `masked`, `prefix_length` |
//! | `==` on `net.IP` / `net.CIDR` | `PartialEq` (the CIDR's unmasked address counts) |
//! | `semver(s[, normalize])`, `isSemver(s[, normalize])` | [`semver::parse_with`], [`semver::is_semver`] |
//! | `v.major()`, `minor()`, `patch()`, `isGreaterThan`, `isLessThan`, `compareTo`, `==` | `major_int`, `minor_int`, `patch_int`, `is_greater_than`, `is_less_than`, `compare_to`, `PartialEq` |
//! | `url(s)`, `isURL(s)` | [`url::parse_url`], [`url::is_url`] |
//! | `u.getScheme()`, `getHost()`, `getHostname()`, `getPort()`, `getEscapedPath()`, `getQuery()`, `==` | `scheme`, `host`, `hostname`, `port`, `escaped_path`, `query` (sorted map), `PartialEq` |
//! | `format.named(n)`, `format.<n>()`, `f.validate(s)`, `==` | [`format::named`], [`format::ALL`], [`format::NamedFormat::validate`] (`None` = `optional.none()`), `PartialEq` |
//!
//! Errors are `Err(String)` with the exact upstream text (quantity: [`quantity::QuantityError`],
//! whose `Display` is the text). Arithmetic on quantities returns `Result` only for this
//! implementation's size bound ([`quantity::QuantityError::TooLarge`]).

mod bigint;
pub mod cidr;
pub mod format;
mod go;
pub mod ip;
#[cfg(test)]
mod net_tests;
pub mod quantity;
pub mod semver;
#[cfg(test)]
mod semver_tests;
pub mod url;
