//! `admission-ls eval AUTHN_CONFIG --object CLAIMS`: when the file holds an
//! AuthenticationConfiguration, the JSON (or YAML) claims of a token in `--object` are run through
//! it and the user the API server would derive is printed (username, uid, groups, extra), or the
//! reason it would refuse the token. Exit 0 when the run happened; with `--exit-code`, 1 when the
//! token is refused. With `--explain`, the traces of the expressions the run evaluated follow (the
//! claim validation rules, the claim mappings, the user validation rules, in that order, up to the
//! one that refused the token).

use admission_ls::ide::run_families::{
    NO_CLAIMS, authentication_json, read_claims, run_authentication,
};
use admission_ls::policy::families::apiserver_config::eval::Authenticated;

use admission_ls::policy::admission::explain::{self, Explained};

use super::eval::{EvalArgs, EvalFormat, read_path, render_traces, usage_error};
use super::out;

/// Authenticates the claims of `--object` with `config_text` (a file the families say holds an
/// AuthenticationConfiguration).
pub fn run(args: &EvalArgs, config_text: &str) -> i32 {
    let Some(object) = &args.object else {
        return usage_error(NO_CLAIMS);
    };
    let claims_text = match read_path(object, "--object") {
        Ok(text) => text,
        Err(message) => return usage_error(&message),
    };
    let claims = match read_claims(&claims_text) {
        Ok(claims) => claims,
        Err(message) => return usage_error(&message),
    };
    let minor = args.kube_version.minor();
    let authenticate = || run_authentication(config_text, &claims, minor);
    // Traced, the expressions run (in the API server's order) keep their traces.
    let (outcome, traces) = if args.explain {
        explain::capture(authenticate)
    } else {
        (authenticate(), Vec::new())
    };
    let text = match args.format {
        EvalFormat::Text => render_text(&outcome) + &render_traces(&traces, "  "),
        EvalFormat::Json => render_json(&outcome, args.explain.then_some(&traces)),
    };
    out::emit(&text, i32::from(args.exit_code && outcome.is_err()))
}

fn render_text(outcome: &Result<Authenticated, String>) -> String {
    let user = match outcome {
        Ok(user) => user,
        Err(reason) => return format!("AuthenticationConfiguration: refused: {reason}\n"),
    };
    let mut text = format!(
        "AuthenticationConfiguration (issuer {}): authenticated\n  username: {}\n",
        user.issuer, user.username
    );
    if !user.uid.is_empty() {
        text.push_str(&format!("  uid: {}\n", user.uid));
    }
    text.push_str(&format!("  groups: [{}]\n", user.groups.join(", ")));
    for (key, values) in &user.extra {
        text.push_str(&format!("  extra {key}: [{}]\n", values.join(", ")));
    }
    text
}

/// The JSON of the outcome, with an `explain` array (one entry per expression run) when traced.
fn render_json(outcome: &Result<Authenticated, String>, traces: Option<&Vec<Explained>>) -> String {
    let mut json = authentication_json(outcome);
    if let (Some(traces), Some(map)) = (traces, json.as_object_mut()) {
        map.insert("explain".to_string(), explain::to_json(traces));
    }
    format!(
        "{}\n",
        serde_json::to_string_pretty(&json).unwrap_or_default()
    )
}
