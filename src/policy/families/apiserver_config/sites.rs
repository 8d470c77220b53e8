//! The CEL of an authentication or authorization configuration, with the variable each sees
//! (`k8s.io/apiserver` `pkg/apis/apiserver/v1/types.go`): a JWT authenticator's
//! `claimValidationRules[].expression`, `claimMappings` `username`, `groups`, `uid` and
//! `extra[].valueExpression` (over `claims`), `userValidationRules[].expression` (over `user`),
//! and a webhook authorizer's `matchConditions[].expression` (over `request`).

use crate::policy::families::FamilySite;
use crate::yaml::Node;

/// Roles: the variable a site sees and whether it must be a bool.
pub(super) const CLAIM_VALIDATION: &str = "claimValidation";
pub(super) const CLAIM_MAPPING: &str = "claimMapping";
pub(super) const USER_VALIDATION: &str = "userValidation";
pub(super) const MATCH_CONDITION: &str = "matchCondition";

/// Every non-blank expression of the document at `root`, in field order.
pub(super) fn collect(root: &Node) -> Vec<FamilySite> {
    let mut sites = Vec::new();
    for (i, jwt) in items(root.get("jwt")).iter().enumerate() {
        let path = format!("jwt[{i}]");
        jwt_sites(jwt, &path, &mut sites);
    }
    for (i, authorizer) in items(root.get("authorizers")).iter().enumerate() {
        let Some(webhook) = authorizer.get("webhook") else {
            continue;
        };
        let path = format!("authorizers[{i}].webhook.matchConditions");
        for (j, condition) in items(webhook.get("matchConditions")).iter().enumerate() {
            let path = format!("{path}[{j}].expression");
            push(
                condition.get("expression"),
                path,
                MATCH_CONDITION,
                None,
                &mut sites,
            );
        }
    }
    sites
}

fn jwt_sites(jwt: &Node, path: &str, sites: &mut Vec<FamilySite>) {
    for (j, rule) in items(jwt.get("claimValidationRules")).iter().enumerate() {
        let path = format!("{path}.claimValidationRules[{j}].expression");
        push(rule.get("expression"), path, CLAIM_VALIDATION, None, sites);
    }
    if let Some(mappings) = jwt.get("claimMappings") {
        for field in ["username", "groups", "uid"] {
            let node = mappings.get(field).and_then(|m| m.get("expression"));
            let path = format!("{path}.claimMappings.{field}.expression");
            push(node, path, CLAIM_MAPPING, Some(field.to_string()), sites);
        }
        for (j, extra) in items(mappings.get("extra")).iter().enumerate() {
            let key = extra.get("key").and_then(Node::as_str).map(str::to_string);
            let path = format!("{path}.claimMappings.extra[{j}].valueExpression");
            push(
                extra.get("valueExpression"),
                path,
                CLAIM_MAPPING,
                key,
                sites,
            );
        }
    }
    for (j, rule) in items(jwt.get("userValidationRules")).iter().enumerate() {
        let path = format!("{path}.userValidationRules[{j}].expression");
        push(rule.get("expression"), path, USER_VALIDATION, None, sites);
    }
}

/// The items of a sequence node (none for anything else).
pub(super) fn items(node: Option<&Node>) -> &[Node] {
    node.and_then(Node::as_sequence).unwrap_or(&[])
}

fn push(
    node: Option<&Node>,
    path: String,
    role: &'static str,
    name: Option<String>,
    sites: &mut Vec<FamilySite>,
) {
    let Some(node) = node else { return };
    let Some(scalar) = node.as_scalar() else {
        return;
    };
    if node.is_null() || scalar.value.trim().is_empty() {
        return;
    }
    sites.push(FamilySite {
        path,
        name,
        role,
        text: scalar.value.clone(),
        source_map: scalar.source_map.clone(),
        range: node.range,
    });
}
