//! Test suites read from YAML: `kind: PolicyTest` documents (schema in
//! `schemas/policytest.schema.json`) and kaptest manifests as they are (read by [`super::kaptest`]).
//! Both become a [`Suite`] of [`Case`]s; each case keeps its range so an editor can point at it.
//! A key the format does not have, a value of the wrong shape or a file that looks like a suite but
//! does not parse is a problem with its position in [`Suite::errors`] (or the `Err` of [`read`]), so
//! a typo never turns into a case that checks nothing.

use serde_json::{Map, Value as Json};

use super::gator;
use super::keys::Problems;
use crate::policy::PolicyKind;
use crate::policy::admission::json::{at, node_to_json, str_at, strings_at};
use crate::policy::families::kubernetes::suites::POLICY_TEST_KIND;
use crate::schema::KubeVersion;
use crate::text::TextRange;
use crate::yaml::{self, Node};

/// Which format a suite was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `kind: PolicyTest`.
    PolicyTest,
    /// A kaptest manifest.
    Kaptest,
    /// A gator `Suite` (`test.gatekeeper.sh`).
    Gator,
    /// A Kyverno CLI `Test` (`kyverno-test.yaml`).
    KyvernoTest,
}

/// An object given inline or by reference to the suite's resources.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The object itself.
    Inline(Json),
    /// `{kind, name, namespace}` (kaptest: also `group`, `version`) looked up in the resources.
    Ref {
        /// API group (`None`: any; kaptest's `group`).
        group: Option<String>,
        /// API version (`None`: any; kaptest's `version`).
        version: Option<String>,
        /// Kind (empty: any).
        kind: String,
        /// Name.
        name: String,
        /// Namespace (empty: cluster-scoped or any).
        namespace: String,
    },
}

/// One mocked authorizer answer.
#[derive(Clone, Debug, PartialEq)]
pub struct AuthzRule {
    /// The check it answers, as a JSON pattern (`verb`, `group`, `resource`, `namespace`, `name`,
    /// `path`; absent = any).
    pub pattern: Json,
    /// The answer.
    pub allowed: bool,
}

/// What a case expects.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Expect {
    /// `allow` (kaptest `admit`), `deny`, `warn`, `audit`, `skip`, `error` or (kaptest) `mutate`.
    pub decision: String,
    /// The first message, exactly.
    pub message: Option<String>,
    /// The message of a failed validation, exactly, without the API server's prefix (kaptest's
    /// `deniedMessage`, compared with the policy decision's message).
    pub denied_message: Option<String>,
    /// The warnings, exactly.
    pub warnings: Option<Vec<String>>,
    /// Audit annotations that must be present with these values.
    pub audit_annotations: Option<Map<String, Json>>,
    /// The mutated object.
    pub object: Option<Json>,
    /// The mutated object as a reference to the suite's resources (kaptest's `expectObject`).
    pub object_ref: Option<Source>,
    /// Whether the referenced expected object takes the request object's name before comparing
    /// (kaptest does so unless `disableNameOverwrite: true`).
    pub rename_expected: bool,
    /// A custom-resource case (`expect.valid`): the object validated against the suite's CRDs
    /// instead of evaluated by a policy; whether it must be valid.
    pub valid: Option<bool>,
    /// The validation errors of a custom-resource case, exactly and in order.
    pub errors: Option<Vec<String>>,
}

/// One test case.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Case {
    /// Its name (kaptest cases are named from their policy, object and expectation).
    pub name: String,
    /// Where the case is in the suite file.
    pub range: TextRange,
    /// The policy's name (may be empty when the suite has one policy).
    pub policy: String,
    /// The policy's kind when the format says it (kaptest's `vapTestSuites` and `mapTestSuites`
    /// may name a validating and a mutating policy alike).
    pub policy_kind: Option<PolicyKind>,
    /// The binding's name, if one is chosen.
    pub binding: Option<String>,
    /// The operation, when given.
    pub operation: Option<String>,
    /// `object`.
    pub object: Option<Source>,
    /// `oldObject`.
    pub old_object: Option<Source>,
    /// `params`.
    pub params: Option<Source>,
    /// `namespace`.
    pub namespace: Option<Source>,
    /// `userInfo.username`.
    pub user: String,
    /// `userInfo.groups`.
    pub groups: Vec<String>,
    /// Mocked authorizer answers.
    pub authorizer: Vec<AuthzRule>,
    /// The expectation.
    pub expect: Expect,
    /// A gator case: its files and assertion (the other fields are unused).
    pub gator: Option<super::gator::GatorCase>,
}

/// A suite: its files and cases.
#[derive(Clone, Debug, PartialEq)]
pub struct Suite {
    /// Its name.
    pub name: String,
    /// The format.
    pub format: Format,
    /// Policy (and binding) files, relative to the suite file.
    pub policy_files: Vec<String>,
    /// Resource files (objects, params, namespaces, CRDs), relative to the suite file.
    pub resource_files: Vec<String>,
    /// Whether the objects are decoded and prepared as the API server does before admission
    /// (`defaults`, default true for PolicyTest suites; kaptest manifests run objects as written,
    /// as kaptest does).
    pub defaults: bool,
    /// Target Kubernetes version (`Err`: the suite's `kubeVersion` and why it was refused).
    pub kube_version: Result<KubeVersion, String>,
    /// The cases.
    pub cases: Vec<Case>,
    /// Problems found reading the suite (`file:line:col: message`); a suite with any does not pass.
    pub errors: Vec<String>,
}

/// Every suite in a YAML text. A document that is neither format is ignored; `Err` is a file that
/// looks like a suite (a `kind: PolicyTest` or kaptest line) but is not valid YAML, with the
/// position of the first syntax error. A file of other YAML that does not parse holds no suite.
pub fn read(text: &str, file_name: &str) -> Result<Vec<Suite>, String> {
    read_tree(text, &yaml::parse(text), file_name)
}

/// [`read`] of a text already parsed into `file` (the editor's shared tree).
pub fn read_tree(text: &str, file: &yaml::YamlFile, file_name: &str) -> Result<Vec<Suite>, String> {
    read_formats(
        text,
        file,
        file_name,
        &[Format::PolicyTest, Format::Kaptest, Format::Gator],
    )
}

/// [`read_tree`] of the suites of `formats` only (the family that runs them asks for its own).
pub fn read_formats(
    text: &str,
    file: &yaml::YamlFile,
    file_name: &str,
    formats: &[Format],
) -> Result<Vec<Suite>, String> {
    if let Some(error) = file.errors.first() {
        if !formats.iter().any(|format| looks_like(text, *format)) {
            return Ok(Vec::new());
        }
        let problems = Problems::new(text, file_name);
        return Err(format!(
            "{}: YAML syntax error: {}",
            problems.position(error.range),
            error.message
        ));
    }
    let mut suites = Vec::new();
    for (index, root) in file
        .documents
        .iter()
        .filter_map(|d| d.root.as_ref())
        .enumerate()
    {
        let json = node_to_json(root);
        let Some(format) = format_of(&json).filter(|format| formats.contains(format)) else {
            continue;
        };
        let mut problems = Problems::new(text, file_name);
        let suite = match format {
            Format::PolicyTest => policy_test(root, &json, file_name, index, &mut problems),
            Format::Kaptest => super::kaptest::read(root, &json, file_name, &mut problems),
            Format::Gator => super::gator::read(root, &json, file_name, &mut problems),
            Format::KyvernoTest => continue,
        };
        suites.push(Suite {
            errors: problems.messages,
            ..suite
        });
    }
    Ok(suites)
}

/// The format of a suite document read here (Kyverno's `Test` is read by its family).
fn format_of(json: &Json) -> Option<Format> {
    if str_at(json, &["kind"]) == POLICY_TEST_KIND {
        Some(Format::PolicyTest)
    } else if super::kaptest::is_manifest(json) {
        Some(Format::Kaptest)
    } else if super::gator::is_suite(json) {
        Some(Format::Gator)
    } else {
        None
    }
}

/// Whether a text that does not parse was meant as a suite: a top-level `kind: PolicyTest` (or
/// `kind: Suite` in a text naming gator's API version) or a top-level key only kaptest manifests
/// have.
pub fn looks_like_suite(text: &str) -> bool {
    [Format::PolicyTest, Format::Kaptest, Format::Gator]
        .iter()
        .any(|format| looks_like(text, *format))
}

/// [`looks_like_suite`] for one format.
pub fn looks_like(text: &str, format: Format) -> bool {
    text.lines().any(|line| {
        let line = line.trim_end();
        let kind = line
            .strip_prefix("kind:")
            .map(|v| v.trim().trim_matches(['"', '\'']));
        match format {
            Format::PolicyTest => kind == Some(POLICY_TEST_KIND),
            Format::Gator => kind == Some(gator::KIND) && text.contains(gator::API_VERSION),
            Format::Kaptest => super::kaptest::SUITE_KEYS.iter().any(|key| {
                line.strip_prefix(key)
                    .is_some_and(|rest| rest.starts_with(':'))
            }),
            Format::KyvernoTest => false,
        }
    })
}

/// The keys of a `kind: PolicyTest` document.
const POLICY_TEST_KEYS: &[&str] = &[
    "apiVersion",
    "kind",
    "metadata",
    "kubeVersion",
    "defaults",
    "policies",
    "resources",
    "cases",
];
const METADATA_KEYS: &[&str] = &["name", "labels", "annotations"];
const CASE_KEYS: &[&str] = &[
    "name",
    "policy",
    "binding",
    "operation",
    "object",
    "oldObject",
    "params",
    "namespace",
    "userInfo",
    "authorizer",
    "expect",
];
const EXPECT_KEYS: &[&str] = &[
    "decision",
    "valid",
    "errors",
    "message",
    "warnings",
    "auditAnnotations",
    "object",
];
const DECISIONS: &[&str] = &["allow", "deny", "warn", "audit", "skip", "error"];
const REF_KEYS: &[&str] = &["kind", "name", "namespace"];
const USER_KEYS: &[&str] = &["username", "groups"];
const AUTHZ_KEYS: &[&str] = &[
    "verb",
    "group",
    "resource",
    "subresource",
    "namespace",
    "name",
    "path",
    "decision",
    "reason",
];

fn policy_test(
    root: &Node,
    json: &Json,
    file_name: &str,
    index: usize,
    problems: &mut Problems<'_>,
) -> Suite {
    problems.check_keys(root, "a PolicyTest", POLICY_TEST_KEYS);
    problems.duplicate_keys(root);
    if let Some(metadata) = root.get("metadata") {
        problems.check_keys(metadata, "metadata", METADATA_KEYS);
    }
    let name = match str_at(json, &["metadata", "name"]) {
        "" => format!("{file_name}#{index}"),
        n => n.to_string(),
    };
    let cases = problems
        .items(root, "cases")
        .iter()
        .enumerate()
        .map(|(i, node)| policy_test_case(node, i, problems))
        .collect();
    Suite {
        name,
        format: Format::PolicyTest,
        policy_files: strings_at(json, &["policies"]),
        resource_files: strings_at(json, &["resources"]),
        defaults: at(json, &["defaults"]).and_then(Json::as_bool) != Some(false),
        kube_version: kube_version(root.get("kubeVersion")),
        cases,
        errors: Vec::new(),
    }
}

/// The suite's `kubeVersion` (the newest bundled when absent), read from the scalar as written so
/// that an unquoted `1.30` is 1.30, not the float 1.3.
pub fn kube_version(node: Option<&Node>) -> Result<KubeVersion, String> {
    let Some(node) = node.filter(|n| !n.is_null()) else {
        return Ok(KubeVersion::newest());
    };
    let text = node.as_scalar().map_or("", |s| s.value.as_str());
    KubeVersion::parse(text).map_err(|e| format!("kubeVersion: {e}"))
}

fn source(value: Option<&Json>) -> Option<Source> {
    let value = value.filter(|v| !v.is_null())?;
    if at(value, &["apiVersion"]).is_some() {
        return Some(Source::Inline(value.clone()));
    }
    Some(Source::Ref {
        group: None,
        version: None,
        kind: str_at(value, &["kind"]).to_string(),
        name: str_at(value, &["name"]).to_string(),
        namespace: str_at(value, &["namespace"]).to_string(),
    })
}

/// Checks the keys of an object given inline (any keys) or by reference (`kind`, `name`,
/// `namespace`).
fn check_source(node: &Node, what: &str, problems: &mut Problems<'_>) {
    if node.get("apiVersion").is_none() {
        problems.check_keys(node, what, REF_KEYS);
    }
}

fn check_policy_test_case(node: &Node, problems: &mut Problems<'_>) {
    problems.check_keys(node, "a case", CASE_KEYS);
    for key in ["object", "oldObject", "params", "namespace"] {
        if let Some(value) = node.get(key) {
            check_source(value, key, problems);
        }
    }
    if let Some(user) = node.get("userInfo") {
        problems.check_keys(user, "userInfo", USER_KEYS);
    }
    for rule in problems.items(node, "authorizer") {
        problems.check_keys(rule, "an authorizer rule", AUTHZ_KEYS);
    }
    let Some(expect) = node.get("expect") else {
        problems.add(node.range, "the case has no `expect`");
        return;
    };
    problems.check_keys(expect, "expect", EXPECT_KEYS);
    let resource_case = expect.get("valid").is_some();
    match expect.get("decision") {
        None if resource_case => {}
        Some(decision) if resource_case => problems.add(
            decision.range,
            "expect.decision and expect.valid do not go together: a case either runs a policy or validates a custom resource",
        ),
        None => problems.add(
            expect.range,
            format!("expect.decision (or expect.valid, for a custom resource) is required ({})", DECISIONS.join(", ")),
        ),
        Some(decision) => {
            problems.one_of(decision, DECISIONS, |value, all| {
                format!("expect.decision: unsupported value `{value}`: supported values: {all}")
            });
        }
    }
}

fn policy_test_case(node: &Node, index: usize, problems: &mut Problems<'_>) -> Case {
    check_policy_test_case(node, problems);
    let json = node_to_json(node);
    let expect_json = at(&json, &["expect"]).cloned().unwrap_or(Json::Null);
    let expect = Expect {
        decision: str_at(&expect_json, &["decision"]).to_string(),
        message: at(&expect_json, &["message"])
            .and_then(Json::as_str)
            .map(str::to_string),
        warnings: at(&expect_json, &["warnings"]).map(|_| strings_at(&expect_json, &["warnings"])),
        audit_annotations: at(&expect_json, &["auditAnnotations"])
            .and_then(Json::as_object)
            .cloned(),
        object: at(&expect_json, &["object"]).cloned(),
        denied_message: None,
        object_ref: None,
        rename_expected: false,
        valid: at(&expect_json, &["valid"]).and_then(Json::as_bool),
        errors: at(&expect_json, &["errors"]).map(|_| strings_at(&expect_json, &["errors"])),
    };
    let authorizer = at(&json, &["authorizer"])
        .and_then(Json::as_array)
        .map(|rules| {
            rules
                .iter()
                .map(|r| AuthzRule {
                    pattern: r.clone(),
                    allowed: str_at(r, &["decision"]) == "allow",
                })
                .collect()
        })
        .unwrap_or_default();
    Case {
        name: match str_at(&json, &["name"]) {
            "" => format!("case {}", index + 1),
            n => n.to_string(),
        },
        range: node.range,
        policy: str_at(&json, &["policy"]).to_string(),
        policy_kind: None,
        binding: at(&json, &["binding"])
            .and_then(Json::as_str)
            .map(str::to_string),
        operation: at(&json, &["operation"])
            .and_then(Json::as_str)
            .map(str::to_string),
        object: source(at(&json, &["object"])),
        old_object: source(at(&json, &["oldObject"])),
        params: source(at(&json, &["params"])),
        namespace: source(at(&json, &["namespace"])),
        user: str_at(&json, &["userInfo", "username"]).to_string(),
        groups: strings_at(&json, &["userInfo", "groups"]),
        authorizer,
        expect,
        gator: None,
    }
}
