//! A `cli.kyverno.io/v1alpha1` `Test` document as Kyverno's CLI reads it
//! (`cmd/cli/kubectl-kyverno/apis/v1alpha1/test.go`, `test_result.go`): the policy and resource
//! files, and the results, each naming a policy, optionally a rule, the resources by name
//! (`name` or `namespace/name`) and the expected result. Fields this tool does not run yet are
//! kept so a suite that needs them says so instead of passing without them.

use serde_json::Value as Json;

use crate::policy::admission::json::node_to_json;
use crate::text::TextRange;
use crate::yaml::{Node, NodeKind};

/// The group and version of Kyverno's CLI test files.
pub const API_VERSION: &str = "cli.kyverno.io/v1alpha1";

/// One `results` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// `policy` (`name` or `namespace/name`).
    pub policy: String,
    /// `rule` (ignored for CEL policies, which have no rules: `isRulelessPolicyKind`).
    pub rule: String,
    /// `kind` (informative: the CLI finds resources by name).
    pub kind: String,
    /// `resources`.
    pub resources: Vec<String>,
    /// `result`: pass, fail, skip, error or warn.
    pub result: String,
    /// `patchedResources`: the file of the expected mutated resources, relative to the suite.
    pub patched_resources: String,
    /// `failOnMissingResources`: a patched resource missing from its file fails the row.
    pub fail_on_missing: bool,
    /// `generatedResource`: the file of the expected generated resource, relative to the suite.
    pub generated_resource: String,
    /// `generatedResources`: files any of which a generated resource must equal.
    pub generated_resources: Vec<String>,
    /// `cloneSourceResource`, `operation`… when set (not run yet).
    pub unsupported: Vec<&'static str>,
    /// Where the entry is.
    pub range: TextRange,
}

/// A Test document.
#[derive(Clone, Debug, PartialEq)]
pub struct TestFile {
    /// `metadata.name` (or the deprecated top-level `name`).
    pub name: String,
    /// `policies`, relative to the file.
    pub policies: Vec<String>,
    /// `resources`, relative to the file.
    pub resources: Vec<String>,
    /// `exceptions`, relative to the file.
    pub exceptions: Vec<String>,
    /// `results`.
    pub results: Vec<Expected>,
    /// `variables`: the values file, relative to the file.
    pub variables: String,
    /// `userinfo`: the user info file, relative to the file.
    pub userinfo: String,
    /// `context`: the data lookups read, relative to the file.
    pub context: String,
    /// `targetResources`: the existing objects mutate-existing policies mutate, relative to the
    /// file.
    pub target_resources: Vec<String>,
    /// Top-level fields this tool does not run yet (`context`…).
    pub unsupported: Vec<&'static str>,
    /// `apiCallResponses` and `globalContextEntries` (the recorded answers of http and
    /// globalContext calls), as a Test document holding only them; none when absent.
    pub external: Option<Json>,
}

/// Whether `root` is a Kyverno CLI Test document.
pub fn is_test(root: &Node) -> bool {
    root.get("apiVersion").and_then(Node::as_str) == Some(API_VERSION)
        && root.get("kind").and_then(Node::as_str) == Some("Test")
}

/// Top-level fields whose data this tool does not supply to the evaluation yet.
const UNSUPPORTED_TOP: &[&str] = &[
    "values",
    "jsonPayload",
    "jsonPayloads",
    "httpPayloads",
    "envoyPayloads",
    "paramResources",
    "clusterResources",
];

/// Result fields whose checks this tool does not run yet.
const UNSUPPORTED_RESULT: &[&str] = &["cloneSourceResource", "operation", "resourceSpecs"];

/// Reads a Test document.
pub fn read(root: &Node) -> TestFile {
    let name = root
        .get("metadata")
        .and_then(|m| m.get("name"))
        .or_else(|| root.get("name"))
        .and_then(Node::as_str)
        .unwrap_or("")
        .to_string();
    TestFile {
        name,
        policies: strings(root.get("policies")),
        resources: strings(root.get("resources")),
        exceptions: strings(root.get("exceptions")),
        results: items(root.get("results")).iter().map(expected).collect(),
        variables: text(root, "variables"),
        userinfo: text(root, "userinfo"),
        context: text(root, "context"),
        target_resources: strings(root.get("targetResources")),
        unsupported: present(root, UNSUPPORTED_TOP),
        external: external(root),
    }
}

/// The Test's own lists of recorded answers, kept as a `Test` document for the evaluation's
/// context data.
fn external(root: &Node) -> Option<Json> {
    let mut out = serde_json::Map::new();
    for field in ["apiCallResponses", "globalContextEntries"] {
        if let Some(list) = root.get(field) {
            out.insert(field.to_string(), node_to_json(list));
        }
    }
    (!out.is_empty()).then(|| {
        out.insert("apiVersion".into(), Json::from(API_VERSION));
        out.insert("kind".into(), Json::from("Test"));
        Json::Object(out)
    })
}

fn expected(node: &Node) -> Expected {
    let text = |key: &str| {
        node.get(key)
            .and_then(Node::as_str)
            .unwrap_or("")
            .trim()
            .to_string()
    };
    Expected {
        policy: text("policy"),
        rule: text("rule"),
        kind: text("kind"),
        resources: strings(node.get("resources")),
        result: text("result"),
        patched_resources: text("patchedResources"),
        fail_on_missing: node
            .get("failOnMissingResources")
            .and_then(Node::as_scalar)
            .and_then(|s| s.as_bool())
            .unwrap_or(false),
        generated_resource: text("generatedResource"),
        generated_resources: strings(node.get("generatedResources")),
        unsupported: present(node, UNSUPPORTED_RESULT),
        range: node.range,
    }
}

/// The keys of `fields` that `node` sets (not null, not empty).
fn present(node: &Node, fields: &[&'static str]) -> Vec<&'static str> {
    fields
        .iter()
        .copied()
        .filter(|key| {
            node.get(key).is_some_and(|v| match &v.kind {
                NodeKind::Sequence(items) => !items.is_empty(),
                NodeKind::Mapping(entries) => !entries.is_empty(),
                _ => !v.is_null() && v.as_str() != Some(""),
            })
        })
        .collect()
}

fn text(node: &Node, key: &str) -> String {
    node.get(key)
        .and_then(Node::as_str)
        .unwrap_or("")
        .to_string()
}

fn items(node: Option<&Node>) -> &[Node] {
    node.and_then(Node::as_sequence).unwrap_or_default()
}

fn strings(node: Option<&Node>) -> Vec<String> {
    items(node)
        .iter()
        .filter_map(Node::as_str)
        .map(str::to_string)
        .collect()
}
