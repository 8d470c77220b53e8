//! A tiny interpreter for the library-case expressions, shared by `kube_library_cases.rs`: literals,
//! lists, string-keyed maps, `!`, `==`, `!=`, `<`, `>`, `&&`, `||`, indexing, `all`, and the
//! Kubernetes library calls bound to `cel::kube`. Anything else is `Fail::Unsupported`.

use std::collections::BTreeMap;

use admission_ls::cel::kube::cidr::{Cidr, is_cidr, parse_cidr};
use admission_ls::cel::kube::format::{NamedFormat, named};
use admission_ls::cel::kube::ip::{Ip, is_canonical, is_ip, parse_ip};
use admission_ls::cel::kube::quantity::{self, Quantity};
use admission_ls::cel::kube::semver::{self, Semver};
use admission_ls::cel::kube::url::{self as kurl, Url};
use admission_ls::cel::{Ast, BinaryOp, ExprId, ExprKind, Literal, MacroKind, UnaryOp, parse};

#[derive(Clone, Debug, PartialEq)]
pub enum V {
    Bool(bool),
    Int(i64),
    Double(f64),
    Str(String),
    List(Vec<V>),
    Map(BTreeMap<String, V>),
    Q(Quantity),
    Ip(Ip),
    Cidr(Cidr),
    Sv(Semver),
    Url(Url),
    Fmt(NamedFormat),
    Opt(Option<Box<V>>),
}

/// Why an expression has no value: outside what this runner can evaluate, or a CEL error.
#[derive(Debug)]
pub enum Fail {
    Unsupported(String),
    Error(String),
}

pub type R = Result<V, Fail>;

fn unsupported<T>(what: impl std::fmt::Display) -> Result<T, Fail> {
    Err(Fail::Unsupported(what.to_string()))
}

fn lift<T>(r: Result<T, String>, f: impl FnOnce(T) -> V) -> R {
    r.map(f).map_err(Fail::Error)
}

fn str_arg(args: &[V], i: usize) -> Result<&str, Fail> {
    match args.get(i) {
        Some(V::Str(s)) => Ok(s),
        other => unsupported(format!("string argument expected, got {other:?}")),
    }
}

fn global(name: &str, args: &[V]) -> R {
    let s = || str_arg(args, 0);
    let normalize = matches!(args.get(1), Some(V::Bool(true)));
    Ok(match (name, args) {
        ("quantity", _) => return lift(quantity::parse(s()?).map_err(|e| e.to_string()), V::Q),
        ("isQuantity", _) => V::Bool(quantity::parse(s()?).is_ok()),
        ("sign", [V::Q(q)]) => V::Int(q.sign()),
        ("ip", _) => return lift(parse_ip(s()?), V::Ip),
        ("isIP", _) => V::Bool(is_ip(s()?)),
        ("ip.isCanonical", _) => return lift(is_canonical(s()?), V::Bool),
        ("cidr", _) => return lift(parse_cidr(s()?), V::Cidr),
        ("isCIDR", _) => V::Bool(is_cidr(s()?)),
        ("string", [V::Ip(ip)]) => V::Str(ip.to_string()),
        ("string", [V::Cidr(c)]) => V::Str(c.to_string()),
        ("semver", _) => return lift(semver::parse_with(s()?, normalize), V::Sv),
        ("isSemver", _) => V::Bool(semver::is_semver(s()?, normalize)),
        ("url", _) => return lift(kurl::parse_url(s()?), V::Url),
        ("isURL", _) => V::Bool(kurl::is_url(s()?)),
        ("format.named", _) => V::Opt(named(s()?).map(|f| Box::new(V::Fmt(f)))),
        ("optional.none", []) => V::Opt(None),
        ("optional.of", [v]) => V::Opt(Some(Box::new(v.clone()))),
        _ => match name.strip_prefix("format.").and_then(named) {
            Some(f) if args.is_empty() => V::Fmt(f),
            _ => return unsupported(format!("global {name}")),
        },
    })
}

fn quantity_member(q: &Quantity, name: &str, args: &[V]) -> R {
    let q_err =
        |r: Result<Quantity, quantity::QuantityError>| lift(r.map_err(|e| e.to_string()), V::Q);
    Ok(match (name, args) {
        ("isInteger", []) => V::Bool(q.is_integer()),
        ("asInteger", []) => return lift(q.as_integer().map_err(str::to_owned), V::Int),
        ("asApproximateFloat", []) => V::Double(q.as_approximate_float()),
        ("add", [V::Q(o)]) => return q_err(q.add(o)),
        ("add", [V::Int(i)]) => return q_err(q.add_int(*i)),
        ("sub", [V::Q(o)]) => return q_err(q.sub(o)),
        ("sub", [V::Int(i)]) => return q_err(q.sub_int(*i)),
        ("isGreaterThan", [V::Q(o)]) => V::Bool(q.is_greater_than(o)),
        ("isLessThan", [V::Q(o)]) => V::Bool(q.is_less_than(o)),
        ("compareTo", [V::Q(o)]) => V::Int(q.compare_to(o)),
        _ => return unsupported(format!("quantity.{name}")),
    })
}

fn member(recv: &V, name: &str, args: &[V]) -> R {
    Ok(match (recv, name, args) {
        (V::Q(q), _, _) => return quantity_member(q, name, args),
        (V::Ip(ip), "family", []) => V::Int(ip.family()),
        (V::Ip(ip), "isUnspecified", []) => V::Bool(ip.is_unspecified()),
        (V::Ip(ip), "isLoopback", []) => V::Bool(ip.is_loopback()),
        (V::Ip(ip), "isLinkLocalMulticast", []) => V::Bool(ip.is_link_local_multicast()),
        (V::Ip(ip), "isLinkLocalUnicast", []) => V::Bool(ip.is_link_local_unicast()),
        (V::Ip(ip), "isGlobalUnicast", []) => V::Bool(ip.is_global_unicast()),
        (V::Cidr(c), "containsIP", [V::Ip(ip)]) => V::Bool(c.contains_ip(ip)),
        (V::Cidr(c), "containsIP", [V::Str(s)]) => return lift(c.contains_ip_str(s), V::Bool),
        (V::Cidr(c), "containsCIDR", [V::Cidr(o)]) => V::Bool(c.contains_cidr(o)),
        (V::Cidr(c), "containsCIDR", [V::Str(s)]) => return lift(c.contains_cidr_str(s), V::Bool),
        (V::Cidr(c), "ip", []) => V::Ip(c.ip()),
        (V::Cidr(c), "masked", []) => V::Cidr(c.masked()),
        (V::Cidr(c), "prefixLength", []) => V::Int(c.prefix_length()),
        (V::Sv(v), "major", []) => V::Int(v.major_int()),
        (V::Sv(v), "minor", []) => V::Int(v.minor_int()),
        (V::Sv(v), "patch", []) => V::Int(v.patch_int()),
        (V::Sv(v), "isGreaterThan", [V::Sv(o)]) => V::Bool(v.is_greater_than(o)),
        (V::Sv(v), "isLessThan", [V::Sv(o)]) => V::Bool(v.is_less_than(o)),
        (V::Sv(v), "compareTo", [V::Sv(o)]) => V::Int(v.compare_to(o)),
        (V::Url(u), "getScheme", []) => V::Str(u.scheme().to_owned()),
        (V::Url(u), "getHost", []) => V::Str(u.host()),
        (V::Url(u), "getHostname", []) => V::Str(u.hostname()),
        (V::Url(u), "getPort", []) => V::Str(u.port()),
        (V::Url(u), "getEscapedPath", []) => V::Str(u.escaped_path()),
        (V::Url(u), "getQuery", []) => V::Map(
            u.query()
                .into_iter()
                .map(|(k, vs)| (k, V::List(vs.into_iter().map(V::Str).collect())))
                .collect(),
        ),
        (V::Fmt(f), "validate", [V::Str(s)]) => V::Opt(
            f.validate(s)
                .map(|errs| Box::new(V::List(errs.into_iter().map(V::Str).collect()))),
        ),
        (V::Opt(o), "hasValue", []) => V::Bool(o.is_some()),
        (V::Opt(Some(v)), "value", []) => (**v).clone(),
        _ => return unsupported(format!("member {name} on {recv:?}")),
    })
}

struct Eval<'a> {
    ast: &'a Ast,
    vars: Vec<(String, V)>,
}

impl Eval<'_> {
    fn args(&mut self, ids: &[ExprId]) -> Result<Vec<V>, Fail> {
        ids.iter().map(|id| self.eval(*id)).collect()
    }

    /// `format.x(…)`, `ip.isCanonical(…)`, `optional.of(…)`: a receiver that is a namespace.
    fn namespace(&self, target: ExprId) -> Option<&str> {
        match &self.ast.expr(target).kind {
            ExprKind::Ident(n) if !self.vars.iter().any(|(v, _)| *v == n.text) => Some(&n.text),
            _ => None,
        }
    }

    fn eval(&mut self, id: ExprId) -> R {
        let ast = self.ast;
        match &ast.expr(id).kind {
            ExprKind::Literal(Literal::Bool(b)) => Ok(V::Bool(*b)),
            ExprKind::Literal(Literal::Int(i)) => Ok(V::Int(*i)),
            ExprKind::Literal(Literal::Double(d)) => Ok(V::Double(*d)),
            ExprKind::Literal(Literal::String(s)) => Ok(V::Str(s.clone())),
            ExprKind::Ident(n) => match self.vars.iter().rev().find(|(v, _)| *v == n.text) {
                Some((_, v)) => Ok(v.clone()),
                None => unsupported(format!("identifier {}", n.text)),
            },
            ExprKind::List { elements } if elements.iter().any(|e| e.optional) => {
                unsupported("optional list element")
            }
            ExprKind::Map { entries } if entries.iter().any(|e| e.optional) => {
                unsupported("optional map entry")
            }
            ExprKind::List { elements } => {
                let ids: Vec<ExprId> = elements.iter().map(|e| e.value).collect();
                self.args(&ids).map(V::List)
            }
            ExprKind::Map { entries } => {
                let mut map = BTreeMap::new();
                for e in entries {
                    let V::Str(k) = self.eval(e.key)? else {
                        return unsupported("non-string map key");
                    };
                    map.insert(k, self.eval(e.value)?);
                }
                Ok(V::Map(map))
            }
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => match self.eval(*operand)? {
                V::Bool(b) => Ok(V::Bool(!b)),
                other => unsupported(format!("!{other:?}")),
            },
            ExprKind::Index {
                operand,
                index,
                optional: false,
            } => match (self.eval(*operand)?, self.eval(*index)?) {
                (V::List(items), V::Int(i)) => usize::try_from(i)
                    .ok()
                    .and_then(|i| items.get(i).cloned())
                    .ok_or_else(|| Fail::Error("index out of range".to_owned())),
                other => unsupported(format!("index {other:?}")),
            },
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, *lhs, *rhs),
            ExprKind::Call {
                target: None,
                function,
                args,
            } => {
                let args = self.args(args)?;
                global(&function.text, &args)
            }
            ExprKind::Call {
                target: Some(t),
                function,
                args,
            } => {
                if let Some(ns) = self.namespace(*t) {
                    let name = format!("{ns}.{}", function.text);
                    let args = self.args(args)?;
                    return global(&name, &args);
                }
                let recv = self.eval(*t)?;
                let args = self.args(args)?;
                member(&recv, &function.text, &args)
            }
            ExprKind::Macro(m) if m.kind == MacroKind::All && m.vars.len() == 1 => {
                let (Some(target), Some(body)) = (m.target, m.body()) else {
                    return unsupported("malformed all");
                };
                let V::List(items) = self.eval(target)? else {
                    return unsupported("all over a non-list");
                };
                for item in items {
                    self.vars.push((m.vars[0].text.clone(), item));
                    let r = self.eval(body);
                    self.vars.pop();
                    if r? != V::Bool(true) {
                        return Ok(V::Bool(false));
                    }
                }
                Ok(V::Bool(true))
            }
            other => unsupported(format!("{other:?}")),
        }
    }

    fn binary(&mut self, op: BinaryOp, lhs: ExprId, rhs: ExprId) -> R {
        let l = self.eval(lhs)?;
        match (op, &l) {
            (BinaryOp::And, V::Bool(false)) => return Ok(V::Bool(false)),
            (BinaryOp::Or, V::Bool(true)) => return Ok(V::Bool(true)),
            _ => {}
        }
        let r = self.eval(rhs)?;
        match op {
            BinaryOp::Eq => Ok(V::Bool(l == r)),
            BinaryOp::Ne => Ok(V::Bool(l != r)),
            BinaryOp::And | BinaryOp::Or => Ok(r),
            BinaryOp::Gt | BinaryOp::Lt => match (&l, &r) {
                (V::Int(a), V::Int(b)) => {
                    Ok(V::Bool(if op == BinaryOp::Gt { a > b } else { a < b }))
                }
                _ => unsupported(format!("{op:?} on {l:?}")),
            },
            _ => unsupported(format!("{op:?}")),
        }
    }
}

pub fn run(src: &str) -> R {
    let parsed = parse(src);
    if !parsed.errors.is_empty() {
        return unsupported(format!("parse errors {:?}", parsed.errors));
    }
    Eval {
        ast: &parsed.ast,
        vars: Vec::new(),
    }
    .eval(parsed.ast.root)
}
