//! `admission-ls init POLICY_FILE`: writes `<policy>.test.yaml` beside the policy, a `kind:
//! PolicyTest` suite with two cases ("allowed" and "denied") whose object is a skeleton of the first
//! kind the policy's `matchConstraints` match. Each expectation is the decision the policy gives that
//! skeleton now (evaluated here), so the new suite passes when run; where the skeleton does not get
//! the decision the case is named for, a comment says to edit the object until it does. An existing
//! file is never overwritten.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use admission_ls::ide::KubeVersion;
use admission_ls::ide::run::{EvalRequest, evaluate};
use admission_ls::lsp::disk::{self, Bounds};
use admission_ls::policy::admission::json::str_at;
use admission_ls::policy::admission::view::{self, Document};
use admission_ls::schema::resources::{is_namespaced, resolve_resources};
use admission_ls::yaml;
use serde_json::{Value as Json, json};

use super::{EXIT_USAGE, out};

/// Arguments of `init`.
#[derive(Debug, clap::Args)]
pub struct InitArgs {
    /// The file with the policy to write a suite for.
    pub policy_file: PathBuf,
}

/// The suite's path: `policy.yaml` → `policy.test.yaml`.
fn suite_path(policy: &Path) -> PathBuf {
    let stem = policy.file_stem().map_or_else(
        || "policy".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    policy.with_file_name(format!("{stem}.test.yaml"))
}

/// The name, kind and first matched (group, version, kind) of the first policy of `text`.
fn first_policy(text: &str, version: KubeVersion) -> Result<(String, String, Json), String> {
    let file = yaml::parse(text);
    if let Some(error) = file.errors.first() {
        return Err(format!("YAML syntax error: {}", error.message));
    }
    let roots = file.documents.iter().filter_map(|d| d.root.as_ref());
    let policy = roots
        .filter_map(view::read)
        .find_map(|d| match d {
            Document::Policy(policy) => Some(policy),
            Document::Binding(_) => None,
        })
        .ok_or("the file holds no ValidatingAdmissionPolicy or MutatingAdmissionPolicy")?;
    let name = policy.name.clone();
    let rules = policy
        .match_constraints
        .map(|m| m.resource_rules)
        .unwrap_or_default();
    let first = |values: &[String]| values.first().cloned().unwrap_or_default();
    for rule in &rules {
        let (group, api_version, resource) = (
            first(&rule.api_groups),
            first(&rule.api_versions),
            first(&rule.resources),
        );
        let resolved = resolve_resources(version.minor(), &group, &api_version, &resource);
        if let Some(r) = resolved.iter().find(|r| r.subresource.is_empty()) {
            let api = if r.kind.group.is_empty() {
                r.kind.version.clone()
            } else {
                format!("{}/{}", r.kind.group, r.kind.version)
            };
            let mut metadata = json!({"name": "example"});
            if is_namespaced(&r.kind.group, &r.kind.kind) {
                metadata["namespace"] = json!("default");
            }
            let object = json!({"apiVersion": api, "kind": r.kind.kind, "metadata": metadata});
            return Ok((name, policy.kind.name().to_string(), object));
        }
    }
    Err(format!(
        "policy '{name}' matches no bundled kind (its resourceRules name no resource the newest bundled Kubernetes serves)"
    ))
}

/// The object as YAML lines indented by `indent` spaces (JSON flow style is valid YAML, but block
/// style is what people edit).
fn yaml_lines(value: &Json, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    if let Some(map) = value.as_object() {
        for (key, v) in map {
            if v.is_object() {
                let _ = writeln!(out, "{pad}{key}:");
                yaml_lines(v, indent + 2, out);
            } else {
                let _ = writeln!(out, "{pad}{key}: {v}");
            }
        }
    }
}

/// Runs `init`.
pub fn run(args: &InitArgs) -> i32 {
    match write_suite(&args.policy_file) {
        Ok(message) => out::emit(&message, 0),
        Err(message) => {
            out::error(&format!("admission-ls init: error: {message}"));
            EXIT_USAGE
        }
    }
}

fn write_suite(policy_file: &Path) -> Result<String, String> {
    let policy_path = policy_file.display().to_string();
    let text = disk::read_text(policy_file, Bounds::named())
        .map_err(|e| format!("cannot read {policy_path}: {e}"))?;
    let version = KubeVersion::newest();
    let (name, kind, object) =
        first_policy(&text, version).map_err(|e| format!("{policy_path}: {e}"))?;
    let target = suite_path(policy_file);
    if target.exists() {
        return Err(format!(
            "{} already exists; it is not overwritten",
            target.display()
        ));
    }
    let request = EvalRequest {
        policy_path: policy_path.clone(),
        policy_text: text.clone(),
        object: Some(object.to_string()),
        policy: Some(name.clone()),
        kube_version: version,
        ..EvalRequest::default()
    };
    let decision = evaluate(&request)?.decision.as_str().to_string();
    let file_name = policy_file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let suite = render(&name, &kind, &file_name, &object, &decision);
    std::fs::write(&target, suite)
        .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
    Ok(format!(
        "wrote {} (2 cases; run it with `admission-ls test {}`)\n",
        target.display(),
        target.display()
    ))
}

fn render(name: &str, kind: &str, file_name: &str, object: &Json, decision: &str) -> String {
    let mut out = format!(
        "# A test suite for the {kind} '{name}', written by `admission-ls init`.\n\
         # Schema: schemas/policytest.schema.json in the admission-ls repository.\n\
         apiVersion: admission-ls.dev/v1alpha1\n\
         kind: PolicyTest\n\
         metadata:\n  name: {name}\n\
         policies:\n  - {file_name}\n\
         cases:\n"
    );
    let object_kind = str_at(object, &["kind"]);
    for intent in ["allow", "deny"] {
        let noun = if intent == "allow" {
            "allowed"
        } else {
            "denied"
        };
        let article = if intent == "allow" { "an" } else { "a" };
        let _ = writeln!(out, "  - name: {article} {noun} {object_kind}");
        if decision != intent {
            let _ = writeln!(
                out,
                "    # This skeleton object is answered `{decision}` today: edit it until the policy\n    \
                 # answers `{intent}`, then set the decision below to `{intent}`."
            );
        }
        let _ = writeln!(out, "    policy: {name}\n    object:");
        yaml_lines(object, 6, &mut out);
        let _ = writeln!(out, "    expect:\n      decision: {decision}");
    }
    out
}
