//! Runtime semantics of the Kubernetes CEL libraries (apiserver `pkg/cel/library`), as plain Rust
//! types and functions for the evaluator to bind to the CEL overloads. Nothing here knows CEL
//! values; every error is `Err` with upstream's exact text, which the evaluator turns into a CEL
//! runtime error as is.
//!
//! Binding table (upstream overload id → Rust):
//!
//! | overload id(s) | Rust |
//! | --- | --- |
//! | `string_to_quantity`, `is_quantity_string` | [`quantity::parse`] (`Err(e)` → `e.to_string()`; `isQuantity` = `is_ok`) |
//! | `quantity_sign` (global `sign(q)`) | [`quantity::Quantity::sign`] |
//! | `quantity_is_integer`, `quantity_get_int`, `quantity_get_float` | `is_integer`, `as_integer`, `as_approximate_float` |
//! | `quantity_add`, `quantity_add_int`, `quantity_sub`, `quantity_sub_int` | `add`, `add_int`, `sub`, `sub_int` |
//! | `quantity_is_greater_than`, `quantity_is_less_than`, `quantity_compare_to`, `==` | `is_greater_than`, `is_less_than`, `compare_to`, `PartialEq` |
//! | `string_to_ip`, `is_ip`, `ip_is_canonical` | [`ip::parse_ip`], [`ip::is_ip`], [`ip::is_canonical`] |
//! | `ip_family`, `ip_is_unspecified`, `ip_is_loopback`, `ip_is_link_local_multicast`, `ip_is_link_local_unicast`, `ip_is_global_unicast` | methods of [`ip::Ip`] |
//! | `ip_to_string`, `cidr_to_string` | `Display` of [`ip::Ip`], [`cidr::Cidr`] |
//! | `string_to_cidr`, `is_cidr` | [`cidr::parse_cidr`], [`cidr::is_cidr`] |
//! | `cidr_contains_ip_ip`, `cidr_contains_ip_string` | [`cidr::Cidr::contains_ip`], `contains_ip_str` |
//! | `cidr_contains_cidr`, `cidr_contains_cidr_string` | `contains_cidr`, `contains_cidr_str` |
//! | `cidr_ip`, `cidr_masked`, `cidr_prefix_length` | `ip`, `masked`, `prefix_length` |
//! | `==` on `net.IP` / `net.CIDR` | `PartialEq` (a CIDR's unmasked address counts) |
//! | `string_to_semver`, `string_bool_to_semver` | [`semver::parse_with`] (`normalize` = the bool, else `false`) |
//! | `is_semver_string`, `is_semver_string_bool` | [`semver::is_semver`] |
//! | `semver_major`, `semver_minor`, `semver_patch` | `major_int`, `minor_int`, `patch_int` |
//! | `semver_is_greater_than`, `semver_is_less_than`, `semver_compare_to`, `==` | `is_greater_than`, `is_less_than`, `compare_to`, `PartialEq` |
//! | `string_to_url`, `is_url_string` | [`url::parse_url`], [`url::is_url`] |
//! | `url_get_scheme`, `url_get_host`, `url_get_hostname`, `url_get_port`, `url_get_escaped_path` | `scheme`, `host`, `hostname`, `port`, `escaped_path` |
//! | `url_get_query` | `query` (a sorted map of key → values; CEL map order does not matter) |
//! | `==` on `kubernetes.URL` | `PartialEq` (Go's `String()` forms) |
//! | `format-named`, `format.<name>()` | [`format::named`] (`None` = `optional.none()`), [`format::ALL`] |
//! | `format-validate` | [`format::NamedFormat::validate`] (`None` = `optional.none()`, else the list) |
//! | `==` on `kubernetes.NamedFormat` | `PartialEq` (names) |
//!
//! Quantity arithmetic returns `Result` only because of this implementation's size bound
//! ([`quantity::QuantityError::TooLarge`]); upstream has none. Upstream quirks are kept and
//! documented where they live (e.g. `containsIP` of an unparsable string is "no such overload",
//! `asInteger` fails for every decimal-backed quantity).

mod bigint;
pub mod cidr;
pub mod format;
pub(crate) mod go;
pub mod ip;
#[cfg(test)]
mod net_tests;
pub mod quantity;
pub mod semver;
#[cfg(test)]
mod semver_tests;
pub mod url;
