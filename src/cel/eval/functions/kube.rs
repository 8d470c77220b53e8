//! Extension point for the Kubernetes library functions that work on opaque types (quantity, URL,
//! IP, CIDR, semver, named formats, the authorizer). Their semantics live in `cel::kube` (written
//! separately); this module is where their calls are bound. Standard dispatch runs first, so a
//! Kubernetes overload can never change a standard one: calls reach here only when the receiver
//! is an opaque value or a global name is not a standard function.
//!
//! To wire a function: match its name and runtime argument shapes in [`global`] or [`member`],
//! returning `Some(value)`; values of the library types are `Value::Opaque` (see `Opaque`).

use crate::cel::eval::value::{ErrorKind, Opaque, Value};

/// Global Kubernetes functions written with a dot (`ip.isCanonical`, `format.dns1123Label`).
pub fn is_qualified_function(name: &str) -> bool {
    name == "ip.isCanonical" || name.starts_with("format.")
}

/// Global names the Kubernetes library declares (`quantity('1Gi')`, `isURL(s)`, …).
const GLOBALS: &[&str] = &[
    "quantity",
    "isQuantity",
    "url",
    "isURL",
    "ip",
    "isIP",
    "ip.isCanonical",
    "cidr",
    "isCIDR",
    "semver",
    "isSemver",
];

/// A global Kubernetes function, if `name` is one.
pub fn global(name: &str, args: &[Value]) -> Option<Value> {
    let _ = args;
    (GLOBALS.contains(&name) || name.starts_with("format.")).then(|| not_available(name))
}

/// A member function on an opaque receiver.
pub fn member(name: &str, receiver: &dyn Opaque, args: &[Value]) -> Value {
    let _ = (receiver, args);
    not_available(name)
}

fn not_available(name: &str) -> Value {
    Value::error(
        ErrorKind::NoSuchOverload,
        format!("no such overload: {name} (the Kubernetes library is not bound in this build)"),
    )
}
