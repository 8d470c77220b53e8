//! Evaluation traces on request: inside [`capture`], every expression a policy evaluation runs
//! (validations, matchConditions, variables as they are first forced, mutations) is evaluated
//! with the evaluator's trace and its lines are kept, in the order the evaluations finished.
//! Outside it nothing is recorded and expressions run untraced.

use std::cell::RefCell;

use crate::cel::Ast;
use crate::cel::eval::trace::Trace;
use crate::cel::eval::trace_view::{self, TraceLine};
use crate::cel::eval::{self, Activation, EvalOptions, Evaluation};

/// The trace of one expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// What the expression is: `validation[0]`, `matchCondition NAME`, `variables.NAME`,
    /// `messageExpression[0]`, `auditAnnotation KEY`, `applyConfiguration`, `jsonPatch`
    /// (`expression` when the caller did not say).
    pub label: String,
    /// The expression's text.
    pub text: String,
    /// Its subexpressions and their values.
    pub lines: Vec<TraceLine>,
}

thread_local! {
    static SINK: RefCell<Option<Vec<Explained>>> = const { RefCell::new(None) };
    static LABEL: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `f` with the expressions it evaluates labelled `label()` (computed only in a capture).
pub(crate) fn labelled<T>(label: impl FnOnce() -> String, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let outer = LABEL.with(|l| l.replace(Some(label())));
    let result = f();
    LABEL.with(|l| l.replace(outer));
    result
}

/// Runs `f` and returns what it returned with the traces of the expressions it evaluated.
pub fn capture<T>(f: impl FnOnce() -> T) -> (T, Vec<Explained>) {
    let outer = SINK.with(|s| s.replace(Some(Vec::new())));
    let result = f();
    let traces = SINK.with(|s| s.replace(outer)).unwrap_or_default();
    (result, traces)
}

/// Runs `f`; inside a [`capture`], also returns the traces of what `f` evaluated (kept apart
/// from the enclosing capture's), otherwise none and `f` runs untraced.
pub(crate) fn traced<T>(f: impl FnOnce() -> T) -> (T, Vec<Explained>) {
    if enabled() {
        capture(f)
    } else {
        (f(), Vec::new())
    }
}

/// The traces as text, each line after `indent`: `explain LABEL:`, then the expression's
/// subexpressions with their values.
pub fn render_text(traces: &[Explained], indent: &str) -> String {
    let mut out = String::new();
    for t in traces {
        out.push_str(&format!("{indent}explain {}:\n", t.label));
        out.push_str(&trace_view::render_text(&t.lines, &format!("{indent}  ")));
    }
    out
}

/// The traces as JSON: one entry per expression, with its label, text and trace.
pub fn to_json(traces: &[Explained]) -> serde_json::Value {
    let all = traces.iter().map(|t| {
        serde_json::json!({
            "label": t.label,
            "expression": t.text,
            "trace": trace_view::to_json(&t.lines),
        })
    });
    serde_json::Value::Array(all.collect())
}

/// Evaluates `ast` (parsed from `text`); inside a [`capture`], traced and kept as `label()`. For
/// the families whose expressions do not run through `admission::expr` (device selectors, the
/// authentication configuration's rules).
pub(crate) fn evaluate(
    label: impl FnOnce() -> String,
    text: &str,
    ast: &Ast,
    activation: &Activation<'_>,
    options: &EvalOptions,
) -> Evaluation {
    if !enabled() {
        return eval::evaluate(ast, activation, options);
    }
    let (run, trace) = eval::evaluate_traced(ast, activation, options);
    keep(Some(label()), text, ast, &trace);
    run
}

/// Whether a [`capture`] is running on this thread.
pub(crate) fn enabled() -> bool {
    SINK.with(|s| s.borrow().is_some())
}

/// Keeps the trace of `ast` (parsed from `text`); `variable` names a variable's expression.
pub(crate) fn keep(variable: Option<String>, text: &str, ast: &Ast, trace: &Trace) {
    let lines = trace_view::lines(ast, text, trace);
    let label = variable
        .or_else(|| LABEL.with(|l| l.borrow().clone()))
        .unwrap_or_else(|| "expression".to_string());
    SINK.with(|s| {
        if let Some(all) = s.borrow_mut().as_mut() {
            all.push(Explained {
                label,
                text: text.to_string(),
                lines,
            });
        }
    });
}
