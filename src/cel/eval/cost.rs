//! Runtime cost tracking with cel-go's model (interpreter/runtimecost.go) and the Kubernetes call
//! costs, plus an allocation meter that bounds memory where the cost model charges O(1) for work
//! that allocates O(n) (list concatenation, `lists.range`, string replacement).

use super::value::{ErrorKind, EvalError};

/// cel-go's cost constants (common/cost.go).
pub mod consts {
    /// Accessing an identifier or selecting a field.
    pub const SELECT_AND_IDENT: u64 = 1;
    /// Creating a list.
    pub const LIST_CREATE: u64 = 10;
    /// Creating a map.
    pub const MAP_CREATE: u64 = 30;
    /// Creating a struct/object.
    pub const STRUCT_CREATE: u64 = 40;
    /// Cost per character of a string traversal.
    pub const STRING_TRAVERSAL_FACTOR: f64 = 0.1;
    /// Cost per character of a regular expression.
    pub const REGEX_LENGTH_FACTOR: f64 = 0.25;
}

/// The API server's per-expression limit (`PerCallLimit`).
pub const DEFAULT_COST_LIMIT: u64 = 1_000_000;

/// Units of the allocation meter: a list or map element counts 8, a string or bytes byte 1.
pub const DEFAULT_ALLOCATION_LIMIT: u64 = 64 * 1024 * 1024;

/// The API server's text when the per-call limit is exceeded.
pub const COST_LIMIT_MESSAGE: &str = "operation cancelled: actual cost limit exceeded";

/// Accumulated cost and allocation, with their limits.
#[derive(Clone, Debug)]
pub struct CostTracker {
    /// Cost so far.
    pub cost: u64,
    /// Cost limit (`None`: unlimited cost, allocations still bounded).
    pub limit: Option<u64>,
    allocated: u64,
    allocation_limit: u64,
}

impl CostTracker {
    /// A tracker with the given limits.
    pub fn new(limit: Option<u64>, allocation_limit: u64) -> Self {
        CostTracker {
            cost: 0,
            limit,
            allocated: 0,
            allocation_limit,
        }
    }

    /// Adds cost; `Err` once over the limit (evaluation stops).
    pub fn charge(&mut self, amount: u64) -> Result<(), EvalError> {
        self.cost = self.cost.saturating_add(amount);
        match self.limit {
            Some(limit) if self.cost > limit => Err(limit_error()),
            _ => Ok(()),
        }
    }

    /// Records the allocation of `units`; `Err` once over the allocation limit. Reported with the
    /// cost-limit text: to the policy author both mean "this expression is too expensive".
    pub fn allocate(&mut self, units: u64) -> Result<(), EvalError> {
        self.allocated = self.allocated.saturating_add(units);
        if self.allocated > self.allocation_limit {
            return Err(limit_error());
        }
        Ok(())
    }
}

fn limit_error() -> EvalError {
    EvalError::new(ErrorKind::CostLimit, COST_LIMIT_MESSAGE)
}

/// ⌈size × factor⌉ as cel-go computes it.
pub fn scaled(size: u64, factor: f64) -> u64 {
    (size as f64 * factor).ceil() as u64
}
