//! kaptest manifests, read as they are. Two formats exist:
//! - the current one (`version: v1alpha1`, `policies`, `resources`, `schemaLocations`, `crds`,
//!   `skipSchemaValidation`, `vapTestSuites` and `mapTestSuites` of `{policy, binding, tests}`; a
//!   VAP case has `object`, `oldObject`, `param`, `userInfo`, `expect: admit|deny|skip|error` and
//!   `deniedMessage`, a MAP case `expect: mutate|skip|error` with `expectObject` and
//!   `disableNameOverwrite`), per pfnet/kaptest `internal/tester/manifest.go` (`TestManifests`,
//!   `IsValid`, `VAPTestCase`, `MAPTestCase`, `NameWithGVK`);
//! - the older one (`validatingAdmissionPolicies`, `resources`, `testSuites`).
//!
//! kaptest's own rejections become problems with a position: an unsupported `version`, no policy
//! file, no resource file, no test suite (`TestManifests.IsValid`), a case without `expect`. A key
//! neither format has is a problem too. `schemaLocations` and `skipSchemaValidation` drive kaptest's
//! kubeconform check of the resources, which admission-ls replaces by its own schemas; they are
//! accepted and not used. `crds` name CRD files (local paths are read like resources; URLs are not
//! fetched and are a problem).

use serde_json::Value as Json;

use crate::policy::PolicyKind;
use crate::policy::admission::json::{at, str_at, strings_at};
use crate::policy::suite::keys::Problems;
use crate::policy::suite::model::{Case, Expect, Format, Source, Suite};
use crate::schema::KubeVersion;
use crate::yaml::Node;

/// The manifest versions kaptest supports (`supportedTestManifestVersions`).
const VERSIONS: &[&str] = &["v1alpha1"];

/// Top-level keys that only kaptest manifests have (how a manifest is recognised).
pub const SUITE_KEYS: &[&str] = &["testSuites", "vapTestSuites", "mapTestSuites"];

const TOP_KEYS: &[&str] = &[
    "version",
    "policies",
    "resources",
    "schemaLocations",
    "crds",
    "skipSchemaValidation",
    "vapTestSuites",
    "mapTestSuites",
    "validatingAdmissionPolicies",
    "testSuites",
];
const SUITE_ENTRY_KEYS: &[&str] = &["policy", "binding", "tests"];
const VAP_CASE_KEYS: &[&str] = &[
    "object",
    "oldObject",
    "param",
    "expect",
    "userInfo",
    "deniedMessage",
];
const MAP_CASE_KEYS: &[&str] = &[
    "object",
    "oldObject",
    "param",
    "expect",
    "expectObject",
    "userInfo",
    "disableNameOverwrite",
];
const OBJECT_KEYS: &[&str] = &["group", "version", "kind", "namespace", "name"];
const PARAM_KEYS: &[&str] = &["namespace", "name"];
const USER_KEYS: &[&str] = &["name", "groups", "extra"];
const VAP_EXPECT: &[&str] = &["admit", "deny", "skip", "error"];
const MAP_EXPECT: &[&str] = &["mutate", "skip", "error"];

/// Whether a document is a kaptest manifest.
pub fn is_manifest(json: &Json) -> bool {
    SUITE_KEYS.iter().any(|k| at(json, &[k]).is_some())
}

/// Reads one manifest; problems go to `problems`.
pub fn read(root: &Node, json: &Json, file_name: &str, problems: &mut Problems<'_>) -> Suite {
    problems.check_keys(root, "a kaptest manifest", TOP_KEYS);
    check_version(root, problems);
    let mut policy_files = strings_at(json, &["policies"]);
    policy_files.extend(strings_at(json, &["validatingAdmissionPolicies"]));
    let mut resource_files = strings_at(json, &["resources"]);
    resource_files.extend(local_crds(root, problems));
    let old = at(json, &["testSuites"]).is_some();
    if policy_files.is_empty() {
        let key = if old {
            "validatingAdmissionPolicies"
        } else {
            "policies"
        };
        problems.add(root.range, format!("at least one {key} is required"));
    }
    if resource_files.is_empty() {
        problems.add(root.range, "at least one resources is required");
    }
    let mut cases = Vec::new();
    let groups = [
        ("testSuites", PolicyKind::ValidatingPolicy),
        ("vapTestSuites", PolicyKind::ValidatingPolicy),
        ("mapTestSuites", PolicyKind::MutatingPolicy),
    ];
    for (key, kind) in groups {
        for suite in problems.items(root, key) {
            read_suite(suite, kind, problems, &mut cases);
        }
    }
    let n_suites: usize = groups
        .iter()
        .map(|(key, _)| {
            root.get(key)
                .and_then(Node::as_sequence)
                .map_or(0, <[Node]>::len)
        })
        .sum();
    if n_suites == 0 {
        let what = if old {
            "testSuites"
        } else {
            "vapTestSuites or mapTestSuites"
        };
        problems.add(root.range, format!("at least one {what} is required"));
    }
    Suite {
        name: file_name.to_string(),
        format: Format::Kaptest,
        policy_files,
        resource_files,
        // kaptest evaluates the objects as written (no defaulting, as before defaulting landed).
        defaults: false,
        kube_version: Ok(KubeVersion::newest()),
        cases,
        errors: Vec::new(),
    }
}

fn check_version(root: &Node, problems: &mut Problems<'_>) {
    let Some(version) = root.get("version") else {
        return;
    };
    problems.one_of(version, VERSIONS, |value, all| {
        format!("unsupported version {value:?}, supported versions: [{all}]")
    });
}

/// The local files of `crds`; a URL is a problem (admission-ls reads no network).
fn local_crds(root: &Node, problems: &mut Problems<'_>) -> Vec<String> {
    let mut files = Vec::new();
    for item in problems.items(root, "crds") {
        let path = item.as_str().unwrap_or("");
        if path.starts_with("https://") || path.starts_with("http://") {
            problems.add(
                item.range,
                format!("crds: {path}: URLs are not fetched; download the CRD and give its path"),
            );
        } else {
            files.push(path.to_string());
        }
    }
    files
}

fn read_suite(suite: &Node, kind: PolicyKind, problems: &mut Problems<'_>, out: &mut Vec<Case>) {
    problems.check_keys(suite, "a test suite", SUITE_ENTRY_KEYS);
    let policy = suite.get("policy").and_then(Node::as_str).unwrap_or("");
    if policy.is_empty() {
        problems.add(suite.range, "the test suite has no `policy`");
    }
    let binding = suite
        .get("binding")
        .and_then(Node::as_str)
        .map(str::to_string);
    for node in problems.items(suite, "tests") {
        let case = read_case(node, kind, policy, problems);
        out.push(Case {
            binding: binding.clone(),
            ..case
        });
    }
}

fn check_case(node: &Node, kind: PolicyKind, problems: &mut Problems<'_>) -> String {
    let (keys, expects) = if kind.is_mutating() {
        (MAP_CASE_KEYS, MAP_EXPECT)
    } else {
        (VAP_CASE_KEYS, VAP_EXPECT)
    };
    problems.check_keys(node, "a test case", keys);
    for key in ["object", "oldObject", "expectObject"] {
        if let Some(value) = node.get(key) {
            problems.check_keys(value, key, OBJECT_KEYS);
        }
    }
    if let Some(param) = node.get("param") {
        problems.check_keys(param, "param", PARAM_KEYS);
    }
    if let Some(user) = node.get("userInfo") {
        problems.check_keys(user, "userInfo", USER_KEYS);
    }
    let Some(expect) = node.get("expect") else {
        problems.add(
            node.range,
            format!("the test case has no `expect` ({})", expects.join(", ")),
        );
        return String::new();
    };
    let value = problems.one_of(expect, expects, |value, all| {
        format!("expect: unsupported value `{value}`: supported values: {all}")
    });
    if value == "mutate" && node.get("expectObject").is_none() {
        problems.add(
            expect.range,
            "expectObject must be given when mutate expected",
        );
    }
    value.to_string()
}

/// `{group, version, kind, namespace, name}`; kaptest ignores one without `kind` or `name`.
fn object_ref(json: &Json, key: &str) -> Option<Source> {
    let value = at(json, &[key])?;
    let (kind, name) = (str_at(value, &["kind"]), str_at(value, &["name"]));
    if kind.is_empty() || name.is_empty() {
        return None;
    }
    let optional = |k: &str| at(value, &[k]).and_then(Json::as_str).map(str::to_string);
    Some(Source::Ref {
        group: optional("group"),
        version: optional("version"),
        kind: kind.to_string(),
        name: name.to_string(),
        namespace: str_at(value, &["namespace"]).to_string(),
    })
}

fn case_name(json: &Json, policy: &str, expect: &str) -> String {
    let describe = |key: &str| {
        at(json, &[key])
            .map(|o| format!(" {key}={}/{}", str_at(o, &["kind"]), str_at(o, &["name"])))
    };
    format!(
        "{policy}:{}{} → {expect}",
        describe("object").unwrap_or_default(),
        describe("oldObject").unwrap_or_default()
    )
}

fn read_case(node: &Node, kind: PolicyKind, policy: &str, problems: &mut Problems<'_>) -> Case {
    let expect = check_case(node, kind, problems);
    let json = crate::policy::admission::json::node_to_json(node);
    let decision = match expect.as_str() {
        "admit" => "allow",
        other => other,
    };
    // The param's kind is the policy's paramKind, filled in when the case runs.
    let params = at(&json, &["param"]).map(|p| Source::Ref {
        group: None,
        version: None,
        kind: String::new(),
        name: str_at(p, &["name"]).to_string(),
        namespace: str_at(p, &["namespace"]).to_string(),
    });
    let disable_rename = at(&json, &["disableNameOverwrite"]).and_then(Json::as_bool);
    Case {
        name: case_name(&json, policy, decision),
        range: node.range,
        policy: policy.to_string(),
        policy_kind: Some(kind),
        binding: None,
        operation: None,
        object: object_ref(&json, "object"),
        old_object: object_ref(&json, "oldObject"),
        params,
        // The object's namespace, looked up (or made empty) when the case runs, as kaptest does.
        namespace: None,
        user: str_at(&json, &["userInfo", "name"]).to_string(),
        groups: strings_at(&json, &["userInfo", "groups"]),
        authorizer: Vec::new(),
        expect: Expect {
            decision: decision.to_string(),
            denied_message: at(&json, &["deniedMessage"])
                .and_then(Json::as_str)
                .filter(|m| !m.is_empty())
                .map(str::to_string),
            object_ref: object_ref(&json, "expectObject"),
            rename_expected: disable_rename != Some(true),
            ..Expect::default()
        },
        gator: None,
    }
}
