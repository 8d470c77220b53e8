//! Static cost estimation of a checked expression, following cel-go's estimator model
//! (`checker/cost.go`) and the Kubernetes call estimates (`apiserver/pkg/cel/library/cost.go`
//! `EstimateCallCost`): every node gets a `[min, max]` cost range, and lists, maps, strings and
//! bytes a `[min, max]` size range, so that a comprehension costs its range size times its body.
//!
//! Sizes the expression itself does not fix (a field of the request object, a variable) come from
//! a [`SizeEstimator`]: the policy layer answers from the schema (`maxItems`, `maxLength`,
//! `maxProperties`, else the 3 MiB request-size rule); an estimator that knows nothing gives
//! cel-go's "unknown" size, `[0, u64::MAX]`.
//!
//! Macros are costed as cel-go costs their expansions, without expanding them (see `walk::macros`).

mod calls;
mod walk;

#[cfg(test)]
mod tests;

use crate::cel::ast::Ast;
use crate::cel::check::Checked;
use crate::cel::types::Type;

pub use crate::cel::eval::cost::DEFAULT_COST_LIMIT as PER_CALL_LIMIT;

/// A `[min, max]` cost range; arithmetic saturates at `u64::MAX` as cel-go's does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// The cheapest evaluation.
    pub min: u64,
    /// The most expensive evaluation.
    pub max: u64,
}

/// A `[min, max]` size range: code points of a string, bytes, list items or map entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// The smallest size.
    pub min: u64,
    /// The largest size.
    pub max: u64,
}

impl Cost {
    /// `[n, n]`.
    pub const fn fixed(n: u64) -> Cost {
        Cost { min: n, max: n }
    }

    /// The sum.
    pub fn plus(self, other: Cost) -> Cost {
        Cost {
            min: self.min.saturating_add(other.min),
            max: self.max.saturating_add(other.max),
        }
    }

    /// The product.
    pub fn product(self, other: Cost) -> Cost {
        Cost {
            min: self.min.saturating_mul(other.min),
            max: self.max.saturating_mul(other.max),
        }
    }

    /// The range covering both.
    pub fn union(self, other: Cost) -> Cost {
        Cost {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }
}

impl Size {
    /// `[n, n]`.
    pub const fn fixed(n: u64) -> Size {
        Size { min: n, max: n }
    }

    /// A size nothing is known about.
    pub const UNKNOWN: Size = Size {
        min: 0,
        max: u64::MAX,
    };

    /// The sum.
    pub fn plus(self, other: Size) -> Size {
        Size {
            min: self.min.saturating_add(other.min),
            max: self.max.saturating_add(other.max),
        }
    }

    /// The product.
    pub fn product(self, other: Size) -> Size {
        Size {
            min: self.min.saturating_mul(other.min),
            max: self.max.saturating_mul(other.max),
        }
    }

    /// The range covering both.
    pub fn union(self, other: Size) -> Size {
        Size {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The size times a per-unit cost, each bound rounded up (cel-go's `MultiplyByCostFactor`).
    pub fn scale(self, factor: f64) -> Cost {
        Cost {
            min: scale(self.min, factor),
            max: scale(self.max, factor),
        }
    }

    /// The size times a cost (`MultiplyByCost`).
    pub fn times(self, cost: Cost) -> Cost {
        Cost {
            min: self.min.saturating_mul(cost.min),
            max: self.max.saturating_mul(cost.max),
        }
    }
}

/// ⌈n × factor⌉, saturating at `u64::MAX`.
fn scale(n: u64, factor: f64) -> u64 {
    let product = (n as f64 * factor).ceil();
    if product >= u64::MAX as f64 {
        u64::MAX
    } else {
        product as u64
    }
}

/// One step of a path below its start: into list items, map values or map keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `@items`: an element of a list.
    Items,
    /// `@values`: a value of a map.
    Values,
    /// `@keys`: a key of a map.
    Keys,
}

/// Where a value comes from, for size lookups: a variable or the last object field selected on
/// the way to it, followed by element steps. (cel-go keeps the whole path from the variable; the
/// last field of an object type identifies the schema node just as well.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    /// The start of the path.
    pub root: PathRoot,
    /// Element steps after it.
    pub steps: Vec<Step>,
}

/// The start of a [`Path`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathRoot {
    /// A declared variable (`object`, `params`, `variables`…).
    Variable(String),
    /// Field `field` of the object type `owner`.
    Field {
        /// The object type's name.
        owner: std::sync::Arc<str>,
        /// The field name.
        field: String,
    },
}

/// Supplies the sizes the expression does not fix.
pub trait SizeEstimator {
    /// The size of a value of type `ty` reached by `path` (`None` when the value has no path, such
    /// as a call result), or `None` when unknown.
    fn size(&self, path: Option<&Path>, ty: &Type) -> Option<Size>;

    /// Whether list functions (`join`, `isSorted`, `sum`…) should use the element sizes the
    /// expression computes (`['a', 'b'].join()`, `l.map(x, x.name).join()`) before asking
    /// [`SizeEstimator::size`]. Kubernetes asks only by path and type, so the default is no.
    fn computed_elements(&self) -> bool {
        false
    }

    /// Whether `m.f` on a map `m` reaches the map's values (a path step [`Step::Values`]), as
    /// an estimator that sizes every value of a map alike reads cel-go's path (DRA's
    /// `sizeEstimator` gives each attribute the attribute type's size). Kubernetes' schema
    /// estimators find no field of that name and know no size, so the default is no.
    fn map_select_reaches_values(&self) -> bool {
        false
    }
}

/// An estimator that knows no sizes: everything not fixed by the expression is unknown.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoSizes;

impl SizeEstimator for NoSizes {
    fn size(&self, _: Option<&Path>, _: &Type) -> Option<Size> {
        None
    }
}

/// The estimated cost of the checked expression `ast`; sizes not fixed by the expression come
/// from `sizes`. Presence tests (`has`) cost nothing, as Kubernetes configures cel-go.
pub fn estimate(ast: &Ast, checked: &Checked, sizes: &dyn SizeEstimator) -> Cost {
    estimate_value(ast, checked, sizes).cost
}

/// An expression's estimated cost and the estimated size of its value (and of its elements), so
/// that a later expression that reads the value (a policy variable) can be estimated with them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// The cost range.
    pub cost: Cost,
    /// The size of a string, bytes, list or map result.
    pub size: Option<Size>,
    /// The size of the elements (values) of a list or map result, when the expression fixes it.
    pub elements: Option<Size>,
    /// Whether a size that neither the expression nor the estimator bounds went into the cost or
    /// the sizes (cel-go's "unknown" size, `[0, u64::MAX]`): the maximum is then not meaningful.
    pub unknown: bool,
}

/// [`estimate`] with the size of the result.
pub fn estimate_value(ast: &Ast, checked: &Checked, sizes: &dyn SizeEstimator) -> Estimate {
    walk::Walker::new(ast, checked, sizes).run()
}
