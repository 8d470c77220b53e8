//! `kind: PolicyTest` documents (schema in `schemas/policytest.schema.json`) read into the shared
//! suite model: the policy and resource files, `kubeVersion`, `defaults`, and each case with its
//! object, old object, params, namespace, user, mocked authorizer and expectation. A key the format
//! does not have or a value of the wrong shape is a problem with its position.

use serde_json::Value as Json;

use crate::policy::admission::json::{at, node_to_json, str_at, strings_at};
use crate::policy::suite::keys::Problems;
use crate::policy::suite::model::{AuthzRule, Case, Expect, Format, Source, Suite};
use crate::schema::KubeVersion;
use crate::yaml::Node;

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

pub fn read(
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
