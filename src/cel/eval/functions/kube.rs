//! Bindings of the Kubernetes library functions (quantity, URL, IP, CIDR, semver, named formats)
//! to their semantics in `cel::kube`. Standard dispatch runs first, so a Kubernetes overload can
//! never change a standard one: calls reach here only when the receiver is an opaque value or a
//! global name is not a standard function. Errors carry upstream's text.

use std::sync::Arc;

use super::kube_types::{get, get_dyn, wrap};
use crate::cel::eval::map::MapValue;
use crate::cel::eval::value::{ErrorKind, Opaque, Value};
use crate::cel::kube::{cidr, format, ip, quantity, semver, url};

/// Global Kubernetes functions written with a dot (`ip.isCanonical`, `format.dns1123Label`).
pub fn is_qualified_function(name: &str) -> bool {
    name == "ip.isCanonical" || name.starts_with("format.")
}

fn fail(message: impl Into<String>) -> Value {
    Value::error(ErrorKind::InvalidArgument, message)
}

fn result<T>(r: Result<T, String>, f: impl FnOnce(T) -> Value) -> Value {
    r.map(f).unwrap_or_else(fail)
}

/// A global Kubernetes function, if `name` with these arguments is one.
pub fn global(name: &str, args: &[Value]) -> Option<Value> {
    use Value::{Bool, String as S};
    Some(match (name, args) {
        ("quantity", [S(s)]) => quantity::parse(s)
            .map(wrap)
            .unwrap_or_else(|e| fail(e.to_string())),
        ("isQuantity", [S(s)]) => Bool(quantity::parse(s).is_ok()),
        ("sign", [q]) => Value::Int(get::<quantity::Quantity>(q)?.sign()),
        ("url", [S(s)]) => result(url::parse_url(s), wrap),
        ("isURL", [S(s)]) => Bool(url::is_url(s)),
        ("ip", [S(s)]) => result(ip::parse_ip(s), wrap),
        ("isIP", [S(s)]) => Bool(ip::is_ip(s)),
        ("ip.isCanonical", [S(s)]) => result(ip::is_canonical(s), Bool),
        ("cidr", [S(s)]) => result(cidr::parse_cidr(s), wrap),
        ("isCIDR", [S(s)]) => Bool(cidr::is_cidr(s)),
        ("semver", [S(s)]) => result(semver::parse_with(s, false), wrap),
        ("semver", [S(s), Bool(n)]) => result(semver::parse_with(s, *n), wrap),
        ("isSemver", [S(s)]) => Bool(semver::is_semver(s, false)),
        ("isSemver", [S(s), Bool(n)]) => Bool(semver::is_semver(s, *n)),
        ("string", [Value::Opaque(o)]) => to_string(&**o)?,
        ("format.named", [S(s)]) => Value::Optional(format::named(s).map(|f| Arc::new(wrap(f)))),
        (_, []) if name.starts_with("format.") => wrap(format::named(&name["format.".len()..])?),
        _ => return None,
    })
}

fn to_string(o: &dyn Opaque) -> Option<Value> {
    let text = if let Some(ip) = get_dyn::<ip::Ip>(o) {
        ip.to_string()
    } else {
        get_dyn::<cidr::Cidr>(o)?.to_string()
    };
    Some(Value::string(&text))
}

fn no_overload(name: &str) -> Value {
    Value::error(
        ErrorKind::NoSuchOverload,
        format!("no such overload: {name}"),
    )
}

/// A member function on an opaque receiver.
pub fn member(name: &str, receiver: &dyn Opaque, args: &[Value]) -> Value {
    let found = if let Some(q) = get_dyn::<quantity::Quantity>(receiver) {
        quantity_member(name, q, args)
    } else if let Some(i) = get_dyn::<ip::Ip>(receiver) {
        ip_member(name, i, args)
    } else if let Some(c) = get_dyn::<cidr::Cidr>(receiver) {
        cidr_member(name, c, args)
    } else if let Some(v) = get_dyn::<semver::Semver>(receiver) {
        semver_member(name, v, args)
    } else if let Some(u) = get_dyn::<url::Url>(receiver) {
        url_member(name, u, args)
    } else if let Some(f) = get_dyn::<format::NamedFormat>(receiver) {
        format_member(name, *f, args)
    } else {
        None
    };
    found.unwrap_or_else(|| no_overload(name))
}

fn quantity_member(name: &str, q: &quantity::Quantity, args: &[Value]) -> Option<Value> {
    use quantity::Quantity as Q;
    let arith =
        |r: Result<Q, quantity::QuantityError>| r.map(wrap).unwrap_or_else(|e| fail(e.to_string()));
    Some(match (name, args) {
        ("sign", []) => Value::Int(q.sign()),
        ("isInteger", []) => Value::Bool(q.is_integer()),
        ("asInteger", []) => q.as_integer().map(Value::Int).unwrap_or_else(fail),
        ("asApproximateFloat", []) => Value::Double(q.as_approximate_float()),
        ("isGreaterThan", [o]) => Value::Bool(q.is_greater_than(get::<Q>(o)?)),
        ("isLessThan", [o]) => Value::Bool(q.is_less_than(get::<Q>(o)?)),
        ("compareTo", [o]) => Value::Int(q.compare_to(get::<Q>(o)?)),
        ("add", [Value::Int(i)]) => arith(q.add_int(*i)),
        ("sub", [Value::Int(i)]) => arith(q.sub_int(*i)),
        ("add", [o]) => arith(q.add(get::<Q>(o)?)),
        ("sub", [o]) => arith(q.sub(get::<Q>(o)?)),
        _ => return None,
    })
}

fn ip_member(name: &str, i: &ip::Ip, args: &[Value]) -> Option<Value> {
    if !args.is_empty() {
        return None;
    }
    Some(match name {
        "family" => Value::Int(i.family()),
        "isUnspecified" => Value::Bool(i.is_unspecified()),
        "isLoopback" => Value::Bool(i.is_loopback()),
        "isLinkLocalMulticast" => Value::Bool(i.is_link_local_multicast()),
        "isLinkLocalUnicast" => Value::Bool(i.is_link_local_unicast()),
        "isGlobalUnicast" => Value::Bool(i.is_global_unicast()),
        _ => return None,
    })
}

fn cidr_member(name: &str, c: &cidr::Cidr, args: &[Value]) -> Option<Value> {
    Some(match (name, args) {
        ("containsIP", [Value::String(s)]) => result(c.contains_ip_str(s), Value::Bool),
        ("containsIP", [o]) => Value::Bool(c.contains_ip(get::<ip::Ip>(o)?)),
        ("containsCIDR", [Value::String(s)]) => result(c.contains_cidr_str(s), Value::Bool),
        ("containsCIDR", [o]) => Value::Bool(c.contains_cidr(get::<cidr::Cidr>(o)?)),
        ("ip", []) => wrap(c.ip()),
        ("prefixLength", []) => Value::Int(c.prefix_length()),
        ("masked", []) => wrap(c.masked()),
        _ => return None,
    })
}

fn semver_member(name: &str, v: &semver::Semver, args: &[Value]) -> Option<Value> {
    use semver::Semver as S;
    Some(match (name, args) {
        ("isGreaterThan", [o]) => Value::Bool(v.is_greater_than(get::<S>(o)?)),
        ("isLessThan", [o]) => Value::Bool(v.is_less_than(get::<S>(o)?)),
        ("compareTo", [o]) => Value::Int(v.compare_to(get::<S>(o)?)),
        ("major", []) => Value::Int(v.major_int()),
        ("minor", []) => Value::Int(v.minor_int()),
        ("patch", []) => Value::Int(v.patch_int()),
        _ => return None,
    })
}

fn url_member(name: &str, u: &url::Url, args: &[Value]) -> Option<Value> {
    if !args.is_empty() {
        return None;
    }
    Some(match name {
        "getScheme" => Value::string(u.scheme()),
        "getHost" => Value::string(&u.host()),
        "getHostname" => Value::string(&u.hostname()),
        "getPort" => Value::string(&u.port()),
        "getEscapedPath" => Value::string(&u.escaped_path()),
        "getQuery" => {
            let mut m = MapValue::default();
            for (k, vs) in u.query() {
                m.insert_str(
                    &k,
                    Value::list(vs.iter().map(|v| Value::string(v)).collect()),
                );
            }
            Value::Map(Arc::new(m))
        }
        _ => return None,
    })
}

fn format_member(name: &str, f: format::NamedFormat, args: &[Value]) -> Option<Value> {
    match (name, args) {
        ("validate", [Value::String(s)]) => {
            Some(Value::Optional(f.validate(s).map(|errs| {
                Arc::new(Value::list(errs.iter().map(|e| Value::string(e)).collect()))
            })))
        }
        _ => None,
    }
}

/// The Kubernetes estimator's cost for the library calls bound here (`cost.go` `CallCost`);
/// `None` for other calls. Opaque values have size 1 (they are not sizers).
pub fn call_cost(name: &str, target: Option<&Value>, args: &[Value]) -> Option<u64> {
    use crate::cel::eval::cost::{consts, scaled};
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) => Some(s.chars().count() as u64),
        _ => None,
    };
    let f = consts::STRING_TRAVERSAL_FACTOR;
    Some(match (name, target) {
        ("ip", Some(_)) => 1,
        ("ip", None) => scaled(text(args.first()).unwrap_or(1), f),
        ("ip.isCanonical", _) => scaled(text(args.first()).unwrap_or(1), 2.0 * f),
        ("containsIP", Some(_)) => 1 + text(args.first()).map_or(0, |n| scaled(n, f)),
        ("containsCIDR", Some(_)) => 3 + text(args.first()).map_or(0, |n| scaled(n, f)),
        ("validate", Some(t)) => {
            let regex = get::<format::NamedFormat>(t)?.max_regex_size() as u64;
            let len = text(args.first()).unwrap_or(0);
            scaled(1 + len, f) * scaled(regex, consts::REGEX_LENGTH_FACTOR)
        }
        _ => return None,
    })
}
