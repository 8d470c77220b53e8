//! An opt-in record of one evaluation, node by node: the value (or the error that stopped it) of
//! every subexpression that ran, and for comprehensions the iteration they stopped at. The
//! interpreter fills it only when the caller asks ([`super::evaluate_traced`]); without it the
//! interpreter checks one `Option` per node and records nothing.
//!
//! A node evaluated more than once (inside a comprehension) keeps its last value: the loop stops
//! at the element that decided `all`/`exists`, so the last values are the deciding ones.

use super::value::{EvalError, Value};
use crate::cel::ast::ExprId;

/// What one node did.
#[derive(Clone, Debug)]
pub enum NodeOutcome {
    /// It produced a value (an error value included).
    Value(Value),
    /// Evaluation stopped inside it (cost limit, depth).
    Stopped(EvalError),
}

/// The iteration a comprehension ended on.
#[derive(Clone, Debug)]
pub struct Iteration {
    /// Zero-based position in the range.
    pub index: usize,
    /// The bound variables' names and values in that iteration.
    pub vars: Vec<(String, Value)>,
}

/// The record of one evaluation, indexed by `ExprId`.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    nodes: Vec<Option<NodeOutcome>>,
    iterations: Vec<Option<Iteration>>,
}

impl Trace {
    /// An empty record for a tree of `len` nodes.
    pub fn new(len: usize) -> Trace {
        Trace {
            nodes: vec![None; len],
            iterations: vec![None; len],
        }
    }

    /// What node `id` did; `None` when it was not evaluated.
    pub fn node(&self, id: ExprId) -> Option<&NodeOutcome> {
        self.nodes.get(id.index())?.as_ref()
    }

    /// The iteration comprehension `id` ended on, if it iterated.
    pub fn iteration(&self, id: ExprId) -> Option<&Iteration> {
        self.iterations.get(id.index())?.as_ref()
    }

    pub(crate) fn record(&mut self, id: ExprId, step: &Result<Value, EvalError>) {
        if let Some(slot) = self.nodes.get_mut(id.index()) {
            *slot = Some(match step {
                Ok(v) => NodeOutcome::Value(v.clone()),
                Err(e) => NodeOutcome::Stopped(e.clone()),
            });
        }
    }

    /// Forgets the values of `nodes` (a loop body about to run again), so a loop that stops
    /// midway shows only what its last iteration computed.
    pub(crate) fn forget(&mut self, nodes: &[ExprId]) {
        for id in nodes {
            if let Some(slot) = self.nodes.get_mut(id.index()) {
                *slot = None;
            }
            if let Some(slot) = self.iterations.get_mut(id.index()) {
                *slot = None;
            }
        }
    }

    pub(crate) fn record_iteration(
        &mut self,
        id: ExprId,
        index: usize,
        vars: Vec<(String, Value)>,
    ) {
        if let Some(slot) = self.iterations.get_mut(id.index()) {
            *slot = Some(Iteration { index, vars });
        }
    }
}
