//! The estimated cost of the CRD rule or messageExpression under a cursor, beside the limits the
//! API server holds it to when the CRD is written (apiextensions-apiserver
//! `pkg/apis/apiextensions/validation/validation.go`: `StaticEstimatedCostLimit` per expression,
//! `StaticEstimatedCRDCostLimit` for the rules of one version's schema together), for hover.

use crate::text::{TextRange, TextSize};
use crate::yaml::YamlFile;

use super::cost::{RULE_LIMIT, SCHEMA_LIMIT};
use super::{check_with_costs_at, crd_roots};

/// The cost of one expression and of its schema, with both limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleCost {
    /// The expression's characters in the file.
    pub range: TextRange,
    /// Its estimate, times how many values its node can have in one object (a
    /// messageExpression's counts once).
    pub cost: u64,
    /// The most one expression may cost.
    pub rule_limit: u64,
    /// What the rules of its version's schema cost together.
    pub schema_total: u64,
    /// The most they may cost together.
    pub schema_limit: u64,
}

/// The cost of the rule or messageExpression at `offset` of `yaml` for Kubernetes 1.`minor`;
/// `None` outside one, or for one that does not compile.
pub fn rule_cost_at(yaml: &YamlFile, offset: TextSize, minor: u32) -> Option<RuleCost> {
    let root = crd_roots(yaml).find(|root| root.range.contains_inclusive(offset))?;
    let observed = check_with_costs_at(root, minor, Some(offset), &mut Vec::new());
    let rule = observed
        .iter()
        .find(|o| o.range.contains_inclusive(offset))?;
    let schema_total = observed
        .iter()
        .filter(|o| o.schema == rule.schema)
        .fold(0u64, |sum, o| sum.saturating_add(o.cost));
    Some(RuleCost {
        range: rule.range,
        cost: rule.cost,
        rule_limit: RULE_LIMIT,
        schema_total,
        schema_limit: SCHEMA_LIMIT,
    })
}
