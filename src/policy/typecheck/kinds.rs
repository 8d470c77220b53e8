//! Which kinds a policy's `object` is typed with, and what `params` is.
//!
//! Kinds follow the API server's status type checker so that the typed check
//! never guesses: rules with `*` in `apiGroups` or `apiVersions` are skipped, resources containing
//! `*` or `/` (wildcards, subresources) are dropped, every group × version × resource is resolved to
//! its kind (bundled kinds, then CRDs of the workspace), kinds matched by `excludeResourceRules`
//! are removed, and at most [`MAX_KINDS`] kinds are kept (sorted by group, version, kind).
//! `matchPolicy: Equivalent` adds no kind: the API server converts the object to the version the
//! rule names before the policy sees it, so `object` always has a kind the rules name.

use std::collections::BTreeSet;

use super::super::model::{List, MatchResources, NamedRule, Opt, ParamKind, Text};
use super::super::workspace::Workspace;
use crate::schema::{Gvk, resolve_resources};

/// The API server's `maxTypesToCheck`: more kinds are not checked.
pub const MAX_KINDS: usize = 10;

fn texts(list: &Opt<List<Text>>) -> Vec<&str> {
    list.as_ref().map_or(Vec::new(), |f| {
        f.value.items.iter().map(|t| t.value.as_str()).collect()
    })
}

fn rules(list: &Opt<List<NamedRule>>) -> &[NamedRule] {
    list.as_ref().map_or(&[], |f| f.value.items.as_slice())
}

/// The kinds one rule names, without wildcards and subresources.
fn rule_kinds(minor: u32, rule: &NamedRule, workspace: &Workspace, out: &mut BTreeSet<Gvk>) {
    let groups = texts(&rule.api_groups);
    let versions = texts(&rule.api_versions);
    if groups.iter().chain(&versions).any(|g| g.contains('*')) {
        return;
    }
    let resources = texts(&rule.resources);
    let resources = resources.iter().filter(|r| !r.contains(['*', '/']));
    for resource in resources {
        for group in &groups {
            for version in &versions {
                for resolved in resolve_resources(minor, group, version, resource) {
                    out.insert(resolved.kind);
                }
                out.extend(workspace.crd_resources(group, version, resource));
            }
        }
    }
}

/// The kinds `object` is typed with for a policy's `matchConstraints`, sorted, at most
/// [`MAX_KINDS`].
pub fn matched_kinds(
    minor: u32,
    constraints: &Opt<MatchResources>,
    workspace: &Workspace,
) -> Vec<Gvk> {
    let Some(constraints) = constraints else {
        return Vec::new();
    };
    let mut kinds = BTreeSet::new();
    for rule in rules(&constraints.value.resource_rules) {
        rule_kinds(minor, rule, workspace, &mut kinds);
    }
    let mut excluded = BTreeSet::new();
    for rule in rules(&constraints.value.exclude_resource_rules) {
        rule_kinds(minor, rule, workspace, &mut excluded);
    }
    kinds
        .into_iter()
        .filter(|k| !excluded.contains(k))
        .take(MAX_KINDS)
        .collect()
}

/// The group, version and kind a `paramKind` names, if both fields are set.
pub fn param_gvk(param: &ParamKind) -> Option<Gvk> {
    let api_version = &param.api_version.as_ref()?.value.value;
    let kind = &param.kind.as_ref()?.value.value;
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    Some(Gvk::new(group, version, kind))
}

/// How apimachinery prints a kind: `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`.
pub fn kind_label(gvk: &Gvk) -> String {
    format!("{}/{}, Kind={}", gvk.group, gvk.version, gvk.kind)
}
