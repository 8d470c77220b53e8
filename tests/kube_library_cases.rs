//! Conformance: the Kubernetes CEL library cases
//! (`../shared/conformance/kubernetes-cel-library/library_cases.json`, from the API server's
//! `{quantity,semver,ip,cidr,format}_test.go`) scored against `cel::kube` before the evaluator
//! exists. A tiny interpreter here covers what those expressions use — literals, lists, `==`,
//! `&&`, `all`, the library's global and member calls, `optional.of/none` — over the crate's
//! parser; anything else (type checks, compile errors, `type()`) is counted as not covered.
//! Prints coverage and pass rate per file; every covered case must pass. Skips with a notice when
//! the conformance data is absent.

use std::path::PathBuf;

use admission_ls::cel::kube::cidr::{Cidr, is_cidr, parse_cidr};
use admission_ls::cel::kube::format::{ALL, NamedFormat, named};
use admission_ls::cel::kube::ip::{Ip, is_canonical, is_ip, parse_ip};
use admission_ls::cel::kube::quantity::{self, Quantity};
use admission_ls::cel::kube::semver::{self, Semver};
use admission_ls::cel::kube::url::{self as kurl, Url};
use admission_ls::cel::{Ast, BinaryOp, ExprId, ExprKind, Literal, MacroKind, parse};

#[derive(Clone, Debug, PartialEq)]
enum V {
    Bool(bool),
    Int(i64),
    Double(f64),
    Str(String),
    List(Vec<V>),
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
enum Fail {
    Unsupported(String),
    Error(String),
}

type R = Result<V, Fail>;

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
            ExprKind::List { elements } => {
                let ids: Vec<ExprId> = elements.iter().map(|e| e.value).collect();
                self.args(&ids).map(V::List)
            }
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
            _ => unsupported(format!("{op:?}")),
        }
    }
}

fn run(src: &str) -> R {
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

/// Go `regexp.MatchString` for the patterns the non-exact files use: a literal text, optionally
/// followed by `.*` (`.` in the literal also matches itself, which is all these patterns need).
fn matches_pattern(pattern: &str, text: &str) -> bool {
    text.contains(pattern.strip_suffix(".*").unwrap_or(pattern))
}

fn json_equals(v: &V, want: &serde_json::Value, cel_type: Option<&str>) -> bool {
    match (v, want) {
        (V::Bool(b), serde_json::Value::Bool(w)) => b == w,
        (V::Str(s), serde_json::Value::String(w)) => s == w,
        (V::Int(i), serde_json::Value::Number(n)) => {
            cel_type.is_none_or(|t| t == "int") && n.as_i64() == Some(*i)
        }
        (V::Double(d), serde_json::Value::Number(n)) => {
            cel_type.is_none_or(|t| t == "double") && n.as_f64() == Some(*d)
        }
        _ => false,
    }
}

/// `Ok(passed)` when the case is covered, `Err(reason)` when this runner cannot score it.
fn score(case: &serde_json::Value) -> Result<Result<(), String>, String> {
    let text = |v: &serde_json::Value| v.as_str().map(str::to_owned).ok_or("malformed case");
    let expr = text(&case["expr"])?;
    let expect = &case["expect"];
    let exact_errors = matches!(
        case["source_file"].as_str(),
        Some("ip_test.go" | "cidr_test.go")
    );
    let got = match run(&expr) {
        Err(Fail::Unsupported(why)) => return Err(why),
        other => other,
    };
    let ok = match (text(&expect["kind"])?.as_str(), &got) {
        ("value", Ok(v)) => json_equals(v, &expect["value"], expect["cel_type"].as_str()),
        ("cel" | "value_optional_string_list", Ok(v)) => match run(&text(&expect["cel"])?) {
            Ok(want) => *v == want,
            Err(e) => return Err(format!("expected value: {e:?}")),
        },
        ("runtime_error", Err(Fail::Error(e))) => {
            let pattern = text(&expect["pattern"])?;
            if exact_errors {
                *e == pattern
            } else {
                matches_pattern(&pattern, e)
            }
        }
        ("compile_error", _) => return Err("compile errors need the checker".to_owned()),
        _ => false,
    };
    Ok(if ok {
        Ok(())
    } else {
        Err(format!("{expr}: got {got:?}, expected {expect}"))
    })
}

fn data_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/conformance/kubernetes-cel-library/library_cases.json")
}

#[test]
fn library_cases_agree_with_kube_modules() {
    let path = data_path();
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("conformance data not found at {}; skipping", path.display());
        return;
    };
    let json: serde_json::Value = serde_json::from_str(&text).expect("library_cases.json parses");
    let cases = json["cases"].as_array().expect("cases is a list");
    let mut per_file: std::collections::BTreeMap<String, (usize, usize, usize)> =
        Default::default();
    let mut failures = Vec::new();
    for case in cases {
        let file = case["source_file"].as_str().unwrap_or("?").to_owned();
        let entry = per_file.entry(file).or_default();
        entry.0 += 1;
        match score(case) {
            Ok(result) => {
                entry.1 += 1;
                match result {
                    Ok(()) => entry.2 += 1,
                    Err(e) => failures.push(e),
                }
            }
            Err(why) => println!("not covered: {} ({why})", case["expr"]),
        }
    }
    for (file, (total, covered, passed)) in &per_file {
        println!("{file}: {covered}/{total} covered, {passed}/{covered} pass");
    }
    let (covered, passed) = per_file
        .values()
        .fold((0, 0), |a, v| (a.0 + v.1, a.1 + v.2));
    println!(
        "total: {covered}/{} covered, {passed}/{covered} pass",
        cases.len()
    );
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
    assert!(covered >= 150, "coverage dropped to {covered}");
}

/// The loop `format_test.go` runs over the constant formats (not in the JSON).
#[test]
fn every_constant_format_is_named_and_distinct() {
    for (name, f) in ALL {
        assert_eq!(
            run(&format!("format.named('{name}').hasValue()")).ok(),
            Some(V::Bool(true))
        );
        let same = format!("format.named('{name}').value() == format.{name}()");
        assert_eq!(run(&same).ok(), Some(V::Bool(true)), "{name}");
        for (other, g) in ALL {
            let differ = format!("format.{name}() == format.{other}()");
            assert_eq!(run(&differ).ok(), Some(V::Bool(f == g)), "{differ}");
        }
    }
}
