//! `admission-ls eval CLASS_OR_CLAIM --object SLICES`: when the file holds DRA device selectors
//! (a DeviceClass, ResourceClaim or ResourceClaimTemplate), they are run against the devices of
//! the ResourceSlices in `--object`, and the devices each class or request selects are listed, with
//! the selector that excluded or failed on each other device. Exit 0 when the run happened; with
//! `--exit-code`, 1 when a selector failed on some device or a slice could not be read. With
//! `--explain`, each device's line is followed by the traces of the selectors run on it.

use admission_ls::ide::run_families::{DraRun, NO_SLICES, run_dra};
use admission_ls::policy::families::dra::eval::{
    DeviceVerdict, SelectorGroup, SelectorRun, Verdict,
};

use admission_ls::policy::admission::explain;

use super::eval::{EvalArgs, EvalFormat, read_path, render_traces, usage_error};
use super::out;

/// Runs the selectors of `policy_text` (a file the families say holds device selectors).
pub fn run(args: &EvalArgs, policy_text: &str) -> i32 {
    let Some(object) = &args.object else {
        return usage_error(NO_SLICES);
    };
    let slices = match read_path(object, "--object") {
        Ok(text) => text,
        Err(message) => return usage_error(&message),
    };
    let object_path = object.display().to_string();
    let dra = || run_dra(policy_text, args.policy.as_deref(), &slices, &object_path);
    // Traced, each device keeps the traces of the selectors run on it.
    let run = if args.explain {
        explain::capture(dra).0
    } else {
        dra()
    };
    let run = match run {
        Ok(run) => run,
        Err(message) => return usage_error(&message),
    };
    let text = match args.format {
        EvalFormat::Text => render_text(&run.runs, &run.slice_errors),
        EvalFormat::Json => render_json(&run),
    };
    out::emit(&text, i32::from(args.exit_code && run.failed()))
}

fn render_text(runs: &[SelectorRun], slice_errors: &[String]) -> String {
    let mut text = String::new();
    for error in slice_errors {
        text.push_str(&format!("error: {error}\n"));
    }
    for run in runs {
        if run.groups.is_empty() {
            text.push_str(&format!("{} {}: no selectors\n", run.kind, run.name));
        }
        for group in &run.groups {
            text.push_str(&group_heading(run, group));
            for device in &group.devices {
                text.push_str(&format!("  {}\n", device_line(device)));
                text.push_str(&render_traces(&device.explained, "    "));
            }
        }
    }
    text
}

fn group_heading(run: &SelectorRun, group: &SelectorGroup) -> String {
    let request = group
        .request
        .as_deref()
        .map(|r| format!(" request {r}"))
        .unwrap_or_default();
    let matched = group
        .devices
        .iter()
        .filter(|d| d.verdict == Verdict::Match)
        .count();
    let class = match &group.class {
        Some((class, true)) => format!(" (with DeviceClass {class})"),
        Some((class, false)) => {
            format!(" (DeviceClass {class} not in this file: its selectors not run)")
        }
        None => String::new(),
    };
    format!(
        "{} {}{request}{class}: {matched} of {} devices match\n",
        run.kind,
        run.name,
        group.devices.len()
    )
}

fn device_line(device: &DeviceVerdict) -> String {
    let head = format!("{} (slice {})", device.device, device.slice);
    match &device.verdict {
        Verdict::Match => format!("{head}: match"),
        Verdict::NoMatch(path) => format!("{head}: no match: {path} is false"),
        Verdict::Error(Some(path), message) => format!("{head}: error: {path}: {message}"),
        Verdict::Error(None, message) => format!("{head}: error: {message}"),
    }
}

fn render_json(run: &DraRun) -> String {
    format!(
        "{}\n",
        serde_json::to_string_pretty(&run.to_json()).unwrap_or_default()
    )
}
