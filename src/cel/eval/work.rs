//! A per-thread meter of comparison work. cel-go's cost model charges list and map equality by
//! the size of the outer collections, so nested structures compared inside `==`, `in`,
//! `sets.*`, `distinct` or `indexOf` can do far more work than they cost. Every element that
//! [`equals`](super::ops::compare::equals) visits takes one unit; when the units run out,
//! equality gives up and the interpreter stops with the cost-limit error.

use std::cell::Cell;

/// Units of comparison work per evaluation (about a tenth of a second of comparisons).
pub const DEFAULT_WORK_LIMIT: u64 = 50_000_000;

thread_local! {
    static LEFT: Cell<u64> = const { Cell::new(u64::MAX) };
}

/// Takes one unit; `false` once the budget is spent. Outside an evaluation (`u64::MAX`: no
/// meter) nothing is counted.
pub(crate) fn tick() -> bool {
    LEFT.with(|left| match left.get() {
        0 => false,
        u64::MAX => true,
        n => {
            left.set(n - 1);
            true
        }
    })
}

/// Whether the budget is spent.
pub(crate) fn exhausted() -> bool {
    LEFT.with(|left| left.get() == 0)
}

/// Gives the outermost evaluation on this thread a fresh budget; nested evaluations (lazy
/// variables) share it. Dropping the outermost scope lifts the meter again.
pub(crate) struct Scope {
    outermost: bool,
}

impl Scope {
    pub(crate) fn enter(limit: u64) -> Scope {
        let outermost = LEFT.with(|left| left.get() == u64::MAX);
        if outermost {
            LEFT.with(|left| left.set(limit));
        }
        Scope { outermost }
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        if self.outermost {
            LEFT.with(|left| left.set(u64::MAX));
        }
    }
}
