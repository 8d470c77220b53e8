//! `kyverno test` suites (`kyverno-test.yaml`, `cli.kyverno.io/v1alpha1` `Test`), judged as
//! Kyverno's CLI judges them (`cmd/cli/kubectl-kyverno/commands/test/output.go`
//! `printTestResult`, `command.go` `checkResult`, `processor/policy_processor.go`): every policy
//! is applied to every resource; a result entry names its resources by name, and for each one the
//! responses of the named policy (the policy as written and its autogen variants) give rows — a
//! rule result compared with the expected one, an unmatched response dropped when its match
//! constraints are a single plain rule (`hasSelector`) and otherwise an "excluded" row that
//! passes, and no row at all "not found", which fails. One case per (result entry, resource).
//!
//! The suite's MutatingPolicies run on each resource one after the other, each on the object the
//! previous one produced (`processor/policy_processor.go`: one `Handle` over every mutating
//! policy); a result with `patchedResources` compares the final object (`patched.rs`) on each
//! row of a mutating policy, and the resource as given on the rows of the other kinds.
//!
//! A result naming one of the suite's `targetResources` is judged on the mutate-existing
//! policies' mutations of it (`targets.rs`).
//!
//! A GeneratingPolicy's rows compare each resource it generated with the result's
//! `generatedResource` (or any of `generatedResources`) file (`generated.rs`).
//!
//! Where this tool is stricter than the CLI, on purpose: a resource name the suite does not have
//! is an error case (the CLI falls back to every resource), and so is a result naming none, a
//! policy it cannot load, a patched resource missing from its file (the CLI drops the row) or a
//! field whose data it does not supply yet (`cloneSourceResource`…).

mod generated;
pub mod model;
mod patched;
mod resources;
pub mod suites;
mod targets;
mod values;

use std::time::Duration;

use serde_json::Value as Json;

use super::eval::{self, Response, Status};
use crate::policy::admission::Request;
use crate::policy::admission::json::{documents, str_at};
use crate::policy::families::evaluation::EvalInput;
use crate::policy::suite::{CaseResult, Loader, join};
use crate::yaml::{self, Node};
use model::{Expected, TestFile};

/// A policy loaded from the suite's files.
struct LoadedPolicy {
    name: String,
    kind: String,
    /// The document's text, parsed again for each evaluation (the tree is not kept).
    text: String,
    index: usize,
}

/// What a suite run gives: its name, the problems with its files, its cases.
pub struct SuiteRun {
    /// The Test's name.
    pub name: String,
    /// Files that could not be read.
    pub errors: Vec<String>,
    /// The cases.
    pub cases: Vec<CaseResult>,
}

/// How a run is driven: which cases run (by case name) and the caller's clock.
pub struct Hooks<'a> {
    /// Whether the case of this name runs.
    pub select: &'a dyn Fn(&str) -> bool,
    /// The time since some fixed instant.
    pub clock: &'a dyn Fn() -> Duration,
    /// The wall-clock time `time.now()` returns; `None`: no clock.
    pub now: Option<crate::cel::eval::Timestamp>,
    /// The Kyverno release the suite runs as; `None`: the newest.
    pub kyverno_version: Option<super::KyvernoVersion>,
}

/// The Test documents of a YAML text.
pub fn tests(file: &yaml::YamlFile) -> Vec<TestFile> {
    file.documents
        .iter()
        .filter_map(|d| d.root.as_ref())
        .filter(|root| model::is_test(root))
        .map(model::read)
        .collect()
}

/// Whether `text` holds a Kyverno CLI Test document.
pub fn holds_test(file: &yaml::YamlFile) -> bool {
    file.documents
        .iter()
        .filter_map(|d| d.root.as_ref())
        .any(model::is_test)
}

/// Runs `test` (read from `path`), loading its files with `load`.
pub fn run(path: &str, test: &TestFile, load: Loader<'_>, hooks: &Hooks<'_>) -> SuiteRun {
    let mut errors = Vec::new();
    let policies = load_policies(path, &test.policies, load, &mut errors);
    let resources = load_resources(path, &test.resources, load, &mut errors);
    let targets = load_resources(path, &test.target_resources, load, &mut errors);
    let mut values = load_values(path, test, load, &mut errors);
    values.now = hooks.now;
    // The CLI registers the targets with its fake context, where the lookups find them.
    if !targets.is_empty() {
        values.context.extend(targets.iter().cloned());
        values
            .context_source
            .get_or_insert_with(|| "the suite's targetResources".to_string());
    }
    let unsupported: Vec<String> = test.unsupported.iter().map(|f| f.to_string()).collect();
    values
        .context
        .extend(load_exceptions(path, &test.exceptions, load, &mut errors));
    if let Some(external) = &test.external {
        errors.extend(eval::external_data_problem(external));
        let external = with_resource_files(path, external, load, &mut errors);
        values.context.push(external);
    }
    let compared_files = load_compared(path, test, load);
    let mut cases = Vec::new();
    for expected in &test.results {
        if expected.resources.is_empty() {
            // Never a silent pass: the CLI judges such a result on every resource and payload.
            let name = case_name(expected, "(every resource)");
            if (hooks.select)(&name) {
                let mut case = errored(expected, no_resources(&unsupported, expected));
                case.name = name;
                cases.push(case);
            }
            continue;
        }
        for resource in &expected.resources {
            let name = case_name(expected, resource);
            if !(hooks.select)(&name) {
                continue;
            }
            let start = (hooks.clock)();
            let world = Suite {
                policies: &policies,
                resources: &resources,
                targets: &targets,
                values: &values,
                unsupported: &unsupported,
                compared: &compared_files,
                kyverno_version: hooks.kyverno_version,
            };
            let mut case = judge(expected, resource, &world);
            case.name = name;
            case.duration = (hooks.clock)().saturating_sub(start);
            cases.push(case);
        }
    }
    SuiteRun {
        name: test.name.clone(),
        errors,
        cases,
    }
}

/// Why a result that names no resources is an error case.
fn no_resources(unsupported: &[String], expected: &Expected) -> String {
    let mut fields: Vec<String> = unsupported.to_vec();
    fields.extend(expected.unsupported.iter().map(|f| f.to_string()));
    if fields.is_empty() {
        "the result names no resources: Kyverno's CLI judges it on every resource, which admission-ls does not do yet (name them in `resources`)".to_string()
    } else {
        format!(
            "the suite uses {}, which admission-ls does not run yet",
            fields.join(", ")
        )
    }
}

/// `policy kind/resource: result`.
/// The cases `run` makes of `test`, by name, each at its `results` entry (what an editor lists
/// before anything runs).
pub fn case_list(test: &TestFile) -> Vec<(String, crate::text::TextRange)> {
    test.results
        .iter()
        .flat_map(|expected| {
            expected
                .resources
                .iter()
                .map(|resource| (case_name(expected, resource), expected.range))
        })
        .collect()
}

fn case_name(expected: &Expected, resource: &str) -> String {
    let kind = if expected.kind.is_empty() {
        String::new()
    } else {
        format!("{}/", expected.kind)
    };
    format!("{} {kind}{resource}: {}", expected.policy, expected.result)
}

fn load_policies(
    path: &str,
    files: &[String],
    load: Loader<'_>,
    errors: &mut Vec<String>,
) -> Vec<LoadedPolicy> {
    let mut out = Vec::new();
    for file in files {
        let text = match load(&join(path, file)) {
            Ok(text) => text,
            Err(e) => {
                errors.push(format!("cannot read policy file {file}: {e}"));
                continue;
            }
        };
        let parsed = yaml::parse(&text);
        if let Some(e) = parsed.errors.first() {
            errors.push(format!("{file}: YAML syntax error: {}", e.message));
            continue;
        }
        for (index, root) in parsed
            .documents
            .iter()
            .enumerate()
            .filter_map(|(i, d)| Some((i, d.root.as_ref()?)))
        {
            let kind = root.get("kind").and_then(Node::as_str).unwrap_or("");
            let name = root
                .get("metadata")
                .and_then(|m| m.get("name"))
                .and_then(Node::as_str)
                .unwrap_or("");
            out.push(LoadedPolicy {
                name: name.to_string(),
                kind: kind.to_string(),
                text: text.clone(),
                index,
            });
        }
    }
    out
}

fn load_resources(
    path: &str,
    files: &[String],
    load: Loader<'_>,
    errors: &mut Vec<String>,
) -> Vec<Json> {
    let objects = load_objects(path, files, load, errors, "resource");
    objects.into_iter().map(resources::prepare).collect()
}

/// The objects of the documents of `files` (relative to the suite at `path`); a file that cannot
/// be read is an error naming it as a `what` file.
fn load_objects(
    path: &str,
    files: &[String],
    load: Loader<'_>,
    errors: &mut Vec<String>,
    what: &str,
) -> Vec<Json> {
    let mut out = Vec::new();
    for file in files {
        match load(&join(path, file)).and_then(|text| documents(&text)) {
            Ok(docs) => out.extend(docs.into_iter().filter(Json::is_object)),
            Err(e) => errors.push(format!("cannot read {what} file {file}: {e}")),
        }
    }
    out
}

/// The suite's recorded answers with each global context entry's `resourceFiles` read into its
/// `resources`, relative to the suite (`store.ResolveGCEResourceFiles`).
fn with_resource_files(
    path: &str,
    external: &Json,
    load: Loader<'_>,
    errors: &mut Vec<String>,
) -> Json {
    let mut out = external.clone();
    let Some(Json::Array(entries)) = out.get_mut("globalContextEntries") else {
        return out;
    };
    for entry in entries.iter_mut() {
        let Some(Json::Array(files)) = entry.get("resourceFiles") else {
            continue;
        };
        let files: Vec<String> = files
            .iter()
            .filter_map(Json::as_str)
            .map(String::from)
            .collect();
        let mut resources = Vec::new();
        for file in &files {
            match load(&join(path, file)).and_then(|text| documents(&text)) {
                Ok(docs) => resources.extend(docs.into_iter().filter(Json::is_object)),
                Err(e) => errors.push(format!("cannot read globalContextEntries file {file}: {e}")),
            }
        }
        if let Some(object) = entry.as_object_mut() {
            object.insert("resources".into(), Json::Array(resources));
        }
    }
    out
}

/// The documents of the suite's `exceptions` files; the evaluation applies the CEL
/// PolicyExceptions among them to the policies they name.
fn load_exceptions(
    path: &str,
    files: &[String],
    load: Loader<'_>,
    errors: &mut Vec<String>,
) -> Vec<Json> {
    load_objects(path, files, load, errors, "exception")
}

/// What every case of a suite draws from.
struct Suite<'s> {
    policies: &'s [LoadedPolicy],
    resources: &'s [Json],
    /// `targetResources`: the existing objects mutate-existing policies mutate.
    targets: &'s [Json],
    values: &'s values::Values,
    unsupported: &'s [String],
    /// Each `patchedResources` and `generatedResource(s)` file's resources (or why it could not
    /// be read).
    compared: &'s [(String, Result<Vec<Json>, String>)],
    /// The Kyverno release the suite runs as.
    kyverno_version: Option<super::KyvernoVersion>,
}

impl Suite<'_> {
    /// The resources of a compared file (`None` for no file named).
    fn compared(&self, file: &str) -> Option<Result<&[Json], String>> {
        if file.is_empty() {
            return None;
        }
        self.compared
            .iter()
            .find(|(f, _)| f == file)
            .map(|(_, docs)| docs.as_deref().map_err(String::clone))
    }
}

/// The files the results compare resources with (`patchedResources`, `generatedResource`,
/// `generatedResources`), read as resources are.
fn load_compared(
    path: &str,
    test: &TestFile,
    load: Loader<'_>,
) -> Vec<(String, Result<Vec<Json>, String>)> {
    let mut out: Vec<(String, Result<Vec<Json>, String>)> = Vec::new();
    let named = test.results.iter().flat_map(|r| {
        [
            ("patchedResources", &r.patched_resources),
            ("generatedResource", &r.generated_resource),
        ]
        .into_iter()
        .chain(
            r.generated_resources
                .iter()
                .map(|f| ("generatedResources", f)),
        )
    });
    for (field, file) in named {
        if file.is_empty() || out.iter().any(|(f, _)| f == file) {
            continue;
        }
        let docs = load(&join(path, file))
            .and_then(|text| documents(&text))
            .map(|docs| {
                docs.into_iter()
                    .filter(Json::is_object)
                    .map(resources::prepare)
                    .collect()
            })
            .map_err(|e| format!("cannot read {field} file {file}: {e}"));
        out.push((file.clone(), docs));
    }
    out
}

/// The suite's values and user info files (`variables`, `userinfo`).
fn load_values(
    path: &str,
    test: &TestFile,
    load: Loader<'_>,
    errors: &mut Vec<String>,
) -> values::Values {
    let mut out = values::Values::default();
    if let Some(doc) = first_document(path, &test.variables, "variables", load, errors)
        && let Err(e) = out.read_values(&doc)
    {
        errors.push(format!("{}: {e}", test.variables));
    }
    if let Some(doc) = first_document(path, &test.userinfo, "userinfo", load, errors) {
        out.read_user_info(&doc);
    }
    if !test.context.is_empty() {
        match load(&join(path, &test.context)).and_then(|text| documents(&text)) {
            Ok(docs) => {
                out.context = docs;
                out.context_source = Some(format!("the suite's context file {}", test.context));
            }
            Err(e) => errors.push(format!("cannot read context file {}: {e}", test.context)),
        }
    }
    out
}

/// The first document of the file the suite names in its field `what` (none when unnamed).
fn first_document(
    path: &str,
    file: &str,
    what: &str,
    load: Loader<'_>,
    errors: &mut Vec<String>,
) -> Option<Json> {
    if file.is_empty() {
        return None;
    }
    match load(&join(path, file)).and_then(|text| documents(&text)) {
        Ok(docs) => docs.into_iter().next(),
        Err(e) => {
            errors.push(format!("cannot read {what} file {file}: {e}"));
            None
        }
    }
}

/// The resources a result names: `name` matches the last part of the resource's key,
/// `namespace/name` the last two (`printTestResult`).
fn named<'r>(resources: &'r [Json], wanted: &str) -> Vec<&'r Json> {
    let (namespace, name) = match wanted.split_once('/') {
        Some((ns, name)) => (Some(ns), name),
        None => (None, wanted),
    };
    resources
        .iter()
        .filter(|r| str_at(r, &["metadata", "name"]) == name)
        .filter(|r| namespace.is_none_or(|ns| str_at(r, &["metadata", "namespace"]) == ns))
        .collect()
}

fn errored(expected: &Expected, message: String) -> CaseResult {
    CaseResult {
        name: String::new(),
        range: expected.range,
        policy: expected.policy.clone(),
        passed: false,
        error: Some(message),
        failures: Vec::new(),
        outcome: None,
        duration: Duration::ZERO,
    }
}

/// One case: the named policy on every resource of that name.
fn judge(expected: &Expected, resource: &str, suite: &Suite<'_>) -> CaseResult {
    let (policies, resources) = (suite.policies, suite.resources);
    let mut fields: Vec<String> = suite.unsupported.to_vec();
    fields.extend(expected.unsupported.iter().map(|f| f.to_string()));
    if !fields.is_empty() {
        return errored(
            expected,
            format!(
                "the suite uses {}, which admission-ls does not run yet",
                fields.join(", ")
            ),
        );
    }
    let policy_name = expected.policy.rsplit('/').next().unwrap_or("");
    let Some(policy) = policies.iter().find(|p| p.name == policy_name) else {
        return errored(
            expected,
            format!("policy '{policy_name}' is not among the suite's policies"),
        );
    };
    if let Some(message) = refused(policy, suite.kyverno_version) {
        return errored(expected, message);
    }
    let targets = named(resources, resource);
    if targets.is_empty() && !named(suite.targets, resource).is_empty() {
        return targets::judge(expected, resource, suite);
    }
    if targets.is_empty() {
        return errored(
            expected,
            format!("resource '{resource}' is not among the suite's resources"),
        );
    }
    let expected_patched = match suite.compared(&expected.patched_resources) {
        None => None,
        Some(Ok(docs)) => Some(docs),
        Some(Err(e)) => return errored(expected, e),
    };
    let mut failures = Vec::new();
    for target in targets {
        let run = match run_policy(policy, target, suite) {
            Err(e) => return errored(expected, e),
            Ok(run) => run,
        };
        if let Some(call) = unavailable(expected, &run.responses) {
            return errored(expected, format!("not evaluated offline: {call}"));
        }
        failures.extend(compare(expected, target, &run.responses));
        if is_generating(&policy.kind) {
            match generated::check(expected, &run.responses, suite) {
                Ok(diffs) => failures.extend(diffs),
                Err(e) => return errored(expected, e),
            }
            continue;
        }
        if run.responses.iter().any(|r| r.status.is_some()) {
            match generated::against_generated(expected, &run.resource, suite) {
                Ok(None) => {}
                Ok(Some(diff)) => failures.push(diff),
                Err(e) => return errored(expected, e),
            }
        }
        if let Some(docs) = expected_patched
            && run.responses.iter().any(|r| r.status.is_some())
        {
            let field = patched::Field::Patched;
            match patched::compare(&run.resource, docs, &expected.patched_resources, field) {
                Ok(None) => {}
                Ok(Some(diff)) => failures.push(diff),
                // `printTestResult`: the row fails only under failOnMissingResources.
                Err(e) if expected.fail_on_missing => failures.push(e),
                Err(e) => {
                    return errored(
                        expected,
                        format!(
                            "{e} (Kyverno's CLI drops this row unless failOnMissingResources is set)"
                        ),
                    );
                }
            }
        }
    }
    judged(expected, failures)
}

/// The result of the row `expected` that ran, failing with `failures` (passing without any).
fn judged(expected: &Expected, failures: Vec<String>) -> CaseResult {
    CaseResult {
        name: String::new(),
        range: expected.range,
        policy: expected.policy.clone(),
        passed: failures.is_empty(),
        error: None,
        failures,
        outcome: None,
        duration: Duration::ZERO,
    }
}

/// The lookup without data that made a response an error, unless the row expects an error
/// (Kyverno's CLI, reading the same suite, has no data for it either).
fn unavailable(expected: &Expected, responses: &[Response]) -> Option<String> {
    if expected.result == "error" {
        return None;
    }
    responses.iter().find_map(|r| r.unavailable.clone())
}

/// Why the chosen Kyverno release would not compile `policy`: the calls of later functions.
fn refused(policy: &LoadedPolicy, version: Option<super::KyvernoVersion>) -> Option<String> {
    let version = version?;
    let parsed = yaml::parse(&policy.text);
    let root = parsed.documents.get(policy.index)?.root.as_ref()?;
    let refusals = super::version_refusals(root, version);
    if refusals.is_empty() {
        return None;
    }
    let reasons: Vec<String> = refusals.into_iter().map(|d| d.message).collect();
    Some(format!(
        "policy '{}' does not compile for Kyverno {version}: {}",
        policy.name,
        reasons.join("; ")
    ))
}

/// A policy's responses to a resource and the resource its rows are compared with.
struct PolicyRun {
    responses: Vec<Response>,
    /// The object after every mutating policy of the suite for a mutating policy, the resource
    /// as given for the other kinds.
    resource: Json,
}

fn is_mutating(kind: &str) -> bool {
    matches!(kind, "MutatingPolicy" | "NamespacedMutatingPolicy")
}

fn is_generating(kind: &str) -> bool {
    matches!(kind, "GeneratingPolicy" | "NamespacedGeneratingPolicy")
}

/// `policy` on `resource`; a mutating policy runs in the chain of the suite's mutating policies.
fn run_policy(
    policy: &LoadedPolicy,
    resource: &Json,
    suite: &Suite<'_>,
) -> Result<PolicyRun, String> {
    if !is_mutating(&policy.kind) {
        return Ok(PolicyRun {
            responses: responses(policy, resource, suite.values)?,
            resource: resource.clone(),
        });
    }
    let mut current = resource.clone();
    let mut mine = Vec::new();
    for other in suite.policies.iter().filter(|p| is_mutating(&p.kind)) {
        let answered = responses(other, &current, suite.values)?;
        if let Some(object) = answered.iter().find_map(|r| r.patched.clone()) {
            current = object;
        }
        if std::ptr::eq(other, policy) {
            mine = answered;
        }
    }
    Ok(PolicyRun {
        responses: mine,
        resource: current,
    })
}

/// The policy's responses to a request for `resource`: a CREATE unless the values set the
/// operation (`AdmissionRequestShape`: UPDATE has the resource as both objects, DELETE as the
/// old one), with the values' user and namespace.
fn responses(
    policy: &LoadedPolicy,
    resource: &Json,
    values: &values::Values,
) -> Result<Vec<Response>, String> {
    with_root(policy, |root| {
        eval::admission(root, &policy.kind, &input_for(resource, values))
    })
}

/// The evaluation input of a request for `resource`: a CREATE unless the values set the
/// operation (`AdmissionRequestShape`: UPDATE has the resource as both objects, DELETE as the
/// old one), with the values' user, namespace and context, and as a subresource request when
/// the values say the resource's kind is a subresource's.
fn input_for(resource: &Json, values: &values::Values) -> EvalInput {
    let operation = values.operation.as_deref().unwrap_or("CREATE");
    let (object, old_object) = match operation {
        "UPDATE" => (Some(resource.clone()), Some(resource.clone())),
        "DELETE" => (None, Some(resource.clone())),
        _ => (Some(resource.clone()), None),
    };
    let mut request = Request::new(object, old_object, Some(operation));
    values.as_subresource(&mut request);
    request.namespace_object = values.namespace(&request.namespace).cloned();
    request.user = values.user.clone();
    request.groups = values.groups.clone();
    EvalInput {
        request,
        context: values.context.clone(),
        context_source: values.context_source.clone(),
        now: values.now,
    }
}

/// The suite's policy parsed again: its root, or why it could not be read.
fn with_root<T>(
    policy: &LoadedPolicy,
    then: impl FnOnce(&Node) -> Result<T, String>,
) -> Result<T, String> {
    let parsed = yaml::parse(&policy.text);
    let root = parsed
        .documents
        .get(policy.index)
        .and_then(|d| d.root.as_ref())
        .ok_or_else(|| format!("policy '{}' could not be read again", policy.name))?;
    then(root)
}

/// The rows of one resource, as readable failures (none when every row passes).
fn compare(expected: &Expected, resource: &Json, responses: &[Response]) -> Vec<String> {
    let what = format!(
        "{}/{}",
        str_at(resource, &["kind"]),
        str_at(resource, &["metadata", "name"])
    );
    let mut rows = 0;
    let mut failures = Vec::new();
    for response in responses {
        match response.status {
            Some(status) => {
                rows += 1;
                if status.as_str() != expected.result {
                    failures.push(mismatch(expected, &what, response, status));
                }
            }
            // An unmatched response the CLI keeps gives an "excluded" row, which passes.
            None if !response.has_selector && rows == 0 => rows += 1,
            None => {}
        }
    }
    if rows == 0 {
        failures.push(format!(
            "{what}: not found: the policy does not apply to it (want {})",
            expected.result
        ));
    }
    failures
}

fn mismatch(expected: &Expected, what: &str, response: &Response, status: Status) -> String {
    let variant = response
        .outcome
        .variant
        .as_deref()
        .map(|v| format!(" ({v})"))
        .unwrap_or_default();
    let message = response
        .outcome
        .message
        .as_deref()
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    let mut out = format!(
        "{what}{variant}: want {}, got {}{message}",
        expected.result,
        status.as_str()
    );
    // Under `test -v` the response keeps its expressions' traces: they say why.
    let why = crate::policy::admission::explain::render_text(&response.outcome.explained, "");
    if !why.is_empty() {
        out.push('\n');
        out.push_str(why.trim_end());
    }
    out
}
