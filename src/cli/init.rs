//! `admission-ls init POLICY_FILE`: writes `<policy>.test.yaml` beside the policy, a `kind:
//! PolicyTest` suite with two cases whose object is a skeleton of the first kind the policy's
//! `matchConstraints` match ([`super::init_skeleton`]): "allowed" and "denied" for a validating
//! policy, "mutated" (with the expected object) and "left alone" for a mutating one; a policy with a
//! `paramKind` gets a params object in each case, and a custom resource's CRD found beside the
//! policy is listed in `resources:`. Each expectation is the decision the policy gives that
//! skeleton now (evaluated here), so the new suite passes when run; where the skeleton does not get
//! the decision the case is named for, a comment says to edit the object until it does.
//!
//! Only the suite file is written: it is created new (never overwritten, never through a symlink,
//! dangling or not), and every name written into it is quoted where YAML needs it.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use admission_ls::ide::KubeVersion;
use admission_ls::ide::run::{EvalRequest, evaluate};
use admission_ls::lsp::disk::{self, Bounds};
use admission_ls::policy::admission::json::str_at;
use admission_ls::policy::admission::view::{self, Binding, Document, Policy};
use admission_ls::schema::resources::{is_namespaced, resolve_resources};
use admission_ls::yaml;
use serde_json::Value as Json;

use super::init_skeleton::{self as skeleton, FoundCrd, Kind};
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

/// What the suite is written from.
struct Plan {
    policy: Policy,
    object: Json,
    params: Option<Json>,
    namespace: Option<Json>,
    crd: Option<FoundCrd>,
}

/// The first policy of `text`, and the first binding of it there (the one a case runs with).
fn first_policy(text: &str) -> Result<(Policy, Option<Binding>), String> {
    let file = yaml::parse(text);
    if let Some(error) = file.errors.first() {
        return Err(format!("YAML syntax error: {}", error.message));
    }
    let roots = file.documents.iter().filter_map(|d| d.root.as_ref());
    let documents: Vec<Document> = roots.filter_map(view::read).collect();
    let policy = documents
        .iter()
        .find_map(|d| match d {
            Document::Policy(policy) => Some(policy.clone()),
            Document::Binding(_) => None,
        })
        .ok_or_else(|| {
            "the file holds no ValidatingAdmissionPolicy or MutatingAdmissionPolicy".to_string()
        })?;
    let binding = documents.into_iter().find_map(|d| match d {
        Document::Binding(b) if b.policy_name == policy.name => Some(b),
        _ => None,
    });
    Ok((policy, binding))
}

/// The first kind the policy's resource rules match: a bundled kind, else a custom resource whose
/// CRD is in a YAML file beside the policy.
fn matched_kind(
    policy: &Policy,
    dir: &Path,
    version: KubeVersion,
) -> Result<(Kind, Option<FoundCrd>), String> {
    let rules = policy
        .match_constraints
        .as_ref()
        .map(|m| m.resource_rules.clone())
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
            let (group, kind) = (&r.kind.group, &r.kind.kind);
            let api_version = if group.is_empty() {
                r.kind.version.clone()
            } else {
                format!("{group}/{}", r.kind.version)
            };
            let kind = Kind {
                api_version,
                kind: kind.clone(),
                namespaced: is_namespaced(group, kind),
                spec: skeleton::builtin_spec(group, kind),
            };
            return Ok((kind, None));
        }
        if let Some(crd) = skeleton::find_crd(dir, &group, &api_version, &resource) {
            return Ok((crd.kind.clone(), Some(crd)));
        }
    }
    Err(format!(
        "policy '{}' matches no bundled kind and no CustomResourceDefinition in the policy's folder serves what it matches",
        policy.name
    ))
}

/// The object as YAML lines indented by `indent` spaces (JSON flow style is valid YAML, but block
/// style is what people edit); keys and strings quoted as JSON (a YAML double-quoted scalar).
fn yaml_lines(value: &Json, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    if let Some(map) = value.as_object() {
        for (key, v) in map {
            let key = scalar(key);
            if v.as_object().is_some_and(|m| !m.is_empty()) {
                let _ = writeln!(out, "{pad}{key}:");
                yaml_lines(v, indent + 2, out);
            } else {
                let _ = writeln!(out, "{pad}{key}: {v}");
            }
        }
    }
}

/// `text` as a YAML scalar that reads back as the same string: plain when it is a simple name,
/// else double-quoted (JSON's escapes are YAML's), so `#`, `: `, brackets, quotes, leading
/// indicators and words YAML reads as other types (`true`, `null`, `1.5`) stay strings.
fn scalar(text: &str) -> String {
    let simple = text.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && !text.ends_with(' ')
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '/' | ' '))
        && !matches!(
            text.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | "null"
        );
    if simple {
        text.to_owned()
    } else {
        Json::String(text.to_owned()).to_string()
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

/// Refuses a suite path that exists in any form, a symlink (even a dangling one) included.
fn refuse_existing(target: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(target) {
        Ok(meta) if meta.file_type().is_symlink() => Err(format!(
            "{} is a symbolic link; it is not written through",
            target.display()
        )),
        Ok(_) => Err(format!(
            "{} already exists; it is not overwritten",
            target.display()
        )),
        Err(_) => Ok(()),
    }
}

/// Creates `target` with `text`; `create_new` (O_CREAT|O_EXCL) fails on anything already there,
/// a symlink included, so nothing is written outside the named file even if one appears meanwhile.
fn create_new(target: &Path, text: &str) -> Result<(), String> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(target)
        .map_err(|e| {
            format!(
                "cannot create {}: {}",
                target.display(),
                disk::io_message(&e)
            )
        })?;
    file.write_all(text.as_bytes()).map_err(|e| {
        format!(
            "cannot write {}: {}",
            target.display(),
            disk::io_message(&e)
        )
    })
}

fn write_suite(policy_file: &Path) -> Result<String, String> {
    let policy_path = policy_file.display().to_string();
    let text = disk::read_text(policy_file, Bounds::named())
        .map_err(|e| format!("cannot read {policy_path}: {e}"))?;
    let version = KubeVersion::newest();
    let plan = plan(policy_file, &text, version).map_err(|e| format!("{policy_path}: {e}"))?;
    let target = suite_path(policy_file);
    refuse_existing(&target)?;
    let request = EvalRequest {
        policy_path: policy_path.clone(),
        policy_text: text.clone(),
        object: Some(plan.object.to_string()),
        params: plan.params.as_ref().map(Json::to_string),
        namespace: plan.namespace.as_ref().map(Json::to_string),
        policy: Some(plan.policy.name.clone()),
        kube_version: version,
        schemas: plan
            .crd
            .iter()
            .map(|c| (c.path.display().to_string(), c.text.clone()))
            .collect(),
        ..EvalRequest::default()
    };
    let outcome = evaluate(&request)?;
    let file_name = |path: &Path| {
        path.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    };
    let names = Names {
        policy_file: file_name(policy_file),
        crd_file: plan.crd.as_ref().map(|c| file_name(&c.path)),
    };
    let decision = outcome.decision.as_str().to_string();
    let suite = render(&plan, &names, &decision, outcome.object.as_ref());
    create_new(&target, &suite)?;
    Ok(format!(
        "wrote {} (2 cases; run it with `admission-ls test {}`)\n",
        target.display(),
        target.display()
    ))
}

fn plan(policy_file: &Path, text: &str, version: KubeVersion) -> Result<Plan, String> {
    let (policy, binding) = first_policy(text)?;
    let dir = policy_file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let (kind, crd) = matched_kind(&policy, dir, version)?;
    // What the policy and its binding select on: the skeleton and its namespace carry the labels.
    let resources = [
        policy.match_constraints.as_ref(),
        binding.as_ref().and_then(|b| b.match_resources.as_ref()),
    ];
    let object_selectors: Vec<_> = resources
        .iter()
        .flatten()
        .filter_map(|r| r.object_selector.as_ref())
        .collect();
    let namespace_selectors: Vec<_> = resources
        .iter()
        .flatten()
        .filter_map(|r| r.namespace_selector.as_ref())
        .collect();
    let object = skeleton::object(&kind, &object_selectors);
    let namespace = kind
        .namespaced
        .then(|| skeleton::namespace(&namespace_selectors))
        .flatten();
    let params = policy.param_kind.as_ref().map(skeleton::params);
    Ok(Plan {
        policy,
        object,
        params,
        namespace,
        crd,
    })
}

/// The file names the suite refers to, relative to its folder.
struct Names {
    policy_file: String,
    crd_file: Option<String>,
}

/// One case the suite is written with: its name's words and the decision it is named for.
struct Intent {
    name: String,
    decision: &'static str,
}

fn intents(mutating: bool, object_kind: &str) -> [Intent; 2] {
    let intent = |name: String, decision| Intent { name, decision };
    if mutating {
        [
            intent(format!("a mutated {object_kind}"), "allow"),
            intent(format!("a {object_kind} left alone"), "skip"),
        ]
    } else {
        [
            intent(format!("an allowed {object_kind}"), "allow"),
            intent(format!("a denied {object_kind}"), "deny"),
        ]
    }
}

fn render(plan: &Plan, names: &Names, decision: &str, mutated: Option<&Json>) -> String {
    let policy = &plan.policy;
    let (kind, name) = (policy.kind.name(), scalar(&policy.name));
    let mut out = format!(
        "# A test suite for the {kind} '{}', written by `admission-ls init`.\n\
         # Schema: schemas/policytest.schema.json in the admission-ls repository.\n\
         apiVersion: admission-ls.dev/v1alpha1\n\
         kind: PolicyTest\n\
         metadata:\n  name: {name}\n\
         policies:\n  - {}\n",
        policy.name.replace('\n', " "),
        scalar(&names.policy_file),
    );
    if let Some(crd_file) = &names.crd_file {
        let _ = writeln!(out, "resources:\n  - {}", scalar(crd_file));
    }
    out.push_str("cases:\n");
    let object_kind = str_at(&plan.object, &["kind"]);
    let mutating = kind.starts_with("Mutating");
    // A mutating policy that changed the skeleton: the case expects the object it produced.
    let changed = mutated.filter(|object| mutating && **object != plan.object);
    for intent in intents(mutating, object_kind) {
        let wanted = intent.decision;
        let _ = writeln!(out, "  - name: {}", scalar(&intent.name));
        let gets_it = decision == wanted && (wanted == "skip" || !mutating || changed.is_some());
        if !gets_it {
            let today = if mutating && decision == "allow" && changed.is_none() {
                "allowed unchanged".to_string()
            } else {
                format!("answered `{decision}`")
            };
            let _ = writeln!(
                out,
                "    # This skeleton object is {today} today: edit it until the policy\n    \
                 # answers `{wanted}`{}, then set the decision below to `{wanted}`.",
                if mutating && wanted == "allow" {
                    " with a change (and write the object it makes below)"
                } else {
                    ""
                }
            );
        }
        let _ = writeln!(out, "    policy: {name}\n    object:");
        yaml_lines(&plan.object, 6, &mut out);
        if let Some(params) = &plan.params {
            out.push_str("    params:\n");
            yaml_lines(params, 6, &mut out);
        }
        if let Some(namespace) = &plan.namespace {
            out.push_str("    namespace:\n");
            yaml_lines(namespace, 6, &mut out);
        }
        let _ = writeln!(out, "    expect:\n      decision: {decision}");
        if let Some(object) = changed.filter(|_| wanted == "allow") {
            out.push_str("      object:\n");
            yaml_lines(object, 8, &mut out);
        }
    }
    out
}
