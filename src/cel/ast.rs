//! The CEL syntax tree: an arena of expressions addressed by `ExprId`. Later passes keep per-node
//! facts (types, references) in side vectors indexed by `ExprId`, and dropping a huge tree never
//! recurses. Macros are kept as calls with their bound variable names, never expanded.

use crate::text::{TextRange, TextSize};

/// Index of an expression in its `Ast`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ExprId(pub u32);

impl ExprId {
    /// The index as a `usize`, for side tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A name as written: an identifier, a field, a function or a dotted type name.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    /// The text. Root-scoped identifiers keep their leading `.`; escaped field names (`` `a-b` ``)
    /// are stored without backticks. Empty when the name is missing (e.g. `a.` at the end).
    pub text: String,
    /// Where the name is written (empty at the error position when missing).
    pub span: TextRange,
}

impl Name {
    /// Whether the name is missing from the source (recovery placeholder).
    pub fn is_missing(&self) -> bool {
        self.text.is_empty()
    }
}

/// A literal value.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A signed integer (a leading `-` is folded in, as cel-go does).
    Int(i64),
    /// An unsigned integer (`1u`).
    Uint(u64),
    /// A double.
    Double(f64),
    /// A decoded string.
    String(String),
    /// Decoded bytes.
    Bytes(Vec<u8>),
}

pub use super::ops::{BinaryOp, UnaryOp};

/// An element of a list literal; `optional` for `[?e]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ListElement {
    /// The element expression.
    pub value: ExprId,
    /// Written `?e`: included only when the optional value is present.
    pub optional: bool,
}

/// An entry of a map literal; `optional` for `{?k: v}`.
#[derive(Clone, Debug, PartialEq)]
pub struct MapEntry {
    /// The key expression.
    pub key: ExprId,
    /// The value expression.
    pub value: ExprId,
    /// Written `?k: v`.
    pub optional: bool,
}

/// A field initializer of a message construction; `optional` for `Msg{?f: v}`.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldInit {
    /// The field name (escaped names without backticks).
    pub name: Name,
    /// The value expression.
    pub value: ExprId,
    /// Written `?f: v`.
    pub optional: bool,
}

pub use super::macros::{MacroCall, MacroKind};

/// The shape of an expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A part that did not parse. `parts` are the well-formed subexpressions salvaged from it (for
    /// example the target and arguments of a malformed macro), so later passes can still type them.
    Error {
        /// Salvaged subexpressions, in source order.
        parts: Vec<ExprId>,
    },
    /// A literal.
    Literal(Literal),
    /// An identifier, possibly root-scoped (`.a`, kept with its dot).
    Ident(Name),
    /// `operand.field` or `operand.?field`. `field` is missing (empty) after a trailing dot.
    Select {
        /// The expression selected from.
        operand: ExprId,
        /// The field.
        field: Name,
        /// Written `.?`.
        optional: bool,
    },
    /// `operand[index]` or `operand[?index]`.
    Index {
        /// The expression indexed.
        operand: ExprId,
        /// The index expression.
        index: ExprId,
        /// Written `[?`.
        optional: bool,
    },
    /// A global call `f(args)` or a member call `target.f(args)` that is not a macro.
    Call {
        /// The receiver of a member call.
        target: Option<ExprId>,
        /// The function name (a global call may keep a leading `.`).
        function: Name,
        /// The arguments.
        args: Vec<ExprId>,
    },
    /// `!x` or `-x`.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        operand: ExprId,
    },
    /// `lhs op rhs`.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Left operand.
        lhs: ExprId,
        /// Right operand.
        rhs: ExprId,
    },
    /// `cond ? then : otherwise`.
    Conditional {
        /// The condition.
        cond: ExprId,
        /// The value when true.
        then: ExprId,
        /// The value when false.
        otherwise: ExprId,
    },
    /// `[a, ?b]`.
    List {
        /// The elements.
        elements: Vec<ListElement>,
    },
    /// `{k: v, ?k2: v2}`.
    Map {
        /// The entries.
        entries: Vec<MapEntry>,
    },
    /// Message construction `a.b.Msg{f: v}`.
    Struct {
        /// The dotted type name as written (leading `.` kept), spanning the whole name.
        type_name: Name,
        /// The field initializers.
        fields: Vec<FieldInit>,
    },
    /// A macro call, unexpanded.
    Macro(MacroCall),
}

/// One expression node: its kind, the byte range it covers and its anchor.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// Where the expression is written (parentheses around it included).
    pub span: TextRange,
    /// The offset cel-go reports this node at: the operator of a unary, binary or conditional
    /// (`?`) expression, the `.` of a selection, the `[` of an index, the `(` of a call or macro,
    /// the `{` of a message construction, otherwise the start of the span. Diagnostics that must
    /// match cel-go's line:column start here.
    pub anchor: TextSize,
    /// What it is.
    pub kind: ExprKind,
}

/// A parsed expression: all nodes in an arena, children before parents. Walk from `root`: a few
/// entries are not reachable from it (the identifiers that became macro variable names, the `cel`
/// of `cel.bind`, subtrees cut off at the depth limit). The tree under `root` is never deeper than
/// `ParseOptions::max_depth` (+1), so later passes may recurse over it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Ast {
    /// The nodes, indexed by `ExprId`.
    pub exprs: Vec<Expr>,
    /// The whole expression.
    pub root: ExprId,
}

impl Ast {
    /// The node `id`. Ids come from this `Ast`; a foreign id gives the root (never panics).
    pub fn expr(&self, id: ExprId) -> &Expr {
        self.exprs
            .get(id.index())
            .or_else(|| self.exprs.first())
            .unwrap_or(&PLACEHOLDER)
    }

    /// The root node.
    pub fn root_expr(&self) -> &Expr {
        self.expr(self.root)
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.exprs.len()
    }

    /// Whether the arena is empty (never the case for a parsed expression).
    pub fn is_empty(&self) -> bool {
        self.exprs.is_empty()
    }

    /// Direct children of `id`, in source order.
    pub fn children(&self, id: ExprId) -> Vec<ExprId> {
        let mut out = Vec::new();
        self.expr(id).kind.for_each_child(|child| out.push(child));
        out
    }

    /// All nodes under `root` (included) in pre-order, source order; iterative, so any depth is safe.
    pub fn preorder(&self, root: ExprId) -> Vec<ExprId> {
        let mut order = Vec::with_capacity(self.exprs.len());
        let mut stack = Vec::with_capacity(16);
        stack.push(root);
        while let Some(id) = stack.pop() {
            order.push(id);
            let start = stack.len();
            self.expr(id).kind.for_each_child(|child| stack.push(child));
            if let Some(pushed) = stack.get_mut(start..) {
                pushed.reverse();
            }
        }
        order
    }

    /// Whether any node is an `Error` node.
    pub fn has_error_nodes(&self) -> bool {
        self.exprs
            .iter()
            .any(|e| matches!(e.kind, ExprKind::Error { .. }))
    }
}

static PLACEHOLDER: Expr = Expr {
    span: TextRange::empty(TextSize::new(0)),
    anchor: TextSize::new(0),
    kind: ExprKind::Error { parts: Vec::new() },
};

impl ExprKind {
    /// Calls `f` on each direct child, in source order.
    pub fn for_each_child(&self, mut f: impl FnMut(ExprId)) {
        match self {
            ExprKind::Error { parts } => parts.iter().copied().for_each(f),
            ExprKind::Literal(_) | ExprKind::Ident(_) => {}
            ExprKind::Select { operand, .. } | ExprKind::Unary { operand, .. } => f(*operand),
            ExprKind::Index { operand, index, .. } => {
                f(*operand);
                f(*index);
            }
            ExprKind::Call { target, args, .. } => target.iter().chain(args).copied().for_each(f),
            ExprKind::Binary { lhs, rhs, .. } => {
                f(*lhs);
                f(*rhs);
            }
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            } => [*cond, *then, *otherwise].into_iter().for_each(f),
            ExprKind::List { elements } => elements.iter().for_each(|e| f(e.value)),
            ExprKind::Map { entries } => entries.iter().for_each(|e| {
                f(e.key);
                f(e.value);
            }),
            ExprKind::Struct { fields, .. } => fields.iter().for_each(|field| f(field.value)),
            ExprKind::Macro(call) => call.target.iter().chain(&call.args).copied().for_each(f),
        }
    }
}
