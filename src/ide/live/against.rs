//! Live verdicts of the documents evaluated against something other than an admission request
//! (`Family::evaluated_against`): DRA device selectors against the devices of the ResourceSlices
//! a modeline's `object=` names, an AuthenticationConfiguration against the token claims it names.
//! The run is `eval`'s (`ide::run_families`), traced; the modeline gets the summary (the devices
//! each request or class selects, the user or why the token is refused), each selector which
//! devices it held for, rejected or failed on, and each claim rule or mapping its result, with the
//! traces as the tooltip.

use super::render::{Part, join, short, trace_block};
use super::{Evaluated, LiveHint, LoadedFiles, SampleFiles, Verdict};
use crate::cel::eval::trace_view::Shown;
use crate::ide::run_families::{read_claims, run_authentication, run_dra};
use crate::policy::ExpressionSite;
use crate::policy::admission::explain::{self, Explained};
use crate::policy::families::EvaluatedAgainst;
use crate::policy::families::apiserver_config::eval::Authenticated;
use crate::policy::families::dra::eval::{DeviceVerdict, SelectorRun, Verdict as DeviceResult};

/// Devices named in a label at most; the tooltip has every one.
const MAX_LABEL_DEVICES: usize = 3;
/// Device traces in a tooltip at most (a slice may hold hundreds of devices).
const MAX_TOOLTIP_TRACES: usize = 8;

/// What a DRA or authentication sample gave.
#[derive(Clone, Debug, PartialEq)]
pub enum AgainstRun {
    /// The selector runs of the document over the sample's devices, and the slices that could
    /// not be read.
    Devices {
        /// One run (the document named).
        runs: Vec<SelectorRun>,
        /// The slice documents that could not be read.
        slice_errors: Vec<String>,
    },
    /// The user derived from the sample's claims, or why the token is refused, with the traces
    /// of the expressions run.
    Authentication {
        /// The outcome.
        outcome: Result<Authenticated, String>,
        /// The traces, in the order the API server runs the expressions.
        explained: Vec<Explained>,
    },
}

/// Runs the document `name` of `text` against the object file of `sample`, traced, as the
/// release 1.`minor` does.
pub(super) fn evaluate(
    text: &str,
    (name, against): (&str, EvaluatedAgainst),
    sample: &SampleFiles,
    loaded: &LoadedFiles,
    minor: u32,
) -> Result<Evaluated, String> {
    let file = sample.object.as_deref().ok_or("no object= file")?;
    let object = match loaded.get(file) {
        Some(Ok(text)) => text,
        Some(Err(e)) => return Err(format!("object={file}: {e}")),
        None => return Err(format!("object={file}: not read")),
    };
    let run = match against {
        EvaluatedAgainst::ResourceSlices => {
            let dra = || run_dra(text, Some(name), object, file);
            let run = explain::capture(dra).0?;
            AgainstRun::Devices {
                runs: run.runs,
                slice_errors: run.slice_errors,
            }
        }
        EvaluatedAgainst::TokenClaims => {
            let claims = read_claims(object).map_err(|e| format!("object={file}: {e}"))?;
            let authenticate = || run_authentication(text, &claims, minor);
            let (outcome, explained) = explain::capture(authenticate);
            AgainstRun::Authentication { outcome, explained }
        }
        EvaluatedAgainst::Request => return Err("evaluated against a request".to_string()),
    };
    Ok(Evaluated::Against(Box::new(run)))
}

/// The summary at the modeline.
pub(super) fn summary(run: &AgainstRun) -> Part {
    match run {
        AgainstRun::Devices { runs, slice_errors } => devices_summary(runs, slice_errors),
        AgainstRun::Authentication { outcome, explained } => {
            authentication_summary(outcome, explained)
        }
    }
}

fn devices_summary(runs: &[SelectorRun], slice_errors: &[String]) -> Part {
    let mut labels = Vec::new();
    let mut detail = String::new();
    for error in slice_errors {
        detail.push_str(&format!("error: {error}\n\n"));
    }
    for group in runs.iter().flat_map(|run| &run.groups) {
        let matched = group
            .devices
            .iter()
            .filter(|d| d.verdict == DeviceResult::Match)
            .count();
        let mark = if matched > 0 { "✓" } else { "✗" };
        let request = group
            .request
            .as_deref()
            .map(|r| format!("{r}: "))
            .unwrap_or_default();
        let label = format!("{mark} {request}{matched}/{} devices", group.devices.len());
        detail.push_str(&format!("{label}\n\n"));
        for device in &group.devices {
            detail.push_str(&format!("- {}\n", device_line(device)));
        }
        detail.push('\n');
        labels.push(label);
    }
    if !slice_errors.is_empty() {
        labels.push(format!("⚠ {} slice(s) unreadable", slice_errors.len()));
    }
    if labels.is_empty() {
        labels.push("no selectors".to_string());
    }
    Part {
        label: labels.join(", "),
        detail: detail.trim_end().to_string(),
    }
}

fn device_line(device: &DeviceVerdict) -> String {
    let head = format!("`{}` (slice {})", device.device, device.slice);
    match &device.verdict {
        DeviceResult::Match => format!("{head}: match"),
        DeviceResult::NoMatch(path) => format!("{head}: no match: `{path}` is false"),
        DeviceResult::Error(Some(path), e) => format!("{head}: error: `{path}`: {e}"),
        DeviceResult::Error(None, e) => format!("{head}: error: {e}"),
    }
}

fn authentication_summary(
    outcome: &Result<Authenticated, String>,
    explained: &[Explained],
) -> Part {
    let (label, mut detail) = match outcome {
        Ok(user) => {
            let label = format!("✓ authenticated as {}", short(&user.username));
            let mut detail = format!("{label}\n\ngroups: [{}]", user.groups.join(", "));
            if !user.uid.is_empty() {
                detail.push_str(&format!("\n\nuid: {}", user.uid));
            }
            (label, detail)
        }
        Err(reason) => (format!("✗ refused: {}", short(reason)), reason.clone()),
    };
    for trace in explained {
        detail.push_str(&trace_block(trace));
    }
    Part { label, detail }
}

/// The hints after the expressions among `sites` (a DRA document's selectors or an
/// authentication configuration's rules and mappings) from the traces of `verdicts`.
pub(super) fn site_hints(
    text: &str,
    sites: &[ExpressionSite],
    verdicts: &[&Verdict],
) -> Vec<LiveHint> {
    let mut out = Vec::new();
    for site in sites {
        let parts: Vec<(String, Part)> = verdicts
            .iter()
            .filter_map(|v| {
                let Ok(Evaluated::Against(run)) = &v.result else {
                    return None;
                };
                Some((v.sample.clone(), site_part(run, &site.path)?))
            })
            .collect();
        if !parts.is_empty() {
            let offset = crate::ide::hints::expression_end(text, site);
            out.push(join(offset, parts, verdicts.len() > 1));
        }
    }
    out
}

fn site_part(run: &AgainstRun, path: &str) -> Option<Part> {
    match run {
        AgainstRun::Devices { runs, .. } => selector_part(runs, path),
        AgainstRun::Authentication { explained, .. } => {
            let trace = explained.iter().find(|e| e.label == path)?;
            let label = match trace.lines.first().map(|l| &l.shown)? {
                Shown::Value(v) if v == "true" => "✓ true".to_string(),
                Shown::Value(v) if v == "false" => "✗ false".to_string(),
                Shown::Value(v) => format!("→ {}", short(v)),
                Shown::Raised(e) | Shown::Error(e) => format!("⚠ error: {}", short(e)),
                Shown::Stopped(e) => format!("⚠ stopped: {}", short(e)),
                Shown::NotEvaluated => return None,
            };
            let detail = format!("{label}{}", trace_block(trace));
            Some(Part { label, detail })
        }
    }
}

/// Which devices the selector at `path` held for, was false for, and failed on: every device it
/// ran on (those an earlier selector rejected never reach it, as in the allocator).
fn selector_part(runs: &[SelectorRun], path: &str) -> Option<Part> {
    let mut held = 0usize;
    let mut rejected: Vec<(&DeviceVerdict, &Explained)> = Vec::new();
    let mut failed: Vec<(&DeviceVerdict, &Explained)> = Vec::new();
    let devices = runs
        .iter()
        .flat_map(|run| &run.groups)
        .flat_map(|group| &group.devices);
    for device in devices {
        let Some(trace) = device.explained.iter().find(|e| e.label == path) else {
            continue;
        };
        match trace.lines.first().map(|l| &l.shown) {
            Some(Shown::Value(v)) if v == "true" => held += 1,
            Some(Shown::Value(v)) if v == "false" => rejected.push((device, trace)),
            _ => failed.push((device, trace)),
        }
    }
    if held + rejected.len() + failed.len() == 0 {
        return None;
    }
    let mut labels = Vec::new();
    if held > 0 {
        labels.push(format!("✓ {held} device(s)"));
    }
    if !rejected.is_empty() {
        labels.push(format!("✗ rejects {}", names(&rejected)));
    }
    if !failed.is_empty() {
        labels.push(format!("⚠ fails on {}", names(&failed)));
    }
    let label = labels.join(", ");
    let mut detail = label.clone();
    let shown = failed.iter().chain(&rejected).take(MAX_TOOLTIP_TRACES);
    for (device, trace) in shown {
        detail.push_str(&format!("\n\n{}", device_line(device)));
        detail.push_str(&trace_block(trace));
    }
    Some(Part { label, detail })
}

/// The first devices' names, `…` when there are more.
fn names(devices: &[(&DeviceVerdict, &Explained)]) -> String {
    let mut shown: Vec<&str> = devices
        .iter()
        .take(MAX_LABEL_DEVICES)
        .map(|(d, _)| d.device.as_str())
        .collect();
    if devices.len() > MAX_LABEL_DEVICES {
        shown.push("…");
    }
    shown.join(", ")
}
