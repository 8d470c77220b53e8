//! Test suites read from YAML: `kind: PolicyTest` documents (design.md §1.5, schema in
//! `schemas/policytest.schema.json`) and kaptest manifests as they are (`validatingAdmissionPolicies`,
//! `resources`, `testSuites[].tests[]` with `expect: admit|deny|skip|error`). Both become a [`Suite`]
//! of [`Case`]s; each case keeps its range so an editor can point at it.

use serde_json::{Map, Value as Json};

use crate::policy::admission::json::{at, node_to_json, str_at, strings_at};
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
}

/// An object given inline or by reference to the suite's resources.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The object itself.
    Inline(Json),
    /// `{kind, name, namespace}` looked up in the resources.
    Ref {
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
    /// `allow` (kaptest `admit`), `deny`, `warn`, `audit`, `skip` or `error`.
    pub decision: String,
    /// The first message, exactly.
    pub message: Option<String>,
    /// The warnings, exactly.
    pub warnings: Option<Vec<String>>,
    /// Audit annotations that must be present with these values.
    pub audit_annotations: Option<Map<String, Json>>,
    /// The mutated object.
    pub object: Option<Json>,
}

/// One test case.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// Its name (kaptest cases are named from their policy, object and expectation).
    pub name: String,
    /// Where the case is in the suite file.
    pub range: TextRange,
    /// The policy's name (may be empty when the suite has one policy).
    pub policy: String,
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
}

/// Every suite in a YAML text (documents that are neither format are ignored).
pub fn read(text: &str, file_name: &str) -> Result<Vec<Suite>, String> {
    let file = yaml::parse(text);
    if let Some(error) = file.errors.first() {
        return Err(format!("YAML syntax error: {}", error.message));
    }
    let mut suites = Vec::new();
    for (index, root) in file
        .documents
        .iter()
        .filter_map(|d| d.root.as_ref())
        .enumerate()
    {
        let json = node_to_json(root);
        if str_at(&json, &["kind"]) == "PolicyTest" {
            suites.push(policy_test(root, &json, file_name, index));
        } else if at(&json, &["testSuites"]).is_some() {
            suites.push(kaptest(root, &json, file_name));
        }
    }
    Ok(suites)
}

fn items_with_ranges(node: Option<&Node>) -> Vec<&Node> {
    node.and_then(Node::as_sequence)
        .map(|s| s.iter().collect())
        .unwrap_or_default()
}

fn policy_test(root: &Node, json: &Json, file_name: &str, index: usize) -> Suite {
    let name = match str_at(json, &["metadata", "name"]) {
        "" => format!("{file_name}#{index}"),
        n => n.to_string(),
    };
    let cases = items_with_ranges(root.get("cases"))
        .into_iter()
        .enumerate()
        .map(|(i, node)| policy_test_case(node, i))
        .collect();
    Suite {
        name,
        format: Format::PolicyTest,
        policy_files: strings_at(json, &["policies"]),
        resource_files: strings_at(json, &["resources"]),
        defaults: at(json, &["defaults"]).and_then(Json::as_bool) != Some(false),
        kube_version: kube_version(root.get("kubeVersion")),
        cases,
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
        kind: str_at(value, &["kind"]).to_string(),
        name: str_at(value, &["name"]).to_string(),
        namespace: str_at(value, &["namespace"]).to_string(),
    })
}

fn policy_test_case(node: &Node, index: usize) -> Case {
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
    }
}

fn kaptest(root: &Node, json: &Json, file_name: &str) -> Suite {
    let mut cases = Vec::new();
    for suite in items_with_ranges(root.get("testSuites")) {
        let policy = suite.get("policy").map(node_to_json);
        let policy = policy
            .as_ref()
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string();
        for node in items_with_ranges(suite.get("tests")) {
            cases.push(kaptest_case(node, &policy));
        }
    }
    Suite {
        name: file_name.to_string(),
        format: Format::Kaptest,
        policy_files: strings_at(json, &["validatingAdmissionPolicies"]),
        resource_files: strings_at(json, &["resources"]),
        defaults: false,
        kube_version: Ok(KubeVersion::newest()),
        cases,
    }
}

fn kaptest_case(node: &Node, policy: &str) -> Case {
    let json = node_to_json(node);
    let expect = match str_at(&json, &["expect"]) {
        "admit" => "allow",
        other => other,
    };
    let describe = |key: &str| {
        at(&json, &[key])
            .map(|o| format!(" {key}={}/{}", str_at(o, &["kind"]), str_at(o, &["name"])))
    };
    let name = format!(
        "{policy}:{}{} → {expect}",
        describe("object").unwrap_or_default(),
        describe("oldObject").unwrap_or_default()
    );
    let param = at(&json, &["param"]).map(|p| Source::Ref {
        kind: String::new(),
        name: str_at(p, &["name"]).to_string(),
        namespace: str_at(p, &["namespace"]).to_string(),
    });
    let namespace = at(&json, &["object", "namespace"])
        .and_then(Json::as_str)
        .map(|ns| Source::Ref {
            kind: "Namespace".into(),
            name: ns.to_string(),
            namespace: String::new(),
        });
    Case {
        name,
        range: node.range,
        policy: policy.to_string(),
        binding: None,
        operation: None,
        object: source(at(&json, &["object"])),
        old_object: source(at(&json, &["oldObject"])),
        params: param,
        namespace,
        user: str_at(&json, &["userInfo", "name"]).to_string(),
        groups: strings_at(&json, &["userInfo", "groups"]),
        authorizer: Vec::new(),
        expect: Expect {
            decision: expect.to_string(),
            ..Expect::default()
        },
    }
}
