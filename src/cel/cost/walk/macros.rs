//! The macros and `cel.bind`, costed as their cel-go expansions would be, with the accumulator's
//! parts written out: `all` is `@not_strictly_false(@result)` (2) as loop condition and
//! `@result && p` (1, plus `p` unless short-circuited) as step, `exists` the same with a negation
//! (3 and 1), `exists_one` `p ? @result + 1 : @result` (`p` plus 1 or 2) with the result test
//! `@result == 1` (2), `map` and `filter` append a one-element list (`@result + [x]`: 12 plus the
//! element), `transformMap` inserts through `cel.@mapInsert` (3 plus the value), and `cel.bind`
//! keeps the 10 of its empty iteration range.

use super::{Entry, LIST_CREATE, Local, MAP_CREATE, Walker};
use crate::cel::ast::{ExprId, ExprKind};
use crate::cel::cost::{Cost, Size, Step};
use crate::cel::macros::{MacroCall, MacroKind};
use crate::cel::types::Type;

impl Walker<'_> {
    pub(super) fn macro_call(&mut self, id: ExprId, call: &MacroCall) -> Cost {
        match call.kind {
            MacroKind::Has => self.has(call),
            MacroKind::Bind => self.bind(id, call),
            MacroKind::OptMap | MacroKind::OptFlatMap => self.opt_map(id, call),
            _ => self.comprehension(id, call),
        }
    }

    /// `has(a.f)`: Kubernetes sets `PresenceTestHasCost(false)`, so only the operand costs.
    fn has(&mut self, call: &MacroCall) -> Cost {
        let Some(&arg) = call.args.first() else {
            return Cost::default();
        };
        match &self.ast.expr(arg).kind {
            ExprKind::Select { operand, .. } => self.cost(*operand),
            _ => self.cost(arg),
        }
    }

    /// `cel.bind(x, init, body)`: the empty iteration range (10), the init and the body.
    fn bind(&mut self, id: ExprId, call: &MacroCall) -> Cost {
        let (Some(&init), Some(&body), Some(var)) =
            (call.args.first(), call.args.get(1), call.vars.first())
        else {
            return Cost::default();
        };
        let init_cost = self.cost(init);
        let local = Local {
            name: var.text.clone(),
            path: self.path(init),
            size: self.size(init),
            entry: self.entry(init),
        };
        self.locals.push(local);
        let body_cost = self.cost(body);
        self.locals.pop();
        self.copy_sizes(id, body);
        Cost::fixed(LIST_CREATE).plus(init_cost).plus(body_cost)
    }

    /// `o.optMap(x, e)`: `o.hasValue() ? optional.of(cel.bind(x, o.value(), e)) : optional.none()`.
    fn opt_map(&mut self, id: ExprId, call: &MacroCall) -> Cost {
        let target = call.target.map_or(Cost::default(), |t| self.cost(t));
        let body = call.body().map_or(Cost::default(), |b| self.cost(b));
        self.set_size(id, None);
        // hasValue (1 + target), then value (1 + target), bind (10), optional.of (1) or none (1).
        let then = Cost::fixed(1 + 1 + LIST_CREATE).plus(target).plus(body);
        Cost::fixed(1).plus(target).plus(then.union(Cost::fixed(1)))
    }

    fn comprehension(&mut self, id: ExprId, call: &MacroCall) -> Cost {
        let Some(range) = call.target else {
            return Cost::default();
        };
        let range_cost = self.cost(range);
        let pushed = self.push_iteration_vars(range, call);
        let filter_cost = call.filter().map(|f| self.cost(f));
        let body_id = call.body();
        let body = body_id.map_or(Cost::default(), |b| self.cost(b));
        let body_size = body_id.map(|b| self.size_or_unknown(b));
        let element_size = match call.kind {
            MacroKind::Filter => self.local_size(call, range).unwrap_or(Size::UNKNOWN),
            _ => Size::UNKNOWN,
        };
        for _ in 0..pushed {
            self.locals.pop();
        }
        let shape = Shape::of(call.kind);
        let range_size = self.size_for_cost(range);
        let step = shape.step(body, filter_cost);
        let total = range_cost
            .plus(Cost::fixed(shape.init))
            .plus(Cost::fixed(shape.result))
            .plus(range_size.times(step));
        if shape.init == 0 {
            self.set_size(id, Some(Size::fixed(1)));
        } else {
            self.set_size(id, Some(range_size));
            let appended = match call.kind {
                MacroKind::Filter => Some(element_size),
                MacroKind::Map | MacroKind::TransformList => body_size,
                _ => None,
            };
            if let Some(size) = appended {
                let entry = Entry {
                    list: true,
                    key: Size::fixed(1),
                    value: Size {
                        min: 0,
                        max: size.max,
                    },
                };
                self.set_entry(id, Some(entry));
            }
        }
        total
    }

    /// Pushes the iteration variables of a comprehension over `range`; returns how many.
    fn push_iteration_vars(&mut self, range: ExprId, call: &MacroCall) -> usize {
        let entry = self.entry(range);
        let list = entry.map_or(matches!(self.checked.type_of(range), Type::List(_)), |e| {
            e.list
        });
        let base = self.path(range);
        let with = |step: Step| {
            base.clone().map(|mut p| {
                p.steps.push(step);
                p
            })
        };
        let mut locals = Vec::new();
        match call.vars.as_slice() {
            [single] => {
                let (step, size) = if list {
                    (Step::Items, entry.map(|e| e.value))
                } else {
                    (Step::Keys, entry.map(|e| e.key))
                };
                locals.push((single.text.clone(), with(step), size));
            }
            [key, value, ..] => {
                let (key_step, value_step) = if list {
                    (None, Step::Items)
                } else {
                    (Some(Step::Keys), Step::Values)
                };
                let key_path = key_step.and_then(with);
                locals.push((key.text.clone(), key_path, entry.map(|e| e.key)));
                locals.push((value.text.clone(), with(value_step), entry.map(|e| e.value)));
            }
            [] => {}
        }
        let count = locals.len();
        for (name, path, size) in locals {
            self.locals.push(Local {
                name,
                path,
                size,
                entry: None,
            });
        }
        count
    }

    /// The size of the element variable of a `filter` (its last pushed variable), from the
    /// range's element sizes or else the estimator.
    fn local_size(&self, call: &MacroCall, range: ExprId) -> Option<Size> {
        let local = self.local(&call.vars.last()?.text)?;
        if local.size.is_some() {
            return local.size;
        }
        let Type::List(elem) = self.checked.type_of(range) else {
            return None;
        };
        self.sizes.size(local.path.as_ref(), elem)
    }
}

/// How a comprehension macro's expansion spends: accumulator init, result, and per element.
struct Shape {
    kind: MacroKind,
    init: u64,
    result: u64,
}

impl Shape {
    fn of(kind: MacroKind) -> Shape {
        let (init, result) = match kind {
            MacroKind::All | MacroKind::Exists => (0, 1),
            MacroKind::ExistsOne => (0, 2),
            MacroKind::TransformMap | MacroKind::TransformMapEntry => (MAP_CREATE, 1),
            _ => (LIST_CREATE, 1),
        };
        Shape { kind, init, result }
    }

    /// Loop condition plus step, for one element.
    fn step(&self, body: Cost, filter: Option<Cost>) -> Cost {
        let short_circuit = |fixed: u64| Cost {
            min: fixed,
            max: fixed.saturating_add(body.max),
        };
        let produce = match self.kind {
            MacroKind::All => return short_circuit(3),
            MacroKind::Exists => return short_circuit(4),
            MacroKind::ExistsOne => return body.plus(Cost { min: 1, max: 2 }),
            MacroKind::Filter => return body.plus(Cost { min: 1, max: 13 }),
            MacroKind::TransformMap => body.plus(Cost::fixed(3)),
            MacroKind::TransformMapEntry => body.plus(Cost::fixed(2)),
            _ => body.plus(Cost::fixed(12)),
        };
        match filter {
            Some(filter) => filter.plus(produce.union(Cost::fixed(1))),
            None => produce,
        }
    }
}
