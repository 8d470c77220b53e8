//! Evaluation of the family documents that are not admission policies, as plain data both front
//! ends share: DRA device selectors run against the devices of ResourceSlices, an
//! AuthenticationConfiguration run against a token's claims, and the JSON of a family's verdicts
//! (Kyverno's policies). [`evaluate_json`] is the server's `admission-ls.evaluate`: whichever
//! evaluation the file calls for (the families say, [`evaluated_against`]), answering the JSON
//! `eval --format json` prints for it.

use serde_json::{Value as Json, json};

use super::run::{EvalRequest, FamilyOutcome, evaluate, evaluate_family, outcome_json};
use crate::policy::admission::explain;
use crate::policy::admission::json::documents;
use crate::policy::families::apiserver_config::eval::{Authenticated, authenticate};
use crate::policy::families::dra::eval::{self as dra, SelectorGroup, SelectorRun, Verdict};
pub use crate::policy::families::{EvaluatedAgainst, evaluated_against};

/// The error of device selectors evaluated without a file of ResourceSlices.
pub const NO_SLICES: &str =
    "--object: device selectors are evaluated against a file of ResourceSlices";
/// The error of an authentication configuration evaluated without a token's claims.
pub const NO_CLAIMS: &str =
    "--object: an authentication configuration is evaluated against a file of token claims";

/// The run of a file's device selectors over the devices of a file of ResourceSlices.
pub struct DraRun {
    /// One run per DeviceClass, ResourceClaim or ResourceClaimTemplate evaluated.
    pub runs: Vec<SelectorRun>,
    /// Slices that could not be read, prefixed with the slices file's path.
    pub slice_errors: Vec<String>,
}

/// Runs the selectors of `policy_text` (those of `name` only, when given) over the devices of
/// `slices_text`, read from `slices_path`; `Err` when no document is named `name`.
pub fn run_dra(
    policy_text: &str,
    name: Option<&str>,
    slices_text: &str,
    slices_path: &str,
) -> Result<DraRun, String> {
    let devices = dra::read_devices(slices_text);
    let runs = dra::run(policy_text, name, &devices);
    if runs.is_empty() {
        let name = name.unwrap_or("");
        return Err(format!(
            "--policy: no DeviceClass, ResourceClaim or ResourceClaimTemplate named {name:?}"
        ));
    }
    let slice_errors = devices
        .errors
        .iter()
        .map(|e| format!("{slices_path}:{e}"))
        .collect();
    Ok(DraRun { runs, slice_errors })
}

impl DraRun {
    /// Whether a slice could not be read or a selector failed on some device.
    pub fn failed(&self) -> bool {
        !self.slice_errors.is_empty()
            || self.runs.iter().flat_map(|r| &r.groups).any(|g| {
                g.devices
                    .iter()
                    .any(|d| matches!(d.verdict, Verdict::Error(..)))
            })
    }

    /// `{"selectors": [{kind, name, requests}], "errors": [...]}`.
    pub fn to_json(&self) -> Json {
        let runs: Vec<Json> = self
            .runs
            .iter()
            .map(|run| {
                let groups: Vec<Json> = run.groups.iter().map(group_json).collect();
                json!({"kind": run.kind, "name": run.name, "requests": groups})
            })
            .collect();
        json!({"selectors": runs, "errors": self.slice_errors})
    }
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
            let mut device = json!({"slice": d.slice, "device": d.device, "result": result,
                   "selector": selector, "error": error});
            // Traced runs only (`eval --explain`): the selectors run on the device.
            if let (false, Some(map)) = (d.explained.is_empty(), device.as_object_mut()) {
                map.insert("explain".to_string(), explain::to_json(&d.explained));
            }
            device
        })
        .collect();
    let class = group.class.as_ref().map(|(name, _)| name);
    let class_run = group.class.as_ref().map(|(_, found)| found);
    json!({"request": group.request, "deviceClassName": class, "classSelectorsRun": class_run,
           "selectors": group.selectors, "devices": devices})
}

/// The one claims object of `claims_text` (JSON or YAML).
pub fn read_claims(claims_text: &str) -> Result<Json, String> {
    match documents(claims_text) {
        Ok(mut docs) if docs.len() == 1 => Ok(docs.remove(0)),
        Ok(_) => Err("--object: one claims object is expected".into()),
        Err(e) => Err(format!("--object: {e}")),
    }
}

/// The user the API server of 1.`minor` derives from `claims` with the configuration
/// `config_text`, or why it refuses the token.
pub fn run_authentication(
    config_text: &str,
    claims: &Json,
    minor: u32,
) -> Result<Authenticated, String> {
    authenticate(config_text, claims, minor)
}

/// `{"authenticated": true, issuer, username, uid, groups, extra}` or
/// `{"authenticated": false, "error"}`.
pub fn authentication_json(outcome: &Result<Authenticated, String>) -> Json {
    match outcome {
        Ok(user) => json!({
            "authenticated": true, "issuer": user.issuer, "username": user.username,
            "uid": user.uid, "groups": user.groups, "extra": user.extra,
        }),
        Err(reason) => json!({"authenticated": false, "error": reason}),
    }
}

/// The verdicts worth showing: those of the variants that matched, or the policy as written when
/// none did.
pub fn shown(outcomes: &[FamilyOutcome]) -> Vec<&FamilyOutcome> {
    let matched: Vec<&FamilyOutcome> = outcomes.iter().filter(|o| o.result != "no match").collect();
    if matched.is_empty() {
        outcomes.iter().take(1).collect()
    } else {
        matched
    }
}

/// The shown verdicts of one request, as the JSON list `eval --format json` prints.
pub fn family_json(outcomes: &[FamilyOutcome]) -> Json {
    Json::Array(shown(outcomes).iter().map(|o| o.to_json()).collect())
}

/// Evaluates the file of `request` as `eval --format json` does, whatever it holds: device
/// selectors over the slices of the object (read from `object_path`), an authentication
/// configuration over the claims of the object, a family's policy, or an admission policy or
/// Gatekeeper template.
pub fn evaluate_json(request: &EvalRequest, object_path: &str) -> Result<Json, String> {
    let text = &request.policy_text;
    match evaluated_against(text) {
        EvaluatedAgainst::ResourceSlices => {
            let slices = request.object.as_deref().ok_or(NO_SLICES)?;
            Ok(run_dra(text, request.policy.as_deref(), slices, object_path)?.to_json())
        }
        EvaluatedAgainst::TokenClaims => {
            let claims = request.object.as_deref().ok_or(NO_CLAIMS)?;
            let minor = request.kube_version.minor();
            let outcome = run_authentication(text, &read_claims(claims)?, minor);
            Ok(authentication_json(&outcome))
        }
        EvaluatedAgainst::Request => match evaluate_family(request) {
            Some(outcomes) => Ok(family_json(&outcomes?)),
            None => evaluate(request).map(|outcome| outcome_json(&outcome)),
        },
    }
}
