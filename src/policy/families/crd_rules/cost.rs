//! Estimated costs of CRD rules against the limits the API server enforces when the CRD is
//! written (apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go`):
//! a rule or messageExpression over `StaticEstimatedCostLimit` (10,000,000) is forbidden, and so
//! is a schema whose rules add up to more than `StaticEstimatedCRDCostLimit` (100,000,000).
//! A rule's cost is its estimate multiplied by how many values its node can have in one object:
//! the product of the `maxItems`/`maxProperties` above it, or, with an unbounded list or map
//! above it, as many of the node's smallest values as fit in a request (`getExpressionCost`).
//!
//! Sizes are the API server's per-value rule (`SchemaDeclType`): a schema bound where written,
//! else what fits in a 3 MiB request.

use serde_json::Value;

use crate::cel::cost::{Path, PathRoot, Size, SizeEstimator, Step};
use crate::cel::types::Type;
use crate::schema::SchemaTypes;
use crate::schema::sizes::{MAX_REQUEST_SIZE, MaxSize, REQUEST_BUDGET, max_sizes};

/// `StaticEstimatedCostLimit`: the most one rule or messageExpression may be estimated to cost.
pub const RULE_LIMIT: u64 = 10_000_000;

/// `StaticEstimatedCRDCostLimit`: the most the rules of one schema may cost together.
pub const SCHEMA_LIMIT: u64 = 100_000_000;

/// Sizes for the rules of one schema node: `self`/`oldSelf` from the node, fields from the types.
pub struct RuleSizes<'a> {
    types: &'a SchemaTypes,
    own: Vec<MaxSize>,
}

impl<'a> RuleSizes<'a> {
    /// The sizes of the node `schema` (as JSON) of a schema converted into `types`.
    pub fn new(types: &'a SchemaTypes, schema: &Value) -> Self {
        Self {
            types,
            own: max_sizes(types.minor(), schema),
        }
    }
}

impl SizeEstimator for RuleSizes<'_> {
    fn size(&self, path: Option<&Path>, _: &Type) -> Option<Size> {
        let path = path?;
        let levels = match &path.root {
            PathRoot::Variable(name) if name == "self" || name == "oldSelf" => self.own.clone(),
            PathRoot::Field { owner, field } => self
                .types
                .with_field(owner, field, |info| info.max_sizes.clone())?,
            PathRoot::Variable(_) => return None,
        };
        // A node past the last sized level is a scalar or an object, whose `DeclType` has no
        // `MaxElements`: the estimator reads 0 for it (`sizeEstimator.EstimateSize` in
        // apiextensions-apiserver `pkg/apiserver/schema/cel/compilation.go`), so comparing two
        // numbers costs nothing beyond reading them.
        let mut levels = levels.iter().map(|level| level.at(REQUEST_BUDGET));
        let mut max = levels.next().unwrap_or(0);
        for step in &path.steps {
            max = match step {
                // Map keys are apiserver's shared `StringType`, which records no size: the
                // estimator reads 0 for them (`SchemaDeclType` in apiserver pkg/cel/common).
                Step::Keys => 0,
                Step::Items | Step::Values => levels.next().unwrap_or(0),
            };
        }
        Some(Size { min: 0, max })
    }
}

/// How many values of the schema node `schema` fit in a request, each with a separator
/// (`maxCardinality` in apiextensions-apiserver `pkg/apiserver/schema/cel/compilation.go`, over the
/// node's `MinSerializedSize`, which counts an object's required properties).
pub fn unbounded_cardinality(minor: u32, schema: &Value) -> u64 {
    MAX_REQUEST_SIZE / (crate::schema::sizes::min_serialized_size(minor, schema) + 1)
}

/// `getCostErrorMessage`: how far over `limit` a cost is, with the API server's hint.
pub fn over_budget(what: &str, cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        "more than 100x".to_string()
    } else if factor < 1.5 {
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    };
    format!(
        "{what} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}
