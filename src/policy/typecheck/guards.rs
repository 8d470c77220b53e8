//! Kind guards: a policy matching several kinds often branches on the kind, e.g.
//! `object.kind == 'Pod' ? object.spec : object.spec.template.spec` or
//! `object.kind != 'CronJob' || object.spec.jobTemplate…`. Checked against each kind, the branch
//! meant for another kind has undefined fields, yet at runtime that kind never evaluates it. So
//! an error found for only some of the matched kinds is narrowed to the kinds that reach it: each
//! `?:`, `&&` and `||` on the way from the root decides, per kind, whether its branch is taken,
//! from tests of `object.kind`, `oldObject.kind` and `request.kind.kind` (`==`, `!=`, `in` a list
//! of literals, `!`, `&&`, `||`) and from `has()` of a field the kind's schema cannot have (false).
//! A condition that inspects the kind in another way (`apiVersion`, `resource`, a `has()` the
//! kind may pass) is undecided, and an error behind it is not reported for that kind, since the
//! guard may well keep the kind out. An error inside `has()` is never reported for some kinds
//! only. An error found for every kind is always reported: no guard can make it right.

use crate::cel::ast::{Ast, BinaryOp, ExprId, ExprKind, Literal, MacroKind, UnaryOp};
use crate::text::TextRange;

/// Selections that tell kinds apart.
const KIND_FIELDS: &[&str] = &["kind", "apiVersion", "resource", "subResource", "group"];

/// The typed-check errors of one expression: each span with the labels of the kinds it was found
/// for (`apps/v1, Kind=Deployment`).
pub type SiteErrors = [(TextRange, Vec<String>)];

/// Whether the field a selection names is required in the schema of a kind (by label); `None`
/// when not known.
pub type Required<'a> = dyn Fn(&str, ExprId) -> Option<bool> + 'a;

/// Narrows the errors of one expression to the kinds that evaluate them.
pub struct Guards<'a> {
    ast: &'a Ast,
    errors: &'a SiteErrors,
    required: &'a Required<'a>,
}

impl<'a> Guards<'a> {
    pub fn new(ast: &'a Ast, errors: &'a SiteErrors, required: &'a Required<'a>) -> Guards<'a> {
        Guards {
            ast,
            errors,
            required,
        }
    }

    /// The kinds of `labels` that surely evaluate the characters at `span`.
    pub fn reaching(&self, span: TextRange, labels: &[String]) -> Vec<String> {
        if self.inside_has(span) {
            return Vec::new();
        }
        labels
            .iter()
            .filter(|label| self.reaches(span, label))
            .cloned()
            .collect()
    }

    fn inside_has(&self, span: TextRange) -> bool {
        self.ast.preorder(self.ast.root).into_iter().any(|id| {
            let expr = self.ast.expr(id);
            matches!(&expr.kind, ExprKind::Macro(call) if call.kind == MacroKind::Has)
                && expr.span.contains_range(span)
        })
    }

    /// Whether kind `label` surely evaluates `span`: every kind-inspecting condition on the way
    /// from the root is decided for it, the way that leads to `span`.
    fn reaches(&self, span: TextRange, label: &str) -> bool {
        let within = |child: ExprId| self.ast.expr(child).span.contains_range(span);
        let mut id = self.ast.root;
        // Each step goes one level down; the tree's depth is bounded by the parser.
        loop {
            let needed = match &self.ast.expr(id).kind {
                ExprKind::Conditional {
                    cond,
                    then,
                    otherwise,
                } if within(*then) || within(*otherwise) => Some((*cond, within(*then))),
                ExprKind::Binary {
                    op: op @ (BinaryOp::And | BinaryOp::Or),
                    lhs,
                    rhs,
                } if within(*rhs) => Some((*lhs, *op == BinaryOp::And)),
                _ => None,
            };
            if let Some((cond, value)) = needed
                && !self
                    .possible(cond, label)
                    .is_some_and(|values| values.can_be(value))
            {
                return false;
            }
            match self.ast.children(id).into_iter().find(|c| within(*c)) {
                Some(child) => id = child,
                None => return true,
            }
        }
    }

    fn inspects_kind(&self, id: ExprId) -> bool {
        self.ast
            .preorder(id)
            .into_iter()
            .any(|n| match &self.ast.expr(n).kind {
                ExprKind::Select { field, .. } => KIND_FIELDS.contains(&field.text.as_str()),
                ExprKind::Macro(call) => call.kind == MacroKind::Has,
                _ => false,
            })
    }

    /// The values condition `id` can have for objects of kind `label`; `None` when it inspects
    /// the kind in a way not understood here. A condition that does not inspect the kind can be
    /// either.
    fn possible(&self, id: ExprId, label: &str) -> Option<Values> {
        if !self.inspects_kind(id) {
            return Some(Values::EITHER);
        }
        let kind = label.rsplit_once("Kind=").map_or(label, |(_, kind)| kind);
        match &self.ast.expr(id).kind {
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => self.possible(*operand, label).map(Values::not),
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::And => {
                    Values::and(self.possible(*lhs, label), self.possible(*rhs, label))
                }
                BinaryOp::Or => {
                    let (lhs, rhs) = (self.possible(*lhs, label), self.possible(*rhs, label));
                    Values::and(lhs.map(Values::not), rhs.map(Values::not)).map(Values::not)
                }
                BinaryOp::Eq => self.kind_equals(*lhs, *rhs, kind).map(Values::exactly),
                BinaryOp::Ne => self
                    .kind_equals(*lhs, *rhs, kind)
                    .map(|v| Values::exactly(!v)),
                BinaryOp::In if self.is_kind(*lhs) => self.kind_in(*rhs, kind).map(Values::exactly),
                _ => None,
            },
            // A required field (a Deployment's `spec.template`) is always there, an optional one
            // may be; one whose schema is not known is not understood.
            ExprKind::Macro(call) if call.kind == MacroKind::Has => {
                if self.cannot_have(self.ast.expr(id).span, label) {
                    return Some(Values::exactly(false));
                }
                let select = call.args.first()?;
                match (self.required)(label, *select)? {
                    true => Some(Values::exactly(true)),
                    false => Some(Values::EITHER),
                }
            }
            _ => None,
        }
    }

    /// `object.kind == 'X'` (either way round) for kind `kind`.
    fn kind_equals(&self, lhs: ExprId, rhs: ExprId, kind: &str) -> Option<bool> {
        let (subject, literal) = if self.is_kind(lhs) {
            (lhs, rhs)
        } else {
            (rhs, lhs)
        };
        if !self.is_kind(subject) {
            return None;
        }
        self.string(literal).map(|s| s == kind)
    }

    /// `object.kind in ['A', 'B']` for kind `kind`.
    fn kind_in(&self, list: ExprId, kind: &str) -> Option<bool> {
        let ExprKind::List { elements } = &self.ast.expr(list).kind else {
            return None;
        };
        let mut names = Vec::new();
        for element in elements {
            names.push(self.string(element.value).filter(|_| !element.optional)?);
        }
        Some(names.contains(&kind))
    }

    fn string(&self, id: ExprId) -> Option<&str> {
        match &self.ast.expr(id).kind {
            ExprKind::Literal(Literal::String(s)) => Some(s),
            _ => None,
        }
    }

    /// `object.kind`, `oldObject.kind` or `request.kind.kind`.
    fn is_kind(&self, id: ExprId) -> bool {
        let ExprKind::Select { operand, field, .. } = &self.ast.expr(id).kind else {
            return false;
        };
        if field.text != "kind" {
            return false;
        }
        match &self.ast.expr(*operand).kind {
            ExprKind::Ident(name) => name.text == "object" || name.text == "oldObject",
            ExprKind::Select { operand, field, .. } => {
                field.text == "kind"
                    && matches!(&self.ast.expr(*operand).kind, ExprKind::Ident(name) if name.text == "request")
            }
            _ => false,
        }
    }

    /// Whether the typed check found, for kind `label`, an undefined field inside the `has()` at
    /// `span`: then the kind's objects never have it and `has()` is false.
    fn cannot_have(&self, span: TextRange, label: &str) -> bool {
        self.errors
            .iter()
            .any(|(error, labels)| span.contains_range(*error) && labels.iter().any(|l| l == label))
    }
}

/// The values a condition can take for one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Values {
    can_be_true: bool,
    can_be_false: bool,
}

impl Values {
    const EITHER: Values = Values {
        can_be_true: true,
        can_be_false: true,
    };

    fn exactly(value: bool) -> Values {
        Values {
            can_be_true: value,
            can_be_false: !value,
        }
    }

    fn can_be(self, value: bool) -> bool {
        if value {
            self.can_be_true
        } else {
            self.can_be_false
        }
    }

    fn not(self) -> Values {
        Values {
            can_be_true: self.can_be_false,
            can_be_false: self.can_be_true,
        }
    }

    /// `a && b`; a side not understood leaves the result not understood unless the other side is
    /// surely false.
    fn and(a: Option<Values>, b: Option<Values>) -> Option<Values> {
        match (a, b) {
            (Some(a), Some(b)) => Some(Values {
                can_be_true: a.can_be_true && b.can_be_true,
                can_be_false: a.can_be_false || b.can_be_false,
            }),
            (Some(known), None) | (None, Some(known)) if !known.can_be_true => Some(known),
            _ => None,
        }
    }
}
