//! The hints after the expressions of a family's policy whose verdict they decide: each
//! sample's result of each validation (a Kyverno ValidatingPolicy's, an ImageValidatingPolicy's),
//! of each mutation (a MutatingPolicy's: the paths it changed) and of each condition (a
//! DeletingPolicy's), read from the traces and patches its verdict carries, with the trace as the
//! tooltip. Kyverno stops at the first validation that is false or fails
//! (kyverno/kyverno `pkg/cel/policies/vpol/compiler/policy.go` `evaluateWithData`), at the first
//! mutation that fails (`mpol/compiler/policy.go` `evaluate`) and at the first false condition
//! (`dpol/compiler/policy.go` `Evaluate`), so the ones after it have no trace and no hint.

use super::render::{Mutations, Part, join, mutation_result, short, trace_block, validation_index};
use super::{Evaluated, FamilyOutcome, LiveHint, Verdict};
use crate::cel::eval::trace_view::Shown;
use crate::policy::ExpressionSite;
use crate::text::{TextRange, TextSize};

/// Just after the expression's last character: a family site's text keeps a block scalar's
/// final line break, which would put the hint on the next line.
fn hint_offset(text: &str, site: &ExpressionSite) -> TextSize {
    let content = site.text.trim_end();
    if content.len() == site.text.len() {
        return crate::ide::hints::expression_end(text, site);
    }
    let content = TextRange::new(TextSize::from(0), TextSize::of(content));
    site.to_file_range(content).end()
}

/// What a site's hint reports.
enum Reported {
    Validation(usize),
    Mutation(usize),
    Condition(String),
}

/// The hints after the validations, mutations and conditions among `sites` (a family policy's,
/// as the editor's sites).
pub(super) fn site_hints(
    text: &str,
    sites: &[ExpressionSite],
    verdicts: &[&Verdict],
) -> Vec<LiveHint> {
    let mut out = Vec::new();
    for site in sites {
        let Some(reported) = reported(site) else {
            continue;
        };
        let parts: Vec<(String, Part)> = verdicts
            .iter()
            .filter_map(|v| {
                let Ok(Evaluated::Family(outcomes)) = &v.result else {
                    return None;
                };
                let part = match &reported {
                    Reported::Validation(index) => validation_part(outcomes, *index),
                    Reported::Mutation(index) => mutation_part(outcomes, *index),
                    Reported::Condition(name) => condition_part(outcomes, name),
                };
                Some((v.sample.clone(), part?))
            })
            .collect();
        if !parts.is_empty() {
            let offset = hint_offset(text, site);
            out.push(join(offset, parts, verdicts.len() > 1));
        }
    }
    out
}

/// What the hint after `site` reports, if it gets one.
fn reported(site: &ExpressionSite) -> Option<Reported> {
    if let Some(index) = validation_index(&site.path) {
        return Some(Reported::Validation(index));
    }
    if let Some(index) = mutation_index(&site.path) {
        return Some(Reported::Mutation(index));
    }
    let condition =
        site.path.starts_with("spec.conditions[") && site.path.ends_with("].expression");
    let name = site.name.clone().filter(|_| condition)?;
    Some(Reported::Condition(name))
}

/// `i` of `spec.mutations[i].applyConfiguration.expression` or `….jsonPatch.expression`.
fn mutation_index(path: &str) -> Option<usize> {
    let rest = path.strip_prefix("spec.mutations[")?;
    let (index, tail) = rest.split_once(']')?;
    matches!(
        tail,
        ".applyConfiguration.expression" | ".jsonPatch.expression"
    )
    .then_some(())?;
    index.parse().ok()
}

/// The verdict a site's hint reads: the policy as written when `ran` says it got that far, else
/// the first autogen variant that did.
fn chosen(
    outcomes: &[FamilyOutcome],
    ran: impl Fn(&FamilyOutcome) -> bool,
) -> Option<&FamilyOutcome> {
    let as_written = outcomes
        .iter()
        .filter(|o| o.variant.is_none())
        .find(|o| ran(o));
    as_written.or_else(|| outcomes.iter().find(|o| ran(o)))
}

/// One sample's result of mutation `index` of a MutatingPolicy, from the verdict that ran its
/// mutations (matched, and not skipped by a matchCondition).
fn mutation_part(outcomes: &[FamilyOutcome], index: usize) -> Option<Part> {
    let ran = |o: &FamilyOutcome| matches!(o.decision.as_str(), "allow" | "error");
    let outcome = chosen(outcomes, ran)?;
    let run = Mutations {
        explained: &outcome.explained,
        patches: &outcome.mutation_patches,
        patch: outcome.patch.as_deref(),
        error: (outcome.decision == "error").then(|| outcome.message.clone().unwrap_or_default()),
    };
    let part = mutation_result(&run, index)?;
    Some(with_variant(outcome, part))
}

/// One sample's result of a DeletingPolicy's condition `name`: whether it held, and so whether
/// the object is still on its way to deletion; nothing when an earlier one kept it.
fn condition_part(outcomes: &[FamilyOutcome], name: &str) -> Option<Part> {
    let label_of = format!("condition {name}");
    let outcome = chosen(outcomes, |o| {
        o.explained.iter().any(|e| e.label == label_of)
    })?;
    let trace = outcome.explained.iter().find(|e| e.label == label_of)?;
    let label = match trace.lines.first().map(|l| &l.shown) {
        Some(Shown::Value(v)) if v == "true" => "✓ true".to_string(),
        Some(Shown::Value(v)) if v == "false" => "✗ false: would keep".to_string(),
        Some(Shown::Raised(e) | Shown::Error(e) | Shown::Stopped(e)) => {
            format!("⚠ error: {}", short(e))
        }
        _ => format!(
            "⚠ error: {}",
            short(outcome.message.as_deref().unwrap_or(""))
        ),
    };
    let detail = format!("{label}{}", trace_block(trace));
    Some(Part { label, detail })
}

/// `part` with its tooltip naming the variant it was read from, when not the policy as written.
fn with_variant(outcome: &FamilyOutcome, mut part: Part) -> Part {
    if let Some(variant) = &outcome.variant {
        part.detail = format!("{variant}: {}", part.detail);
    }
    part
}

/// One sample's result of validation `index`: from the policy as written, else from the first
/// autogen variant that ran it; nothing when none ran it.
fn validation_part(outcomes: &[FamilyOutcome], index: usize) -> Option<Part> {
    let name = format!("validation[{index}]");
    let ran = |o: &&FamilyOutcome| o.explained.iter().any(|e| e.label == name);
    let as_written = outcomes.iter().filter(|o| o.variant.is_none()).find(ran);
    let outcome = as_written.or_else(|| outcomes.iter().find(ran))?;
    let trace = outcome.explained.iter().find(|e| e.label == name)?;
    let message = outcome.message.clone().unwrap_or_default();
    let label = match trace.lines.first().map(|l| &l.shown) {
        Some(Shown::Value(v)) if v == "true" => "✓ allow".to_string(),
        Some(Shown::Value(v)) if v == "false" && outcome.decision == "deny" => {
            format!("✗ deny: {}", short(&message))
        }
        Some(Shown::Value(v)) if v == "false" => format!("✗ false: {}", short(&message)),
        Some(Shown::Raised(e) | Shown::Error(e) | Shown::Stopped(e)) => {
            format!("⚠ error: {}", short(e))
        }
        _ => format!("⚠ error: {}", short(&message)),
    };
    let mut detail = match &outcome.variant {
        Some(variant) => format!("{variant}: {label}"),
        None => label.clone(),
    };
    if !label.starts_with('✓') && !message.is_empty() {
        detail.push_str(&format!("\n\nmessage: {message}"));
    }
    let labels = [name, format!("messageExpression[{index}]")];
    let traces = outcome
        .explained
        .iter()
        .filter(|e| labels.contains(&e.label));
    for explained in traces {
        detail.push_str(&trace_block(explained));
    }
    Some(Part { label, detail })
}
