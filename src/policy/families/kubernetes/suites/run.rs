//! Running a suite's cases: each case resolves its policy, binding and objects in the suite's
//! world, is evaluated, and is compared with its expectation. A case that cannot run (a missing
//! policy or object, a policy with errors) fails with a message naming what is missing; the other
//! cases still run.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value as Json;

use crate::cel::eval::{Authorizer, AuthzDecision, AuthzRequest};
use crate::policy::PolicyKind;
use crate::policy::admission::json::{at, str_at};
use crate::policy::admission::view::{Binding, Policy};
use crate::policy::admission::{Decision, Input, Outcome, Request};
use crate::policy::apiserver;
use crate::policy::suite::diff::json_diff;
use crate::policy::suite::model::{AuthzRule, Case, Source, Suite};
use crate::policy::suite::world::{Loader, World};
use crate::policy::suite::{CaseResult, Format, RunHooks};

/// The key under which `Audit` failures are published.
const FAILURE_KEY: &str = "validation.policy.admission.k8s.io/validation_failure";

/// Runs every case of `suite` (read from `path`).
pub fn run_suite(path: &str, suite: &Suite, load: Loader<'_>) -> (Vec<String>, Vec<CaseResult>) {
    run_suite_with(path, suite, load, RunHooks::default())
}

/// Runs the cases of `suite` that `hooks` selects, timing each with its clock.
pub fn run_suite_with(
    path: &str,
    suite: &Suite,
    load: Loader<'_>,
    hooks: RunHooks<'_>,
) -> (Vec<String>, Vec<CaseResult>) {
    if suite.format == Format::Gator {
        return crate::policy::suite::gator::run(path, suite, load, hooks);
    }
    let version = match &suite.kube_version {
        Ok(version) => *version,
        Err(problem) => return (vec![problem.clone()], Vec::new()),
    };
    let world = World::load(
        path,
        &suite.policy_files,
        &suite.resource_files,
        version,
        load,
    );
    let kaptest = suite.format == Format::Kaptest;
    let results = suite
        .cases
        .iter()
        .filter(|case| (hooks.select)(path, suite, case))
        .map(|case| {
            let start = (hooks.clock)();
            let result = run_case(&world, case, kaptest, suite.defaults);
            CaseResult {
                duration: (hooks.clock)().saturating_sub(start),
                ..result
            }
        })
        .collect();
    let mut errors = suite.errors.clone();
    errors.extend(world.errors);
    (errors, results)
}

fn errored(case: &Case, policy: &str, error: String) -> CaseResult {
    CaseResult {
        name: case.name.clone(),
        range: case.range,
        policy: policy.to_string(),
        passed: false,
        error: Some(error),
        failures: Vec::new(),
        outcome: None,
        duration: Duration::ZERO,
    }
}

/// Runs one case; with `defaults`, its objects (and its expected object) are prepared as the API
/// server prepares them ([`apiserver::evaluate`]).
pub fn run_case(world: &World, case: &Case, kaptest: bool, defaults: bool) -> CaseResult {
    if let Some(valid) = case.expect.valid {
        return run_resource_case(world, case, valid);
    }
    if case.expect.decision.is_empty() {
        // `expect: {}` (or no `expect`) checks nothing: passing it would report a test that
        // tests nothing as ok.
        let error = "the case expects nothing: it names no expected decision (nor, for a custom \
                     resource, `valid`), so it would pass whatever the policy does";
        return errored(case, &case.policy, error.to_owned());
    }
    match prepare(world, case, kaptest) {
        Err(e) => errored(case, &case.policy, e),
        Ok((policy, binding, input)) => {
            let operation = input.request.operation.clone();
            let minor = input.schemas.minor();
            let mut expected = match expected_object(world, case, &input) {
                Ok(expected) => expected,
                Err(e) => return errored(case, &case.policy, e),
            };
            let outcome = match apiserver::evaluate(policy, binding, input, &world.crds, defaults) {
                Ok(outcome) => outcome,
                Err(e) => return errored(case, &case.policy, e),
            };
            if defaults && let Some(object) = expected.as_mut() {
                apiserver::prepare_expected(object, &operation, &world.crds, minor);
            }
            let failures = compare(case, expected.as_ref(), &outcome);
            CaseResult {
                name: case.name.clone(),
                range: case.range,
                policy: outcome.policy.clone(),
                passed: failures.is_empty(),
                error: None,
                failures,
                outcome: Some(outcome),
                duration: Duration::ZERO,
            }
        }
    }
}

/// A custom-resource case: its object (and old object, an update) validated against the suite's
/// CRDs as the API server validates it ([`crate::policy::families::crd_rules::validate_custom_resource`]),
/// then compared with `expect.valid` and `expect.errors`.
fn run_resource_case(world: &World, case: &Case, valid: bool) -> CaseResult {
    let checked = resolve(world, case.object.as_ref(), "object").and_then(|object| {
        let object = object.ok_or("a custom-resource case needs an object")?;
        let old = resolve(world, case.old_object.as_ref(), "oldObject")?;
        let api_version = str_at(&object, &["apiVersion"]);
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        let gvk = crate::schema::Gvk::new(group, version, str_at(&object, &["kind"]));
        let kind = world.crds.iter().find(|k| k.gvk == gvk).ok_or_else(|| {
            format!("no CustomResourceDefinition in the suite's resources serves {gvk}")
        })?;
        let minor = world.schemas.minor();
        // Under `test -v` (a capture), with the traces of the rules it evaluated.
        Ok(crate::policy::admission::explain::traced(|| {
            crate::policy::families::crd_rules::validate_custom_resource(
                kind,
                &object,
                old.as_ref(),
                minor,
            )
        }))
    });
    let (checked, explained) = match checked {
        Ok(checked) => checked,
        Err(e) => return errored(case, "", e),
    };
    let messages: Vec<String> = checked.errors.iter().map(|e| e.message.clone()).collect();
    let mut failures = Vec::new();
    if messages.is_empty() != valid {
        let got = if messages.is_empty() {
            "valid".to_string()
        } else {
            format!("invalid: {}", messages.join("; "))
        };
        failures.push(format!(
            "expected {}, got {got}",
            if valid { "valid" } else { "invalid" }
        ));
    }
    if let Some(expected) = &case.expect.errors
        && *expected != messages
    {
        failures.push(format!("errors: expected {expected:?}, got {messages:?}"));
    }
    // The traces say why, under the mismatch (as a Kyverno CLI row's do).
    let why = crate::policy::admission::explain::render_text(&explained, "");
    if let (Some(last), false) = (failures.last_mut(), why.is_empty()) {
        last.push('\n');
        last.push_str(why.trim_end());
    }
    CaseResult {
        name: case.name.clone(),
        range: case.range,
        policy: String::new(),
        passed: failures.is_empty(),
        error: None,
        failures,
        outcome: None,
        duration: Duration::ZERO,
    }
}

type Prepared<'w> = (&'w Policy, Option<&'w Binding>, Input);

fn prepare<'w>(world: &'w World, case: &Case, kaptest: bool) -> Result<Prepared<'w>, String> {
    let policy = find_policy(world, &case.policy, case.policy_kind, kaptest)?;
    let files = "the suite's policy files";
    let chosen = case.binding.as_deref();
    let binding = world.binding(policy.kind, &policy.name, chosen, files, kaptest)?;
    let object = resolve(world, case.object.as_ref(), "object")?;
    let old_object = resolve(world, case.old_object.as_ref(), "oldObject")?;
    if object.is_none() && old_object.is_none() {
        return Err("the case gives neither object nor oldObject".into());
    }
    for o in object.iter().chain(old_object.iter()) {
        if str_at(o, &["kind"]).is_empty() || str_at(o, &["apiVersion"]).is_empty() {
            return Err("the object has no apiVersion or kind".into());
        }
    }
    let params = match &case.params {
        Some(Source::Ref {
            kind,
            name,
            namespace,
            ..
        }) if kind.is_empty() => {
            let param_kind = policy.param_kind.as_ref().map(|k| k.kind.clone());
            let reference = Source::Ref {
                group: None,
                version: None,
                kind: param_kind.unwrap_or_default(),
                name: name.clone(),
                namespace: namespace.clone(),
            };
            resolve(world, Some(&reference), "param")?
        }
        other => resolve(world, other.as_ref(), "params")?,
    };
    let mut request = Request::new(object, old_object, case.operation.as_deref());
    request.namespace_object = match &case.namespace {
        Some(source) => resolve(world, Some(source), "namespace")?,
        None => find(world, "Namespace", &request.namespace, "")
            .cloned()
            .or_else(|| kaptest_namespace(kaptest, &request.namespace))
            .or_else(|| {
                let minor = world.schemas.minor();
                (!request.namespace.is_empty())
                    .then(|| apiserver::stored_namespace(&request.namespace, minor))
            }),
    };
    request.user = case.user.clone();
    request.groups = case.groups.clone();
    let authorizer: Option<Arc<dyn Authorizer>> =
        (!case.authorizer.is_empty()).then(|| mock_authorizer(case.authorizer.clone()));
    let input = Input {
        request,
        params,
        param_pool: world.resources.clone(),
        schemas: world.schemas.clone(),
        authorizer,
        ignore_matching: kaptest,
    };
    Ok((policy, binding, input))
}

/// The named policy; kaptest runs policies the API server would reject (`lenient`), as kaptest does.
fn find_policy<'w>(
    world: &'w World,
    name: &str,
    kind: Option<PolicyKind>,
    lenient: bool,
) -> Result<&'w Policy, String> {
    let found: Vec<_> = world
        .policies
        .iter()
        .filter(|p| name.is_empty() || p.document.name == name)
        .filter(|p| kind.is_none_or(|k| p.document.kind == k))
        .collect();
    match found.as_slice() {
        [one] if lenient || one.errors.is_empty() => Ok(&one.document),
        [one] => Err(format!(
            "policy '{name}' has errors: {}",
            one.errors.join("; ")
        )),
        [] if name.is_empty() => Err("the suite's files define no policy".into()),
        [] => Err(format!(
            "policy '{name}' not found in the suite's policy files"
        )),
        _ if name.is_empty() => {
            Err("the suite defines several policies: name one with `policy:`".into())
        }
        _ => Err(format!("policy '{name}' is defined more than once")),
    }
}

/// kaptest gives a request whose namespace is not among the resources an empty Namespace of that
/// name (pfnet/kaptest `internal/tester/tester.go`, `getNamespaceObj`).
fn kaptest_namespace(kaptest: bool, namespace: &str) -> Option<Json> {
    (kaptest && !namespace.is_empty()).then(|| {
        serde_json::json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}})
    })
}

fn find<'w>(world: &'w World, kind: &str, name: &str, namespace: &str) -> Option<&'w Json> {
    find_gvk(world, None, None, kind, name, namespace)
}

/// The first resource with this name and (when given) kind, namespace, API group and version.
fn find_gvk<'w>(
    world: &'w World,
    group: Option<&str>,
    version: Option<&str>,
    kind: &str,
    name: &str,
    namespace: &str,
) -> Option<&'w Json> {
    world.resources.iter().find(|r| {
        let api_version = str_at(r, &["apiVersion"]);
        let (r_group, r_version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        (kind.is_empty() || str_at(r, &["kind"]) == kind)
            && str_at(r, &["metadata", "name"]) == name
            && (namespace.is_empty() || str_at(r, &["metadata", "namespace"]) == namespace)
            && group.is_none_or(|g| g == r_group)
            && version.is_none_or(|v| v == r_version)
    })
}

/// The mutated object the case expects: inline, or (kaptest's `expectObject`) a resource that takes
/// the request object's name unless `disableNameOverwrite` (pfnet/kaptest `newMutationParams`).
fn expected_object(world: &World, case: &Case, input: &Input) -> Result<Option<Json>, String> {
    if let Some(object) = &case.expect.object {
        return Ok(Some(object.clone()));
    }
    let Some(mut expected) = resolve(world, case.expect.object_ref.as_ref(), "expectObject")?
    else {
        return Ok(None);
    };
    let name = input
        .request
        .object
        .as_ref()
        .map(|o| str_at(o, &["metadata", "name"]).to_string());
    if case.expect.rename_expected
        && let (Some(name), Some(metadata)) = (name, expected.get_mut("metadata"))
        && let Some(metadata) = metadata.as_object_mut()
    {
        metadata.insert("name".into(), Json::String(name));
    }
    Ok(Some(expected))
}

fn resolve(world: &World, source: Option<&Source>, role: &str) -> Result<Option<Json>, String> {
    match source {
        None => Ok(None),
        Some(Source::Inline(json)) => Ok(Some(json.clone())),
        Some(Source::Ref {
            group,
            version,
            kind,
            name,
            namespace,
        }) => find_gvk(
            world,
            group.as_deref(),
            version.as_deref(),
            kind,
            name,
            namespace,
        )
        .cloned()
        .map(Some)
        .ok_or_else(|| {
            let at = if namespace.is_empty() {
                String::new()
            } else {
                format!(" in namespace {namespace}")
            };
            format!("{role} {kind}/{name}{at} not found in the suite's resources")
        }),
    }
}

/// What did not match, as readable lines.
fn compare(case: &Case, expected_object: Option<&Json>, outcome: &Outcome) -> Vec<String> {
    let expect = &case.expect;
    let mut failures = Vec::new();
    let failed_audit = outcome.audit_annotations.contains_key(FAILURE_KEY);
    let decision_ok = match expect.decision.as_str() {
        "warn" => outcome.decision == Decision::Allow && !outcome.warnings.is_empty(),
        "audit" => outcome.decision == Decision::Allow && failed_audit,
        // kaptest's `mutate`: the policy applied; the object is compared below.
        "mutate" => outcome.decision == Decision::Allow,
        other => outcome.decision.as_str() == other,
    };
    if !decision_ok {
        let mut line = format!(
            "expected {}, got {}",
            expect.decision,
            outcome.decision.as_str()
        );
        if let Some(m) = outcome.messages.first() {
            line.push_str(&format!(": {m}"));
        }
        failures.push(line);
    }
    if let Some(message) = &expect.message {
        let actual = outcome.messages.first().map_or("(none)", String::as_str);
        if actual != message {
            failures.push(format!(
                "message:\n  - expected: {message}\n  + actual:   {actual}"
            ));
        }
    }
    if let Some(denied) = &expect.denied_message {
        let failed: Vec<&str> = outcome
            .validations
            .iter()
            .filter_map(|v| v.message.as_deref())
            .collect();
        if !failed.contains(&denied.as_str()) {
            failures.push(format!(
                "deniedMessage:\n  - expected: {denied}\n  + actual:   {}",
                if failed.is_empty() {
                    "(none)".to_string()
                } else {
                    failed.join(" | ")
                }
            ));
        }
    }
    if let Some(warnings) = &expect.warnings
        && *warnings != outcome.warnings
    {
        failures.push(format!(
            "warnings:\n  - expected: {warnings:?}\n  + actual:   {:?}",
            outcome.warnings
        ));
    }
    for (key, value) in expect.audit_annotations.iter().flatten() {
        let want = value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string);
        match outcome.audit_annotations.get(key) {
            Some(actual) if *actual == want => {}
            actual => failures.push(format!(
                "auditAnnotations[{key}]:\n  - expected: {want}\n  + actual:   {}",
                actual.map_or("(absent)", String::as_str)
            )),
        }
    }
    if let Some(expected) = expected_object {
        let actual = outcome.object.clone().unwrap_or(Json::Null);
        if *expected != actual {
            failures.push(format!(
                "object (- expected, + actual):\n{}",
                json_diff(expected, &actual).join("\n")
            ));
        }
    }
    failures
}

/// The authorizer a case's (or `eval --authorizer`'s) rules describe.
pub fn mock_authorizer(rules: Vec<AuthzRule>) -> Arc<dyn Authorizer> {
    Arc::new(Mock(rules))
}

/// The rules of an authorizer file: a list of checks with their `decision` (`allow`, `deny` or
/// `noOpinion`); `verb`, `resource`, `group`, `namespace`, `name`, `subresource` and `path` select
/// the checks a rule answers (absent: any). `Err` names the first entry that is not one.
pub fn authorizer_rules(document: &Json) -> Result<Vec<AuthzRule>, String> {
    let entries = document
        .as_array()
        .ok_or("expected a list of {verb, resource, …, decision} entries")?;
    entries
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            if !entry.is_object() {
                return Err(format!("entry {}: expected a mapping", i + 1));
            }
            match str_at(entry, &["decision"]) {
                "allow" | "deny" | "noOpinion" => Ok(AuthzRule {
                    pattern: entry.clone(),
                    allowed: str_at(entry, &["decision"]) == "allow",
                }),
                other => Err(format!(
                    "entry {}: decision must be allow, deny or noOpinion, got `{other}`",
                    i + 1
                )),
            }
        })
        .collect()
}

/// Answers authorizer checks from a case's rules: the first rule whose given fields all match.
#[derive(Debug)]
struct Mock(Vec<AuthzRule>);

impl Authorizer for Mock {
    fn authorize(&self, request: &AuthzRequest) -> AuthzDecision {
        let fields = [
            ("verb", &request.verb),
            ("group", &request.group),
            ("resource", &request.resource),
            ("subresource", &request.subresource),
            ("namespace", &request.namespace),
            ("name", &request.name),
        ];
        let path = request.path.clone().unwrap_or_default();
        let rule = self.0.iter().find(|r| {
            fields.iter().all(|(k, v)| {
                at(&r.pattern, &[k])
                    .and_then(Json::as_str)
                    .is_none_or(|want| want == v.as_str())
            }) && at(&r.pattern, &["path"])
                .and_then(Json::as_str)
                .is_none_or(|want| want == path)
        });
        AuthzDecision {
            allowed: rule.is_some_and(|r| r.allowed),
            reason: rule
                .map(|r| str_at(&r.pattern, &["reason"]).to_string())
                .unwrap_or_default(),
            error: None,
        }
    }
}
