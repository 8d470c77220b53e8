//! `x-kubernetes-validations` rules of a CustomResourceDefinition, checked as the API server
//! checks them when the CRD is created or updated: every entry at any depth of every
//! served version's schema ([`walk`]), its fields ([`fields`]), its `rule` and `messageExpression`
//! compiled with `self` typed from the schema node ([`compile`]), `oldSelf` only where old and new
//! values correlate, `optionalOldSelf` only on transition rules, and the estimated cost of each
//! rule and of the whole schema against the limits ([`cost`]); a schema `default` that breaks a
//! rule refuses the CRD first ([`defaults`]). Custom resources are validated against the rules
//! by [`custom_resource`], the failed rule's bad value worded per version by [`bad_value`].
//!
//! Follows apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go`
//! (`ValidateCustomResourceDefinitionOpenAPISchema`, `getExpressionCost`, `getCostErrorMessage`)
//! and `pkg/apiserver/schema/cel/compilation.go`. As there, a schema with structural errors
//! (reported by [`crate::schema::crd_check`]) gets no CEL diagnostics: its types are not reliable.

mod bad_value;
mod compile;
mod cost;
mod custom_resource;
mod defaults;
mod editor;
mod eval;
#[cfg(test)]
mod eval_tests;
mod fields;
mod hover_cost;
mod value;
mod walk;

pub use custom_resource::{CustomResourceCheck, validate_custom_resource};
pub use eval::{NodeRule, RuleOptions, RuleOutcome, compile_message_expression, compile_node_rule};
pub(crate) use hover_cost::rule_cost_at;
pub use value::typed_value;

use std::sync::Arc;

use serde_json::Value;

use super::Family;
use crate::cel::check::Env;
use crate::cel::types::Type;
use crate::policy::node::{lookup, lookup_str};
use crate::policy::workspace::Workspace;
use crate::policy::{Code, Diagnostic, ExpressionSite};
use crate::schema::crd_check::check_crd_schemas;
use crate::schema::{CrdKind, SchemaTypes, from_crd_json};
use crate::text::TextSize;
use crate::yaml::{Entry, Node};
use compile::Compiled;
use cost::{RULE_LIMIT, SCHEMA_LIMIT};
use fields::RuleFields;

/// The kind whose documents the family claims, whatever their `apiVersion`
/// ([`crate::policy::markers::CRD_KIND`]).
const CRD: &str = "CustomResourceDefinition";

/// The validation rules of CustomResourceDefinitions.
pub struct CrdRules;

impl Family for CrdRules {
    /// None: a CRD is found by its kind (`markers::CRD_KIND`), its group also holding kinds
    /// that are not read.
    fn groups(&self) -> &'static [&'static str] {
        &[]
    }

    fn claims(&self, _api_version: &str, kind: &str) -> bool {
        kind == CRD
    }

    /// By kind alone: a CRD without `apiVersion` is still checked.
    fn claims_root(&self, root: &Node) -> bool {
        root.get("kind").and_then(Node::as_str) == Some(CRD)
    }

    fn check(&self, root: &Node, minor: u32, _workspace: &Workspace, out: &mut Vec<Diagnostic>) {
        check(root, minor, out);
    }

    fn site_at(
        &self,
        root: &Node,
        offset: TextSize,
        minor: u32,
        _workspace: &Workspace,
    ) -> Option<(ExpressionSite, Env, TextSize)> {
        editor::rule_at(root, offset, minor)
    }

    /// The version only decides which schemas are bundled: the newest.
    fn expression_sites(&self, root: &Node) -> Vec<ExpressionSite> {
        editor::rule_sites(root, crate::schema::KubeVersion::newest().minor())
    }

    /// Custom resources are validated against the rules by `validate` and the suites
    /// ([`validate_custom_resource`]), not evaluated as a policy.
    fn evaluates(&self) -> bool {
        false
    }
}

/// The most expensive rules named when a schema's total is over the limit (`MostExpensive`).
const MOST_EXPENSIVE: usize = 4;

/// Adds the diagnostics of the rules of the CustomResourceDefinition `root` for Kubernetes
/// 1.`minor`.
pub fn check(root: &Node, minor: u32, out: &mut Vec<Diagnostic>) {
    check_with_costs(root, minor, out);
}

/// Where each rule and messageExpression of the CRDs of `yaml` ends and its estimated cost
/// (times the times its node can occur), for the editor's inlay hints.
pub(crate) fn rule_costs(
    yaml: &crate::yaml::YamlFile,
    minor: u32,
) -> Vec<(crate::text::TextSize, u64)> {
    let mut scratch = Vec::new();
    crd_roots(yaml)
        .flat_map(|root| check_with_costs(root, minor, &mut scratch))
        .map(|observed| (observed.end, observed.cost))
        .collect()
}

/// The roots of the CustomResourceDefinition documents of `yaml` that parsed cleanly.
fn crd_roots(yaml: &crate::yaml::YamlFile) -> impl Iterator<Item = &Node> {
    let roots = yaml
        .documents
        .iter()
        .filter_map(crate::policy::checked_root);
    roots.filter(|r| r.get("kind").and_then(Node::as_str) == Some("CustomResourceDefinition"))
}

/// [`check`], returning the costs it observed.
fn check_with_costs(root: &Node, minor: u32, out: &mut Vec<Diagnostic>) -> Vec<Observed> {
    check_with_costs_at(root, minor, None, out)
}

/// [`check_with_costs`] of every version schema, or with `at` only of the one holding `at` (a
/// hover needs one schema's costs, not every version's).
fn check_with_costs_at(
    root: &Node,
    minor: u32,
    at: Option<crate::text::TextSize>,
    out: &mut Vec<Diagnostic>,
) -> Vec<Observed> {
    let mut observed = Vec::new();
    let Some(mut json) = crate::policy::yaml_to_json(root) else {
        return observed;
    };
    if !check_crd_schemas(&mut json).is_empty() {
        return observed;
    }
    let Ok(kinds) = from_crd_json(&every_version_served(json)) else {
        return observed;
    };
    let schema_minor = crate::policy::typecheck::schema_minor(minor);
    for (path, schema, kind) in version_schemas(root, &kinds) {
        if at.is_some_and(|at| !schema.value.range.contains_inclusive(at)) {
            continue;
        }
        // A default that breaks a rule refuses the CRD before its rules are compiled: the API
        // server then checks no rule of that schema (`celContext` stays nil in validation.go).
        if defaults::check(&schema.value, &path, minor, out) {
            continue;
        }
        let types = Arc::new(SchemaTypes::new(schema_minor));
        let root_type = root_type(&types, schema, kind);
        let mut costs = Vec::new();
        for node in walk::rule_nodes(&schema.value, &path, root_type, &types) {
            check_node(&node, minor, &types, &mut costs, out);
        }
        total_cost(&path, schema.key.range, &costs, out);
        costs.iter_mut().for_each(|c| c.schema = schema.value.range);
        observed.append(&mut costs);
    }
    observed
}

/// The type of `self` at the root of a version's schema: the schema as written, as a resource
/// root (`kind`, `apiVersion`, and a `metadata` of only `name` and `generateName`, with their
/// lengths capped from 1.37), not the published one with the whole `ObjectMeta` (apiextensions-
/// apiserver `pkg/apiserver/schema/cel/compilation.go` `Compile` applies
/// `model.WithTypeAndObjectMeta` to the resource root).
fn root_type(types: &SchemaTypes, schema: &Entry, kind: &CrdKind) -> Type {
    match crate::policy::yaml_to_json(&schema.value) {
        Some(raw) if raw.is_object() => types.register_root(&kind.type_name(), Arc::new(raw)),
        _ => types.register_crd(kind),
    }
}

/// `crd` with every version marked served: the API server compiles the rules of every version,
/// served or not (apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go`
/// `ValidateCustomResourceDefinitionSpec` calls `validateCustomResourceDefinitionVersion` for each
/// entry of `spec.versions`).
pub(super) fn every_version_served(mut crd: Value) -> Value {
    let versions = crd
        .pointer_mut("/spec/versions")
        .and_then(Value::as_array_mut);
    for version in versions.into_iter().flatten() {
        if let Some(fields) = version.as_object_mut() {
            fields.insert("served".to_string(), Value::Bool(true));
        }
    }
    crd
}

/// Each version's `openAPIV3Schema` entry with its field path and its kind; the legacy
/// shared `spec.validation` schema once.
pub(super) fn version_schemas<'a>(
    root: &'a Node,
    kinds: &'a [CrdKind],
) -> Vec<(String, &'a Entry, &'a CrdKind)> {
    let spec = lookup(root, "spec").map(|e| &e.value);
    let versions = spec
        .and_then(|s| lookup(s, "versions"))
        .and_then(|e| e.value.as_sequence())
        .unwrap_or(&[]);
    let mut out = Vec::new();
    for (i, version) in versions.iter().enumerate() {
        let name = lookup_str(version, "name");
        let Some(kind) = kinds.iter().find(|k| Some(k.gvk.version.as_str()) == name) else {
            continue; // a version `from_crd_json` refused
        };
        let schema = lookup(version, "schema").and_then(|e| lookup(&e.value, "openAPIV3Schema"));
        if let Some(schema) = schema {
            let path = format!("spec.versions[{i}].schema.openAPIV3Schema");
            out.push((path, schema, kind));
        }
    }
    let shared = spec
        .and_then(|s| lookup(s, "validation"))
        .and_then(|e| lookup(&e.value, "openAPIV3Schema"));
    if let (Some(schema), Some(kind)) = (shared, kinds.first()) {
        out.push(("spec.validation.openAPIV3Schema".to_string(), schema, kind));
    }
    out
}

/// The cost one rule or messageExpression adds to its schema's total, and where it is written.
struct Observed {
    path: String,
    range: crate::text::TextRange,
    /// The end of the expression's text in the file.
    end: crate::text::TextSize,
    cost: u64,
    /// The version schema it belongs to (set once the schema's rules are all observed).
    schema: crate::text::TextRange,
}

/// The file offset where the scalar `node` ends: after its closing quote, or after the last
/// character of a block scalar's text (its range runs on to the next line).
fn content_end(node: &Node) -> crate::text::TextSize {
    use crate::yaml::ScalarStyle;
    match crate::policy::node::scalar(node) {
        Some(scalar) if matches!(scalar.style, ScalarStyle::Literal | ScalarStyle::Folded) => {
            let end = crate::text::TextSize::of(scalar.value.trim_end());
            scalar.source_map.to_file(end)
        }
        _ => node.range.end(),
    }
}

fn check_node(
    node: &walk::RuleNode,
    minor: u32,
    types: &Arc<SchemaTypes>,
    costs: &mut Vec<Observed>,
    out: &mut Vec<Diagnostic>,
) {
    let Some(rules) =
        lookup(node.schema, "x-kubernetes-validations").and_then(|e| e.value.as_sequence())
    else {
        return;
    };
    let schema_json = crate::policy::yaml_to_json(node.schema).unwrap_or(Value::Null);
    let sizes = cost::RuleSizes::new(types, &schema_json);
    let cardinality = node
        .cardinality
        .unwrap_or_else(|| cost::unbounded_cardinality(types.minor(), &schema_json));
    let path = |i: usize| format!("{}.x-kubernetes-validations[{i}]", node.path);
    let before = out.len();
    for (i, entry) in rules.iter().enumerate() {
        fields::check(&RuleFields::of(entry), &path(i), node.schema, out);
    }
    if out.len() > before {
        return; // the API server compiles no rule of a node with schema errors
    }
    // One environment per `optionalOldSelf` setting: building one costs more than checking a
    // short rule, and a node's rules mostly share it.
    let mut envs: [Option<crate::cel::check::Env>; 2] = [None, None];
    for (i, entry) in rules.iter().enumerate() {
        let fields = RuleFields::of(entry);
        let optional = fields.optional_old_self();
        let env = envs[usize::from(optional)]
            .get_or_insert_with(|| compile::env(minor, types, &node.self_type, optional));
        let at = (path(i), cardinality);
        check_entry(node, &sizes, env, &fields, at, costs, out);
    }
}

fn check_entry(
    node: &walk::RuleNode,
    sizes: &cost::RuleSizes,
    env: &crate::cel::check::Env,
    fields: &RuleFields,
    (path, cardinality): (String, u64),
    costs: &mut Vec<Observed>,
    out: &mut Vec<Diagnostic>,
) {
    let path = path.as_str();
    let Some(rule) = fields.rule else { return };
    let rule_path = format!("{path}.rule");
    let bool_rule = (&Type::Bool, "cel expression must evaluate to a bool");
    if let Some(compiled) = compile::compile(rule, &rule_path, env, sizes, bool_rule, out) {
        observe(
            &compiled,
            "estimated rule cost",
            (&rule_path, rule),
            cardinality,
            costs,
            out,
        );
        transition(node, fields, &compiled, &rule_path, out);
    }
    if let Some(expression) = fields
        .message_expression
        .filter(|n| !fields::text(Some(n)).is_empty())
    {
        let message_path = format!("{path}.messageExpression");
        let string = (&Type::String, "messageExpression must evaluate to a string");
        if let Some(compiled) = compile::compile(expression, &message_path, env, sizes, string, out)
        {
            // A messageExpression runs only for a failing value, and the API server counts its
            // estimate once, not times the node's cardinality (`MessageExpressionMaxCost` in
            // apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go`).
            let what = "estimated messageExpression cost";
            observe(&compiled, what, (&message_path, expression), 1, costs, out);
        }
    }
}

/// The per-expression limit, and the expression's share of the schema's total.
fn observe(
    compiled: &Compiled,
    what: &str,
    (path, node): (&str, &Node),
    cardinality: u64,
    costs: &mut Vec<Observed>,
    out: &mut Vec<Diagnostic>,
) {
    let Some(cost) = compiled.cost else { return };
    let range = node.range;
    let cost = if cost == 0 {
        0
    } else {
        cost.saturating_mul(cardinality)
    };
    if cost > RULE_LIMIT {
        let message = format!(
            "{path}: Forbidden: {}",
            cost::over_budget(what, cost, RULE_LIMIT)
        );
        out.push(Diagnostic::new(Code::CelCost, range, message));
    }
    costs.push(Observed {
        path: path.to_string(),
        range,
        end: content_end(node),
        cost,
        schema: crate::text::TextRange::default(),
    });
}

/// `oldSelf` only where old and new values correlate; `optionalOldSelf` only when it is used.
fn transition(
    node: &walk::RuleNode,
    fields: &RuleFields,
    compiled: &Compiled,
    rule_path: &str,
    out: &mut Vec<Diagnostic>,
) {
    if compiled.uses_old_self {
        if let (Some(within), Some(rule)) = (&node.uncorrelatable, fields.rule) {
            let message = format!(
                "{rule_path}: Invalid value: {:?}: oldSelf cannot be used on the uncorrelatable portion of the schema within {within}",
                fields::text(Some(rule))
            );
            out.push(Diagnostic::new(Code::Invalid, rule.range, message));
        }
    } else if let Some(optional) = fields.optional_old_self {
        let path = rule_path.trim_end_matches(".rule");
        let message = format!(
            "{path}.optionalOldSelf: Invalid value: {}: may not be set if oldSelf is not used in rule",
            fields::text(Some(optional))
        );
        out.push(Diagnostic::new(Code::Invalid, optional.range, message));
    }
}

/// The schema-wide limit: the most expensive expressions and the schema itself are forbidden.
fn total_cost(
    path: &str,
    at: crate::text::TextRange,
    costs: &[Observed],
    out: &mut Vec<Diagnostic>,
) {
    let total = costs.iter().fold(0u64, |sum, c| sum.saturating_add(c.cost));
    if total <= SCHEMA_LIMIT {
        return;
    }
    // `ObserveExpressionCost` names no expression that costs less than 1% of the limit.
    let mut expensive: Vec<&Observed> = costs
        .iter()
        .filter(|c| c.cost >= SCHEMA_LIMIT / 100)
        .collect();
    expensive.sort_by_key(|c| std::cmp::Reverse(c.cost));
    for observed in expensive.into_iter().take(MOST_EXPENSIVE) {
        let message = format!(
            "{}: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
            observed.path
        );
        out.push(Diagnostic::new(Code::CelCost, observed.range, message));
    }
    let what = "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema";
    let message = format!(
        "{path}: Forbidden: {}",
        cost::over_budget(what, total, SCHEMA_LIMIT)
    );
    out.push(Diagnostic::new(Code::CelCost, at, message));
}
