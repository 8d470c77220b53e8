//! `admission-ls eval CLASS_OR_CLAIM --object SLICES`: when the file holds DRA device selectors
//! (a DeviceClass, ResourceClaim or ResourceClaimTemplate), they are run against the devices of
//! the ResourceSlices in `--object`, and the devices each class or request selects are listed, with
//! the selector that excluded or failed on each other device. Exit 0 when the run happened; with
//! `--exit-code`, 1 when a selector failed on some device or a slice could not be read.

use admission_ls::policy::families::dra::eval::{
    self, DeviceVerdict, SelectorGroup, SelectorRun, Verdict,
};
use serde_json::{Value as Json, json};

use super::eval::{EvalArgs, EvalFormat, read_path, usage_error};
use super::out;

/// Runs the selectors when `policy_text` holds any; `None` when it holds none (an admission
/// policy, evaluated as such).
pub fn run(args: &EvalArgs, policy_text: &str) -> Option<i32> {
    let runs_nothing = eval::run(policy_text, None, &eval::read_devices("")).is_empty();
    if runs_nothing {
        return None;
    }
    let Some(object) = &args.object else {
        return Some(usage_error(
            "--object: device selectors are evaluated against a file of ResourceSlices",
        ));
    };
    let slices = match read_path(object, "--object") {
        Ok(text) => text,
        Err(message) => return Some(usage_error(&message)),
    };
    let devices = eval::read_devices(&slices);
    let runs = eval::run(policy_text, args.policy.as_deref(), &devices);
    if runs.is_empty() {
        let name = args.policy.as_deref().unwrap_or("");
        return Some(usage_error(&format!(
            "--policy: no DeviceClass, ResourceClaim or ResourceClaimTemplate named {name:?}"
        )));
    }
    let object_path = object.display().to_string();
    let slice_errors: Vec<String> = devices
        .errors
        .iter()
        .map(|e| format!("{object_path}:{e}"))
        .collect();
    let text = match args.format {
        EvalFormat::Text => render_text(&runs, &slice_errors),
        EvalFormat::Json => render_json(&runs, &slice_errors),
    };
    let failed = !slice_errors.is_empty()
        || runs.iter().flat_map(|r| &r.groups).any(|g| {
            g.devices
                .iter()
                .any(|d| matches!(d.verdict, Verdict::Error(..)))
        });
    Some(out::emit(&text, i32::from(args.exit_code && failed)))
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

fn render_json(runs: &[SelectorRun], slice_errors: &[String]) -> String {
    let runs: Vec<Json> = runs
        .iter()
        .map(|run| {
            let groups: Vec<Json> = run.groups.iter().map(group_json).collect();
            json!({"kind": run.kind, "name": run.name, "requests": groups})
        })
        .collect();
    let value = json!({"selectors": runs, "errors": slice_errors});
    format!(
        "{}\n",
        serde_json::to_string_pretty(&value).unwrap_or_default()
    )
}

fn group_json(group: &SelectorGroup) -> Json {
    let devices: Vec<Json> = group
        .devices
        .iter()
        .map(|d| {
            let (result, selector, error) = match &d.verdict {
                Verdict::Match => ("match", None, None),
                Verdict::NoMatch(path) => ("no match", Some(path.clone()), None),
                Verdict::Error(path, message) => ("error", path.clone(), Some(message.clone())),
            };
            json!({"slice": d.slice, "device": d.device, "result": result,
                   "selector": selector, "error": error})
        })
        .collect();
    let class = group.class.as_ref().map(|(name, _)| name);
    let class_run = group.class.as_ref().map(|(_, found)| found);
    json!({"request": group.request, "deviceClassName": class, "classSelectorsRun": class_run,
           "selectors": group.selectors, "devices": devices})
}
