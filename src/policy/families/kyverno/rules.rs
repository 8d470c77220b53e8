//! Kyverno's own checks of a policy on create, beyond its CRD schema and its CEL compiler, in its
//! own wording (kyverno/kyverno `pkg/cel/policies/{vpol,mpol,gpol,dpol}/validate.go`, called by the
//! policy validation webhook `pkg/webhooks/policy/handlers.go`):
//! - match constraints with at least one resource rule (every kind but ImageValidatingPolicy;
//!   not in JSON mode, whose policies the CLI runs on JSON documents, nor in the Envoy and HTTP
//!   modes, whose policies kyverno-authz runs on authorization requests: `mode.rs`);
//! - a DeletingPolicy's `schedule`, required and in the cron format of its cleanup controller
//!   (`cron.rs`);
//! - a MutatingPolicy must not disable both admission and mutate-existing evaluation;
//! - a namespaced policy must not use `http` (`--allowHTTPInNamespacedPolicies`, off by default:
//!   `pkg/toggle/toggle.go`).

use crate::cel::ast::{Ast, ExprKind};
use crate::policy::Diagnostic;
use crate::policy::families::FamilySite;
use crate::policy::report::Report;
use crate::yaml::{Node, NodeKind};

/// Reports what Kyverno's webhook refuses in the document at `root` of `kind`.
pub(super) fn check(
    root: &Node,
    kind: &str,
    sites: &[FamilySite],
    parsed: &[Option<Ast>],
    out: &mut Vec<Diagnostic>,
) {
    let Some(spec) = root.get("spec") else {
        return; // a fragment: see `schema.rs`.
    };
    let base = kind.strip_prefix("Namespaced").unwrap_or(kind);
    let mut report = Report::new(out);
    // A JSON-mode policy is run by the CLI on JSON documents, an Envoy or HTTP one by
    // kyverno-authz on authorization requests: neither matches Kubernetes resources.
    let on_resources = super::mode::Mode::of(root) == super::mode::Mode::Kubernetes;
    if base != "ImageValidatingPolicy" && on_resources && !has_resource_rules(spec) {
        let at = spec_key(root, spec, "matchConstraints");
        let detail = "a matchConstraints with at least one resource rule is required";
        report.required(at, "spec.matchConstraints", detail);
    }
    if base == "DeletingPolicy" {
        schedule(root, spec, &mut report);
    }
    if base == "MutatingPolicy" && !admission_enabled(spec) && !mutate_existing_enabled(spec) {
        let at = spec_key(root, spec, "evaluation");
        let detail = "disabling both admission and mutateExisting evaluation modes is not allowed";
        report.forbidden(at, "spec.evaluation", detail);
    }
    if kind.starts_with("Namespaced")
        && base != "ImageValidatingPolicy"
        && let Some((site, ast)) = uses_http(sites, parsed)
    {
        let detail = "http.* is not allowed in namespaced policies; set --allowHTTPInNamespacedPolicies to enable";
        report.forbidden(site.source_map.to_file_range(ast), "spec", detail);
    }
}

/// A DeletingPolicy's `schedule`: required, and parsed by the cleanup controller's cron parser.
fn schedule(root: &Node, spec: &Node, report: &mut Report<'_>) {
    let node = spec.get("schedule");
    let text = node.and_then(Node::as_str).unwrap_or("");
    if text.is_empty() {
        let at = spec_key(root, spec, "schedule");
        report.required(at, "spec.schedule", "schedule is required");
    } else if let (Some(node), Err(e)) = (node, super::cron::parse(text)) {
        let detail =
            format!("schedule spec in the deletingPolicy is not in proper cron format: {e}");
        report.invalid(node.range, "spec.schedule", text, &detail);
    }
}

/// Where a problem of `spec.key` is reported: the key, else the `spec` key.
fn spec_key(root: &Node, spec: &Node, key: &str) -> crate::text::TextRange {
    let entry = spec.entry(key).or_else(|| root.entry("spec"));
    entry.map_or(spec.range, |e| e.key.range)
}

fn has_resource_rules(spec: &Node) -> bool {
    let rules = spec
        .get("matchConstraints")
        .and_then(|m| m.get("resourceRules"));
    matches!(rules.map(|r| &r.kind), Some(NodeKind::Sequence(items)) if !items.is_empty())
}

/// `evaluation.admission.enabled`, true unless set to false.
fn admission_enabled(spec: &Node) -> bool {
    switch(spec, "admission") != Some(false)
}

/// `evaluation.mutateExisting.enabled`, false unless set to true.
fn mutate_existing_enabled(spec: &Node) -> bool {
    switch(spec, "mutateExisting") == Some(true)
}

fn switch(spec: &Node, mode: &str) -> Option<bool> {
    let enabled = spec.get("evaluation")?.get(mode)?.get("enabled")?;
    enabled.as_scalar()?.as_bool()
}

/// The first site whose expression names the identifier `http` (`compiler.ExpressionsUseHTTP`),
/// with the identifier's span.
fn uses_http<'s>(
    sites: &'s [FamilySite],
    parsed: &[Option<Ast>],
) -> Option<(&'s FamilySite, crate::text::TextRange)> {
    sites.iter().zip(parsed).find_map(|(site, ast)| {
        let span = ast
            .as_ref()?
            .exprs
            .iter()
            .find_map(|expr| match &expr.kind {
                ExprKind::Ident(name) if name.text == "http" => Some(name.span),
                _ => None,
            })?;
        Some((site, span))
    })
}
