//! Macros evaluated directly (never expanded): `has`, `cel.bind`, `optMap`/`optFlatMap`, and the
//! comprehensions (`all`, `exists`, `exists_one`, `map`, `filter`, the two-variable forms,
//! `transform*`, `sortBy`) with cel-go's error rules and a per-iteration cost that matches the
//! accumulator steps of cel-go's expansions.

use std::sync::Arc;

use super::functions::lists;
use super::interp::{Interp, Step};
use super::list::ListValue;
use super::map::MapValue;
use super::value::{ErrorKind, Value};
use crate::cel::ast::{ExprId, ExprKind};
use crate::cel::macros::{MacroCall, MacroKind};

/// Cost of one iteration's accumulator steps in cel-go's expansion, before the body: the loop
/// condition and the `__result__` read (`all`: `@not_strictly_false(r)` and `r && p`).
fn iteration_cost(kind: MacroKind) -> u64 {
    match kind {
        MacroKind::All => 3,
        MacroKind::Exists => 4,
        _ => 1,
    }
}

/// The rest of an iteration's accumulator cost once the body's value is known: appending to the
/// result list (`r + [t]`: list 10, `+` 1), counting (`r + 1`), or inserting into a map.
fn accumulate_cost(kind: MacroKind, body: &Value) -> u64 {
    let taken = matches!(body, Value::Bool(true));
    match kind {
        MacroKind::ExistsOne if taken => 1,
        MacroKind::Filter if taken => 12,
        MacroKind::Map | MacroKind::TransformList | MacroKind::SortBy => 11,
        MacroKind::TransformMap => 2,
        MacroKind::TransformMapEntry => 1,
        _ => 0,
    }
}

/// Cost of reading the result after the loop (`exists_one` compares it: `r == 1`).
fn result_cost(kind: MacroKind) -> u64 {
    if kind == MacroKind::ExistsOne { 2 } else { 1 }
}

impl<'a> Interp<'a> {
    pub(crate) fn macro_call(&mut self, id: ExprId, call: &'a MacroCall) -> Step {
        match call.kind {
            MacroKind::Has => self.has(call),
            MacroKind::Bind => self.bind(call),
            MacroKind::OptMap | MacroKind::OptFlatMap => self.opt_map(call),
            _ => self.comprehension(id, call),
        }
    }

    fn with_vars(&mut self, names: &[&'a str], values: Vec<Value>, body: ExprId) -> Step {
        let depth = self.scopes.len();
        for (n, v) in names.iter().zip(values) {
            self.scopes.push((n, v));
        }
        let result = self.eval(body);
        self.scopes.truncate(depth);
        result
    }

    fn has(&mut self, call: &'a MacroCall) -> Step {
        let Some(&arg) = call.args.first() else {
            return Ok(Value::no_overload());
        };
        let ExprKind::Select { operand, field, .. } = &self.ast.expr(arg).kind else {
            return Ok(Value::error(
                ErrorKind::InvalidArgument,
                "invalid argument to has() macro",
            ));
        };
        // `variables` is a lazy map upstream (apiserver `pkg/cel/lazy/lazy.go`): `Find` forces the
        // variable, so a declared one is present unless its evaluation is an error.
        if let Some(found) = self.qualified(*operand, field) {
            return Ok(match found? {
                e @ Value::Error(_) => e,
                _ => Value::Bool(true),
            });
        }
        // Kubernetes sets `PresenceTestHasCost(false)`: the test itself is free.
        let base = self.eval(*operand)?;
        Ok(match &base {
            // A field that holds an error (data a CRD's schema rejects, which the API server
            // converts lazily and so fails on first touch) makes the test fail too.
            Value::Map(m) => match m.get_str(&field.text) {
                Some(error @ Value::Error(_)) => error.clone(),
                found => Value::Bool(found.is_some()),
            },
            Value::Object(o) => Value::Bool(o.field(&field.text).is_some()),
            Value::Optional(None) => Value::Bool(false),
            Value::Optional(Some(v)) => match &**v {
                Value::Map(m) => Value::Bool(m.get_str(&field.text).is_some()),
                other if self.lenient_presence() && super::interp::is_scalar(other) => {
                    Value::Bool(false)
                }
                _ => Value::no_overload(),
            },
            Value::Error(_) => base.clone(),
            other if self.lenient_presence() && super::interp::is_scalar(other) => {
                Value::Bool(false)
            }
            _ => Value::no_overload(),
        })
    }

    fn bind(&mut self, call: &'a MacroCall) -> Step {
        let (Some(var), [init, body]) = (call.vars.first(), call.args.as_slice()) else {
            return Ok(Value::no_overload());
        };
        let value = self.eval(*init)?;
        self.with_vars(&[var.text.as_str()], vec![value], *body)
    }

    fn opt_map(&mut self, call: &'a MacroCall) -> Step {
        let (Some(target), Some(var), Some(body)) = (call.target, call.vars.first(), call.body())
        else {
            return Ok(Value::no_overload());
        };
        let inner = match self.eval(target)? {
            Value::Optional(None) => return Ok(Value::Optional(None)),
            Value::Optional(Some(v)) => (*v).clone(),
            e @ Value::Error(_) => return Ok(e),
            _ => return Ok(Value::no_overload()),
        };
        let result = self.with_vars(&[var.text.as_str()], vec![inner], body)?;
        Ok(match (call.kind, result) {
            (_, e @ Value::Error(_)) => e,
            (MacroKind::OptMap, v) => Value::Optional(Some(Arc::new(v))),
            (_, v @ Value::Optional(_)) => v,
            _ => Value::no_overload(),
        })
    }

    fn comprehension(&mut self, id: ExprId, call: &'a MacroCall) -> Step {
        let (Some(target), Some(body)) = (call.target, call.body()) else {
            return Ok(Value::no_overload());
        };
        let range = self.eval(target)?;
        let two = call.vars.len() == 2;
        let items = match iteration_items(&range, two) {
            Ok(items) => items,
            Err(e) => return Ok(e),
        };
        let names: Vec<&'a str> = call.vars.iter().map(|n| n.text.as_str()).collect();
        let mut run = Run {
            call,
            names,
            body,
            filter: call.filter(),
            state: State::new(call.kind, &range),
        };
        let body_nodes = self.traced_body(call);
        for (index, values) in items.into_iter().enumerate() {
            if let Some(trace) = self.trace.as_deref_mut() {
                trace.forget(&body_nodes);
                let vars = run.names.iter().map(|n| n.to_string());
                trace.record_iteration(id, index, vars.zip(values.iter().cloned()).collect());
            }
            self.cost.charge(iteration_cost(call.kind))?;
            if let Some(done) = self.step(&mut run, values)? {
                return Ok(done);
            }
        }
        self.cost.charge(result_cost(call.kind))?;
        Ok(run.state.finish())
    }

    /// The nodes of a comprehension's filter and body when tracing (none otherwise).
    fn traced_body(&self, call: &MacroCall) -> Vec<ExprId> {
        if self.trace.is_none() {
            return Vec::new();
        }
        call.args
            .iter()
            .flat_map(|a| self.ast.preorder(*a))
            .collect()
    }

    /// One iteration; `Some(result)` ends the loop early.
    fn step(
        &mut self,
        run: &mut Run<'a>,
        values: Vec<Value>,
    ) -> Result<Option<Value>, super::value::EvalError> {
        if let Some(filter) = run.filter {
            match self.with_vars(&run.names, values.clone(), filter)? {
                Value::Bool(true) => {}
                Value::Bool(false) => return Ok(None),
                e @ Value::Error(_) => return Ok(Some(e)),
                _ => return Ok(Some(Value::no_overload())),
            }
        }
        let v = self.with_vars(&run.names, values.clone(), run.body)?;
        self.cost.charge(accumulate_cost(run.call.kind, &v))?;
        let out = run.state.absorb(run.call.kind, values, v);
        // Each produced element is 8 allocation units (see `cost::DEFAULT_ALLOCATION_LIMIT`).
        self.cost.allocate(8)?;
        Ok(out)
    }
}

struct Run<'a> {
    call: &'a MacroCall,
    names: Vec<&'a str>,
    body: ExprId,
    filter: Option<ExprId>,
    state: State,
}

/// The accumulator of a comprehension.
enum State {
    Bool {
        want: bool,
        error: Option<Value>,
    },
    Count(u64),
    List(Vec<Value>),
    Keys {
        keys: Vec<Value>,
        source: Arc<ListValue>,
    },
    Map(MapValue),
}

impl State {
    fn new(kind: MacroKind, range: &Value) -> State {
        match kind {
            MacroKind::All => State::Bool {
                want: true,
                error: None,
            },
            MacroKind::Exists => State::Bool {
                want: false,
                error: None,
            },
            MacroKind::ExistsOne => State::Count(0),
            MacroKind::TransformMap | MacroKind::TransformMapEntry => {
                State::Map(MapValue::default())
            }
            MacroKind::SortBy => State::Keys {
                keys: Vec::new(),
                source: match range {
                    Value::List(l) => l.clone(),
                    _ => Arc::default(),
                },
            },
            _ => State::List(Vec::new()),
        }
    }

    /// Folds one body result in; `Some` ends the loop.
    fn absorb(&mut self, kind: MacroKind, vars: Vec<Value>, v: Value) -> Option<Value> {
        match self {
            State::Bool { want, error } => match v {
                Value::Bool(b) if b != *want => Some(Value::Bool(b)),
                Value::Bool(_) => None,
                e @ Value::Error(_) => {
                    error.get_or_insert(e);
                    None
                }
                _ => {
                    error.get_or_insert(Value::no_overload());
                    None
                }
            },
            State::Count(n) => match v {
                Value::Bool(true) => {
                    *n += 1;
                    None
                }
                Value::Bool(false) => None,
                e @ Value::Error(_) => Some(e),
                _ => Some(Value::no_overload()),
            },
            State::List(out) => absorb_list(kind, out, vars, v),
            State::Keys { keys, .. } => match v {
                e @ Value::Error(_) => Some(e),
                v => {
                    keys.push(v);
                    None
                }
            },
            State::Map(out) => absorb_map(kind, out, vars, v),
        }
    }

    fn finish(self) -> Value {
        match self {
            State::Bool { want, error } => error.unwrap_or(Value::Bool(want)),
            State::Count(n) => Value::Bool(n == 1),
            State::List(out) => Value::list(out),
            State::Keys { keys, source } => {
                lists::member("@sortByAssociatedKeys", &source, &[Value::list(keys)])
            }
            State::Map(out) => Value::Map(Arc::new(out)),
        }
    }
}

fn absorb_list(kind: MacroKind, out: &mut Vec<Value>, vars: Vec<Value>, v: Value) -> Option<Value> {
    match (kind, v) {
        (_, e @ Value::Error(_)) => Some(e),
        (MacroKind::Filter, Value::Bool(true)) => {
            out.extend(vars.into_iter().last());
            None
        }
        (MacroKind::Filter, Value::Bool(false)) => None,
        (MacroKind::Filter, _) => Some(Value::no_overload()),
        (_, v) => {
            out.push(v);
            None
        }
    }
}

fn absorb_map(kind: MacroKind, out: &mut MapValue, vars: Vec<Value>, v: Value) -> Option<Value> {
    let repeated = |k: &Value| {
        Some(Value::error(
            ErrorKind::InvalidArgument,
            format!("insert failed: key {k} already exists"),
        ))
    };
    match (kind, v) {
        (_, e @ Value::Error(_)) => Some(e),
        (MacroKind::TransformMapEntry, Value::Map(entry)) => {
            for (k, val) in entry.entries() {
                if out.insert(k.clone(), val.clone()) != Ok(true) {
                    return repeated(k);
                }
            }
            None
        }
        (MacroKind::TransformMapEntry, _) => Some(Value::no_overload()),
        (_, v) => {
            let key = vars.into_iter().next().unwrap_or(Value::Null);
            match out.insert(key.clone(), v) {
                Ok(true) => None,
                _ => repeated(&key),
            }
        }
    }
}

/// The variable values of each iteration: element (or key) alone, or index/key with value.
fn iteration_items(range: &Value, two: bool) -> Result<Vec<Vec<Value>>, Value> {
    match (range, two) {
        (Value::List(l), false) => Ok(l.iter().map(|v| vec![v.clone()]).collect()),
        (Value::List(l), true) => Ok(l
            .iter()
            .enumerate()
            .map(|(i, v)| vec![Value::Int(i as i64), v.clone()])
            .collect()),
        (Value::Map(m), false) => Ok(m.keys().map(|k| vec![k.clone()]).collect()),
        (Value::Map(m), true) => Ok(m
            .entries()
            .iter()
            .map(|(k, v)| vec![k.clone(), v.clone()])
            .collect()),
        (e @ Value::Error(_), _) => Err(e.clone()),
        _ => Err(Value::no_overload()),
    }
}
