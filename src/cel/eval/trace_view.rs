//! Turns a [`Trace`] into lines under the expression's text, power-assert style: one line per
//! subexpression in source pre-order, indented by nesting, with its value; a comparison or
//! arithmetic shows its operands' values in place (`7 <= 5`), a comprehension the iteration it
//! stopped at, an error the node that raised it, and a branch that never ran is marked.

use serde_json::{Value as Json, json};

use super::trace::{NodeOutcome, Trace};
use super::value::Value;
use crate::cel::ast::{Ast, ExprId, ExprKind};
use crate::cel::macros::MacroKind;

/// Longest value text shown before it is cut.
const MAX_VALUE_CHARS: usize = 80;
/// Longest subexpression text shown before it is cut (`start`/`end` give the whole of it).
const MAX_TEXT_CHARS: usize = 120;

/// What a line says about its node.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// The node's value.
    Value(String),
    /// The node's value is an error it raised itself (no child of it had the error).
    Raised(String),
    /// The node's value is an error a child raised.
    Error(String),
    /// Evaluation stopped inside the node (cost limit, depth).
    Stopped(String),
    /// The node never ran (short-circuit, ternary branch, empty or ended loop).
    NotEvaluated,
}

/// One line of a trace.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceLine {
    /// Nesting depth under the root (0 for the root).
    pub depth: usize,
    /// Byte range of the node in the expression's text.
    pub start: usize,
    /// End of that range.
    pub end: usize,
    /// The node's source text.
    pub text: String,
    /// The operands' values in place, for operators (`7 <= 5`).
    pub operands: Option<String>,
    /// The last iteration a comprehension ran (`index 1: c = …`): for `all` and `exists` the
    /// element that decided the result when the loop ended early.
    pub iteration: Option<String>,
    /// The node's value, error or status.
    pub shown: Shown,
}

/// The lines of `trace`, recorded while evaluating `ast` parsed from `source`.
pub fn lines(ast: &Ast, source: &str, trace: &Trace) -> Vec<TraceLine> {
    let mut out = Vec::new();
    let mut stack = vec![(ast.root, 0usize)];
    while let Some((id, depth)) = stack.pop() {
        let literal = matches!(ast.expr(id).kind, ExprKind::Literal(_));
        if id != ast.root && literal && trace.node(id).is_some() {
            continue;
        }
        let line = line(ast, source, trace, id, depth);
        let descend = descends(ast, trace, id, &line.shown);
        out.push(line);
        if descend {
            let mut children = ast.children(id);
            children.retain(|&c| !is_namespace(ast, trace, id, c));
            children.reverse();
            stack.extend(children.into_iter().map(|c| (c, depth + 1)));
        }
    }
    out
}

/// Whether `child` is the namespace of a qualified function that ran (`generator` in
/// `generator.Apply(…)`, `math` in `math.greatest(…)`): parsed as a receiver, resolved as part of
/// the function's name, so it is never evaluated and a `(not evaluated)` line would mislead.
fn is_namespace(ast: &Ast, trace: &Trace, call: ExprId, child: ExprId) -> bool {
    let ExprKind::Call { target, .. } = &ast.expr(call).kind else {
        return false;
    };
    *target == Some(child)
        && trace.node(call).is_some()
        && trace.node(child).is_none()
        && matches!(
            ast.expr(child).kind,
            ExprKind::Ident(_) | ExprKind::Select { .. }
        )
}

/// Whether the children of `id` are worth a line: not under a node that never ran, not the
/// operand of a field selection that produced a value (the path says it). Evaluated literals
/// other than the root get no line (their value is their text); a skipped one does.
fn descends(ast: &Ast, trace: &Trace, id: ExprId, shown: &Shown) -> bool {
    if *shown == Shown::NotEvaluated {
        return false;
    }
    let has = matches!(&ast.expr(id).kind, ExprKind::Macro(call) if call.kind == MacroKind::Has);
    if has {
        // `has(a.b)` tests the field without selecting it: its argument never runs as such.
        return false;
    }
    let selection = matches!(ast.expr(id).kind, ExprKind::Select { .. });
    let clean = matches!(shown, Shown::Value(_));
    let leaf = ast.children(id).is_empty();
    !(leaf || selection && clean) && trace.node(id).is_some()
}

fn line(ast: &Ast, source: &str, trace: &Trace, id: ExprId, depth: usize) -> TraceLine {
    let span = ast.expr(id).span;
    let (start, end) = (usize::from(span.start()), usize::from(span.end()));
    let written = source.get(start..end).unwrap_or_default();
    let text = cut(&one_line(written), MAX_TEXT_CHARS);
    TraceLine {
        depth,
        start,
        end,
        text,
        operands: operands(ast, trace, id),
        iteration: trace.iteration(id).map(|it| {
            let vars: Vec<String> = it
                .vars
                .iter()
                .map(|(n, v)| format!("{n} = {}", short(v)))
                .collect();
            format!("index {}: {}", it.index, vars.join(", "))
        }),
        shown: shown(ast, trace, id),
    }
}

fn shown(ast: &Ast, trace: &Trace, id: ExprId) -> Shown {
    match trace.node(id) {
        None => Shown::NotEvaluated,
        Some(NodeOutcome::Stopped(e)) => Shown::Stopped(e.to_string()),
        Some(NodeOutcome::Value(Value::Error(e))) => {
            let from_child = ast.children(id).into_iter().any(|c| {
                matches!(trace.node(c), Some(NodeOutcome::Value(Value::Error(ce))) if ce.message == e.message)
            });
            if from_child {
                Shown::Error(e.to_string())
            } else {
                Shown::Raised(e.to_string())
            }
        }
        Some(NodeOutcome::Value(v)) => Shown::Value(short(v)),
    }
}

/// `lhs op rhs` with the operands' values, for a binary operator whose operands both ran.
fn operands(ast: &Ast, trace: &Trace, id: ExprId) -> Option<String> {
    let ExprKind::Binary { op, lhs, rhs } = &ast.expr(id).kind else {
        return None;
    };
    let value = |c: ExprId| match trace.node(c) {
        Some(NodeOutcome::Value(v)) if !v.is_error() => Some(short(v)),
        _ => None,
    };
    let (l, r) = (value(*lhs)?, value(*rhs)?);
    Some(format!("{l} {} {r}", op.symbol()))
}

/// A value's text, cut to [`MAX_VALUE_CHARS`].
fn short(v: &Value) -> String {
    cut(&v.to_string(), MAX_VALUE_CHARS)
}

/// `text` cut to `max` characters, `…` marking the cut.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max).collect();
    format!("{kept}…")
}

/// `text` trimmed, each run of blanks that holds a line break made one space, so a
/// subexpression written over several lines stays on its line of the trace.
fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blanks = String::new();
    for ch in text.trim().chars() {
        if ch.is_whitespace() {
            blanks.push(ch);
            continue;
        }
        if blanks.contains('\n') {
            out.push(' ');
        } else {
            out.push_str(&blanks);
        }
        blanks.clear();
        out.push(ch);
    }
    out
}

/// The lines as text, each indented by two spaces per depth plus `indent`.
pub fn render_text(lines: &[TraceLine], indent: &str) -> String {
    let mut out = String::new();
    for l in lines {
        let pad = "  ".repeat(l.depth);
        let mut row = format!("{indent}{pad}{}", l.text);
        if let Some(ops) = &l.operands {
            row.push_str(&format!("  →  {ops}"));
        }
        row.push_str(&match &l.shown {
            Shown::Value(v) => format!("  →  {v}"),
            Shown::Raised(e) => format!("  →  error raised here: {e}"),
            Shown::Error(e) => format!("  →  error: {e}"),
            Shown::Stopped(e) => format!("  →  stopped here: {e}"),
            Shown::NotEvaluated => "  →  (not evaluated)".to_string(),
        });
        if let Some(it) = &l.iteration {
            row.push_str(&format!("  (last iteration: {it})"));
        }
        out.push_str(&row);
        out.push('\n');
    }
    out
}

/// The lines as JSON data: one object per line, the same facts as the text.
pub fn to_json(lines: &[TraceLine]) -> Json {
    Json::Array(lines.iter().map(line_json).collect())
}

fn line_json(l: &TraceLine) -> Json {
    let mut o = json!({
        "depth": l.depth,
        "start": l.start,
        "end": l.end,
        "text": l.text,
    });
    let (key, text) = match &l.shown {
        Shown::Value(v) => ("value", Some(v)),
        Shown::Raised(e) => ("raised", Some(e)),
        Shown::Error(e) => ("error", Some(e)),
        Shown::Stopped(e) => ("stopped", Some(e)),
        Shown::NotEvaluated => ("evaluated", None),
    };
    if let Some(map) = o.as_object_mut() {
        map.insert(
            key.to_string(),
            text.map_or(Json::Bool(false), |t| Json::String(t.clone())),
        );
        if let Some(ops) = &l.operands {
            map.insert("operands".into(), Json::String(ops.clone()));
        }
        if let Some(it) = &l.iteration {
            map.insert("lastIteration".into(), Json::String(it.clone()));
        }
    }
    o
}
