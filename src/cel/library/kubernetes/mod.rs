//! The Kubernetes CEL libraries (`apiserver: pkg/cel/library/*.go`), one file each, with the
//! exact signatures and overload ids of the API server.

mod authz;
mod cidr;
mod format;
mod ip;
mod jsonpatch;
mod lists;
mod quantity;
mod regex;
mod semver;
mod urls;

use super::FunctionDecl;

/// Every Kubernetes library function declaration.
pub(super) fn functions() -> Vec<FunctionDecl> {
    let mut out = lists::functions();
    out.extend(regex::functions());
    out.extend(urls::functions());
    out.extend(authz::functions());
    out.extend(quantity::functions());
    out.extend(ip::functions());
    out.extend(cidr::functions());
    out.extend(format::functions());
    out.extend(semver::functions());
    out.extend(jsonpatch::functions());
    out
}
