//! `admission-ls eval POLICY_FILE --object FILE …`: evaluates one policy against a request and prints
//! the outcome as text or JSON. `--object` may hold several documents: each is the object of its own
//! request, evaluated in document order (text: one block each; JSON: an array of outcomes, one
//! object when there is one document). `-` reads a file from standard input. Exit 0 when the
//! evaluation ran, whatever the decision; with `--exit-code`, 1 when any decision is deny or error;
//! 2 on bad input. A file of DRA device selectors is evaluated against ResourceSlices instead
//! (`eval_dra.rs`), an AuthenticationConfiguration against a token's claims (`eval_authn.rs`): the
//! families say which (`Family::evaluated_against`).

use std::path::{Path, PathBuf};

use admission_ls::ide::KubeVersion;
use admission_ls::ide::run::{
    EvalOutcome, EvalRequest, FamilyOutcome, evaluate, evaluate_family, outcome_json,
};
use admission_ls::ide::run_families::{EvaluatedAgainst, evaluated_against, shown};
use admission_ls::lsp::disk::{self, Bounds};
use admission_ls::policy::admission::explain;
use admission_ls::policy::admission::json::documents;
use clap::ValueEnum;
use serde_json::Value as Json;

use super::{EXIT_USAGE, out};

/// Arguments of `eval`.
#[derive(Debug, clap::Args)]
pub struct EvalArgs {
    /// The file with the policy (and its bindings).
    pub policy_file: PathBuf,
    /// The object of the request (YAML or JSON; `-`: standard input); several documents are
    /// evaluated one after the other.
    #[arg(long)]
    pub object: Option<PathBuf>,
    /// The old object (UPDATE, DELETE).
    #[arg(long)]
    pub old_object: Option<PathBuf>,
    /// The params object(s).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// The namespace object of the request.
    #[arg(long)]
    pub namespace: Option<PathBuf>,
    /// The policy to evaluate, when the file has several.
    #[arg(long)]
    pub policy: Option<String>,
    /// The binding to use (default: the file's binding of the policy, if any).
    #[arg(long)]
    pub binding: Option<String>,
    /// CREATE, UPDATE, DELETE or CONNECT (default: inferred from the objects given).
    #[arg(long)]
    pub operation: Option<String>,
    /// The requesting user's name.
    #[arg(long)]
    pub user: Option<String>,
    /// The requesting user's groups, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub groups: Vec<String>,
    /// Target Kubernetes version, such as 1.33 (default: the newest supported).
    #[arg(long, value_name = "1.NN", default_value_t = KubeVersion::newest())]
    pub kube_version: KubeVersion,
    /// Mocked authorizer decisions: a YAML list of {verb, resource, group, namespace, name,
    /// subresource, path, decision: allow|deny|noOpinion}; the first matching entry answers
    /// (default: no opinion on every check).
    #[arg(long, value_name = "FILE")]
    pub authorizer: Option<PathBuf>,
    /// A file with CustomResourceDefinitions, whose schemas decode (prune, default) and type
    /// custom resources; repeatable. CRDs in the policy file count too.
    #[arg(long = "schema", value_name = "FILE")]
    pub schemas: Vec<PathBuf>,
    /// Give the policy the objects exactly as written: no defaulting, no pruning, no server-set
    /// metadata (uid, creationTimestamp, generation, status reset…).
    #[arg(long)]
    pub no_defaults: bool,
    /// The data the lookups of a Kyverno policy read (`resource.Get`, `resource.List`,
    /// `image.GetMetadata`): a `cli.kyverno.io/v1alpha1` Context (`spec.resources`,
    /// `spec.images`) or plain objects, as in a kyverno-test.yaml's `context` file.
    #[arg(long, value_name = "FILE")]
    pub context: Option<PathBuf>,
    /// The Kyverno release a Kyverno policy is for, such as 1.17: a policy calling a library
    /// function a later release added does not compile there, and is not evaluated.
    #[arg(long, value_name = "1.NN")]
    pub kyverno_version: Option<admission_ls::ide::KyvernoVersion>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = EvalFormat::Text)]
    pub format: EvalFormat,
    /// Exit 1 when a decision is deny or error (default: 0 whenever the evaluation ran).
    #[arg(long)]
    pub exit_code: bool,
    /// Show why: the value of every subexpression of each expression evaluated (validations,
    /// matchConditions, variables, mutations), under the expression's text.
    #[arg(long)]
    pub explain: bool,
}

/// Output formats of `eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EvalFormat {
    /// Readable lines.
    Text,
    /// The outcome as a JSON object (an array of them for several objects).
    Json,
}

/// The wall clock, for library functions that return the current time (Kyverno's `time.now()`).
pub fn now() -> Option<admission_ls::ide::run::Timestamp> {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    since.ok().and_then(admission_ls::ide::run::wall_clock)
}

/// The text of `path`; `-` is standard input (read once: a second `-` reads nothing).
pub(super) fn read_path(path: &Path, what: &str) -> Result<String, String> {
    if path == Path::new("-") {
        return disk::read_stream(std::io::stdin().lock(), disk::COMMAND_CAP)
            .map_err(|e| format!("cannot read {what} from standard input: {e}"));
    }
    disk::read_text(path, Bounds::named())
        .map_err(|e| format!("cannot read {what} {}: {e}", path.display()))
}

fn read(path: &Option<PathBuf>, what: &str) -> Result<Option<String>, String> {
    path.as_ref().map(|p| read_path(p, what)).transpose()
}

fn request(args: &EvalArgs, policy_text: String) -> Result<EvalRequest, String> {
    let policy_path = args.policy_file.display().to_string();
    Ok(EvalRequest {
        policy_path,
        policy_text,
        object: read(&args.object, "--object")?,
        old_object: read(&args.old_object, "--old-object")?,
        params: read(&args.params, "--params")?,
        namespace: read(&args.namespace, "--namespace")?,
        policy: args.policy.clone(),
        binding: args.binding.clone(),
        operation: args.operation.clone(),
        user: args.user.clone(),
        groups: args.groups.clone(),
        kube_version: args.kube_version,
        authorizer: read(&args.authorizer, "--authorizer")?,
        schemas: args
            .schemas
            .iter()
            .map(|p| {
                let path = p.display().to_string();
                disk::read_text(p, Bounds::named())
                    .map(|text| (path.clone(), text))
                    .map_err(|e| format!("cannot read --schema {path}: {e}"))
            })
            .collect::<Result<_, _>>()?,
        no_defaults: args.no_defaults,
        context: read(&args.context, "--context")?,
        now: now(),
    })
}

/// One request per document of `--object` (a text with one document or none is one request, so
/// that its errors are reported as they are).
fn requests(request: EvalRequest) -> Result<Vec<EvalRequest>, String> {
    let Some(text) = &request.object else {
        return Ok(vec![request]);
    };
    let docs = documents(text).map_err(|e| format!("--object: {e}"))?;
    if docs.len() < 2 {
        return Ok(vec![request]);
    }
    Ok(docs
        .iter()
        .map(|doc| EvalRequest {
            object: Some(serde_json::to_string(doc).unwrap_or_default()),
            ..request.clone()
        })
        .collect())
}

fn evaluate_all(args: &EvalArgs, all: &[EvalRequest]) -> Result<Vec<EvalOutcome>, String> {
    all.iter()
        .enumerate()
        .map(|(i, r)| {
            // Traced, the outcome keeps its expressions' traces (`explained`).
            let outcome = if args.explain {
                explain::capture(|| evaluate(r)).0
            } else {
                evaluate(r)
            };
            outcome.map_err(|e| match &args.object {
                Some(_) if r.object.is_some() && i > 0 => {
                    format!("--object document {}: {e}", i + 1)
                }
                _ => e,
            })
        })
        .collect()
}

/// The family verdicts of every `--object` document, when a document family claims the policy
/// file (`None`: the file is for the built-in admission kinds).
fn evaluate_family_all(all: &[EvalRequest]) -> Option<Result<Vec<Vec<FamilyOutcome>>, String>> {
    let mut outcomes = Vec::new();
    for (i, r) in all.iter().enumerate() {
        match evaluate_family(r)? {
            Ok(o) => outcomes.push(o),
            Err(e) if i > 0 => return Some(Err(format!("--object document {}: {e}", i + 1))),
            Err(e) => return Some(Err(e)),
        }
    }
    Some(Ok(outcomes))
}

/// Runs `eval` for a family's policy: the verdicts in text or JSON, the exit code as for the
/// admission kinds.
fn run_family(args: &EvalArgs, all: Vec<Vec<FamilyOutcome>>) -> i32 {
    let shown: Vec<Vec<&FamilyOutcome>> = all.iter().map(|o| shown(o)).collect();
    let text = match args.format {
        EvalFormat::Json => {
            let mut docs: Vec<Json> = shown
                .iter()
                .map(|o| {
                    let each = o
                        .iter()
                        .map(|o| with_traces(o.to_json(), &o.explained, args.explain));
                    Json::Array(each.collect())
                })
                .collect();
            let json = if docs.len() == 1 {
                docs.remove(0)
            } else {
                Json::Array(docs)
            };
            format!(
                "{}\n",
                serde_json::to_string_pretty(&json).unwrap_or_default()
            )
        }
        EvalFormat::Text => shown
            .iter()
            .map(|o| {
                let each = o
                    .iter()
                    .map(|o| render_family(o) + &render_traces(&o.explained, "  "));
                each.collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n"),
    };
    let refused = shown
        .iter()
        .flatten()
        .any(|o| matches!(o.decision.as_str(), "deny" | "error"));
    out::emit(&text, i32::from(args.exit_code && refused))
}

/// The text form of a family verdict.
fn render_family(o: &FamilyOutcome) -> String {
    let variant = o
        .variant
        .as_deref()
        .map(|v| format!(" ({v})"))
        .unwrap_or_default();
    let mut out = format!("{} {}{variant}: {}\n", o.kind, o.policy, o.result);
    out.push_str(&format!("  decision: {}\n", o.decision));
    if let Some(message) = &o.message {
        out.push_str(&format!("  message: {message}\n"));
    }
    // A mutating policy has no validationActions.
    if !o.actions.is_empty() {
        out.push_str(&format!("  validationActions: {}\n", o.actions.join(", ")));
    }
    for w in &o.warnings {
        out.push_str(&format!("  warning: {w}\n"));
    }
    for (k, v) in &o.audit_annotations {
        out.push_str(&format!("  auditAnnotation {k}: {v}\n"));
    }
    for note in &o.notes {
        out.push_str(&format!("  note: {note}\n"));
    }
    if let Some(patch) = &o.patch {
        out.push_str("  patch:\n");
        for op in patch {
            out.push_str(&format!("    {op}\n"));
        }
    }
    if let Some(object) = &o.object {
        out.push_str("  object:\n");
        push_indented(&mut out, object);
    }
    if let Some(generated) = &o.generated {
        out.push_str(&format!("  generated: {} resource(s)\n", generated.len()));
        for resource in generated {
            push_indented(&mut out, resource);
        }
    }
    out
}

/// `value` as indented pretty JSON lines.
fn push_indented(out: &mut String, value: &Json) {
    let pretty = serde_json::to_string_pretty(value).unwrap_or_default();
    for line in pretty.lines() {
        out.push_str(&format!("    {line}\n"));
    }
}

/// Runs `eval`.
/// Why the Kyverno release of `--kyverno-version` would not compile the policy file: each call of
/// a function that release lacks.
fn kyverno_refuses(args: &EvalArgs, policy_text: &str) -> Option<String> {
    let version = args.kyverno_version?;
    let file = admission_ls::yaml::parse(policy_text);
    let refused = admission_ls::policy::families::kyverno::version_gate(&file, version);
    if refused.is_empty() {
        return None;
    }
    let reasons: Vec<String> = refused.iter().map(|d| d.message.clone()).collect();
    Some(format!(
        "the policy does not compile for Kyverno {version}: {}",
        reasons.join("; ")
    ))
}

pub fn run(args: &EvalArgs) -> i32 {
    let policy_text = match read_path(&args.policy_file, "policy file") {
        Ok(text) => text,
        Err(message) => return usage_error(&message),
    };
    if let Some(message) = kyverno_refuses(args, &policy_text) {
        return usage_error(&message);
    }
    match evaluated_against(&policy_text) {
        EvaluatedAgainst::ResourceSlices => return super::eval_dra::run(args, &policy_text),
        EvaluatedAgainst::TokenClaims => return super::eval_authn::run(args, &policy_text),
        EvaluatedAgainst::Request => {}
    }
    let all = match request(args, policy_text).and_then(requests) {
        Ok(all) => all,
        Err(message) => return usage_error(&message),
    };
    // Traced, each verdict keeps its expressions' traces (`FamilyOutcome::explained`).
    let families = if args.explain {
        explain::capture(|| evaluate_family_all(&all)).0
    } else {
        evaluate_family_all(&all)
    };
    match families {
        Some(Ok(all)) => return run_family(args, all),
        Some(Err(message)) => return usage_error(&message),
        None => {}
    }
    let outcomes = match evaluate_all(args, &all) {
        Ok(outcomes) => outcomes,
        Err(message) => return usage_error(&message),
    };
    let text = match args.format {
        EvalFormat::Json => {
            let mut all: Vec<Json> = outcomes
                .iter()
                .map(|o| with_traces(outcome_json(o), &o.explained, args.explain))
                .collect();
            let json = if all.len() == 1 {
                all.remove(0)
            } else {
                Json::Array(all)
            };
            format!(
                "{}\n",
                serde_json::to_string_pretty(&json).unwrap_or_default()
            )
        }
        EvalFormat::Text => outcomes
            .iter()
            .map(|o| render_text(o) + &render_traces(&o.explained, "  "))
            .collect::<Vec<_>>()
            .join("\n"),
    };
    let refused = outcomes
        .iter()
        .any(|o| matches!(o.decision.as_str(), "deny" | "error"));
    out::emit(&text, i32::from(args.exit_code && refused))
}

/// Reports a bad input; the usage exit status.
pub(super) fn usage_error(message: &str) -> i32 {
    out::error(&format!("admission-ls eval: error: {message}"));
    EXIT_USAGE
}

/// The traces as text, each line after `indent`: each expression's subexpressions with their
/// values.
pub fn render_traces(traces: &[explain::Explained], indent: &str) -> String {
    explain::render_text(traces, indent)
}

/// `json` with an `explain` array (one entry per expression evaluated) when asked for.
fn with_traces(mut json: Json, traces: &[explain::Explained], explain: bool) -> Json {
    if let (true, Some(map)) = (explain, json.as_object_mut()) {
        map.insert("explain".to_string(), explain::to_json(traces));
    }
    json
}

/// The text form of an outcome.
pub fn render_text(o: &EvalOutcome) -> String {
    let mut out = format!("{} {}", o.kind.name(), o.policy);
    if let Some(b) = &o.binding {
        out.push_str(&format!(" (binding {b})"));
    }
    out.push_str(&format!(": {}\n", o.decision.as_str()));
    if let Some(note) = o.note() {
        out.push_str(&format!("  note: {note}\n"));
    }
    for c in &o.match_conditions {
        let error = c
            .error
            .as_deref()
            .map(|e| format!(": {e}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "  matchCondition {}: {}{error}\n",
            c.name,
            c.result.as_str()
        ));
    }
    for v in &o.validations {
        let message = v
            .message
            .as_deref()
            .map(|m| format!(": {m}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "  validation[{}]: {}{message}\n",
            v.index,
            v.result.as_str()
        ));
    }
    for m in &o.messages {
        out.push_str(&format!("  message: {m}\n"));
    }
    if !o.defaulted.is_empty() {
        out.push_str(&format!("  defaulted: {}\n", o.defaulted.join(", ")));
    }
    if !o.pruned.is_empty() {
        out.push_str(&format!("  pruned: {}\n", o.pruned.join(", ")));
    }
    for w in &o.warnings {
        out.push_str(&format!("  warning: {w}\n"));
    }
    for (k, v) in &o.audit_annotations {
        out.push_str(&format!("  auditAnnotation {k}: {v}\n"));
    }
    if let Some(patch) = &o.patch {
        for op in patch {
            out.push_str(&format!("  patch: {op}\n"));
        }
    }
    out
}
