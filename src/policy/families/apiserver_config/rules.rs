//! What the API server refuses in an authentication or authorization configuration around its
//! CEL, in the wording of `k8s.io/apiserver` `pkg/apis/apiserver/validation/validation.go`:
//! a JWT authenticator's issuer (`issuer.rs`), a claim validation rule with both or
//! neither of `claim` and `expression` (and a `message` beside `claim`), a claim mapping with
//! both or neither of `claim` and `expression` (`username` is required), a `prefix` beside an
//! expression or missing beside a claim, extra mappings (lower-case keys outside the Kubernetes
//! domains, unique, with a value expression), user validation rules with an expression; at least
//! one authorizer, each with a known type and a unique name, a webhook exactly when the type is
//! Webhook, with its required fields and match conditions; duplicate issuer URLs, rule claims and
//! expressions, and match condition expressions.

use super::sites::items;
use crate::policy::Diagnostic;
use crate::policy::report::Report;
use crate::yaml::Node;

/// The authorizer types the API server knows (`pkg/kubeapiserver/authorizer/modes`).
const AUTHORIZER_TYPES: &[&str] = &[
    "ABAC",
    "AlwaysAllow",
    "AlwaysDeny",
    "Node",
    "RBAC",
    "Webhook",
];

/// Reports the structural errors of the document at `root`.
pub(super) fn check(root: &Node, out: &mut Vec<Diagnostic>) {
    let mut report = Report::new(out);
    match root.get("kind").and_then(Node::as_str) {
        Some("AuthenticationConfiguration") => {
            let mut urls: Vec<&str> = Vec::new();
            for (i, jwt) in items(root.get("jwt")).iter().enumerate() {
                let path = format!("jwt[{i}]");
                jwt_rules(jwt, &path, &mut report);
                let url_node = jwt.get("issuer").and_then(|issuer| issuer.get("url"));
                let url = text(url_node);
                if !url.is_empty() && urls.contains(&url) {
                    let range = url_node.map_or(jwt.range, |n| n.range);
                    report.duplicate(range, &format!("{path}.issuer.url"), url, "");
                }
                urls.push(url);
            }
        }
        Some("AuthorizationConfiguration") => authorizers(root, &mut report),
        _ => {}
    }
}

fn text(node: Option<&Node>) -> &str {
    node.and_then(Node::as_str).unwrap_or("")
}

fn jwt_rules(jwt: &Node, path: &str, report: &mut Report<'_>) {
    super::issuer::check(jwt, path, report);
    let rules = items(jwt.get("claimValidationRules"));
    for (j, rule) in rules.iter().enumerate() {
        let rule_path = format!("{path}.claimValidationRules[{j}]");
        claim_validation_rule(rule, &rule_path, report);
        // A rule with both is refused as such and not remembered (`validateClaimValidationRules`).
        duplicate_of_earlier(rules, j, "claim", Some("expression"), &rule_path, report);
        duplicate_of_earlier(rules, j, "expression", Some("claim"), &rule_path, report);
    }
    let mappings = jwt.get("claimMappings");
    let mappings_path = format!("{path}.claimMappings");
    match mappings {
        Some(mappings) => claim_mappings(mappings, &mappings_path, report),
        None => report.required(
            jwt.range,
            &format!("{mappings_path}.username"),
            "claim or expression is required",
        ),
    }
    let rules = items(jwt.get("userValidationRules"));
    for (j, rule) in rules.iter().enumerate() {
        let rule_path = format!("{path}.userValidationRules[{j}]");
        if text(rule.get("expression")).is_empty() {
            report.required(rule.range, &format!("{rule_path}.expression"), "");
        }
        duplicate_of_earlier(rules, j, "expression", None, &rule_path, report);
    }
}

/// `Duplicate value` on `rules[index].field` when an earlier rule has the same non-empty value;
/// with `alone`, only rules whose `alone` field is empty count, the current one included.
fn duplicate_of_earlier(
    rules: &[Node],
    index: usize,
    field: &str,
    alone: Option<&str>,
    path: &str,
    report: &mut Report<'_>,
) {
    let counts = |rule: &Node| alone.is_none_or(|other| text(rule.get(other)).is_empty());
    let Some(rule) = rules.get(index).filter(|rule| counts(rule)) else {
        return;
    };
    let Some(node) = rule.get(field) else {
        return;
    };
    let value = text(Some(node));
    let earlier = rules
        .iter()
        .take(index)
        .any(|rule| counts(rule) && text(rule.get(field)) == value);
    if !value.is_empty() && earlier {
        report.duplicate(node.range, &format!("{path}.{field}"), value, "");
    }
}

fn claim_validation_rule(rule: &Node, path: &str, report: &mut Report<'_>) {
    let claim = text(rule.get("claim"));
    let expression = text(rule.get("expression"));
    match (claim.is_empty(), expression.is_empty()) {
        (false, false) => report.invalid(
            rule.range,
            path,
            claim,
            "claim and expression can't both be set",
        ),
        (true, true) => report.required(rule.range, path, "claim or expression is required"),
        (false, true) => {
            if let Some(message) = rule.get("message").filter(|m| !text(Some(m)).is_empty()) {
                let path = format!("{path}.message");
                let detail = "may not be specified when claim is set";
                report.invalid(message.range, &path, text(Some(message)), detail);
            }
        }
        (true, false) => {
            if let Some(value) = rule
                .get("requiredValue")
                .filter(|v| !text(Some(v)).is_empty())
            {
                let path = format!("{path}.requiredValue");
                let detail = "may not be specified when expression is set";
                report.invalid(value.range, &path, text(Some(value)), detail);
            }
        }
    }
}

fn claim_mappings(mappings: &Node, path: &str, report: &mut Report<'_>) {
    prefixed(mappings, "username", path, true, report);
    prefixed(mappings, "groups", path, false, report);
    if let Some(uid) = mappings.get("uid") {
        let both = !text(uid.get("claim")).is_empty() && !text(uid.get("expression")).is_empty();
        if both {
            let path = format!("{path}.uid");
            report.invalid(
                uid.range,
                &path,
                "",
                "claim and expression can't both be set",
            );
        }
    }
    let mut keys: Vec<&str> = Vec::new();
    for (j, extra) in items(mappings.get("extra")).iter().enumerate() {
        let path = format!("{path}.extra[{j}]");
        let key_node = extra.get("key");
        let key = text(key_node);
        let key_range = key_node.map_or(extra.range, |n| n.range);
        if key.is_empty() {
            report.required(key_range, &format!("{path}.key"), "");
        } else if key != key.to_lowercase() {
            report.invalid(key_range, &format!("{path}.key"), key, "must be lowercase");
        } else if is_kubernetes_domain(key) {
            let detail =
                "k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use";
            report.invalid(key_range, &format!("{path}.key"), key, detail);
        } else if keys.contains(&key) {
            report.duplicate(key_range, &format!("{path}.key"), key, "");
        }
        keys.push(key);
        if text(extra.get("valueExpression")).is_empty() {
            report.required(extra.range, &format!("{path}.valueExpression"), "");
        }
    }
}

/// A `PrefixedClaimOrExpression` (`username`, `groups`).
fn prefixed(mappings: &Node, field: &str, path: &str, required: bool, report: &mut Report<'_>) {
    let path = format!("{path}.{field}");
    let node = mappings.get(field);
    let claim = text(node.and_then(|n| n.get("claim")));
    let expression = text(node.and_then(|n| n.get("expression")));
    let range = node.map_or(mappings.range, |n| n.range);
    match (claim.is_empty(), expression.is_empty()) {
        (false, false) => {
            report.invalid(range, &path, "", "claim and expression can't both be set")
        }
        (true, true) if required => {
            report.required(range, &path, "claim or expression is required")
        }
        (true, false) => {
            if let Some(prefix) = node.and_then(|n| n.get("prefix")) {
                let detail = "may not be specified when expression is set";
                report.invalid(
                    prefix.range,
                    &format!("{path}.prefix"),
                    text(Some(prefix)),
                    detail,
                );
            }
        }
        (false, true) if field == "username" && node.and_then(|n| n.get("prefix")).is_none() => {
            let detail = "prefix is required when claim is set. It can be set to an empty string \
                          to disable prefixing";
            report.required(range, &format!("{path}.prefix"), detail);
        }
        _ => {}
    }
}

/// Whether `key`'s domain is k8s.io, kubernetes.io or a subdomain of either.
fn is_kubernetes_domain(key: &str) -> bool {
    let domain = key.split_once('/').map_or("", |(domain, _)| domain);
    ["k8s.io", "kubernetes.io"]
        .iter()
        .any(|reserved| domain == *reserved || domain.ends_with(&format!(".{reserved}")))
}

fn authorizers(root: &Node, report: &mut Report<'_>) {
    let list = items(root.get("authorizers"));
    if list.is_empty() {
        let range = root.get("authorizers").map_or(root.range, |n| n.range);
        let detail = "at least one authorization mode must be defined";
        report.required(range, "authorizers", detail);
    }
    let mut names: Vec<&str> = Vec::new();
    for (i, authorizer) in list.iter().enumerate() {
        let path = format!("authorizers[{i}]");
        let kind = text(authorizer.get("type"));
        let type_range = authorizer.get("type").map_or(authorizer.range, |n| n.range);
        if kind.is_empty() {
            report.required(type_range, &format!("{path}.type"), "");
        } else if !AUTHORIZER_TYPES.contains(&kind) {
            report.not_supported(type_range, &format!("{path}.type"), kind, AUTHORIZER_TYPES);
        }
        let name = text(authorizer.get("name"));
        let name_range = authorizer.get("name").map_or(authorizer.range, |n| n.range);
        if name.is_empty() {
            report.required(name_range, &format!("{path}.name"), "");
        } else if names.contains(&name) {
            report.duplicate(name_range, &format!("{path}.name"), name, "");
        }
        names.push(name);
        match (kind == "Webhook", authorizer.get("webhook")) {
            (true, None) => report.required(
                authorizer.range,
                &format!("{path}.webhook"),
                "required when type=Webhook",
            ),
            (false, Some(webhook)) if !webhook.is_null() => report.invalid(
                webhook.range,
                &format!("{path}.webhook"),
                "non-null",
                "may only be specified when type=Webhook",
            ),
            (true, Some(webhook)) => webhook_rules(webhook, &format!("{path}.webhook"), report),
            _ => {}
        }
    }
}

fn webhook_rules(webhook: &Node, path: &str, report: &mut Report<'_>) {
    let field = |name: &str| webhook.get(name);
    let range = |name: &str| field(name).map_or(webhook.range, |n| n.range);
    let required = |name: &str, report: &mut Report<'_>| {
        let empty = text(field(name)).is_empty();
        if empty {
            report.required(range(name), &format!("{path}.{name}"), "");
        }
        !empty
    };
    required("timeout", report);
    if required("subjectAccessReviewVersion", report) {
        let value = text(field("subjectAccessReviewVersion"));
        if !["v1", "v1beta1"].contains(&value) {
            let path = format!("{path}.subjectAccessReviewVersion");
            report.not_supported(
                range("subjectAccessReviewVersion"),
                &path,
                value,
                &["v1", "v1beta1"],
            );
        }
    }
    let conditions = items(field("matchConditions"));
    let version = text(field("matchConditionSubjectAccessReviewVersion"));
    if !conditions.is_empty() && version.is_empty() {
        let path = format!("{path}.matchConditionSubjectAccessReviewVersion");
        let range = range("matchConditionSubjectAccessReviewVersion");
        report.required(range, &path, "required if match conditions are specified");
    } else if !version.is_empty() && version != "v1" {
        let path = format!("{path}.matchConditionSubjectAccessReviewVersion");
        let range = range("matchConditionSubjectAccessReviewVersion");
        report.not_supported(range, &path, version, &["v1"]);
    }
    if required("failurePolicy", report) {
        let value = text(field("failurePolicy"));
        if !["NoOpinion", "Deny"].contains(&value) {
            let path = format!("{path}.failurePolicy");
            report.not_supported(range("failurePolicy"), &path, value, &["NoOpinion", "Deny"]);
        }
    }
    let connection = field("connectionInfo");
    let connection_type = text(connection.and_then(|c| c.get("type")));
    let connection_path = format!("{path}.connectionInfo.type");
    let connection_range = connection.map_or(webhook.range, |n| n.range);
    if connection_type.is_empty() {
        report.required(connection_range, &connection_path, "");
    } else if !["InClusterConfig", "KubeConfigFile"].contains(&connection_type) {
        let supported = &["InClusterConfig", "KubeConfigFile"];
        report.not_supported(
            connection_range,
            &connection_path,
            connection_type,
            supported,
        );
    }
    for (j, condition) in conditions.iter().enumerate() {
        let condition_path = format!("{path}.matchConditions[{j}]");
        if text(condition.get("expression")).is_empty() {
            let path = format!("{condition_path}.expression");
            report.required(condition.range, &path, "");
        }
        duplicate_of_earlier(conditions, j, "expression", None, &condition_path, report);
    }
}
