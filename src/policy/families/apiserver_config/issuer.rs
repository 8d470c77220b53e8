//! A JWT authenticator's `issuer` as `validateIssuer` in `k8s.io/apiserver`
//! `pkg/apis/apiserver/validation/validation.go` checks it: the URL (and the discovery URL, which
//! must differ from it) in the https scheme without user information, query or fragment (the parts
//! Go's `url.Parse` finds), and the audiences (at least one, none empty, no duplicate, with
//! `audienceMatchPolicy: MatchAny` when there are several).

use super::sites::items;
use crate::policy::report::Report;
use crate::yaml::Node;

fn text(node: Option<&Node>) -> &str {
    node.and_then(Node::as_str).unwrap_or("")
}

/// Reports the errors of `jwt`'s issuer (`path` is the authenticator's path).
pub(super) fn check(jwt: &Node, path: &str, report: &mut Report<'_>) {
    let issuer = jwt.get("issuer");
    let at = |node: Option<&Node>| node.map_or(jwt.range, |n| n.range);
    let url_node = issuer.and_then(|i| i.get("url"));
    let url = text(url_node);
    let url_path = format!("{path}.issuer.url");
    if url.is_empty() {
        report.required(at(issuer), &url_path, "");
    } else {
        url_rules(url, at(url_node), &url_path, report);
    }
    let discovery_node = issuer.and_then(|i| i.get("discoveryURL"));
    let discovery = text(discovery_node);
    if !discovery.is_empty() {
        let path = format!("{path}.issuer.discoveryURL");
        if !url.is_empty() && url.trim_end_matches('/') == discovery.trim_end_matches('/') {
            let detail = "discoveryURL must be different from URL";
            report.invalid(at(discovery_node), &path, discovery, detail);
        }
        url_rules(discovery, at(discovery_node), &path, report);
    }
    audiences(issuer, path, at(issuer), report);
}

/// The https scheme, no user information, query or fragment.
fn url_rules(url: &str, range: crate::text::TextRange, path: &str, report: &mut Report<'_>) {
    let (before_fragment, fragment) = url.split_once('#').unwrap_or((url, ""));
    let (before_query, query) = before_fragment
        .split_once('?')
        .unwrap_or((before_fragment, ""));
    let scheme = before_query
        .split_once(':')
        .map(|(scheme, _)| scheme)
        .filter(|scheme| {
            scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        })
        .unwrap_or("");
    let authority = before_query
        .strip_prefix(scheme)
        .and_then(|rest| rest.strip_prefix("://"))
        .map(|rest| rest.split('/').next().unwrap_or(""))
        .unwrap_or("");
    if !scheme.eq_ignore_ascii_case("https") {
        report.invalid(range, path, url, "URL scheme must be https");
    }
    if authority.contains('@') {
        let detail = "URL must not contain a username or password";
        report.invalid(range, path, url, detail);
    }
    if !query.is_empty() {
        report.invalid(range, path, url, "URL must not contain a query");
    }
    if !fragment.is_empty() {
        report.invalid(range, path, url, "URL must not contain a fragment");
    }
}

fn audiences(
    issuer: Option<&Node>,
    path: &str,
    range: crate::text::TextRange,
    report: &mut Report<'_>,
) {
    let node = issuer.and_then(|i| i.get("audiences"));
    let list = items(node);
    let field = format!("{path}.issuer.audiences");
    if list.is_empty() {
        let detail = format!("at least one {field} is required");
        report.required(node.map_or(range, |n| n.range), &field, &detail);
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    for (k, audience) in list.iter().enumerate() {
        let value = text(Some(audience));
        let path = format!("{field}[{k}]");
        if value.is_empty() {
            report.required(audience.range, &path, "");
        }
        if seen.contains(&value) {
            report.duplicate(audience.range, &path, value, "");
        }
        seen.push(value);
    }
    let policy_node = issuer.and_then(|i| i.get("audienceMatchPolicy"));
    let policy = text(policy_node);
    let policy_path = format!("{path}.issuer.audienceMatchPolicy");
    let policy_range = policy_node.map_or(range, |n| n.range);
    if list.len() > 1 && policy != "MatchAny" {
        let detail = "audienceMatchPolicy must be MatchAny for multiple audiences";
        report.invalid(policy_range, &policy_path, policy, detail);
    }
    if list.len() == 1 && !policy.is_empty() && policy != "MatchAny" {
        let detail = "audienceMatchPolicy must be empty or MatchAny for single audience";
        report.invalid(policy_range, &policy_path, policy, detail);
    }
}
