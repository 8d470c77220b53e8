//! The tree-walking interpreter: one node at a time, errors as values, aborts (cost, depth) as
//! `Err`. Recursion is bounded by `MAX_DEPTH` so hostile nesting cannot overflow the stack.

use std::sync::Arc;

use super::activation::{Activation, Resolved};
use super::cost::{CostTracker, consts};
use super::map::MapValue;
use super::value::{ErrorKind, EvalError, ObjectValue, Value};
use crate::cel::ast::{Ast, ExprId, ExprKind, FieldInit, ListElement, Literal, MapEntry, Name};

/// Deepest evaluation nesting (the parser keeps trees ≤ 250 deep; comprehensions add frames).
const MAX_DEPTH: u32 = 600;

/// Result of evaluating a node: a value (maybe an error value) or an abort.
pub(crate) type Step = Result<Value, EvalError>;

/// Interpreter state for one evaluation.
pub(crate) struct Interp<'a> {
    pub(crate) ast: &'a Ast,
    act: &'a Activation<'a>,
    pub(crate) cost: CostTracker,
    /// Comprehension and bind variables, innermost last.
    pub(crate) scopes: Vec<(&'a str, Value)>,
    /// The checker's type of each node, when the caller has it (see [`super::evaluate_checked`]).
    pub(crate) types: Option<&'a [crate::cel::types::Type]>,
    /// The record of every node's value, when the caller asked for one.
    pub(crate) trace: Option<Box<super::trace::Trace>>,
    depth: u32,
}

/// A value a presence test cannot look into: not a map, list, object, optional or error.
pub(crate) fn is_scalar(value: &Value) -> bool {
    !matches!(
        value,
        Value::Map(_) | Value::List(_) | Value::Object(_) | Value::Optional(_) | Value::Error(_)
    )
}

impl<'a> Interp<'a> {
    /// The caller's function `name`, when the activation has one (`Activation::with_functions`).
    pub(crate) fn external_call(
        &self,
        name: &str,
        target: Option<&Value>,
        args: &[Value],
    ) -> Option<Value> {
        self.act.functions.as_ref()?.call(name, target, args)
    }

    /// Whether the caller's library has the qualified function `name`.
    pub(crate) fn external_qualified(&self, name: &str) -> bool {
        self.act
            .functions
            .as_ref()
            .is_some_and(|f| f.is_qualified(name))
    }

    /// Whether presence tests on scalars are false (unless `Activation::with_strict_presence`).
    pub(crate) fn lenient_presence(&self) -> bool {
        !self.act.strict_presence
    }

    /// Whether the activation asks for Kyverno's `orValue` (see `Activation::with_or_value_compat`).
    pub(crate) fn or_value_compat(&self) -> bool {
        self.act.or_value_compat
    }

    pub(crate) fn new(ast: &'a Ast, act: &'a Activation<'a>, cost: CostTracker) -> Self {
        Interp {
            ast,
            act,
            cost,
            scopes: Vec::new(),
            types: None,
            trace: None,
            depth: 0,
        }
    }

    /// Evaluates node `id`.
    pub(crate) fn eval(&mut self, id: ExprId) -> Step {
        if self.trace.is_some() {
            return self.eval_recorded(id);
        }
        self.eval_nested(id)
    }

    /// [`Self::eval`] that records the node's value. Out of line and cold, and a separate path
    /// rather than a test after the untraced one: keeping the untraced result flowing straight to
    /// the caller (nothing borrows it) is what keeps untraced evaluation at its former speed.
    #[cold]
    #[inline(never)]
    fn eval_recorded(&mut self, id: ExprId) -> Step {
        let result = self.eval_nested(id);
        if let Some(trace) = self.trace.as_deref_mut() {
            trace.record(id, &result);
        }
        result
    }

    /// Evaluates node `id` one level deeper, refusing past [`MAX_DEPTH`].
    #[inline(always)]
    fn eval_nested(&mut self, id: ExprId) -> Step {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(EvalError::new(
                ErrorKind::Depth,
                "operation cancelled: expression nested too deeply",
            ));
        }
        let result = self.eval_kind(id);
        self.depth -= 1;
        result
    }

    fn eval_kind(&mut self, id: ExprId) -> Step {
        let ast = self.ast;
        match &ast.expr(id).kind {
            ExprKind::Literal(lit) => Ok(literal(lit)),
            ExprKind::Ident(name) => self.ident(name),
            ExprKind::Select {
                operand,
                field,
                optional,
            } => self.select(*operand, field, *optional),
            ExprKind::Index {
                operand,
                index,
                optional,
            } => self.index(*operand, *index, *optional),
            ExprKind::Call {
                target,
                function,
                args,
            } => self.call(id, *target, &function.text, args),
            ExprKind::Unary { op, operand } => self.unary(*op, *operand),
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, *lhs, *rhs),
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            } => self.conditional(*cond, *then, *otherwise),
            ExprKind::List { elements } => self.list(elements),
            ExprKind::Map { entries } => self.map(entries),
            ExprKind::Struct { type_name, fields } => self.object(type_name, fields),
            ExprKind::Macro(call) => self.macro_call(id, call),
            ExprKind::Error { .. } => Ok(Value::error(
                ErrorKind::InvalidArgument,
                "expression did not parse",
            )),
        }
    }

    /// The budget left, for lazy variables.
    fn budget(&self) -> Option<u64> {
        self.cost.limit.map(|l| l.saturating_sub(self.cost.cost))
    }

    /// Looks up a variable: scopes, then the activation, then type names.
    pub(crate) fn lookup(&mut self, name: &str) -> Option<Step> {
        if let Some((_, v)) = self.scopes.iter().rev().find(|(n, _)| *n == name) {
            return Some(Ok(v.clone()));
        }
        let budget = self.budget();
        match self.act.resolve(name, budget)? {
            Resolved::Value(v) => Some(Ok(v.clone())),
            Resolved::Computed(computed, first) => {
                let (cost, result) = (computed.cost, computed.result.clone());
                if first && let Err(abort) = self.cost.charge(cost) {
                    return Some(Err(abort));
                }
                Some(match result {
                    Ok(v) => Ok(v),
                    Err(e) if e.kind == ErrorKind::CostLimit => Err(e),
                    Err(e) => Ok(Value::Error(Arc::new(e))),
                })
            }
        }
    }

    fn ident(&mut self, name: &Name) -> Step {
        self.cost.charge(consts::SELECT_AND_IDENT)?;
        let text = name.text.strip_prefix('.').unwrap_or(&name.text);
        if let Some(found) = self.lookup(text) {
            return found;
        }
        if let Some(t) = super::functions::convert::type_ident(text) {
            return Ok(t);
        }
        Ok(Value::error(
            ErrorKind::NoSuchAttribute,
            format!("no such attribute: {text}"),
        ))
    }

    /// `a.b.c` where the whole dotted name is a bound variable (`variables.x`) or a type name
    /// (`net.IP`, `google.protobuf.Timestamp`), as cel-go resolves qualified identifiers.
    pub(super) fn qualified(&mut self, operand: ExprId, field: &Name) -> Option<Step> {
        // Find the root first, without allocating: most selections are on plain variables.
        let root = self.chain_root(operand)?;
        let type_root = matches!(root, "net" | "kubernetes" | "google");
        if !(self.act.has_dotted() || type_root) || self.scopes.iter().any(|(n, _)| *n == root) {
            return None;
        }
        let name = self.dotted_name(operand, &field.text);
        if self.act.contains(&name) {
            return Some(self.charge_then(consts::SELECT_AND_IDENT, |me| me.lookup(&name)));
        }
        let value = super::functions::convert::type_ident(&name);
        value
            .filter(|_| !self.act.contains(root))
            .map(|t| self.cost.charge(consts::SELECT_AND_IDENT).map(|()| t))
    }

    /// The identifier at the root of a chain of plain selections, if it is one.
    fn chain_root(&self, mut at: ExprId) -> Option<&'a str> {
        let ast = self.ast;
        loop {
            match &ast.expr(at).kind {
                ExprKind::Select {
                    operand,
                    optional: false,
                    ..
                } => at = *operand,
                ExprKind::Ident(name) => {
                    return Some(name.text.strip_prefix('.').unwrap_or(&name.text));
                }
                _ => return None,
            }
        }
    }

    /// `a.b.c` of a chain whose root `chain_root` found.
    fn dotted_name(&self, mut at: ExprId, last: &str) -> String {
        let mut parts = vec![last];
        let ast = self.ast;
        loop {
            match &ast.expr(at).kind {
                ExprKind::Select { operand, field, .. } => {
                    parts.push(&field.text);
                    at = *operand;
                }
                ExprKind::Ident(name) => {
                    parts.push(name.text.strip_prefix('.').unwrap_or(&name.text));
                    break;
                }
                _ => break,
            }
        }
        parts.reverse();
        parts.join(".")
    }

    fn charge_then(&mut self, amount: u64, f: impl FnOnce(&mut Self) -> Option<Step>) -> Step {
        self.cost.charge(amount)?;
        f(self).unwrap_or_else(|| {
            Ok(Value::error(
                ErrorKind::NoSuchAttribute,
                "no such attribute",
            ))
        })
    }

    fn select(&mut self, operand: ExprId, field: &Name, optional: bool) -> Step {
        if !optional && let Some(found) = self.qualified(operand, field) {
            return found;
        }
        let base = self.eval(operand)?;
        self.cost.charge(consts::SELECT_AND_IDENT)?;
        if optional && !self.act.strict_presence && is_scalar(&base) {
            return Ok(Value::Optional(None));
        }
        Ok(super::access::select(&base, &field.text, optional))
    }

    fn index(&mut self, operand: ExprId, index: ExprId, optional: bool) -> Step {
        let base = self.eval(operand)?;
        let key = self.eval(index)?;
        self.cost.charge(consts::SELECT_AND_IDENT)?;
        if optional && !self.act.strict_presence && is_scalar(&base) && !key.is_error() {
            return Ok(Value::Optional(None));
        }
        Ok(super::access::index(&base, &key, optional))
    }

    fn conditional(&mut self, cond: ExprId, then: ExprId, otherwise: ExprId) -> Step {
        match self.eval(cond)? {
            Value::Bool(true) => self.eval(then),
            Value::Bool(false) => self.eval(otherwise),
            e @ Value::Error(_) => Ok(e),
            _ => Ok(Value::no_overload()),
        }
    }

    fn list(&mut self, elements: &[ListElement]) -> Step {
        let mut out = Vec::with_capacity(elements.len());
        let mut error = None;
        for element in elements {
            let v = self.eval(element.value)?;
            match (v, element.optional) {
                (e @ Value::Error(_), _) => {
                    error.get_or_insert(e);
                }
                (Value::Optional(Some(inner)), true) => out.push((*inner).clone()),
                (Value::Optional(None), true) => {}
                (_, true) => {
                    error.get_or_insert(Value::no_overload());
                }
                (v, false) => out.push(v),
            }
        }
        self.cost.charge(consts::LIST_CREATE)?;
        self.cost.allocate(8 * out.len() as u64)?;
        Ok(error.unwrap_or_else(|| Value::list(out)))
    }

    fn map(&mut self, entries: &[MapEntry]) -> Step {
        let mut out = MapValue::with_capacity(entries.len());
        let mut error = None;
        for entry in entries {
            let k = self.eval(entry.key)?;
            let v = self.eval(entry.value)?;
            if error.is_some() {
                continue;
            }
            if k.is_error() {
                error = Some(k);
                continue;
            }
            let v = match (v, entry.optional) {
                (e @ Value::Error(_), _) => {
                    error = Some(e);
                    continue;
                }
                (Value::Optional(Some(inner)), true) => (*inner).clone(),
                (Value::Optional(None), true) => continue,
                (_, true) => {
                    error = Some(Value::no_overload());
                    continue;
                }
                (v, false) => v,
            };
            error = insert_entry(&mut out, k, v);
        }
        self.cost.charge(consts::MAP_CREATE)?;
        self.cost.allocate(8 * out.len() as u64)?;
        Ok(error.unwrap_or_else(|| Value::Map(Arc::new(out))))
    }

    fn object(&mut self, type_name: &Name, fields: &[FieldInit]) -> Step {
        let mut out = Vec::with_capacity(fields.len());
        let mut error = None;
        for field in fields {
            let v = self.eval(field.value)?;
            match (v, field.optional) {
                (e @ Value::Error(_), _) => {
                    error.get_or_insert(e);
                }
                (Value::Optional(Some(inner)), true) => {
                    out.push((Arc::from(field.name.text.as_str()), (*inner).clone()))
                }
                (Value::Optional(None), true) => {}
                (_, true) => {
                    error.get_or_insert(Value::no_overload());
                }
                (v, false) => out.push((Arc::from(field.name.text.as_str()), v)),
            }
        }
        self.cost.charge(consts::STRUCT_CREATE)?;
        let name = type_name.text.strip_prefix('.').unwrap_or(&type_name.text);
        Ok(error.unwrap_or_else(|| {
            Value::Object(Arc::new(ObjectValue {
                type_name: Arc::from(name),
                fields: out,
            }))
        }))
    }
}

/// Inserts a literal map entry; the error value for a bad or repeated key.
fn insert_entry(out: &mut MapValue, k: Value, v: Value) -> Option<Value> {
    match out.insert(k.clone(), v) {
        Ok(true) => None,
        Ok(false) => Some(Value::error(
            ErrorKind::InvalidArgument,
            format!("Failed with repeated key: {k}"),
        )),
        Err(()) => Some(Value::error(
            ErrorKind::InvalidArgument,
            format!("unsupported key type: {}", k.type_name()),
        )),
    }
}

fn literal(lit: &Literal) -> Value {
    match lit {
        Literal::Null => Value::Null,
        Literal::Bool(b) => Value::Bool(*b),
        Literal::Int(i) => Value::Int(*i),
        Literal::Uint(u) => Value::Uint(*u),
        Literal::Double(d) => Value::Double(*d),
        Literal::String(s) => Value::string(s),
        Literal::Bytes(b) => Value::Bytes(Arc::from(b.as_slice())),
    }
}
