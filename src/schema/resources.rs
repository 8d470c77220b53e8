//! Group/version/resource → kind resolution for the bundled kinds, as `matchConstraints` rules
//! name them.
//!
//! Plurals are derived from kinds the way kubectl guesses them (lowercase; `s` → `ses`,
//! consonant + `y` → `ies`, otherwise `+s`) with an exception table for the irregular built-ins.
//! Wildcards follow the admission rule semantics: `*` in groups or versions matches all; in
//! resources `*` is every resource but no subresource, `*/*` every resource and subresource,
//! `pods/*` every subresource of pods and `*/status` the status subresource of every resource.
//! A subresource resolves to the kind of the object the API server admits for it: the parent kind
//! for `status` (and the few others that carry the whole object), `autoscaling/v1 Scale` for
//! `scale`, `policy/v1 Eviction` for `pods/eviction`, and so on.
//!
//! The API server's status type checker is narrower: it skips rules with `*` in
//! groups or versions, drops resources containing `*` or `/` and checks at most 10 kinds. Those
//! limits belong to the caller; this module answers what a rule matches at admission time.

use std::sync::OnceLock;

use super::Gvk;
use super::bundled;

/// One resource (or subresource) a rule matched, with the kind of the admitted object.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Resolved {
    /// Group of the resource (`""` for core).
    pub group: String,
    /// Version of the resource.
    pub version: String,
    /// Plural resource name (`deployments`).
    pub resource: String,
    /// Subresource (`status`, `scale`…), empty for the resource itself.
    pub subresource: String,
    /// Kind of the object admitted for this (sub)resource; its schema may be absent from the
    /// bundle (connect options such as `PodExecOptions`), in which case it is untyped.
    pub kind: Gvk,
}

/// Kinds that exist only as the body of a subresource, never as a resource of their own.
const SUBRESOURCE_ONLY: &[(&str, &str)] = &[
    ("autoscaling", "Scale"),
    ("policy", "Eviction"),
    ("authentication.k8s.io", "TokenRequest"),
];

/// Plurals that the guessing rule gets wrong.
const IRREGULAR_PLURALS: &[(&str, &str)] = &[
    ("Endpoints", "endpoints"),
    ("ResourceClaimParameters", "resourceclaimparameters"),
    ("ResourceClassParameters", "resourceclassparameters"),
];

/// A group, version and kind written out.
type KindParts = (&'static str, &'static str, &'static str);

/// Subresources other than `status`: group, resource, subresource and the kind each one admits
/// (`None`: the parent kind). Group `""` resources are core.
const SUBRESOURCES: &[(&str, &str, &str, Option<KindParts>)] = &[
    ("", "pods", "binding", Some(("", "v1", "Binding"))),
    ("", "pods", "eviction", Some(("policy", "v1", "Eviction"))),
    ("", "pods", "ephemeralcontainers", None),
    ("", "pods", "resize", None),
    ("", "pods", "exec", Some(("", "v1", "PodExecOptions"))),
    ("", "pods", "attach", Some(("", "v1", "PodAttachOptions"))),
    (
        "",
        "pods",
        "portforward",
        Some(("", "v1", "PodPortForwardOptions")),
    ),
    ("", "pods", "proxy", Some(("", "v1", "PodProxyOptions"))),
    (
        "",
        "services",
        "proxy",
        Some(("", "v1", "ServiceProxyOptions")),
    ),
    ("", "nodes", "proxy", Some(("", "v1", "NodeProxyOptions"))),
    ("", "namespaces", "finalize", None),
    (
        "",
        "serviceaccounts",
        "token",
        Some(("authentication.k8s.io", "v1", "TokenRequest")),
    ),
    ("", "replicationcontrollers", "scale", Some(SCALE)),
    ("apps", "deployments", "scale", Some(SCALE)),
    ("apps", "replicasets", "scale", Some(SCALE)),
    ("apps", "statefulsets", "scale", Some(SCALE)),
    (
        "certificates.k8s.io",
        "certificatesigningrequests",
        "approval",
        None,
    ),
];

const SCALE: KindParts = ("autoscaling", "v1", "Scale");

/// Cluster-scoped built-in kinds (by group and kind); every other built-in resource is namespaced.
const CLUSTER_SCOPED: &[(&str, &str)] = &[
    ("", "ComponentStatus"),
    ("", "Namespace"),
    ("", "Node"),
    ("", "PersistentVolume"),
    ("admissionregistration.k8s.io", "MutatingAdmissionPolicy"),
    (
        "admissionregistration.k8s.io",
        "MutatingAdmissionPolicyBinding",
    ),
    (
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
    ),
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy"),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicyBinding",
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration",
    ),
    ("apiextensions.k8s.io", "CustomResourceDefinition"),
    ("apiregistration.k8s.io", "APIService"),
    ("authentication.k8s.io", "SelfSubjectReview"),
    ("authentication.k8s.io", "TokenReview"),
    ("authorization.k8s.io", "SelfSubjectAccessReview"),
    ("authorization.k8s.io", "SelfSubjectRulesReview"),
    ("authorization.k8s.io", "SubjectAccessReview"),
    ("certificates.k8s.io", "CertificateSigningRequest"),
    ("certificates.k8s.io", "ClusterTrustBundle"),
    ("flowcontrol.apiserver.k8s.io", "FlowSchema"),
    ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration"),
    ("internal.apiserver.k8s.io", "StorageVersion"),
    ("networking.k8s.io", "IPAddress"),
    ("networking.k8s.io", "IngressClass"),
    ("networking.k8s.io", "ServiceCIDR"),
    ("node.k8s.io", "RuntimeClass"),
    ("rbac.authorization.k8s.io", "ClusterRole"),
    ("rbac.authorization.k8s.io", "ClusterRoleBinding"),
    ("resource.k8s.io", "DeviceClass"),
    ("resource.k8s.io", "DeviceTaintRule"),
    ("resource.k8s.io", "ResourceClass"),
    ("resource.k8s.io", "ResourceSlice"),
    ("scheduling.k8s.io", "PriorityClass"),
    ("storage.k8s.io", "CSIDriver"),
    ("storage.k8s.io", "CSINode"),
    ("storage.k8s.io", "StorageClass"),
    ("storage.k8s.io", "VolumeAttachment"),
    ("storage.k8s.io", "VolumeAttributesClass"),
    ("storagemigration.k8s.io", "StorageVersionMigration"),
];

/// The plural resource name of a kind: the exception table, else kubectl's guess.
pub fn plural(kind: &str) -> String {
    if let Some((_, plural)) = IRREGULAR_PLURALS.iter().find(|(k, _)| *k == kind) {
        return (*plural).to_string();
    }
    let lower = kind.to_ascii_lowercase();
    if lower.ends_with('s') {
        return format!("{lower}es");
    }
    if let Some(stem) = lower.strip_suffix('y') {
        // `gateway` → `gateways`, `policy` → `policies`.
        let vowel_before = stem.ends_with(['a', 'e', 'i', 'o', 'u']);
        if !vowel_before {
            return format!("{stem}ies");
        }
    }
    format!("{lower}s")
}

/// Whether a built-in kind is namespaced (`false` for the cluster-scoped ones).
pub fn is_namespaced(group: &str, kind: &str) -> bool {
    !CLUSTER_SCOPED
        .iter()
        .any(|(g, k)| *g == group && *k == kind)
}

/// The resources of `minor`: every resource kind with its plural, sorted by group, version and
/// plural.
pub fn resources(minor: u32) -> Vec<(Gvk, String)> {
    resource_table(minor).to_vec()
}

/// [`resources`] of a bundled version, built once per version: every policy's rules are resolved
/// against it, and rebuilding it (a plural per kind) per rule cost 15% of checking 1,000 policies.
fn resource_table(minor: u32) -> &'static [(Gvk, String)] {
    /// One lazily built table per bundled version, in [`bundled::versions`] order.
    type Tables = Vec<OnceLock<Vec<(Gvk, String)>>>;
    static TABLES: OnceLock<Tables> = OnceLock::new();
    let versions = bundled::versions();
    let tables = TABLES.get_or_init(|| versions.iter().map(|_| OnceLock::new()).collect());
    let Some(slot) = versions.iter().position(|v| *v == minor) else {
        return &[];
    };
    tables[slot].get_or_init(|| build_resources(minor))
}

fn build_resources(minor: u32) -> Vec<(Gvk, String)> {
    let mut out: Vec<(Gvk, String)> = bundled::kinds(minor)
        .iter()
        .filter(|e| e.is_resource)
        .filter(|e| {
            !SUBRESOURCE_ONLY
                .iter()
                .any(|(g, k)| *g == e.gvk.group && *k == e.gvk.kind)
        })
        .map(|e| (e.gvk.clone(), plural(&e.gvk.kind)))
        .collect();
    out.sort_by(|a, b| (&a.0.group, &a.0.version, &a.1).cmp(&(&b.0.group, &b.0.version, &b.1)));
    out
}

/// The kind `group/version/resource` (a plural, no wildcard) names in `minor`, if bundled.
pub fn kind_for(minor: u32, group: &str, version: &str, resource: &str) -> Option<Gvk> {
    resource_table(minor)
        .iter()
        .find(|(gvk, plural)| gvk.group == group && gvk.version == version && plural == resource)
        .map(|(gvk, _)| gvk.clone())
}

/// The subresources of a resource of `minor` with the kind each admits.
fn subresources(minor: u32, gvk: &Gvk, resource: &str) -> Vec<(String, Gvk)> {
    let mut out = Vec::new();
    // Every kind that has a status carries a `status` subresource that admits the whole object.
    let has_status = bundled::kinds(minor)
        .iter()
        .find(|e| e.gvk == *gvk)
        .and_then(|e| bundled::definition(minor, &e.definition))
        .is_some_and(|schema| schema.pointer("/properties/status").is_some());
    if has_status {
        out.push(("status".to_string(), gvk.clone()));
    }
    for (group, parent, sub, kind) in SUBRESOURCES {
        // In-place pod resize moved to its own subresource in 1.33.
        if *sub == "resize" && minor < 33 {
            continue;
        }
        if *group == gvk.group && *parent == resource {
            let kind = kind.map_or_else(|| gvk.clone(), |(g, v, k)| Gvk::new(g, v, k));
            out.push(((*sub).to_string(), kind));
        }
    }
    out
}

fn matches(pattern: &str, value: &str) -> bool {
    pattern == "*" || pattern == value
}

/// The part of `table` (sorted by group, version, plural) that can match the patterns: the rows
/// of the group, version and plural named without a wildcard, as far as they go from the left.
/// Every policy document resolves its rules, and a scan of the whole table per rule was a
/// noticeable share of checking many policies.
fn candidates<'t>(
    table: &'t [(Gvk, String)],
    group: &str,
    version: &str,
    resource: &str,
) -> &'t [(Gvk, String)] {
    if group == "*" {
        return table;
    }
    let rows = equal_range(table, group, |row| &row.0.group);
    if version == "*" {
        return rows;
    }
    let rows = equal_range(rows, version, |row| &row.0.version);
    if resource == "*" {
        return rows;
    }
    equal_range(rows, resource, |row| &row.1)
}

/// The rows of `rows` (sorted by `key`) whose key is `value`.
fn equal_range<'t>(
    rows: &'t [(Gvk, String)],
    value: &str,
    key: fn(&(Gvk, String)) -> &String,
) -> &'t [(Gvk, String)] {
    let start = rows.partition_point(|row| key(row).as_str() < value);
    let len = rows[start..].partition_point(|row| key(row) == value);
    &rows[start..start + len]
}

/// Every (sub)resource of `minor` that the rule entry `group`/`version`/`resource` matches, with
/// the admitted kind, sorted. `resource` may be `name`, `name/sub`, `*`, `*/*`, `name/*` or
/// `*/sub`; group and version may be `*`.
pub fn resolve_resources(minor: u32, group: &str, version: &str, resource: &str) -> Vec<Resolved> {
    let (res_pattern, sub_pattern) = match resource.split_once('/') {
        Some((res, sub)) => (res, Some(sub)),
        None => (resource, None),
    };
    let mut out = Vec::new();
    for (gvk, plural) in candidates(resource_table(minor), group, version, res_pattern) {
        if !matches(group, &gvk.group) || !matches(version, &gvk.version) {
            continue;
        }
        if !matches(res_pattern, plural) {
            continue;
        }
        let make = |sub: &str, kind: Gvk| Resolved {
            group: gvk.group.clone(),
            version: gvk.version.clone(),
            resource: plural.clone(),
            subresource: sub.to_string(),
            kind,
        };
        match sub_pattern {
            None => out.push(make("", gvk.clone())),
            Some(sub_pattern) => {
                // `*/*` matches the resources themselves as well as their subresources.
                if res_pattern == "*" && sub_pattern == "*" {
                    out.push(make("", gvk.clone()));
                }
                for (sub, kind) in subresources(minor, gvk, plural) {
                    if matches(sub_pattern, &sub) {
                        out.push(make(&sub, kind));
                    }
                }
            }
        }
    }
    out.sort();
    out
}

/// Resources equivalent to `group`/`resource` for `matchPolicy: Equivalent`: the same resource in
/// every version of its group, and for events the pair of the core and `events.k8s.io` groups.
/// Sorted; includes the resource itself in each version.
pub fn equivalent_resources(minor: u32, group: &str, resource: &str) -> Vec<(Gvk, String)> {
    let events = resource == "events" && matches!(group, "" | "events.k8s.io");
    let mut out: Vec<(Gvk, String)> = resource_table(minor)
        .iter()
        .filter(|(gvk, plural)| {
            plural == resource
                && (gvk.group == group
                    || events && matches!(gvk.group.as_str(), "" | "events.k8s.io"))
        })
        .cloned()
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::{candidates, resource_table};
    use crate::schema::bundled;

    /// The narrowed rows are exactly the rows of the whole table the patterns match, for names
    /// with and without wildcards, present and absent.
    #[test]
    fn candidates_are_the_matching_rows_of_the_table() {
        let minor = bundled::versions().last().copied().unwrap_or(31);
        let table = resource_table(minor);
        assert!(!table.is_empty());
        let patterns = [
            ("apps", "v1", "deployments"),
            ("", "v1", "pods"),
            ("", "v1", "*"),
            ("apps", "*", "*"),
            ("*", "v1", "deployments"),
            ("*", "*", "*"),
            ("apps", "v1", "nothing"),
            ("no.such.group", "v1", "widgets"),
            ("batch", "v1", "cronjobs"),
        ];
        let fits = |pattern: &str, value: &str| pattern == "*" || pattern == value;
        for (group, version, resource) in patterns {
            let narrowed = candidates(table, group, version, resource);
            let expected: Vec<_> = table
                .iter()
                .filter(|(gvk, plural)| {
                    fits(group, &gvk.group) && fits(version, &gvk.version) && fits(resource, plural)
                })
                .collect();
            let kept: Vec<_> = narrowed
                .iter()
                .filter(|(gvk, plural)| {
                    fits(group, &gvk.group) && fits(version, &gvk.version) && fits(resource, plural)
                })
                .collect();
            assert_eq!(kept, expected, "{group}/{version}/{resource}");
            assert!(narrowed.len() <= table.len());
        }
        let deployments = candidates(table, "apps", "v1", "deployments");
        assert_eq!(deployments.len(), 1, "one row for an exact name");
    }
}
