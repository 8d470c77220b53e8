//! CRD rules as expression sites for the editor: the `rule` or `messageExpression` under a file
//! offset, with the environment it is compiled in (`self` typed from its schema node), so that
//! hover, completion and signature help work inside `x-kubernetes-validations` as inside policies.

use std::sync::Arc;

use crate::cel::check::Env;
use crate::policy::node::{lookup, scalar};
use crate::policy::sites::{ExpressionSite, ResultType, SiteRole};
use crate::policy::{PolicyKind, yaml_to_json};
use crate::schema::{SchemaTypes, from_crd_json};
use crate::text::TextSize;
use crate::yaml::Node;

use super::fields::RuleFields;
use super::{compile, every_version_served, version_schemas, walk};

/// The rule expression under `offset` in the CRD `root`: its site, environment and the cursor as
/// an offset into the site's text.
pub fn rule_at(
    root: &Node,
    offset: TextSize,
    minor: u32,
) -> Option<(ExpressionSite, Env, TextSize)> {
    if !root.range.contains_inclusive(offset) {
        return None;
    }
    let json = yaml_to_json(root)?;
    let kinds = from_crd_json(&every_version_served(json)).ok()?;
    let schema_minor = crate::policy::typecheck::schema_minor(minor);
    for (path, schema, kind) in version_schemas(root, &kinds) {
        if !schema.value.range.contains_inclusive(offset) {
            continue;
        }
        let types = Arc::new(SchemaTypes::new(schema_minor));
        let root_type = types.register_crd(kind);
        for node in walk::rule_nodes(&schema.value, &path, root_type, &types) {
            if let Some(found) = in_node(&node, &types, offset, minor) {
                return Some(found);
            }
        }
    }
    None
}

fn in_node(
    node: &walk::RuleNode,
    types: &Arc<SchemaTypes>,
    offset: TextSize,
    minor: u32,
) -> Option<(ExpressionSite, Env, TextSize)> {
    for (site, optional_old_self) in node_sites(node) {
        let Some(at) = site.source_map.to_decoded(offset) else {
            continue;
        };
        if usize::from(at) > site.text.len() {
            continue;
        }
        let env = compile::env(minor, types, &node.self_type, optional_old_self);
        return Some((site, env, at));
    }
    None
}

/// Every rule and messageExpression of the CRD `root` as expression sites (untyped: for the
/// semantic tokens).
pub fn rule_sites(root: &Node, minor: u32) -> Vec<ExpressionSite> {
    let mut out = Vec::new();
    let Some(kinds) =
        yaml_to_json(root).and_then(|json| from_crd_json(&every_version_served(json)).ok())
    else {
        return out;
    };
    let types = SchemaTypes::new(crate::policy::typecheck::schema_minor(minor));
    for (path, schema, _) in version_schemas(root, &kinds) {
        for node in walk::rule_nodes(&schema.value, &path, crate::cel::types::Type::Dyn, &types) {
            out.extend(node_sites(&node).into_iter().map(|(site, _)| site));
        }
    }
    out
}

/// The rule and messageExpression sites of one node, each with its entry's `optionalOldSelf`.
fn node_sites(node: &walk::RuleNode) -> Vec<(ExpressionSite, bool)> {
    let Some(rules) =
        lookup(node.schema, "x-kubernetes-validations").and_then(|e| e.value.as_sequence())
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, entry) in rules.iter().enumerate() {
        let fields = RuleFields::of(entry);
        let path = format!("{}.x-kubernetes-validations[{i}]", node.path);
        let candidates = [
            (fields.rule, SiteRole::CrdRule, ResultType::Bool, "rule"),
            (
                fields.message_expression,
                SiteRole::CrdMessageExpression,
                ResultType::String,
                "messageExpression",
            ),
        ];
        for (scalar_node, role, result, key) in candidates {
            let Some((node_of, scalar)) = scalar_node.and_then(|n| Some((n, scalar(n)?))) else {
                continue;
            };
            let site = ExpressionSite {
                role,
                // Unused for CRD rules (the role says where the expression is).
                policy: PolicyKind::ValidatingPolicy,
                path: format!("{path}.{key}"),
                name: None,
                text: scalar.value.clone(),
                offset: TextSize::from(0),
                source_map: scalar.source_map.clone(),
                range: node_of.range,
                has_params: false,
                has_authorizer: false,
                sees_variables: false,
                variables: Vec::new(),
                has_patch_types: false,
                result,
            };
            out.push((site, fields.optional_old_self()));
        }
    }
    out
}
