//! The estimator's walk over the tree: cel-go's `coster`, node by node. Sizes, element sizes and
//! paths are kept per node in side tables, and the variables that macros and `cel.bind` introduce
//! on a scope stack.
//!
//! Macros are costed as their cel-go expansions would be, with the accumulator's parts written out:
//! `all` is `@not_strictly_false(@result)` (2) as loop condition and `@result && p` (1, plus `p`
//! unless short-circuited) as step, `exists` the same with a negation (3 and 1), `exists_one`
//! `p ? @result + 1 : @result` (`p` plus 1 or 2) with the result test `@result == 1` (2), `map` and
//! `filter` append a one-element list (`@result + [x]`: 12 plus the element), `transformMap`
//! inserts through `cel.@mapInsert` (3 plus the value), and `cel.bind` keeps the 10 of its empty
//! iteration range.

use super::calls;
use super::{Cost, Path, PathRoot, Size, SizeEstimator, Step};
use crate::cel::ast::{Ast, ExprId, ExprKind, Literal};
use crate::cel::check::{Checked, Reference};
use crate::cel::macros::{MacroCall, MacroKind};
use crate::cel::types::Type;

/// cel-go's base costs (`common/cost.go`).
pub(super) const SELECT: Cost = Cost::fixed(1);
pub(super) const LIST_CREATE: u64 = 10;
const MAP_CREATE: u64 = 30;
const STRUCT_CREATE: u64 = 40;

/// Deeper trees are not costed further; the parser already bounds depth at 250.
const MAX_DEPTH: u32 = 300;

/// The element sizes of a list or map: key (index) and value.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub list: bool,
    pub key: Size,
    pub value: Size,
}

impl Entry {
    fn union(self, other: Entry) -> Entry {
        Entry {
            list: self.list,
            key: self.key.union(other.key),
            value: self.value.union(other.value),
        }
    }
}

/// A variable bound by a macro or `cel.bind`.
struct Local {
    name: String,
    path: Option<Path>,
    size: Option<Size>,
    entry: Option<Entry>,
}

pub(crate) struct Walker<'a> {
    pub ast: &'a Ast,
    pub checked: &'a Checked,
    pub sizes: &'a dyn SizeEstimator,
    computed: Vec<Option<Size>>,
    entries: Vec<Option<Entry>>,
    paths: Vec<Option<Path>>,
    locals: Vec<Local>,
    depth: u32,
    /// Set when an unknown size was used.
    unknown: bool,
}

impl<'a> Walker<'a> {
    pub fn new(ast: &'a Ast, checked: &'a Checked, sizes: &'a dyn SizeEstimator) -> Self {
        Walker {
            ast,
            checked,
            sizes,
            computed: vec![None; ast.len()],
            entries: vec![None; ast.len()],
            paths: vec![None; ast.len()],
            locals: Vec::new(),
            depth: 0,
            unknown: false,
        }
    }

    pub fn run(mut self) -> super::Estimate {
        let root = self.ast.root;
        let cost = self.cost(root);
        super::Estimate {
            cost,
            size: self.size(root),
            elements: self.entry(root).map(|e| e.value),
            unknown: self.unknown,
        }
    }

    /// The cost of `id` and everything under it.
    pub fn cost(&mut self, id: ExprId) -> Cost {
        if self.depth >= MAX_DEPTH {
            return Cost::default();
        }
        self.depth += 1;
        let cost = self.cost_node(id);
        self.depth -= 1;
        cost
    }

    fn cost_node(&mut self, id: ExprId) -> Cost {
        let ast = self.ast;
        match &ast.expr(id).kind {
            ExprKind::Error { .. } | ExprKind::Literal(_) => Cost::default(),
            ExprKind::Ident(name) => self.ident(id, &name.text),
            ExprKind::Select {
                operand, optional, ..
            } => self.select(id, *operand, *optional),
            ExprKind::Index { operand, index, .. } => self.index(id, *operand, *index),
            ExprKind::Call { target, args, .. } => self.call(id, *target, args),
            ExprKind::Unary { operand, .. } => self.call(id, None, &[*operand]),
            ExprKind::Binary { lhs, rhs, .. } => self.call(id, None, &[*lhs, *rhs]),
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            } => self.conditional(id, *cond, *then, *otherwise),
            ExprKind::List { elements } => {
                let items: Vec<ExprId> = elements.iter().map(|e| e.value).collect();
                self.list(id, &items)
            }
            ExprKind::Map { entries } => self.map(id, entries),
            ExprKind::Struct { fields, .. } => {
                let values: Vec<ExprId> = fields.iter().map(|f| f.value).collect();
                self.sum(&values).plus(Cost::fixed(STRUCT_CREATE))
            }
            ExprKind::Macro(call) => self.macro_call(id, call),
        }
    }

    fn sum(&mut self, ids: &[ExprId]) -> Cost {
        ids.iter()
            .fold(Cost::default(), |acc, &id| acc.plus(self.cost(id)))
    }

    fn ident(&mut self, id: ExprId, name: &str) -> Cost {
        let path = match self.local(name) {
            Some(local) => local.path.clone(),
            None => Some(Path {
                root: PathRoot::Variable(name.to_string()),
                steps: Vec::new(),
            }),
        };
        self.set_path(id, path);
        SELECT
    }

    fn select(&mut self, id: ExprId, operand: ExprId, optional: bool) -> Cost {
        match self.checked.reference(id) {
            // A qualified variable name (`authorizer.requestResource`) is one identifier.
            Some(Reference::Variable { name, .. }) => {
                let name = name.clone();
                return self.ident(id, &name);
            }
            Some(Reference::Field { owner, name, .. }) => {
                let root = PathRoot::Field {
                    owner: owner.clone(),
                    field: name.clone(),
                };
                let path = Path {
                    root,
                    steps: Vec::new(),
                };
                self.set_path(id, Some(path));
            }
            _ => {}
        }
        let operand_cost = self.cost(operand);
        if optional {
            // `a.?f` is the call `_?._(a, "f")`: one unit plus its arguments.
            return operand_cost.plus(Cost::fixed(1));
        }
        let selectable = matches!(
            self.checked.type_of(operand),
            Type::Map(..) | Type::Object(_) | Type::Param(_)
        );
        if selectable {
            operand_cost.plus(SELECT)
        } else {
            operand_cost
        }
    }

    fn index(&mut self, id: ExprId, operand: ExprId, index: ExprId) -> Cost {
        let cost = self
            .cost(operand)
            .plus(self.cost(index))
            .plus(Cost::fixed(1));
        let step = match self.checked.type_of(operand) {
            Type::List(_) => Some(Step::Items),
            Type::Map(..) => Some(Step::Values),
            _ => None,
        };
        if let Some(step) = step {
            let path = self.path(operand).map(|mut p| {
                p.steps.push(step);
                p
            });
            self.set_path(id, path);
            if let Some(entry) = self.entry(operand) {
                self.set_size(id, Some(entry.value));
            }
        }
        cost
    }

    fn call(&mut self, id: ExprId, target: Option<ExprId>, args: &[ExprId]) -> Cost {
        let Some(Reference::Function { name, overloads }) = self.checked.reference(id) else {
            return self.unresolved_call(id, target, args);
        };
        let name = name.clone();
        let overloads = overloads.clone();
        // `strings.quote(x)` parses as a member call on `strings`; the checker resolved it to a
        // global function, so the namespace is not a receiver to cost.
        let target = target.filter(|_| !is_namespaced(&name, self.ast, id));
        if name == "dyn" {
            let Some(&arg) = args.first() else {
                return Cost::fixed(1);
            };
            let cost = self.cost(arg).plus(Cost::fixed(1));
            self.copy_sizes(id, arg);
            return cost;
        }
        let arg_costs: Vec<Cost> = args.iter().map(|&a| self.cost(a)).collect();
        let target_cost = target.map_or(Cost::default(), |t| self.cost(t));
        let mut fn_cost: Option<Cost> = None;
        let mut result: Option<Size> = None;
        for overload in &overloads {
            let call = calls::Call {
                id,
                name: &name,
                overload,
                target,
                args,
                arg_costs: &arg_costs,
            };
            let estimate = calls::estimate(self, &call);
            fn_cost = Some(fn_cost.map_or(estimate.cost, |c| c.union(estimate.cost)));
            if let Some(size) = estimate.size {
                result = Some(result.map_or(size, |r| r.union(size)));
            }
        }
        if result.is_some() {
            self.set_size(id, result);
        }
        target_cost.plus(fn_cost.unwrap_or_default())
    }

    /// A call the checker could not resolve (a type error elsewhere): costed as an O(1) call, and
    /// a `+` keeps the sum of its operands' sizes, so that the error does not hide a size.
    fn unresolved_call(&mut self, id: ExprId, target: Option<ExprId>, args: &[ExprId]) -> Cost {
        let mut cost = self.sum(args).plus(Cost::fixed(1));
        if let Some(target) = target {
            cost = cost.plus(self.cost(target));
        }
        let is_add = matches!(
            self.ast.expr(id).kind,
            ExprKind::Binary {
                op: crate::cel::ast::BinaryOp::Add,
                ..
            }
        );
        if let (true, [lhs, rhs]) = (is_add, args) {
            let size = self.size(*lhs).zip(self.size(*rhs)).map(|(a, b)| a.plus(b));
            self.set_size(id, size);
        }
        cost
    }

    fn conditional(&mut self, id: ExprId, cond: ExprId, then: ExprId, otherwise: ExprId) -> Cost {
        let cond_cost = self.cost(cond);
        let branches = self.cost(then).union(self.cost(otherwise));
        let size = self
            .size_or_unknown(then)
            .union(self.size_or_unknown(otherwise));
        self.set_size(id, Some(size));
        if let (Some(a), Some(b)) = (self.entry(then), self.entry(otherwise)) {
            self.set_entry(id, Some(a.union(b)));
        }
        cond_cost.plus(branches)
    }

    fn list(&mut self, id: ExprId, items: &[ExprId]) -> Cost {
        let mut value = if items.is_empty() {
            Size::fixed(0)
        } else {
            Size {
                min: u64::MAX,
                max: 0,
            }
        };
        let mut cost = Cost::default();
        for &item in items {
            cost = cost.plus(self.cost(item));
            value = value.union(self.size_or_unknown(item));
        }
        let entry = Entry {
            list: true,
            key: Size::fixed(1),
            value,
        };
        self.set_entry(id, Some(entry));
        cost.plus(Cost::fixed(LIST_CREATE))
    }

    fn map(&mut self, id: ExprId, entries: &[crate::cel::ast::MapEntry]) -> Cost {
        let empty = Size::fixed(0);
        let none = Size {
            min: u64::MAX,
            max: 0,
        };
        let (mut key, mut value) = if entries.is_empty() {
            (empty, empty)
        } else {
            (none, none)
        };
        let mut cost = Cost::default();
        for entry in entries {
            cost = cost.plus(self.cost(entry.key)).plus(self.cost(entry.value));
            key = key.union(self.size_or_unknown(entry.key));
            value = value.union(self.size_or_unknown(entry.value));
        }
        let entry = Entry {
            list: false,
            key,
            value,
        };
        self.set_entry(id, Some(entry));
        cost.plus(Cost::fixed(MAP_CREATE))
    }

    fn macro_call(&mut self, id: ExprId, call: &MacroCall) -> Cost {
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

    fn local(&self, name: &str) -> Option<&Local> {
        self.locals.iter().rev().find(|l| l.name == name)
    }

    pub fn path(&self, id: ExprId) -> Option<Path> {
        if let ExprKind::Ident(name) = &self.ast.expr(id).kind
            && let Some(local) = self.local(&name.text)
        {
            return local.path.clone();
        }
        self.paths.get(id.index()).cloned().flatten()
    }

    fn set_path(&mut self, id: ExprId, path: Option<Path>) {
        if let Some(slot) = self.paths.get_mut(id.index()) {
            *slot = path;
        }
    }

    pub fn set_size(&mut self, id: ExprId, size: Option<Size>) {
        if let (Some(slot), Some(size)) = (self.computed.get_mut(id.index()), size) {
            *slot = Some(size);
        }
    }

    pub fn set_entry(&mut self, id: ExprId, entry: Option<Entry>) {
        if let (Some(slot), Some(entry)) = (self.entries.get_mut(id.index()), entry) {
            *slot = Some(entry);
        }
    }

    fn copy_sizes(&mut self, to: ExprId, from: ExprId) {
        let size = self.size(from);
        let entry = self.entry(from);
        self.set_size(to, size);
        self.set_entry(to, entry);
    }

    /// The element sizes of a list or map node, if the expression fixes them.
    pub fn entry(&self, id: ExprId) -> Option<Entry> {
        if let Some(entry) = self.entries.get(id.index()).copied().flatten() {
            return Some(entry);
        }
        match &self.ast.expr(id).kind {
            ExprKind::Ident(name) => self.local(&name.text).and_then(|l| l.entry),
            _ => None,
        }
    }

    /// cel-go's `computeSize`: a computed size, the size of a literal, the estimator's answer, 1
    /// for scalars, the size of a bound variable.
    pub fn size(&mut self, id: ExprId) -> Option<Size> {
        if let Some(size) = self.computed.get(id.index()).copied().flatten() {
            return Some(size);
        }
        if let Some(size) = literal_size(self.ast, id) {
            return Some(size);
        }
        let ty = self.checked.type_of(id).clone();
        let path = self.path(id);
        if let Some(size) = self.sizes.size(path.as_ref(), &ty) {
            self.set_size(id, Some(size));
            return Some(size);
        }
        if is_scalar(&ty) {
            return Some(Size::fixed(1));
        }
        match &self.ast.expr(id).kind {
            ExprKind::Ident(name) => self.local(&name.text).and_then(|l| l.size),
            _ => None,
        }
    }

    /// [`Walker::size`], or the unknown size, for bookkeeping (element sizes, results).
    pub fn size_or_unknown(&mut self, id: ExprId) -> Size {
        self.size(id).unwrap_or(Size::UNKNOWN)
    }

    /// [`Walker::size`] of a value a cost depends on; an unknown size is noted in the result.
    pub fn size_for_cost(&mut self, id: ExprId) -> Size {
        let size = self.size_or_unknown(id);
        if size.max == u64::MAX {
            self.unknown = true;
        }
        size
    }

    /// Notes that an unknown size was used.
    pub fn used_unknown(&mut self) {
        self.unknown = true;
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

/// Whether the call `id` resolved to the namespaced global `name` (`strings.quote`), so its
/// apparent receiver is only the namespace.
fn is_namespaced(name: &str, ast: &Ast, id: ExprId) -> bool {
    let ExprKind::Call {
        target: Some(_),
        function,
        ..
    } = &ast.expr(id).kind
    else {
        return false;
    };
    name != function.text && name.ends_with(&format!(".{}", function.text))
}

/// The size a literal, list or map node fixes.
fn literal_size(ast: &Ast, id: ExprId) -> Option<Size> {
    let n = match &ast.expr(id).kind {
        ExprKind::Literal(Literal::String(s)) => s.chars().count() as u64,
        ExprKind::Literal(Literal::Bytes(b)) => b.len() as u64,
        ExprKind::Literal(_) => 1,
        ExprKind::List { elements } => elements.len() as u64,
        ExprKind::Map { entries } => entries.len() as u64,
        _ => return None,
    };
    Some(Size::fixed(n))
}

/// Types of a fixed size (cel-go's `isScalar`).
fn is_scalar(ty: &Type) -> bool {
    match ty {
        Type::Bool | Type::Double | Type::Duration | Type::Int | Type::Timestamp | Type::Uint => {
            true
        }
        Type::Optional(inner) => is_scalar(inner),
        _ => false,
    }
}
