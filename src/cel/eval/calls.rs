//! Operators and calls in the interpreter: `&&`/`||` with commutative error absorption, strict
//! argument evaluation (the first error wins), qualified function names (`optional.of`), and the
//! cost of each call as cel-go's runtime tracker and the Kubernetes estimator charge it.

use super::call_cost::{call_cost, depends_on_result};
use super::cost::{consts, scaled};
use super::functions;
use super::interp::{Interp, Step};
use super::ops::{arith, compare};
use super::value::{ErrorKind, Value};
use crate::cel::ast::{BinaryOp, ExprId, ExprKind, UnaryOp};
use std::cmp::Ordering;

const TRAVERSAL: f64 = consts::STRING_TRAVERSAL_FACTOR;

impl<'a> Interp<'a> {
    pub(crate) fn unary(&mut self, op: UnaryOp, operand: ExprId) -> Step {
        let v = self.eval(operand)?;
        self.cost.charge(1)?;
        Ok(match op {
            UnaryOp::Not => arith::not(&v),
            UnaryOp::Neg => arith::neg(&v),
        })
    }

    pub(crate) fn binary(&mut self, op: BinaryOp, lhs: ExprId, rhs: ExprId) -> Step {
        match op {
            BinaryOp::And => return self.logic(lhs, rhs, false),
            BinaryOp::Or => return self.logic(lhs, rhs, true),
            _ => {}
        }
        let a = self.eval(lhs)?;
        let b = self.eval(rhs)?;
        if a.is_error() {
            return Ok(a);
        }
        if b.is_error() {
            return Ok(b);
        }
        self.cost.charge(binary_cost(op, &a, &b))?;
        if op == BinaryOp::Add {
            // Concatenation allocates before the result can be metered: reserve first.
            self.meter(&a)?;
            self.meter(&b)?;
        }
        let result = apply_binary(op, &a, &b);
        self.check_work()?;
        Ok(result)
    }

    /// `a && b` (`short` = false) and `a || b` (`short` = true): the deciding value wins even
    /// over an error on the other side, in either order.
    fn logic(&mut self, lhs: ExprId, rhs: ExprId, short: bool) -> Step {
        let a = self.eval(lhs)?;
        if matches!(a, Value::Bool(x) if x == short) {
            return Ok(a);
        }
        let b = self.eval(rhs)?;
        Ok(match (&a, &b) {
            (_, Value::Bool(y)) if *y == short => b,
            (Value::Bool(_), Value::Bool(_)) => b,
            (Value::Error(_), _) => a,
            (_, Value::Error(_)) => b,
            _ => Value::no_overload(),
        })
    }

    pub(crate) fn call(
        &mut self,
        id: ExprId,
        target: Option<ExprId>,
        function: &str,
        args: &[ExprId],
    ) -> Step {
        let function = function.strip_prefix('.').unwrap_or(function);
        if self.or_value_compat()
            && function == "orValue"
            && let (Some(receiver), [fallback]) = (target, args)
        {
            return self.or_value_compat_call(receiver, *fallback);
        }
        let (target, qualified) = self.qualify(target, function);
        let name = qualified.as_deref().unwrap_or(function);
        let receiver = match target {
            Some(t) => Some(self.eval(t)?),
            None => None,
        };
        if let Some(done) = short_circuit(name, receiver.as_ref(), args.len()) {
            self.cost.charge(1)?;
            return Ok(done);
        }
        let mut values = Vec::with_capacity(args.len());
        for &arg in args {
            values.push(self.eval(arg)?);
        }
        if let Some(e) = receiver.iter().chain(values.iter()).find(|v| v.is_error()) {
            return Ok(e.clone());
        }
        self.precharge(name, receiver.as_ref(), &values)?;
        let target = receiver.as_ref();
        let after = depends_on_result(name, target);
        if !after {
            self.cost
                .charge(call_cost(name, target, &values, &Value::Null))?;
        }
        let result = match (
            self.external_call(name, target, &values),
            self.checked_type(id),
        ) {
            (Some(value), _) => value,
            (None, Some(ty)) if name == "sum" => functions::lists::typed_sum(target, ty)
                .unwrap_or_else(|| functions::call(name, target, &values)),
            (None, _) => functions::call(name, target, &values),
        };
        if after {
            self.cost
                .charge(call_cost(name, target, &values, &result))?;
        }
        self.meter(&result)?;
        self.check_work()?;
        Ok(result)
    }

    /// Kyverno's `__orValueCompat__(x, y)` (see `Activation::with_or_value_compat`): a strict
    /// function, so both arguments are evaluated and an error in either is the result (cel-go's
    /// `evalBinary`) before its binding sees them.
    fn or_value_compat_call(&mut self, receiver: ExprId, fallback: ExprId) -> Step {
        let value = self.eval(receiver)?;
        let fallback = self.eval(fallback)?;
        self.cost.charge(1)?;
        Ok(match value {
            e @ Value::Error(_) => e,
            _ if fallback.is_error() => fallback,
            Value::Optional(Some(v)) => (*v).clone(),
            Value::Optional(None) => fallback,
            other => other,
        })
    }

    /// The checker's type of node `id`, if the caller passed the types.
    fn checked_type(&self, id: ExprId) -> Option<&'a crate::cel::types::Type> {
        self.types?.get(id.index())
    }

    /// `ns.f(…)` where `ns` is not a variable: the global function `ns.f`.
    fn qualify(
        &mut self,
        target: Option<ExprId>,
        function: &str,
    ) -> (Option<ExprId>, Option<String>) {
        let Some(t) = target else {
            return (None, None);
        };
        if let ExprKind::Ident(ns) = &self.ast.expr(t).kind {
            let full = format!(
                "{}.{function}",
                ns.text.strip_prefix('.').unwrap_or(&ns.text)
            );
            let known = functions::is_qualified_function(&full) || self.external_qualified(&full);
            if known && self.lookup(&ns.text).is_none() {
                return (None, Some(full));
            }
        }
        (Some(t), None)
    }

    /// Reserves memory for calls whose output size is known from their arguments.
    fn precharge(
        &mut self,
        name: &str,
        target: Option<&Value>,
        args: &[Value],
    ) -> Result<(), super::value::EvalError> {
        match (name, target, args) {
            ("lists.range", None, [Value::Int(n)]) => {
                self.cost.allocate(((*n).max(0) as u64).saturating_mul(8))
            }
            ("replace", Some(Value::String(s)), [Value::String(from), Value::String(to), ..]) => {
                self.cost.allocate(replaced_len(s, from, to))
            }
            _ => Ok(()),
        }
    }

    /// Stops once comparison work is spent (see `work`).
    fn check_work(&self) -> Result<(), super::value::EvalError> {
        if super::work::exhausted() {
            return Err(super::value::EvalError::new(
                super::value::ErrorKind::CostLimit,
                super::cost::COST_LIMIT_MESSAGE,
            ));
        }
        Ok(())
    }

    /// Charges the allocation meter for a produced string, bytes, list or map.
    pub(crate) fn meter(&mut self, v: &Value) -> Result<(), super::value::EvalError> {
        let units = match v {
            Value::String(s) => s.len() as u64,
            Value::Bytes(b) => b.len() as u64,
            Value::List(l) => 8 * l.len() as u64,
            Value::Map(m) => 8 * m.len() as u64,
            _ => return Ok(()),
        };
        self.cost.allocate(units)
    }
}

/// An upper bound of the length of `s.replace(from, to)`, computed without building it.
fn replaced_len(s: &str, from: &str, to: &str) -> u64 {
    let count = if from.is_empty() {
        s.chars().count() as u64 + 1
    } else {
        s.matches(from).count() as u64
    };
    (s.len() as u64).saturating_add(count.saturating_mul(to.len() as u64))
}

/// `opt.or(x)` and `opt.orValue(x)` do not evaluate `x` when `opt` has a value (cel-go plans
/// them as short-circuiting calls).
fn short_circuit(name: &str, receiver: Option<&Value>, argc: usize) -> Option<Value> {
    match (name, receiver, argc) {
        ("or", Some(r @ Value::Optional(Some(_))), 1) => Some(r.clone()),
        ("orValue", Some(Value::Optional(Some(v))), 1) => Some((**v).clone()),
        _ => None,
    }
}

fn apply_binary(op: BinaryOp, a: &Value, b: &Value) -> Value {
    let ordered = |want: fn(Ordering) -> bool| match compare::compare(a, b) {
        Ok(Some(o)) => Value::Bool(want(o)),
        Ok(None) => Value::Bool(false),
        Err(()) => Value::no_overload(),
    };
    match op {
        BinaryOp::Eq => Value::Bool(compare::equals(a, b)),
        BinaryOp::Ne => Value::Bool(!compare::equals(a, b)),
        BinaryOp::Lt => ordered(|o| o == Ordering::Less),
        BinaryOp::Le => ordered(|o| o != Ordering::Greater),
        BinaryOp::Gt => ordered(|o| o == Ordering::Greater),
        BinaryOp::Ge => ordered(|o| o != Ordering::Less),
        BinaryOp::In => compare::contains(b, a),
        BinaryOp::Add => arith::add(a, b),
        BinaryOp::Sub => arith::sub(a, b),
        BinaryOp::Mul => arith::mul(a, b),
        BinaryOp::Div => arith::div(a, b),
        BinaryOp::Rem => arith::rem(a, b),
        BinaryOp::And | BinaryOp::Or => Value::error(ErrorKind::NoSuchOverload, "no such overload"),
    }
}

fn is_text(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Bytes(_))
}

/// cel-go's runtime cost of a binary operator.
fn binary_cost(op: BinaryOp, a: &Value, b: &Value) -> u64 {
    let (sa, sb) = (a.cost_size(), b.cost_size());
    match op {
        BinaryOp::Eq | BinaryOp::Ne => scaled(sa.min(sb), TRAVERSAL),
        BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge if is_text(a) && is_text(b) => {
            scaled(sa.min(sb), TRAVERSAL)
        }
        BinaryOp::Add if is_text(a) && is_text(b) => scaled(sa + sb, TRAVERSAL),
        BinaryOp::In if matches!(b, Value::List(_)) => sb,
        _ => 1,
    }
}
