//! The estimator's walk over the tree: cel-go's `coster`, node by node. Identifiers, selections,
//! indexes, calls (each overload costed by `calls`), conditionals and literals are costed here;
//! macros in [`macros`], and the per-node sizes and paths in [`sizes`].

mod macros;
mod sizes;

use super::calls;
use super::{Cost, Path, PathRoot, Size, SizeEstimator, Step};
use crate::cel::ast::{Ast, ExprId, ExprKind};
use crate::cel::check::{Checked, Reference};
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
        let checked = self.checked;
        match checked.reference(id) {
            // A qualified variable name (`authorizer.requestResource`) is one identifier.
            Some(Reference::Variable { name, .. }) => return self.ident(id, name),
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
        let on_map = matches!(self.checked.type_of(operand), Type::Map(..));
        if on_map && self.checked.reference(id).is_none() && self.sizes.map_select_reaches_values()
        {
            let path = self.path(operand).map(|mut p| {
                p.steps.push(Step::Values);
                p
            });
            self.set_path(id, path);
        }
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
        // Borrowed from the check result, which outlives the walk: no copy per call.
        let checked = self.checked;
        let Some(Reference::Function { name, overloads }) = checked.reference(id) else {
            return self.unresolved_call(id, target, args);
        };
        let name = name.as_str();
        // `strings.quote(x)` parses as a member call on `strings`; the checker resolved it to a
        // global function, so the namespace is not a receiver to cost.
        let target = target.filter(|_| !is_namespaced(name, self.ast, id));
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
        for overload in overloads {
            let call = calls::Call {
                id,
                name,
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
