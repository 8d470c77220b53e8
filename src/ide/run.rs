//! Evaluation and test runs for the front-ends, as plain data: [`evaluate`] one policy against one
//! request (the `eval` command and `admission-ls.evaluate`), [`run_tests`] over suite files (the
//! `test` command and `admission-ls.runTests`), and the JSON both front-ends print or return.
//! Files come in as text; referenced files are read through the caller's loader.

use serde_json::{Value as Json, json};

use crate::policy::admission::json::{documents, str_at};
use crate::policy::admission::view::Policy;
use crate::policy::admission::{Input, Outcome, Request};
use crate::policy::apiserver;
use crate::policy::families;
use crate::policy::families::evaluation::EvalInput;
use crate::policy::suite::{self, Loader, World};
use crate::schema::KubeVersion;

pub use crate::cel::eval::Timestamp;
pub use crate::policy::admission::Outcome as EvalOutcome;
pub use crate::policy::families::evaluation::FamilyOutcome;
pub use crate::policy::suite::CaseResult;
pub use crate::policy::suite::Format as SuiteFormat;
pub use crate::policy::suite::{RunHooks, RunOptions, SuiteReport};

/// The wall-clock time `since_epoch` after the Unix epoch as a CEL timestamp (the front ends read
/// the clock and pass it in: [`EvalRequest::now`], [`RunOptions::now`]).
pub fn wall_clock(since_epoch: std::time::Duration) -> Option<crate::cel::eval::Timestamp> {
    let seconds = i64::try_from(since_epoch.as_secs()).ok()?;
    crate::cel::eval::Timestamp::new(seconds, i64::from(since_epoch.subsec_nanos()))
}

/// One `eval` request: the policy file and the request's documents (already read).
#[derive(Clone, Debug, Default)]
pub struct EvalRequest {
    /// Path of the policy file (for messages).
    pub policy_path: String,
    /// Its text.
    pub policy_text: String,
    /// The object's YAML or JSON.
    pub object: Option<String>,
    /// The old object's YAML or JSON.
    pub old_object: Option<String>,
    /// The params' YAML or JSON (one object, or several for a `paramRef` selector).
    pub params: Option<String>,
    /// The namespace's YAML or JSON.
    pub namespace: Option<String>,
    /// The policy to evaluate when the file has several.
    pub policy: Option<String>,
    /// The binding to use.
    pub binding: Option<String>,
    /// The operation (inferred when absent).
    pub operation: Option<String>,
    /// The requesting user.
    pub user: Option<String>,
    /// The user's groups.
    pub groups: Vec<String>,
    /// Target Kubernetes version.
    pub kube_version: KubeVersion,
    /// The mocked authorizer's YAML or JSON: a list of checks with their decision (see
    /// [`suite::run::authorizer_rules`]); `None` answers every check with no opinion.
    pub authorizer: Option<String>,
    /// Files with CustomResourceDefinitions (path, text), whose schemas decode custom resources
    /// and type the apply merge; CRDs in the policy file count too.
    pub schemas: Vec<(String, String)>,
    /// Give the policy the objects exactly as written: no defaulting, pruning or server-set
    /// metadata (`eval --no-defaults`).
    pub no_defaults: bool,
    /// The data lookups of a family's policy read (Kyverno's `resource.Get`, `image.GetMetadata`…):
    /// the YAML or JSON of `eval --context FILE`.
    pub context: Option<String>,
    /// The wall-clock time library functions such as Kyverno's `time.now()` return (the front
    /// end's clock; the core reads none).
    pub now: Option<crate::cel::eval::Timestamp>,
}

fn one_document(text: Option<&String>, what: &str) -> Result<Option<Json>, String> {
    let Some(text) = text else { return Ok(None) };
    let docs = documents(text).map_err(|e| format!("{what}: {e}"))?;
    let doc = docs
        .into_iter()
        .next()
        .ok_or_else(|| format!("{what}: the file holds no document"))?;
    if str_at(&doc, &["kind"]).is_empty() || str_at(&doc, &["apiVersion"]).is_empty() {
        return Err(format!("{what}: the document has no apiVersion or kind"));
    }
    Ok(Some(doc))
}

/// Evaluates the chosen policy of `request.policy_text` when a document family (Kyverno's
/// policies…) claims it: `None` when the file holds only built-in kinds (see [`evaluate`]).
pub fn evaluate_family(request: &EvalRequest) -> Option<Result<Vec<FamilyOutcome>, String>> {
    let input = match family_input(request) {
        Ok(input) => input,
        Err(e) => {
            // Bad input matters only when a family claims the file.
            let claims = families::evaluation::evaluate_text(
                &request.policy_text,
                &request.policy_path,
                request.policy.as_deref(),
                &EvalInput::default(),
            );
            return claims.map(|_| Err(e));
        }
    };
    families::evaluation::evaluate_text(
        &request.policy_text,
        &request.policy_path,
        request.policy.as_deref(),
        &input,
    )
}

/// The request of a family evaluation: the objects as written (no defaulting), the operation,
/// the user and the namespace object.
fn family_input(request: &EvalRequest) -> Result<EvalInput, String> {
    if let Some(op) = &request.operation
        && !matches!(op.as_str(), "CREATE" | "UPDATE" | "DELETE" | "CONNECT")
    {
        return Err(format!(
            "--operation: expected CREATE, UPDATE, DELETE or CONNECT, got `{op}`"
        ));
    }
    let object = one_document(request.object.as_ref(), "--object")?;
    let old_object = one_document(request.old_object.as_ref(), "--old-object")?;
    if object.is_none() && old_object.is_none() {
        return Err("give --object or --old-object".into());
    }
    let mut req = Request::new(object, old_object, request.operation.as_deref());
    req.namespace_object = one_document(request.namespace.as_ref(), "--namespace")?;
    req.user = request.user.clone().unwrap_or_default();
    req.groups = request.groups.clone();
    let context = match &request.context {
        Some(text) => documents(text).map_err(|e| format!("--context: {e}"))?,
        None => Vec::new(),
    };
    Ok(EvalInput {
        request: req,
        context,
        context_source: request
            .context
            .as_ref()
            .map(|_| "--context FILE".to_string()),
        now: request.now,
    })
}

/// Evaluates the chosen policy of `request.policy_text`; `Err` is bad input, with a clear message.
pub fn evaluate(request: &EvalRequest) -> Result<Outcome, String> {
    if let Some(op) = &request.operation
        && !matches!(op.as_str(), "CREATE" | "UPDATE" | "DELETE" | "CONNECT")
    {
        return Err(format!(
            "--operation: expected CREATE, UPDATE, DELETE or CONNECT, got `{op}`"
        ));
    }
    if let Some(outcome) = gatekeeper_evaluate(request) {
        return outcome;
    }
    let mut world = World::load("", &[], &[], request.kube_version, &|_| Err(String::new()));
    world.add_policies(&request.policy_path, &request.policy_text);
    for (path, text) in &request.schemas {
        world
            .add_resource_text(text)
            .map_err(|e| format!("--schema {path}: {e}"))?;
    }
    if let Some(e) = world.errors.first() {
        return Err(e.clone());
    }
    let policy = choose_policy(&world, request.policy.as_deref(), &request.policy_path)?;
    let binding = world.binding(
        policy.kind,
        &policy.name,
        request.binding.as_deref(),
        "the policy file",
        false,
    )?;
    let object = one_document(request.object.as_ref(), "--object")?;
    let old_object = one_document(request.old_object.as_ref(), "--old-object")?;
    if object.is_none() && old_object.is_none() {
        return Err("give --object or --old-object".into());
    }
    let pool = match &request.params {
        Some(text) => documents(text).map_err(|e| format!("--params: {e}"))?,
        None => Vec::new(),
    };
    let by_ref = binding.is_some_and(|b| b.param_ref.is_some());
    let mut req = Request::new(object, old_object, request.operation.as_deref());
    req.namespace_object = match one_document(request.namespace.as_ref(), "--namespace")? {
        Some(namespace) => Some(namespace),
        None if !req.namespace.is_empty() => Some(apiserver::stored_namespace(
            &req.namespace,
            request.kube_version.minor(),
        )),
        None => None,
    };
    req.user = request.user.clone().unwrap_or_default();
    req.groups = request.groups.clone();
    let input = Input {
        request: req,
        params: if by_ref { None } else { pool.first().cloned() },
        param_pool: pool,
        schemas: world.schemas.clone(),
        authorizer: authorizer(request.authorizer.as_ref())?,
        ignore_matching: false,
    };
    let mut outcome =
        apiserver::evaluate(policy, binding, input, &world.crds, !request.no_defaults)?;
    if request.params.is_none() {
        let param_ref = binding.and_then(|b| b.param_ref.as_ref());
        outcome.params_note = missing_params_note(policy, param_ref);
    }
    Ok(outcome)
}

/// `eval` of a Gatekeeper ConstraintTemplate with its Constraint (`--params`), when the policy
/// file holds a template.
fn gatekeeper_evaluate(request: &EvalRequest) -> Option<Result<Outcome, String>> {
    use crate::policy::families::gatekeeper::verdict;
    if !verdict::holds_template(&request.policy_text) {
        return None;
    }
    let objects = one_document(request.object.as_ref(), "--object").and_then(|object| {
        Ok((
            object,
            one_document(request.old_object.as_ref(), "--old-object")?,
        ))
    });
    let (object, old_object) = match objects {
        Ok(objects) => objects,
        Err(e) => return Some(Err(e)),
    };
    let texts = verdict::EvalTexts {
        policy: &request.policy_text,
        params: request.params.as_deref(),
        object,
        old_object,
        operation: request.operation.as_deref(),
        minor: request.kube_version.minor(),
    };
    verdict::evaluate_texts(&texts)
}

/// What `eval` says of a policy with a `paramKind` run without `--params`: the API server
/// evaluates it with `params` null, as for a binding without `paramRef` (apiserver
/// `pkg/admission/plugin/policy/generic/policy_dispatcher.go` `CollectParams`: no paramRef → one
/// evaluation with a nil param), so an expression reading `params` fails unless it tests for null.
/// With a `paramRef`, no params object means none was found, and the binding's
/// `parameterNotFoundAction` decides (`Allow` skips, `Deny` fails).
fn missing_params_note(
    policy: &Policy,
    param_ref: Option<&crate::policy::admission::view::ParamRef>,
) -> Option<String> {
    let param_kind = policy.param_kind.as_ref()?;
    let kind = format!("{} {}", param_kind.api_version, param_kind.kind);
    Some(match param_ref {
        None => format!(
            "no --params: the policy has paramKind {kind}, so params is null, as when the binding has no paramRef; give the params object with --params FILE"
        ),
        Some(param_ref) => format!(
            "no --params: where the binding matches, no {kind} object is found for its paramRef, so its parameterNotFoundAction ({}) decides; give the params objects with --params FILE",
            param_ref.parameter_not_found_action
        ),
    })
}

/// The mocked authorizer of `eval`, from the text of its rules.
fn authorizer(
    text: Option<&String>,
) -> Result<Option<std::sync::Arc<dyn crate::cel::eval::Authorizer>>, String> {
    let Some(text) = text else { return Ok(None) };
    let docs = documents(text).map_err(|e| format!("--authorizer: {e}"))?;
    let list = docs.into_iter().next().unwrap_or(Json::Array(Vec::new()));
    let rules = suite::run::authorizer_rules(&list).map_err(|e| format!("--authorizer: {e}"))?;
    Ok(Some(suite::run::mock_authorizer(rules)))
}

fn choose_policy<'w>(
    world: &'w World,
    name: Option<&str>,
    path: &str,
) -> Result<&'w Policy, String> {
    let names: Vec<&str> = world
        .policies
        .iter()
        .map(|p| p.document.name.as_str())
        .collect();
    let chosen = match name {
        Some(n) => world.policies.iter().find(|p| p.document.name == n),
        None if world.policies.len() == 1 => world.policies.first(),
        None if names.is_empty() => {
            return Err(format!(
                "{path}: no ValidatingAdmissionPolicy or MutatingAdmissionPolicy in the file"
            ));
        }
        None => {
            return Err(format!(
                "{path} defines several policies ({}): choose one with --policy",
                names.join(", ")
            ));
        }
    };
    let chosen = chosen.ok_or_else(|| {
        format!(
            "policy '{}' not found in {path} (it defines: {})",
            name.unwrap_or(""),
            names.join(", ")
        )
    })?;
    if let Some(first) = chosen.errors.first() {
        return Err(format!("the policy has errors: {first}"));
    }
    Ok(&chosen.document)
}

/// Runs every suite in `files` (path, text); referenced files are read with `load`. A file that is
/// not a suite gives no report; one that does not parse gives a report with its error.
pub fn run_tests(files: &[(String, String)], load: Loader<'_>) -> Vec<SuiteReport> {
    run_tests_with(files, load, RunOptions::default())
}

/// [`run_tests`] with the cases `options` selects, timed by its clock: each family runs its own
/// suites (`families::suites`).
pub fn run_tests_with(
    files: &[(String, String)],
    load: Loader<'_>,
    options: RunOptions<'_>,
) -> Vec<SuiteReport> {
    files
        .iter()
        .flat_map(|(path, text)| {
            let parsed = crate::yaml::parse(text);
            families::suites::run(path, text, &parsed, load, &options)
        })
        .collect()
}

/// How the cases of a run ended: passed, failed (ran and did not meet the expectation) and
/// errored (could not run: a missing policy or object, a policy with errors).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that ran and did not meet their expectation.
    pub failed: usize,
    /// Cases that could not run.
    pub errored: usize,
}

impl Tally {
    /// The tally of `reports`.
    pub fn of(reports: &[SuiteReport]) -> Tally {
        let mut tally = Tally::default();
        for case in reports.iter().flat_map(|r| &r.cases) {
            match (case.passed, case.error.is_some()) {
                (true, _) => tally.passed += 1,
                (false, true) => tally.errored += 1,
                (false, false) => tally.failed += 1,
            }
        }
        tally
    }

    /// Every case counted.
    pub fn cases(&self) -> usize {
        self.passed + self.failed + self.errored
    }
}

/// `{"suites":[…],"summary":{"suites","cases","passed","failed","errored","durationMs"}}`; a case
/// that could not run counts as errored, not failed. A failed case whose failures compare values
/// carries them as `expected` and `actual` (`test_explorer::comparison`).
pub fn tests_json(reports: &[SuiteReport]) -> Json {
    tests_json_with(reports, &|_, _| serde_json::Map::new())
}

/// The fields a front end adds to a case's JSON (where it is: `line`, `column`, a `uri`).
pub type CasePlace<'a> = &'a dyn Fn(&SuiteReport, &CaseResult) -> serde_json::Map<String, Json>;

/// [`tests_json`] with the fields `place` gives each case.
pub fn tests_json_with(reports: &[SuiteReport], place: CasePlace<'_>) -> Json {
    let suites: Vec<Json> = reports.iter().map(|r| suite_json(r, place)).collect();
    let tally = Tally::of(reports);
    let total: std::time::Duration = reports
        .iter()
        .flat_map(|r| &r.cases)
        .map(|c| c.duration)
        .sum();
    json!({"suites": suites, "summary": {
        "suites": reports.len(), "cases": tally.cases(), "passed": tally.passed,
        "failed": tally.failed, "errored": tally.errored, "durationMs": millis(total),
    }})
}

/// Milliseconds with three decimals, as JSON reports carry them.
fn millis(duration: std::time::Duration) -> f64 {
    (duration.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

fn suite_json(report: &SuiteReport, place: CasePlace<'_>) -> Json {
    let format = super::test_explorer::format_name(report.format);
    let cases: Vec<Json> = report
        .cases
        .iter()
        .map(|c| {
            let mut case = json!({
                "name": c.name, "policy": c.policy, "passed": c.passed, "error": c.error,
                "failures": c.failures, "decision": c.outcome.as_ref().map(|o| o.decision.as_str()),
                "durationMs": millis(c.duration),
            });
            if let Some(fields) = case.as_object_mut() {
                if let Some((expected, actual)) = super::test_explorer::comparison(c) {
                    fields.insert("expected".into(), Json::String(expected));
                    fields.insert("actual".into(), Json::String(actual));
                }
                fields.extend(place(report, c));
            }
            case
        })
        .collect();
    json!({"path": report.path, "name": report.name, "format": format, "passed": report.passed(), "errors": report.errors, "cases": cases})
}

/// The `eval --format json` object.
pub fn outcome_json(outcome: &Outcome) -> Json {
    outcome.to_json()
}
