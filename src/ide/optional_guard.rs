//! Code actions on a field selection that may fail at runtime with "no such key": a field the
//! schema does not list in its object's `required` ([`crate::schema::FieldInfo::required`]) is
//! absent from objects that do not set it, and selecting it is an error. Two rewrites of the select
//! chain under the cursor:
//!
//! - guard it: `has(a.b) && has(a.b.c) && …` before the boolean expression the chain is in, one
//!   `has()` per optional link, outermost first (each `has()` may only select through links that
//!   the earlier ones proved present);
//! - optional chain: `a.?b.?c.orValue(<zero value>)`, where the target version has optional
//!   syntax (the optional library, enabled in new expressions from Kubernetes 1.29).
//!
//! The `metadata` of a root variable is never guarded: every admitted object has one.

use crate::cel::ast::{Ast, BinaryOp, ExprId, ExprKind, MacroKind};
use crate::cel::library::{Library, is_enabled};
use crate::cel::types::Type;
use crate::schema::SchemaTypes;
use crate::text::{TextRange, TextSize};

use super::actions::{ActionKind, CodeAction};
use super::cursor::CelCursor;
use super::{Analysis, DiagnosticsConfig, FileId};

/// Root variables whose `metadata` is always present.
const ROOTS: &[&str] = &["object", "oldObject", "params", "namespaceObject"];

/// One `.field` of a chain.
struct Link {
    /// The whole `operand.field` expression.
    id: ExprId,
    /// The field name as written.
    field: TextRange,
    /// Whether the schema does not require the field.
    optional: bool,
}

/// A select chain: its base expression and its links, outermost (nearest the base) first.
struct Chain {
    base: ExprId,
    links: Vec<Link>,
}

impl Analysis {
    /// The guard and optional-chain rewrites of the select chain at `offset`, if it has optional links.
    pub(super) fn optional_guard_actions(
        &self,
        file: FileId,
        offset: TextSize,
        config: &DiagnosticsConfig,
    ) -> Vec<CodeAction> {
        let Some(context) = self.file_context(file, config) else {
            return Vec::new();
        };
        let Some(cursor) = context.cel_at(offset) else {
            return Vec::new();
        };
        let types = crate::policy::editor_schema_types(&context.workspace, context.minor);
        let Some(chain) = chain_at(&cursor, &types) else {
            return Vec::new();
        };
        if !chain.links.iter().any(|l| l.optional) {
            return Vec::new();
        }
        let style = ScalarStyle::of(&context.text, &cursor);
        let mut out = Vec::new();
        out.extend(guard_action(&cursor, &chain));
        if is_enabled(Library::Optional, &cursor.env.libraries) {
            out.extend(optional_chain_action(&cursor, &chain, style));
        }
        out
    }
}

/// The select chain around the cursor's node: the outermost `.field` selection whose operands,
/// down to a non-selection base, contain the cursor. `None` when a link is already `.?` or the
/// chain is not typed.
fn chain_at(cursor: &CelCursor, types: &SchemaTypes) -> Option<Chain> {
    let ast = &cursor.ast;
    let parents = parents(ast);
    let mut top = cursor.node()?;
    while let Some(parent) = parent_of(&parents, top) {
        match ast.expr(parent).kind {
            ExprKind::Select { operand, .. } if operand == top => top = parent,
            _ => break,
        }
    }
    let mut links = Vec::new();
    let mut at = top;
    while let ExprKind::Select {
        operand,
        field,
        optional,
    } = &ast.expr(at).kind
    {
        if *optional || field.text.is_empty() {
            return None;
        }
        let owner = cursor.checked.type_of(*operand);
        let Type::Object(owner) = owner else {
            return None; // a map key or a `dyn` value: the schema says nothing
        };
        let required = types
            .field_info(owner, &field.text)
            .map(|info| info.required);
        links.push(Link {
            id: at,
            field: field.span,
            optional: required == Some(false),
        });
        at = *operand;
    }
    links.reverse();
    if let Some(parent) = parent_of(&parents, top)
        && matches!(&ast.expr(parent).kind, ExprKind::Macro(call) if call.kind == MacroKind::Has)
    {
        return None; // `has(a.b)` is itself the guard
    }
    let guarded = guarded_by_has(cursor, &parents, top);
    for link in &mut links {
        let text = cursor
            .site
            .text
            .get(std::ops::Range::<usize>::from(ast.expr(link.id).span));
        if text.is_some_and(|t| guarded.contains(&squeeze(t))) {
            link.optional = false;
        }
    }
    if let (ExprKind::Ident(name), Some(first)) = (&ast.expr(at).kind, links.first_mut()) {
        let field = cursor
            .site
            .text
            .get(std::ops::Range::<usize>::from(first.field));
        if ROOTS.contains(&name.text.as_str()) && field == Some("metadata") {
            first.optional = false;
        }
    }
    (!links.is_empty()).then_some(Chain { base: at, links })
}

/// The selections that a `has()` already proves present where `id` is evaluated: those tested on
/// the left of an enclosing `&&` or in the condition of an enclosing `?:` whose `then` holds `id`,
/// without spaces.
fn guarded_by_has(cursor: &CelCursor, parents: &[Option<ExprId>], id: ExprId) -> Vec<String> {
    let ast = &cursor.ast;
    let mut tests = Vec::new();
    let mut child = id;
    while let Some(parent) = parent_of(parents, child) {
        match ast.expr(parent).kind {
            ExprKind::Binary {
                op: BinaryOp::And,
                lhs,
                rhs,
            } if rhs == child => tests.push(lhs),
            ExprKind::Conditional { cond, then, .. } if then == child => tests.push(cond),
            _ => {}
        }
        child = parent;
    }
    let mut out = Vec::new();
    for test in tests {
        for node in ast.preorder(test) {
            let ExprKind::Macro(call) = &ast.expr(node).kind else {
                continue;
            };
            if call.kind != MacroKind::Has {
                continue;
            }
            let spans = call.args.iter().map(|arg| ast.expr(*arg).span);
            let texts =
                spans.filter_map(|span| cursor.site.text.get(std::ops::Range::<usize>::from(span)));
            out.extend(texts.map(squeeze));
        }
    }
    out
}

/// `text` without whitespace, to compare selections however they are spaced.
fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Each node's parent, by index.
fn parents(ast: &Ast) -> Vec<Option<ExprId>> {
    let mut out = vec![None; ast.len()];
    for id in ast.preorder(ast.root) {
        ast.expr(id).kind.for_each_child(|child| {
            if let Some(slot) = out.get_mut(child.index()) {
                *slot = Some(id);
            }
        });
    }
    out
}

fn parent_of(parents: &[Option<ExprId>], id: ExprId) -> Option<ExprId> {
    parents.get(id.index()).copied().flatten()
}

/// `has(…) && ` for each optional link before the nearest boolean expression holding the chain,
/// in parentheses unless that expression is the whole expression or an operand of `&&` / `||`.
fn guard_action(cursor: &CelCursor, chain: &Chain) -> Option<CodeAction> {
    let ast = &cursor.ast;
    let parents = parents(ast);
    let condition = condition_of(cursor, &parents, chain.links.last()?.id)?;
    let text = &cursor.site.text;
    let slice = |id: ExprId| text.get(std::ops::Range::<usize>::from(ast.expr(id).span));
    let mut guards = String::new();
    for link in chain.links.iter().filter(|l| l.optional) {
        guards.push_str(&format!("has({}) && ", slice(link.id)?));
    }
    let span = ast.expr(condition).span;
    let bare = match parent_of(&parents, condition) {
        None => true,
        Some(parent) => matches!(
            ast.expr(parent).kind,
            ExprKind::Binary {
                op: BinaryOp::And | BinaryOp::Or,
                ..
            }
        ),
    };
    let start = TextRange::empty(span.start());
    let mut edits = Vec::new();
    if bare {
        edits.push((cursor.file_range(start), guards));
    } else {
        edits.push((cursor.file_range(start), format!("({guards}")));
        edits.push((cursor.file_range(TextRange::empty(span.end())), ")".into()));
    }
    Some(CodeAction {
        title: "Guard the optional fields with has()".to_owned(),
        kind: ActionKind::Rewrite,
        edits,
        fixes: None,
    })
}

/// The boolean expression a guard goes before: the nearest boolean ancestor of `chain_top`, widened
/// over comparisons (`x.f == false` is guarded whole, so an absent field makes it false). `None` when
/// the way up leaves a macro or a `?:` branch first: a `has()` outside a macro could not see its
/// variables, and one outside a branch would guard the other branch too.
fn condition_of(
    cursor: &CelCursor,
    parents: &[Option<ExprId>],
    chain_top: ExprId,
) -> Option<ExprId> {
    let ast = &cursor.ast;
    let is_bool = |id: ExprId| matches!(cursor.checked.type_of(id), Type::Bool);
    let mut condition = chain_top;
    while !is_bool(condition) {
        let parent = parent_of(parents, condition)?;
        if matches!(
            ast.expr(parent).kind,
            ExprKind::Macro(_) | ExprKind::Conditional { .. }
        ) {
            return None;
        }
        condition = parent;
    }
    while let Some(parent) = parent_of(parents, condition) {
        let comparison = matches!(
            ast.expr(parent).kind,
            ExprKind::Binary { op, .. } if !matches!(op, BinaryOp::And | BinaryOp::Or)
        );
        if !(comparison && is_bool(parent)) {
            break;
        }
        condition = parent;
    }
    Some(condition)
}

/// `a.?b.?c.orValue(zero)` in place of the chain; `None` when the chain's type has no zero value
/// that can be written (an object or `dyn`).
fn optional_chain_action(
    cursor: &CelCursor,
    chain: &Chain,
    style: ScalarStyle,
) -> Option<CodeAction> {
    let ast = &cursor.ast;
    let text = &cursor.site.text;
    let top = chain.links.last()?;
    let zero = zero_value(cursor.checked.type_of(top.id), style)?;
    let base_span = ast.expr(chain.base).span;
    let mut rewritten = text
        .get(std::ops::Range::<usize>::from(base_span))?
        .to_owned();
    for link in &chain.links {
        rewritten.push_str(if link.optional { ".?" } else { "." });
        rewritten.push_str(text.get(std::ops::Range::<usize>::from(link.field))?);
    }
    rewritten.push_str(&format!(".orValue({zero})"));
    let span = ast.expr(top.id).span;
    Some(CodeAction {
        title: "Rewrite as an optional chain with orValue()".to_owned(),
        kind: ActionKind::Rewrite,
        edits: vec![(cursor.file_range(span), rewritten)],
        fixes: None,
    })
}

/// How the expression's scalar is quoted, which decides how a string literal is written in it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ScalarStyle {
    SingleQuoted,
    Other,
}

impl ScalarStyle {
    fn of(text: &str, cursor: &CelCursor) -> ScalarStyle {
        let content = cursor.site.source_map.content_range().start();
        let before = usize::from(content).checked_sub(1);
        match before.and_then(|at| text.as_bytes().get(at)) {
            Some(b'\'') => ScalarStyle::SingleQuoted,
            _ => ScalarStyle::Other,
        }
    }
}

/// The zero value of `ty` as CEL text that needs no escaping in a scalar of `style`.
fn zero_value(ty: &Type, style: ScalarStyle) -> Option<&'static str> {
    let quotes = |single: &'static str, double: &'static str| match style {
        ScalarStyle::SingleQuoted => double,
        ScalarStyle::Other => single,
    };
    Some(match ty {
        Type::Bool => "false",
        Type::Int => "0",
        Type::Uint => "0u",
        Type::Double => "0.0",
        Type::String => quotes("''", "\"\""),
        Type::Bytes => quotes("b''", "b\"\""),
        Type::List(_) => "[]",
        Type::Map(..) => "{}",
        Type::Duration => quotes("duration('0s')", "duration(\"0s\")"),
        _ => return None,
    })
}
