//! The labels and tooltips of live verdicts: `✓ allow`, `✗ deny: MESSAGE`, `⚠ error: MESSAGE`
//! after a validation; the fields a mutation changed after it; the decision (or why there is
//! none: a file missing, unparsable, not matched) after a modeline; a family's policy gets its
//! decision after the modeline (its validations' hints are `family_sites.rs`'s). A label names its sample when
//! the policy has several. The tooltip is Markdown with each sample's result and the trace of the
//! expression (`eval --explain`'s lines).

use serde_json::Value as Json;

use super::{Evaluated, FamilyOutcome, LiveHint, Verdict};
use crate::cel::eval::trace_view::{self, Shown};
use crate::policy::ExpressionSite;
use crate::policy::SiteRole;
use crate::policy::admission::explain::Explained;
use crate::policy::admission::{Decision, Outcome, TriState};

/// Longest message shown in a label; the tooltip has all of it.
const MAX_LABEL_MESSAGE: usize = 80;
/// Patch operations named in a label at most.
const MAX_LABEL_OPERATIONS: usize = 4;

/// One sample's part of a hint: its label and its tooltip section.
pub(super) struct Part {
    pub(super) label: String,
    pub(super) detail: String,
}

/// The summary after each modeline: each of its samples' decision or problem.
pub(super) fn summaries(verdicts: &[Verdict]) -> Vec<LiveHint> {
    let mut by_line: Vec<(crate::text::TextSize, Vec<&Verdict>)> = Vec::new();
    for verdict in verdicts {
        let Some(at) = verdict.at else { continue };
        match by_line.iter_mut().find(|(offset, _)| *offset == at) {
            Some((_, list)) => list.push(verdict),
            None => by_line.push((at, vec![verdict])),
        }
    }
    by_line
        .into_iter()
        .map(|(offset, list)| {
            let parts: Vec<(String, Part)> = list
                .iter()
                .map(|v| (v.sample.clone(), summary(v)))
                .collect();
            join(offset, parts, true)
        })
        .collect()
}

/// The decision of one sample, with every trace of its evaluation as the detail.
fn summary(verdict: &Verdict) -> Part {
    let outcome = match &verdict.result {
        Err(problem) => {
            let label = format!("⚠ {}", short(problem));
            return Part {
                label,
                detail: problem.clone(),
            };
        }
        Ok(Evaluated::Family(outcomes)) => return family_summary(outcomes),
        Ok(Evaluated::Against(run)) => return super::against::summary(run),
        Ok(Evaluated::Admission(outcome)) => outcome,
    };
    let mut label = match outcome.decision {
        Decision::Allow => "✓ allow".to_string(),
        Decision::Deny => format!("✗ deny: {}", short(&first_message(outcome))),
        Decision::Error => format!("⚠ error: {}", short(&first_message(outcome))),
        Decision::Skip => format!("skip: {}", skip_reason(outcome)),
    };
    if let Some(operations) = patch_summary(outcome) {
        label.push_str(&format!(", {operations}"));
    }
    let mut detail = format!("{} `{}`: {label}", outcome.kind.name(), outcome.policy);
    if let Some(note) = outcome.note() {
        detail.push_str(&format!("\n\nnote: {note}"));
    }
    for explained in &outcome.explained {
        detail.push_str(&trace_block(explained));
    }
    Part { label, detail }
}

/// A family's decision, per variant when it ran several (Kyverno's autogen rules).
fn family_summary(outcomes: &[FamilyOutcome]) -> Part {
    // The variants that did not match say nothing once one did (a Pod policy's autogen variants
    // on a Pod).
    let matched: Vec<&FamilyOutcome> = outcomes.iter().filter(|o| o.result != "no match").collect();
    let labels: Vec<String> = match matched.is_empty() {
        true => outcomes.iter().map(family_label).collect(),
        false => matched.into_iter().map(family_label).collect(),
    };
    let label = if labels.is_empty() {
        "skip: no match".to_string()
    } else {
        labels.join(", ")
    };
    let details: Vec<String> = outcomes
        .iter()
        .map(|o| format!("{} `{}`: {}", o.kind, o.policy, family_label(o)))
        .collect();
    let mut detail = details.join("\n\n");
    if let Some(message) = outcomes.iter().find_map(|o| o.message.as_ref()) {
        detail.push_str(&format!("\n\nmessage: {message}"));
    }
    // The traces no site hint shows (matchConditions, variables, a GeneratingPolicy's generate
    // expressions, the images) explain the decision here, from the first verdict that has any.
    let traced = outcomes.iter().find(|o| !o.explained.is_empty());
    let unshown = traced.into_iter().flat_map(|o| &o.explained);
    for explained in unshown.filter(|e| !shown_at_its_site(&e.label)) {
        detail.push_str(&trace_block(explained));
    }
    Part { label, detail }
}

/// Whether the trace labelled `label` is the tooltip of its expression's own hint.
fn shown_at_its_site(label: &str) -> bool {
    let prefixes = ["validation[", "messageExpression[", "condition "];
    prefixes.iter().any(|p| label.starts_with(p))
        || label == "applyConfiguration"
        || label == "jsonPatch"
}

/// `✓ allow`, `✗ deny: MESSAGE`, `⚠ error: MESSAGE` or `skip: WHY` of one family verdict,
/// prefixed by its variant.
fn family_label(outcome: &FamilyOutcome) -> String {
    let message = short(outcome.message.as_deref().unwrap_or(""));
    let label = match outcome.decision.as_str() {
        "allow" => "✓ allow".to_string(),
        "deny" => format!("✗ deny: {message}"),
        "error" => format!("⚠ error: {message}"),
        // A DeletingPolicy's decision on an existing object.
        "delete" => "would delete".to_string(),
        "keep" => format!("would keep: {message}"),
        _ => skip_label(outcome, &message),
    };
    let changes = family_patch_summary(outcome).or_else(|| generated_summary(outcome));
    let label = match changes {
        Some(changes) => format!("{label}, {changes}"),
        None => label,
    };
    match &outcome.variant {
        Some(variant) => format!("{variant} {label}"),
        None => label,
    }
}

/// `skip: WHY`, or `skip` alone when the engine says no more (Kyverno's message for a false
/// matchCondition of a MutatingPolicy is `skip`).
fn skip_label(outcome: &FamilyOutcome, message: &str) -> String {
    let why = if message.is_empty() || message == outcome.result {
        outcome.result.as_str()
    } else {
        message
    };
    match why {
        "skip" | "" => "skip".to_string(),
        why => format!("skip: {why}"),
    }
}

/// `mutates op path, …` of what mutation `index` changed, every time it ran (a later mutation
/// may undo it: the policy's patch is in the tooltip).
fn changed_by(patches: &[(usize, Vec<Json>)], index: usize) -> Option<String> {
    let mine = patches.iter().filter(|(i, _)| *i == index);
    let operations: Vec<Json> = mine.flat_map(|(_, ops)| ops.iter().cloned()).collect();
    operations_summary(&operations)
}

/// `mutates op path, …` of a mutating family policy's patch, when it changed something.
fn family_patch_summary(outcome: &FamilyOutcome) -> Option<String> {
    operations_summary(outcome.patch.as_deref()?)
}

/// `generates Kind/name, …` of a generating family policy that generated resources.
fn generated_summary(outcome: &FamilyOutcome) -> Option<String> {
    let generated = outcome.generated.as_deref().filter(|g| !g.is_empty())?;
    let name = |r: &Json| {
        let field = |path: &str| r.pointer(path).and_then(Json::as_str).unwrap_or("");
        format!("{}/{}", field("/kind"), field("/metadata/name"))
    };
    let mut named: Vec<String> = generated
        .iter()
        .take(MAX_LABEL_OPERATIONS)
        .map(name)
        .collect();
    if generated.len() > MAX_LABEL_OPERATIONS {
        named.push(format!("… {} more", generated.len() - MAX_LABEL_OPERATIONS));
    }
    Some(format!("generates {}", named.join(", ")))
}

/// Why a policy did not apply: a false matchCondition, else the match rules.
fn skip_reason(outcome: &Outcome) -> String {
    if let Some(note) = &outcome.operation_note {
        return short(note);
    }
    let failed = outcome
        .match_conditions
        .iter()
        .find(|c| c.result == TriState::False);
    match failed {
        Some(condition) => format!("matchCondition {} is false", condition.name),
        None => "the object is not matched (matchConstraints or the binding's matchResources)"
            .to_string(),
    }
}

/// The hints after the validations and mutations of one policy's `sites`.
pub(super) fn site_hints(
    text: &str,
    sites: &[ExpressionSite],
    verdicts: &[&Verdict],
) -> Vec<LiveHint> {
    let mut out = Vec::new();
    let mut mutation_index = 0;
    for site in sites {
        let index = match site.role {
            SiteRole::Validation => validation_index(&site.path),
            role if is_mutation(role) => {
                mutation_index += 1;
                Some(mutation_index - 1)
            }
            _ => None,
        };
        let Some(index) = index else { continue };
        let parts: Vec<(String, Part)> = verdicts
            .iter()
            .filter_map(|v| {
                let Ok(Evaluated::Admission(outcome)) = &v.result else {
                    return None;
                };
                let part = if site.role == SiteRole::Validation {
                    validation_part(outcome, index)
                } else {
                    mutation_part(outcome, index)
                };
                Some((v.sample.clone(), part?))
            })
            .collect();
        if !parts.is_empty() {
            let offset = crate::ide::hints::expression_end(text, site);
            out.push(join(offset, parts, verdicts.len() > 1));
        }
    }
    out
}

fn is_mutation(role: SiteRole) -> bool {
    matches!(role, SiteRole::ApplyConfiguration | SiteRole::JsonPatch)
}

/// `i` of `spec.validations[i].expression`, or of a Gatekeeper template's
/// `spec.targets[t].code[c].source.validations[i].expression`.
pub(super) fn validation_index(path: &str) -> Option<usize> {
    let (before, rest) = path.rsplit_once("validations[")?;
    let parent = before.strip_suffix('.').unwrap_or(before);
    (parent == "spec" || parent.ends_with(".source")).then_some(())?;
    let (index, tail) = rest.split_once(']')?;
    (tail == ".expression").then_some(())?;
    index.parse().ok()
}

/// One sample's result of validation `index`: nothing when it did not run (the policy skipped).
fn validation_part(outcome: &Outcome, index: usize) -> Option<Part> {
    let result = outcome.validations.iter().find(|v| v.index == index)?;
    let message = result.message.clone().unwrap_or_default();
    let label = match result.result {
        TriState::True => "✓ allow".to_string(),
        TriState::False if outcome.decision == Decision::Deny => {
            format!("✗ deny: {}", short(&message))
        }
        TriState::False => format!("✗ false: {}", short(&message)),
        TriState::Error => format!("⚠ error: {}", short(&message)),
    };
    let labels = [
        format!("validation[{index}]"),
        format!("messageExpression[{index}]"),
    ];
    let traces = outcome
        .explained
        .iter()
        .filter(|e| labels.contains(&e.label));
    let mut detail = label.clone();
    if result.result != TriState::True && !message.is_empty() {
        detail.push_str(&format!("\n\nmessage: {message}"));
    }
    for explained in traces {
        detail.push_str(&trace_block(explained));
    }
    Some(Part { label, detail })
}

/// What the hints of a policy's mutations read from one evaluation, an admission policy's or a
/// family's (a Kyverno MutatingPolicy): the same labels and tooltips for both.
pub(super) struct Mutations<'a> {
    /// Every expression's trace; the mutations' are labelled `applyConfiguration` or
    /// `jsonPatch`, one per mutation run, in order.
    pub(super) explained: &'a [Explained],
    /// What each mutation that ran changed (its index, its operations).
    pub(super) patches: &'a [(usize, Vec<Json>)],
    /// The policy's whole patch, when it ran to the end.
    pub(super) patch: Option<&'a [Json]>,
    /// The evaluation's error, when it ended in one.
    pub(super) error: Option<String>,
}

/// One sample's result of mutation `index` of an admission policy.
fn mutation_part(outcome: &Outcome, index: usize) -> Option<Part> {
    let failed = outcome.decision == Decision::Error;
    let run = Mutations {
        explained: &outcome.explained,
        patches: &outcome.mutation_patches,
        patch: outcome.patch.as_deref(),
        error: failed.then(|| first_message(outcome)),
    };
    mutation_result(&run, index)
}

/// One sample's result of mutation `index`: its error, else the fields it changed; nothing when
/// it did not run (the policy skipped, or an earlier step failed).
pub(super) fn mutation_result(run: &Mutations<'_>, index: usize) -> Option<Part> {
    let traces: Vec<&Explained> = run
        .explained
        .iter()
        .filter(|e| e.label == "applyConfiguration" || e.label == "jsonPatch")
        .collect();
    let trace = traces.get(index).copied();
    let error = trace.and_then(root_error);
    // A mutation that was evaluated but left no patch failed after its expression (the merge,
    // a patch operation): the evaluation's error is its.
    let applied = run.patches.iter().any(|(i, _)| *i == index);
    let label = match (&error, changed_by(run.patches, index), &run.error) {
        (Some(error), _, _) => format!("⚠ error: {}", short(error)),
        (None, _, Some(failed)) if trace.is_none() || !applied => {
            format!("⚠ error: {}", short(failed))
        }
        (None, _, _) if trace.is_none() => return None,
        (None, Some(operations), _) => format!("✓ {operations}"),
        (None, None, _) => "✓ no change".to_string(),
    };
    let mut detail = label.clone();
    if let Some(patch) = run.patch
        && !patch.is_empty()
    {
        let all: Vec<String> = patch.iter().map(operation).collect();
        detail.push_str(&format!("\n\nthe policy's patch: {}", all.join(", ")));
    }
    detail.extend(trace.map(trace_block));
    Some(Part { label, detail })
}

/// The error the root of a trace ended in, if it ended in one.
fn root_error(explained: &Explained) -> Option<String> {
    let root = explained.lines.first()?;
    match &root.shown {
        Shown::Raised(e) | Shown::Error(e) | Shown::Stopped(e) => Some(e.clone()),
        Shown::Value(_) | Shown::NotEvaluated => None,
    }
}

/// `mutates replace /spec/replicas, add /metadata/labels/x` for a policy that changed the object.
fn patch_summary(outcome: &Outcome) -> Option<String> {
    operations_summary(outcome.patch.as_deref()?)
}

/// `mutates op path, …` of a non-empty RFC 6902 patch, the first few operations named.
fn operations_summary(patch: &[Json]) -> Option<String> {
    if patch.is_empty() {
        return None;
    }
    let mut named: Vec<String> = patch
        .iter()
        .take(MAX_LABEL_OPERATIONS)
        .map(operation)
        .collect();
    if patch.len() > MAX_LABEL_OPERATIONS {
        named.push(format!("… {} more", patch.len() - MAX_LABEL_OPERATIONS));
    }
    Some(format!("mutates {}", named.join(", ")))
}

/// `op path` of one RFC 6902 operation.
fn operation(op: &Json) -> String {
    let field = |key: &str| op.get(key).and_then(Json::as_str).unwrap_or("");
    format!("{} {}", field("op"), field("path"))
}

/// The message of the first validation that did not pass (short, as the user wrote it), else
/// the API server's rejection.
fn first_message(outcome: &Outcome) -> String {
    let failed = outcome
        .validations
        .iter()
        .find(|v| v.result != TriState::True);
    failed
        .and_then(|v| v.message.clone())
        .or_else(|| outcome.messages.first().cloned())
        .unwrap_or_default()
}

/// A trace as a fenced block under the expression's label.
pub(super) fn trace_block(explained: &Explained) -> String {
    let lines = trace_view::render_text(&explained.lines, "");
    format!("\n\n`{}`:\n```\n{}```", explained.label, lines)
}

/// `text` cut to one line of at most [`MAX_LABEL_MESSAGE`] characters.
pub(super) fn short(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    if line.chars().count() <= MAX_LABEL_MESSAGE && line.len() == text.len() {
        return line.to_string();
    }
    let cut: String = line.chars().take(MAX_LABEL_MESSAGE).collect();
    format!("{cut}…")
}

/// One hint from each sample's part: the labels joined (each named after its sample when
/// `named`), the details one section each.
pub(super) fn join(
    offset: crate::text::TextSize,
    parts: Vec<(String, Part)>,
    named: bool,
) -> LiveHint {
    let labels: Vec<String> = parts
        .iter()
        .map(|(sample, part)| match named {
            true => format!("{sample}: {}", part.label),
            false => part.label.clone(),
        })
        .collect();
    let details: Vec<String> = parts
        .iter()
        .map(|(sample, part)| format!("**{sample}**: {}", part.detail))
        .collect();
    LiveHint {
        offset,
        label: format!(" {}", labels.join("  ·  ")),
        tooltip: details.join("\n\n---\n\n"),
    }
}
