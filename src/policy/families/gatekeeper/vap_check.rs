//! The typed check of a template's CEL through the policy Gatekeeper generates from it
//! ([`super::vap`]): that policy is checked exactly as a ValidatingAdmissionPolicy (its `params`
//! typed from the Constraint CRD the template creates, `object` from the kinds the template's
//! Constraints match), and each typed finding is moved back onto the characters of the template
//! it came from. The acceptance errors of that check are the driver pass's business
//! ([`super::typed`]), except the result type, which the driver's compiler checks as well.

use super::vap::{Generated, generate};
use crate::policy::diagnostic::Prediction;
use crate::policy::families::FamilySite;
use crate::policy::workspace::Workspace;
use crate::policy::{Code, Diagnostic, cel_syntax, read_kinds, typecheck};
use crate::schema::Gvk;
use crate::text::TextRange;
use crate::yaml::Node;

/// Adds the typed findings of the generated policy not already `reported` (file ranges).
pub(super) fn check(
    root: &Node,
    sites: &[FamilySite],
    minor: u32,
    workspace: &Workspace,
    reported: &[TextRange],
    out: &mut Vec<Diagnostic>,
) {
    let kind = super::template_kind(root).unwrap_or("");
    let rules = matched_rules(workspace, kind, minor);
    let Some(generated) = generate(root, &rules) else {
        return;
    };
    let file = crate::yaml::parse(&generated.text);
    let Some(policy) = file.documents.first().and_then(|d| d.root.as_ref()) else {
        return;
    };
    let Some((policy_kind, version)) = read_kinds::recognise(policy) else {
        return;
    };
    let document = read_kinds::document(policy, policy_kind, version);
    let policy_sites = document.expression_sites();
    let mut syntax = Vec::new();
    let parsed: Vec<_> = policy_sites
        .iter()
        .map(|site| cel_syntax::parse(site, &mut syntax))
        .collect();
    let mut found = Vec::new();
    typecheck::check(
        &document,
        &policy_sites,
        &parsed,
        minor,
        workspace,
        &mut found,
    );
    for diagnostic in found.into_iter().filter(wanted) {
        let Some(moved) = move_back(&diagnostic, &policy_sites, &generated, sites) else {
            continue;
        };
        if !reported.contains(&moved.range) {
            out.push(moved);
        }
    }
}

/// The findings that are the template's: typed findings, and the result type.
fn wanted(diagnostic: &Diagnostic) -> bool {
    if matches!(diagnostic.code, Code::CelCost | Code::UnresolvedReference) {
        return false;
    }
    diagnostic.prediction != Prediction::Refused || diagnostic.code == Code::CelResultType
}

/// `diagnostic` (on the generated policy) on the template's characters, with the template's path.
fn move_back(
    diagnostic: &Diagnostic,
    policy_sites: &[crate::policy::sites::ExpressionSite],
    generated: &Generated,
    sites: &[FamilySite],
) -> Option<Diagnostic> {
    let policy_site = policy_sites
        .iter()
        .find(|site| site.range.contains_range(diagnostic.range))?;
    let template_path = generated.template_path(&policy_site.path)?;
    let site = sites.iter().find(|site| site.path == template_path)?;
    let decoded = |at| {
        let at = policy_site.source_map.to_decoded(at)?;
        Some(at.checked_sub(policy_site.offset).unwrap_or(at))
    };
    let start = decoded(diagnostic.range.start())?;
    let end = decoded(diagnostic.range.end())?;
    let range = site
        .source_map
        .to_file_range(TextRange::new(start, end.max(start)));
    let rest = diagnostic
        .message
        .strip_prefix(policy_site.path.as_str())
        .unwrap_or(&diagnostic.message);
    let mut moved = diagnostic.clone();
    moved.range = range;
    moved.message = format!("{}{rest}", site.path);
    if moved.code == Code::CelResultType {
        moved = moved.at_runtime();
    }
    Some(moved)
}

/// The `(group, version, resource)` of the bundled kinds the Constraints of `kind` match (`*`
/// groups any group; a `*` kind matches everything and types nothing).
pub(super) fn matched_rules(
    workspace: &Workspace,
    kind: &str,
    minor: u32,
) -> Vec<(String, String, String)> {
    let Some(pairs) = workspace.constraint_matches(kind) else {
        return Vec::new();
    };
    let minor = typecheck::schema_minor(minor);
    let resources = crate::schema::resources::resources(minor);
    let mut rules: Vec<(String, String, String)> = Vec::new();
    for (group, kind) in pairs {
        let found = resources.iter().find(|(gvk, _): &&(Gvk, String)| {
            gvk.kind == *kind && (group == "*" || gvk.group == *group)
        });
        if let Some((gvk, plural)) = found {
            let rule = (gvk.group.clone(), gvk.version.clone(), plural.clone());
            if !rules.contains(&rule) {
                rules.push(rule);
            }
        }
    }
    rules
}
