//! gator suites (`apiVersion: test.gatekeeper.sh/v1alpha1`, `kind: Suite`), read and judged as
//! gatekeeper `pkg/gator/verify` does (`suite.go`, `runner.go`, `assertion.go`): each test names a
//! template and a constraint file, each case an object file (one object, or an AdmissionReview)
//! and assertions, each with `violations` (`yes` — the default —, `no` or a count) and an optional
//! `message` regular expression that the counted violations must match. A test with
//! `invalid: true` passes when the constraint does not fit its template's schema. Skipped suites,
//! tests and cases are left out. Here every assertion is one case, named
//! `test/case` (`#N` after it when the case has several). The verdicts come from
//! [`crate::policy::families::gatekeeper::verdict`]; templates with Rego code only and
//! `expansion` tests are errors of their cases (not this engine).

use std::sync::Arc;

use serde_json::Value as Json;

use crate::policy::admission::Outcome;
use crate::policy::admission::json::{documents, str_at};
use crate::policy::families::gatekeeper::{self, constraint, verdict};
use crate::policy::suite::keys::Problems;
use crate::policy::suite::model::{Case, Expect, Format, Suite};
use crate::policy::suite::world::{Loader, join};
use crate::policy::suite::{CaseResult, RunHooks, RunOptions, SuiteItem, SuiteReport, shared};
use crate::policy::workspace::Workspace;
use crate::policy::{Diagnostic, Severity};
use crate::schema::{KubeVersion, SchemaTypes};
use crate::yaml::YamlFile;
use crate::yaml::{self, Node};

/// The suite's API group and version.
pub const API_VERSION: &str = "test.gatekeeper.sh/v1alpha1";

/// The suite's kind.
pub const KIND: &str = "Suite";

const SUITE_KEYS: &[&str] = &["kind", "apiVersion", "metadata", "tests", "skip"];
const TEST_KEYS: &[&str] = &[
    "name",
    "template",
    "constraint",
    "expansion",
    "cases",
    "invalid",
    "skip",
];
const CASE_KEYS: &[&str] = &["name", "object", "inventory", "assertions", "skip"];
const ASSERTION_KEYS: &[&str] = &["violations", "message"];

/// What one gator case (one assertion) needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GatorCase {
    /// The template file, relative to the suite.
    pub template: String,
    /// The constraint file, relative to the suite.
    pub constraint: String,
    /// The object file (empty for an `invalid` test).
    pub object: String,
    /// `violations`: `yes`, `no` or a count, as written.
    pub violations: String,
    /// `message`: a regular expression the counted violations match.
    pub message: Option<String>,
    /// The test expects the constraint not to fit the template's schema.
    pub invalid: bool,
    /// The test names an expansion template (not supported).
    pub expansion: bool,
}

/// Whether a document is a gator suite.
pub fn is_suite(json: &Json) -> bool {
    str_at(json, &["kind"]) == KIND && str_at(json, &["apiVersion"]) == API_VERSION
}

/// Reads one suite document.
pub fn read(root: &Node, json: &Json, file_name: &str, problems: &mut Problems<'_>) -> Suite {
    problems.check_keys(root, "a gator Suite", SUITE_KEYS);
    let name = match str_at(json, &["metadata", "name"]) {
        "" => file_name.to_string(),
        name => name.to_string(),
    };
    let mut cases = Vec::new();
    if json.get("skip").and_then(Json::as_bool) != Some(true) {
        for test in problems.items(root, "tests") {
            read_test(test, problems, &mut cases);
        }
    }
    Suite {
        name,
        format: Format::Gator,
        policy_files: Vec::new(),
        resource_files: Vec::new(),
        defaults: false,
        kube_version: Ok(KubeVersion::newest()),
        cases,
        errors: Vec::new(),
    }
}

fn text(node: &Node, key: &str) -> String {
    node.get(key)
        .and_then(Node::as_str)
        .unwrap_or_default()
        .to_string()
}

fn flag(node: &Node, key: &str) -> bool {
    node.get(key)
        .and_then(|n| n.as_scalar()?.as_bool())
        .unwrap_or(false)
}

fn read_test(test: &Node, problems: &mut Problems<'_>, out: &mut Vec<Case>) {
    problems.check_keys(test, "a gator test", TEST_KEYS);
    if flag(test, "skip") {
        return;
    }
    let name = text(test, "name");
    let base = GatorCase {
        template: text(test, "template"),
        constraint: text(test, "constraint"),
        object: String::new(),
        violations: String::new(),
        message: None,
        invalid: flag(test, "invalid"),
        expansion: !text(test, "expansion").is_empty(),
    };
    if base.invalid {
        out.push(case(format!("{name} (invalid constraint)"), test, base));
        return;
    }
    for item in problems.items(test, "cases") {
        problems.check_keys(item, "a gator case", CASE_KEYS);
        if flag(item, "skip") {
            continue;
        }
        let case_name = format!("{name}/{}", text(item, "name"));
        let object = text(item, "object");
        let assertions = problems.items(item, "assertions");
        if assertions.is_empty() {
            // gator: "assertions must be non-empty"; kept as a case that errors.
            let gator = GatorCase {
                object,
                ..base.clone()
            };
            out.push(case(case_name, item, gator));
            continue;
        }
        for (i, assertion) in assertions.iter().enumerate() {
            problems.check_keys(assertion, "a gator assertion", ASSERTION_KEYS);
            let violations = assertion
                .get("violations")
                .and_then(|n| n.as_scalar())
                .map_or_else(|| "yes".to_string(), |s| s.value.clone());
            let gator = GatorCase {
                object: object.clone(),
                violations,
                message: assertion
                    .get("message")
                    .and_then(Node::as_str)
                    .map(str::to_string),
                ..base.clone()
            };
            let name = if assertions.len() > 1 {
                format!("{case_name}#{}", i + 1)
            } else {
                case_name.clone()
            };
            out.push(case(name, assertion, gator));
        }
    }
}

fn case(name: String, node: &Node, gator: GatorCase) -> Case {
    Case {
        name,
        range: node.range,
        policy: gator.template.clone(),
        policy_kind: None,
        binding: None,
        operation: None,
        object: None,
        old_object: None,
        params: None,
        namespace: None,
        user: String::new(),
        groups: Vec::new(),
        authorizer: Vec::new(),
        expect: Expect::default(),
        gator: Some(gator),
    }
}

/// Runs the selected cases of a gator suite read from `path`.
pub fn run(
    path: &str,
    suite: &Suite,
    load: Loader<'_>,
    hooks: RunHooks<'_>,
) -> (Vec<String>, Vec<CaseResult>) {
    let schemas = Arc::new(SchemaTypes::new(KubeVersion::newest().minor()));
    let results = suite
        .cases
        .iter()
        .filter(|case| (hooks.select)(path, suite, case))
        .map(|case| {
            let start = (hooks.clock)();
            let judged = match &case.gator {
                Some(gator) => judge(path, gator, load, &schemas),
                None => Err("not a gator case".to_string()),
            };
            let (error, failures, outcome) = match judged {
                Ok((failures, outcome)) => (None, failures, outcome),
                Err(error) => (Some(error), Vec::new(), None),
            };
            CaseResult {
                name: case.name.clone(),
                range: case.range,
                policy: case.policy.clone(),
                passed: error.is_none() && failures.is_empty(),
                error,
                failures,
                outcome,
                duration: (hooks.clock)().saturating_sub(start),
            }
        })
        .collect();
    (suite.errors.clone(), results)
}

/// One assertion judged: the failures (none: it passed) and the evaluation; `Err` when the case
/// cannot run.
fn judge(
    path: &str,
    gator: &GatorCase,
    load: Loader<'_>,
    schemas: &Arc<SchemaTypes>,
) -> Result<(Vec<String>, Option<Outcome>), String> {
    if gator.expansion {
        return Err("expansion tests (ExpansionTemplate) are not supported".into());
    }
    if gator.template.is_empty() {
        return Err("invalid suite: missing template".into());
    }
    if gator.constraint.is_empty() {
        return Err("invalid suite: missing constraint".into());
    }
    let template_text = load(&join(path, &gator.template))
        .map_err(|e| format!("cannot read template {}: {e}", gator.template))?;
    let template_file = yaml::parse(&template_text);
    let template = template_file
        .documents
        .iter()
        .filter_map(|d| d.root.as_ref())
        .find(|root| gatekeeper::is_template(root))
        .ok_or_else(|| format!("{}: no ConstraintTemplate", gator.template))?;
    let constraint_text = load(&join(path, &gator.constraint))
        .map_err(|e| format!("cannot read constraint {}: {e}", gator.constraint))?;
    if gator.invalid {
        return Ok((judge_invalid(template, &constraint_text), None));
    }
    let constraint = one_object(&constraint_text, &gator.constraint)?;
    if gator.object.is_empty() {
        return Err("invalid case: must define object".into());
    }
    if gator.violations.is_empty() {
        return Err("invalid case: assertions must be non-empty".into());
    }
    let object_text = load(&join(path, &gator.object))
        .map_err(|e| format!("cannot read object {}: {e}", gator.object))?;
    let object = one_object(&object_text, &gator.object)?;
    let review = review_of(&object)?;
    if !enforced_by_gator(&constraint) {
        return Ok((assert_violations(gator, &[])?, None));
    }
    let request = verdict::Review {
        object: review.object.as_ref(),
        old_object: review.old_object.as_ref(),
        operation: &review.operation,
    };
    let verdict = verdict::judge(template, &constraint, &request, schemas.clone())?;
    let failures = assert_violations(gator, &verdict.violations)?;
    Ok((failures, Some(verdict.outcome)))
}

/// Whether gator enforces the Constraint: a `scoped` one only when one of its
/// `scopedEnforcementActions` names gator's enforcement point or `*` (frameworks
/// `constraint_client.go` `matches`, gatekeeper `pkg/util/enforcement_action.go`).
fn enforced_by_gator(constraint: &Json) -> bool {
    let spec = &constraint["spec"];
    if spec["enforcementAction"] != "scoped" {
        return true;
    }
    let actions = spec["scopedEnforcementActions"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    actions.iter().any(|action| {
        let points = action["enforcementPoints"]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        points
            .iter()
            .any(|point| matches!(point["name"].as_str(), Some("gator.gatekeeper.sh" | "*")))
    })
}

/// The object under review: the object itself (a CREATE), or an AdmissionReview's request.
struct Review {
    object: Option<Json>,
    old_object: Option<Json>,
    operation: String,
}

fn review_of(object: &Json) -> Result<Review, String> {
    let api_version = str_at(object, &["apiVersion"]);
    if str_at(object, &["kind"]) != "AdmissionReview"
        || !api_version.starts_with("admission.k8s.io/")
    {
        return Ok(Review {
            object: Some(object.clone()),
            old_object: None,
            operation: "CREATE".into(),
        });
    }
    let request = object
        .get("request")
        .ok_or("request did not actually pass in an AdmissionRequest")?;
    let pick = |key: &str| request.get(key).filter(|v| !v.is_null()).cloned();
    let (new, old) = (pick("object"), pick("oldObject"));
    if new.is_none() && old.is_none() {
        return Err(
            "AdmissionRequest does not contain an \"object\" or \"oldObject\" to review".into(),
        );
    }
    Ok(Review {
        object: new,
        old_object: old,
        operation: str_at(request, &["operation"]).to_string(),
    })
}

/// The one object a file defines (`ErrMultipleObjects`, `ErrNoObjects` otherwise).
fn one_object(text: &str, file: &str) -> Result<Json, String> {
    let mut objects: Vec<Json> = documents(text)
        .map_err(|e| format!("{file}: {e}"))?
        .into_iter()
        .filter(|d| !d.is_null())
        .collect();
    match objects.len() {
        0 => Err(format!("path {file:?} defines no YAML objects")),
        1 => Ok(objects.remove(0)),
        n => Err(format!("{file:?} defines {n} objects")),
    }
}

/// An `invalid` test: the constraint must not fit the template's schema.
fn judge_invalid(template: &Node, constraint_text: &str) -> Vec<String> {
    let mut workspace = Workspace::new();
    workspace.add_crd_kinds(gatekeeper::crd::kinds(template));
    let file = yaml::parse(constraint_text);
    let mut found: Vec<Diagnostic> = Vec::new();
    for root in file.documents.iter().filter_map(|d| d.root.as_ref()) {
        constraint::check(root, &workspace, &mut found);
    }
    if found.iter().any(|d| d.severity == Severity::Error) {
        Vec::new()
    } else {
        vec![
            "the constraint fits its template's schema, but the test expects it to be invalid"
                .into(),
        ]
    }
}

/// `Assertion.Run`: the violations matching `message` counted against `violations`.
fn assert_violations(gator: &GatorCase, messages: &[String]) -> Result<Vec<String>, String> {
    let pattern = match &gator.message {
        Some(message) => {
            Some(regex::Regex::new(message).map_err(|e| format!("invalid regex: {e}"))?)
        }
        None => None,
    };
    let matching = messages
        .iter()
        .filter(|m| pattern.as_ref().is_none_or(|re| re.is_match(m)))
        .count();
    let containing = gator
        .message
        .as_ref()
        .map_or(String::new(), |m| format!(" containing {m:?}"));
    let failure = match gator.violations.as_str() {
        "yes" if matching == 0 => Some(format!("got 0 violations{containing} but want at least 1")),
        "no" if matching > 0 => Some(format!(
            "got {matching} violations{containing} but want none"
        )),
        "yes" | "no" => None,
        count => {
            let want: usize = count.parse().map_err(|_| {
                "assertion.violation, if set, must be a nonnegative integer, \"yes\", or \"no\""
                    .to_string()
            })?;
            (want != matching)
                .then(|| format!("got {matching} violations{containing} but want exactly {want}"))
        }
    };
    Ok(failure
        .map(|f| vec![format!("{f}: got messages {messages:?}")])
        .unwrap_or_default())
}

/// gator suites, as [`crate::policy::families::Suites`] of the Gatekeeper family.
pub struct GatorSuites;

impl crate::policy::families::Suites for GatorSuites {
    fn might_hold(&self, text: &str) -> bool {
        text.contains(API_VERSION)
    }

    fn items(&self, path: &str, text: &str, file: &YamlFile) -> Vec<SuiteItem> {
        shared::items(path, text, file, &[Format::Gator])
    }

    fn run(
        &self,
        path: &str,
        text: &str,
        file: &YamlFile,
        load: Loader<'_>,
        options: &RunOptions<'_>,
    ) -> Vec<SuiteReport> {
        shared::run(path, text, file, &[Format::Gator], load, options)
    }
}
