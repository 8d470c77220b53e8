//! Whether a policy or binding applies to a request, as `matching.go` decides: namespaceSelector
//! (labels of the request's namespace; a Namespace is matched on its own labels; cluster-scoped
//! requests always match), objectSelector (new or old object), excludeResourceRules, resourceRules
//! with resourceNames and scope, then — for `matchPolicy: Equivalent` — the same resource in other
//! versions of its group.

use serde_json::Value as Json;

use super::json::at;
use super::request::Request;
use super::view::{Resources, Rule, Selector};
use crate::schema::resources::equivalent_resources;

/// The resource a policy matched: the request's own, or an equivalent one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matched {
    /// Group.
    pub group: String,
    /// Version.
    pub version: String,
    /// Plural resource.
    pub resource: String,
}

/// Whether `resources` (a `matchConstraints`/`matchResources`, absent = match all) matches the
/// request; `Some` with the matched resource when it does.
pub fn matches(resources: Option<&Resources>, request: &Request, minor: u32) -> Option<Matched> {
    let own = Matched {
        group: request.group.clone(),
        version: request.version.clone(),
        resource: request.resource.clone(),
    };
    let Some(resources) = resources else {
        return Some(own);
    };
    if !namespace_matches(resources, request) || !object_matches(resources, request) {
        return None;
    }
    let excluded = &resources.exclude_resource_rules;
    if excluded.iter().any(|r| rule_matches(r, request, &own)) {
        return None;
    }
    // `Matches`: no resourceRules (absent or empty) matches every resource.
    let included = &resources.resource_rules;
    if included.is_empty() {
        return Some(own);
    }
    if included.iter().any(|r| rule_matches(r, request, &own)) {
        return Some(own);
    }
    if resources.match_policy == "Exact" {
        return None;
    }
    equivalent_resources(minor, &request.group, &request.resource)
        .into_iter()
        .map(|(gvk, resource)| Matched {
            group: gvk.group,
            version: gvk.version,
            resource,
        })
        .find(|m| included.iter().any(|r| rule_matches(r, request, m)))
}

fn namespace_matches(resources: &Resources, request: &Request) -> bool {
    let Some(selector) = &resources.namespace_selector else {
        return true;
    };
    if request.kind == "Namespace" && request.group.is_empty() {
        return selector_matches(selector, labels(request.object_or_old()));
    }
    if request.namespace.is_empty() {
        return true;
    }
    selector_matches(selector, labels(request.namespace_object.as_ref()))
}

fn object_matches(resources: &Resources, request: &Request) -> bool {
    let Some(selector) = &resources.object_selector else {
        return true;
    };
    [request.object.as_ref(), request.old_object.as_ref()]
        .into_iter()
        .flatten()
        .any(|o| selector_matches(selector, labels(Some(o))))
}

fn labels(object: Option<&Json>) -> Option<&serde_json::Map<String, Json>> {
    object
        .and_then(|o| at(o, &["metadata", "labels"]))
        .and_then(Json::as_object)
}

/// Whether a label selector matches `labels` (an empty selector matches everything).
pub fn selector_matches(
    selector: &Selector,
    labels: Option<&serde_json::Map<String, Json>>,
) -> bool {
    let label = |key: &str| labels.and_then(|l| l.get(key)).and_then(Json::as_str);
    let exact = selector
        .match_labels
        .as_ref()
        .is_none_or(|want| want.iter().all(|(k, v)| label(k) == Some(v.as_str())));
    let expressions = selector.match_expressions.as_ref().is_none_or(|reqs| {
        reqs.iter().all(|req| {
            let has = |v: &str| req.values.iter().any(|x| x == v);
            match (req.operator.as_str(), label(&req.key)) {
                ("In", Some(v)) => has(v),
                ("In", None) => false,
                ("NotIn", Some(v)) => !has(v),
                ("NotIn", None) => true,
                ("Exists", found) => found.is_some(),
                ("DoesNotExist", found) => found.is_none(),
                _ => false,
            }
        })
    });
    exact && expressions
}

fn listed(values: &[String], value: &str) -> bool {
    values.iter().any(|v| v == "*" || v == value)
}

fn rule_matches(rule: &Rule, request: &Request, resource: &Matched) -> bool {
    let operation = listed(&rule.operations, &request.operation);
    let group = listed(&rule.api_groups, &resource.group);
    let version = listed(&rule.api_versions, &resource.version);
    let wanted = if request.sub_resource.is_empty() {
        resource.resource.clone()
    } else {
        format!("{}/{}", resource.resource, request.sub_resource)
    };
    let resources = rule.resources.iter().any(|r| {
        r == "*" && request.sub_resource.is_empty()
            || r == "*/*"
            || *r == wanted
            || r.strip_prefix("*/") == Some(request.sub_resource.as_str())
            || r.strip_suffix("/*") == Some(resource.resource.as_str())
    });
    let scope = match rule.scope.as_str() {
        "Cluster" => request.namespace.is_empty(),
        "Namespaced" => !request.namespace.is_empty(),
        _ => true,
    };
    let names = &rule.resource_names;
    let name = names.is_empty() || names.contains(&request.name);
    operation && group && version && resources && scope && name
}
