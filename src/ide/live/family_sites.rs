//! The hints after the validations of a family's policy (a Kyverno ValidatingPolicy): each
//! sample's result of each validation, read from the trace its verdict carries, with that trace
//! as the tooltip. Kyverno stops at the first validation that is false or fails
//! (kyverno/kyverno `pkg/cel/policies/vpol/compiler/policy.go` `evaluateWithData`), so the ones
//! after it have no trace and no hint.

use super::render::{Part, join, short, trace_block, validation_index};
use super::{Evaluated, FamilyOutcome, LiveHint, Verdict};
use crate::cel::eval::trace_view::Shown;
use crate::policy::ExpressionSite;

/// The hints after the validations among `sites` (a family policy's, as the editor's sites).
pub(super) fn site_hints(
    text: &str,
    sites: &[ExpressionSite],
    verdicts: &[&Verdict],
) -> Vec<LiveHint> {
    let mut out = Vec::new();
    for site in sites {
        let Some(index) = validation_index(&site.path) else {
            continue;
        };
        let parts: Vec<(String, Part)> = verdicts
            .iter()
            .filter_map(|v| {
                let Ok(Evaluated::Family(outcomes)) = &v.result else {
                    return None;
                };
                Some((v.sample.clone(), validation_part(outcomes, index)?))
            })
            .collect();
        if !parts.is_empty() {
            let offset = crate::ide::hints::expression_end(text, site);
            out.push(join(offset, parts, verdicts.len() > 1));
        }
    }
    out
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
