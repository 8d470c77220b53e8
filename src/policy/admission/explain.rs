//! Evaluation traces on request: inside [`capture`], every expression a policy evaluation runs
//! (validations, matchConditions, variables as they are first forced, mutations) is evaluated
//! with the evaluator's trace and its lines are kept, in the order the evaluations finished.
//! Outside it nothing is recorded and expressions run untraced.

use std::cell::RefCell;

use crate::cel::Ast;
use crate::cel::eval::trace::Trace;
use crate::cel::eval::trace_view::{self, TraceLine};

/// The trace of one expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// `variables.NAME` for a variable, otherwise `None`.
    pub variable: Option<String>,
    /// The expression's text.
    pub text: String,
    /// Its subexpressions and their values.
    pub lines: Vec<TraceLine>,
}

thread_local! {
    static SINK: RefCell<Option<Vec<Explained>>> = const { RefCell::new(None) };
}

/// Runs `f` and returns what it returned with the traces of the expressions it evaluated.
pub fn capture<T>(f: impl FnOnce() -> T) -> (T, Vec<Explained>) {
    let outer = SINK.with(|s| s.replace(Some(Vec::new())));
    let result = f();
    let traces = SINK.with(|s| s.replace(outer)).unwrap_or_default();
    (result, traces)
}

/// Whether a [`capture`] is running on this thread.
pub(crate) fn enabled() -> bool {
    SINK.with(|s| s.borrow().is_some())
}

/// Keeps the trace of `ast` (parsed from `text`).
pub(crate) fn keep(variable: Option<String>, text: &str, ast: &Ast, trace: &Trace) {
    let lines = trace_view::lines(ast, text, trace);
    SINK.with(|s| {
        if let Some(all) = s.borrow_mut().as_mut() {
            all.push(Explained {
                variable,
                text: text.to_string(),
                lines,
            });
        }
    });
}
