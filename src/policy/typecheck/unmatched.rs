//! Rules that match nothing: a `resourceRules` resource that no bundled kind of the target version
//! and no CRD of the workspace serves under the rule's groups and versions. The API server accepts
//! such a rule, but it admits nothing, and the typed check has no kind to type `object` with for it;
//! a warning (`unresolved-reference`) says so on the resource, with a "did you mean" from the
//! bundled resources: the plural of a singular (`deployment` → `deployments`), the group that serves
//! the resource (`apiGroups: [""]` with `deployments` → `"apps"`), the versions it is served at, or
//! the closest resource name of the group. A resource in a group Kubernetes does not serve is a
//! custom resource whose CRD was not among the checked files: the warning says so and points at
//! `--schema` instead.
//!
//! Rules with `*` in `apiGroups` or `apiVersions` and resources with `*` are left alone: they match
//! whatever exists. A subresource (`pods/status`) is judged by its resource.

use super::super::model::{List, MatchResources, NamedRule, Opt, Text};
use super::super::workspace::Workspace;
use crate::cel::check::closest;
use crate::policy::{Code, Diagnostic};
use crate::schema::resources::resources;
use crate::schema::{Gvk, resolve_resources};

fn texts(list: &Opt<List<Text>>) -> Vec<&Text> {
    list.as_ref()
        .map_or(Vec::new(), |f| f.value.items.iter().collect())
}

/// The warnings for the `resourceRules` of `constraints`.
pub fn unmatched_rules(
    minor: u32,
    constraints: &Opt<MatchResources>,
    workspace: &Workspace,
) -> Vec<Diagnostic> {
    let Some(constraints) = constraints else {
        return Vec::new();
    };
    let rules = constraints
        .value
        .resource_rules
        .as_ref()
        .map_or(&[][..], |f| f.value.items.as_slice());
    let mut out = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        rule_warnings(minor, i, rule, workspace, &mut out);
    }
    out
}

fn rule_warnings(
    minor: u32,
    index: usize,
    rule: &NamedRule,
    workspace: &Workspace,
    out: &mut Vec<Diagnostic>,
) {
    let groups: Vec<&str> = texts(&rule.api_groups)
        .iter()
        .map(|t| t.value.as_str())
        .collect();
    let versions: Vec<&str> = texts(&rule.api_versions)
        .iter()
        .map(|t| t.value.as_str())
        .collect();
    if groups.is_empty()
        || versions.is_empty()
        || groups.iter().chain(&versions).any(|g| g.contains('*'))
    {
        return;
    }
    for (j, resource) in texts(&rule.resources).into_iter().enumerate() {
        let name = resource.value.split('/').next().unwrap_or("");
        if name.is_empty() || resource.value.contains('*') {
            continue;
        }
        let served = groups.iter().any(|group| {
            versions.iter().any(|version| {
                !resolve_resources(minor, group, version, name).is_empty()
                    || !workspace.crd_resources(group, version, name).is_empty()
            })
        });
        if served {
            continue;
        }
        let field = format!("spec.matchConstraints.resourceRules[{index}].resources[{j}]");
        let place = where_(&groups, &versions);
        let message = if bundles_any_group(minor, &groups) {
            let hint = suggestion(minor, name, &groups, &versions);
            format!(
                "{field}: no resource '{name}' in {place} of Kubernetes 1.{minor} (bundled) or of a CustomResourceDefinition in the workspace: the rule matches nothing and the typed check could not run for it{hint}"
            )
        } else {
            format!(
                "{field}: no CustomResourceDefinition in the checked files serves '{name}' in {place}, so the typed check could not run for it (the rule is fine if the CRD is installed in the cluster); add the CRD's file to the checked paths or pass it with --schema FILE|DIR"
            )
        };
        out.push(Diagnostic::new(
            Code::UnresolvedReference,
            resource.range,
            message,
        ));
    }
}

/// Whether Kubernetes of `minor` serves some resource in one of `groups`: if not, the rule is about
/// a custom resource whose CRD was not checked with the policy, not a misspelt built-in.
fn bundles_any_group(minor: u32, groups: &[&str]) -> bool {
    resources(minor)
        .iter()
        .any(|(gvk, _)| groups.contains(&gvk.group.as_str()))
}

/// `API group "" version v1`, or the lists when there are several.
fn where_(groups: &[&str], versions: &[&str]) -> String {
    let quoted: Vec<String> = groups.iter().map(|g| format!("{g:?}")).collect();
    let group = match quoted.as_slice() {
        [one] => format!("API group {one}"),
        many => format!("API groups {}", many.join(", ")),
    };
    match versions {
        [one] => format!("{group} version {one}"),
        many => format!("{group} versions {}", many.join(", ")),
    }
}

fn suggestion(minor: u32, name: &str, groups: &[&str], versions: &[&str]) -> String {
    let table = resources(minor);
    // A singular or a kind: `deployment`, `Deployment`.
    let plural = table
        .iter()
        .find(|(gvk, _)| {
            gvk.kind.eq_ignore_ascii_case(name) && groups.contains(&gvk.group.as_str())
        })
        .or_else(|| {
            table
                .iter()
                .find(|(gvk, _)| gvk.kind.eq_ignore_ascii_case(name))
        });
    if let Some((gvk, plural)) = plural {
        return format!("; did you mean `{plural}`{}?", group_note(gvk, groups));
    }
    let serving: Vec<&Gvk> = table
        .iter()
        .filter(|(_, p)| p == name)
        .map(|(g, _)| g)
        .collect();
    let in_groups: Vec<&str> = serving
        .iter()
        .filter(|g| groups.contains(&g.group.as_str()))
        .map(|g| g.version.as_str())
        .collect();
    if !in_groups.is_empty() {
        let quoted: Vec<String> = in_groups.iter().map(|v| format!("{v:?}")).collect();
        return format!("; did you mean apiVersions: [{}]?", quoted.join(", "));
    }
    let mut other_groups: Vec<&str> = serving.iter().map(|g| g.group.as_str()).collect();
    other_groups.dedup();
    if !other_groups.is_empty() {
        let quoted: Vec<String> = other_groups.iter().map(|g| format!("{g:?}")).collect();
        return format!("; did you mean apiGroups: [{}]?", quoted.join(", "));
    }
    let candidates = table
        .iter()
        .filter(|(g, _)| {
            groups.contains(&g.group.as_str()) && versions.contains(&g.version.as_str())
        })
        .map(|(_, p)| p.as_str());
    closest(name, candidates)
        .map(|c| format!("; did you mean `{c}`?"))
        .unwrap_or_default()
}

fn group_note(gvk: &Gvk, groups: &[&str]) -> String {
    if groups.contains(&gvk.group.as_str()) {
        String::new()
    } else {
        format!(" in apiGroups: [{:?}]", gvk.group)
    }
}
