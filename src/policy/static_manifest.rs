//! Static admission manifests (feature ManifestBasedAdmissionControlConfig: alpha in 1.36, on by
//! default from 1.37): the rules the API server's manifest loader adds for the files of a plugin's
//! `staticManifestsDir`, in its wording (kubernetes/apiserver `pkg/admission/plugin/manifest/
//! validation.go`, `policy/manifest/loader/loader.go`, `webhook/manifest/loader/loader.go`).
//!
//! A document is a static manifest when its file is directly in a folder the project marks
//! (`check_marked`), or, from 1.37, when its name ends in `.static.k8s.io` (`check_named`): from
//! then on the API refuses such names (`ValidateStaticSuffix`), so only a static manifest can
//! carry one. A bad static manifest keeps the API server from starting: every finding is an error.
//! The rules across the files of a folder (unique names, bindings naming a policy of the folder)
//! are `StaticSet`'s.

use std::collections::BTreeMap;

use super::{Code, Diagnostic, list};
use crate::text::TextRange;
use crate::yaml::Node;

/// The suffix reserved for static manifests.
pub const STATIC_SUFFIX: &str = ".static.k8s.io";

/// The first minor with the feature (alpha, off by default).
const ALPHA_MINOR: u32 = 36;
/// The first minor where the feature is on by default (beta).
const BETA_MINOR: u32 = 37;

/// The API group and version the loader decodes into (`admissionregistrationv1` types only).
const API_VERSION: &str = "admissionregistration.k8s.io/v1";

/// What a kind is to the loader.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Policy,
    Binding,
    Webhooks,
}

fn role_of(kind: &str) -> Option<Role> {
    match kind {
        "ValidatingAdmissionPolicy" | "MutatingAdmissionPolicy" => Some(Role::Policy),
        "ValidatingAdmissionPolicyBinding" | "MutatingAdmissionPolicyBinding" => {
            Some(Role::Binding)
        }
        "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration" => Some(Role::Webhooks),
        _ => None,
    }
}

/// The admission plugin that loads a kind from its `staticManifestsDir`.
fn plugin_of(kind: &str) -> Option<&'static str> {
    match kind {
        "ValidatingAdmissionPolicy" | "ValidatingAdmissionPolicyBinding" => {
            Some("ValidatingAdmissionPolicy")
        }
        "MutatingAdmissionPolicy" | "MutatingAdmissionPolicyBinding" => {
            Some("MutatingAdmissionPolicy")
        }
        "ValidatingWebhookConfiguration" => Some("ValidatingAdmissionWebhook"),
        "MutatingWebhookConfiguration" => Some("MutatingAdmissionWebhook"),
        _ => None,
    }
}

/// The rules of one document marked as a static manifest by its name (from 1.37 only: before,
/// the suffix is an ordinary name).
pub fn check_named(root: &Node, minor: u32, diagnostics: &mut Vec<Diagnostic>) {
    if minor < BETA_MINOR {
        return;
    }
    for object in list::objects(root) {
        if name_of(object).is_some_and(|(name, _)| name.ends_with(STATIC_SUFFIX)) {
            check_object(object, false, diagnostics);
        }
    }
}

/// The rules of one document of a file in a folder marked for `staticManifestsDir`.
pub fn check_marked(root: &Node, minor: u32) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    if minor < ALPHA_MINOR {
        let at = root.get("kind").map_or(root.range, |k| k.range);
        diagnostics.push(error(
            at,
            format!(
                "staticManifestsDir requires the ManifestBasedAdmissionControlConfig feature gate to be enabled; Kubernetes 1.{minor} does not have it (alpha in 1.36, on by default from 1.37)"
            ),
        ));
        return diagnostics;
    }
    for object in list::objects(root) {
        check_object(object, true, &mut diagnostics);
    }
    diagnostics
}

fn error(range: TextRange, message: String) -> Diagnostic {
    Diagnostic::new(Code::StaticManifest, range, message)
}

/// The name and its node.
fn name_of(object: &Node) -> Option<(&str, &Node)> {
    let node = object.get("metadata")?.get("name")?;
    Some((node.as_str()?, node))
}

/// The per-object rules; `marked`: the folder says it is static (the name suffix is then a rule,
/// not the marker).
fn check_object(object: &Node, marked: bool, diagnostics: &mut Vec<Diagnostic>) {
    let kind = object.get("kind").and_then(Node::as_str).unwrap_or("");
    let version = object
        .get("apiVersion")
        .and_then(Node::as_str)
        .unwrap_or("");
    let role = role_of(kind).filter(|_| version == API_VERSION);
    let Some(role) = role else {
        let at = object.get("apiVersion").map_or(object.range, |n| n.range);
        diagnostics.push(error(
            at,
            format!(
                "unsupported resource type {version}, Kind={kind}; a static manifest is an {API_VERSION} ValidatingAdmissionPolicy, MutatingAdmissionPolicy, their bindings, a ValidatingWebhookConfiguration or MutatingWebhookConfiguration, or a List of them"
            ),
        ));
        return;
    };
    let Some((name, name_node)) = name_of(object) else {
        // A missing name is already `required` by the structural validation.
        return;
    };
    if marked && !name.ends_with(STATIC_SUFFIX) {
        diagnostics.push(error(
            name_node.range,
            format!("{kind} {name:?} must have a name ending with {STATIC_SUFFIX:?}"),
        ));
    }
    let spec = object.get("spec");
    match role {
        Role::Policy => {
            if let Some(param_kind) = spec.and_then(|s| s.entry("paramKind")) {
                diagnostics.push(error(
                    param_kind.key.range,
                    format!(
                        "{kind} {name:?}: spec.paramKind is not supported for static manifests"
                    ),
                ));
            }
        }
        Role::Binding => check_binding(kind, name, object, spec, diagnostics),
        Role::Webhooks => check_webhooks(name, object, diagnostics),
    }
}

fn check_binding(
    kind: &str,
    name: &str,
    object: &Node,
    spec: Option<&Node>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let policy = spec.and_then(|s| s.get("policyName"));
    match policy.and_then(|p| p.as_str().map(|s| (s, p))) {
        Some((policy_name, node)) if !policy_name.is_empty() => {
            if !policy_name.ends_with(STATIC_SUFFIX) {
                diagnostics.push(error(
                    node.range,
                    format!(
                        "{kind} {name:?}: spec.policyName {policy_name:?} must end with {STATIC_SUFFIX:?}"
                    ),
                ));
            }
        }
        _ => diagnostics.push(error(
            policy.or(spec).map_or(object.range, |n| n.range),
            format!("{kind} {name:?} must reference a policy (spec.policyName)"),
        )),
    }
    if let Some(param_ref) = spec.and_then(|s| s.entry("paramRef")) {
        diagnostics.push(error(
            param_ref.key.range,
            format!("{kind} {name:?}: spec.paramRef is not supported for static manifests"),
        ));
    }
}

/// Webhooks of a static configuration call a URL: a service reference is not supported.
fn check_webhooks(config_name: &str, object: &Node, diagnostics: &mut Vec<Diagnostic>) {
    let webhooks = object.get("webhooks").and_then(Node::as_sequence);
    for webhook in webhooks.into_iter().flatten() {
        let webhook_name = webhook.get("name").and_then(Node::as_str).unwrap_or("");
        let client = webhook.entry("clientConfig");
        let service = client.and_then(|c| c.value.entry("service"));
        let url = client
            .and_then(|c| c.value.get("url"))
            .and_then(Node::as_str)
            .filter(|u| !u.is_empty());
        let (at, problem) = match (service, url) {
            (Some(service), _) => (
                service.key.range,
                "clientConfig.service is not supported for static manifests; use clientConfig.url instead",
            ),
            (None, None) => (
                client.map_or(webhook.range, |c| c.key.range),
                "clientConfig.url is required for static manifests",
            ),
            (None, Some(_)) => continue,
        };
        diagnostics.push(error(
            at,
            format!("webhook {webhook_name:?} in {config_name:?}: {problem}"),
        ));
    }
}

/// The names of the static manifests of one folder, to check the rules across its files: a name
/// is unique per kind, and a binding names a policy of the folder. Files are added in the order
/// the loader reads them (sorted by name).
#[derive(Default)]
pub struct StaticSet {
    /// The plugin the folder's first object belongs to, with that object's file: each admission
    /// plugin has a `staticManifestsDir` of its own and loads only its kinds.
    plugin: Option<(&'static str, String)>,
    /// (kind, name) → the file it was first seen in.
    seen: BTreeMap<(String, String), String>,
    /// Policy kind → names.
    policies: BTreeMap<String, Vec<String>>,
    /// Bindings: (file index, range of policyName, binding kind, binding name, policy name).
    bindings: Vec<(usize, TextRange, String, String, String)>,
}

impl StaticSet {
    /// Adds the objects of one document of the `index`th file (`path` as printed); returns the
    /// duplicate-name findings of the document.
    pub fn add(&mut self, index: usize, path: &str, root: &Node) -> Vec<Diagnostic> {
        let mut found = Vec::new();
        for object in list::objects(root) {
            let kind = object.get("kind").and_then(Node::as_str).unwrap_or("");
            let version = object.get("apiVersion").and_then(Node::as_str);
            // The loader stops at an object of another version before it looks at names.
            let Some(role) = role_of(kind).filter(|_| version == Some(API_VERSION)) else {
                continue;
            };
            let Some((name, name_node)) = name_of(object) else {
                continue;
            };
            if let Some(finding) = self.other_plugin(kind, path, object) {
                found.push(finding);
                continue;
            }
            let key = (kind.to_owned(), name.to_owned());
            if let Some(first) = self.seen.get(&key) {
                found.push(error(
                    name_node.range,
                    format!("duplicate {kind} name {name:?} found in file {path:?} (previously seen in {first:?})"),
                ));
                continue;
            }
            self.seen.insert(key, path.to_owned());
            match role {
                Role::Policy => self
                    .policies
                    .entry(kind.to_owned())
                    .or_default()
                    .push(name.to_owned()),
                Role::Binding => self.add_binding(index, kind, name, object),
                Role::Webhooks => {}
            }
        }
        found
    }

    /// An object of another plugin than the folder's first: every plugin's loader refuses the
    /// kinds it does not load ("unsupported resource type").
    fn other_plugin(&mut self, kind: &str, path: &str, object: &Node) -> Option<Diagnostic> {
        let plugin = plugin_of(kind)?;
        match &self.plugin {
            None => {
                self.plugin = Some((plugin, path.to_owned()));
                None
            }
            Some((first, _)) if *first == plugin => None,
            Some((first, first_path)) => {
                let at = object.get("kind").map_or(object.range, |k| k.range);
                Some(error(
                    at,
                    format!(
                        "unsupported resource type {API_VERSION}, Kind={kind}: each admission plugin has its own staticManifestsDir, and this folder holds the {first} plugin's manifests (first in {first_path:?})"
                    ),
                ))
            }
        }
    }

    fn add_binding(&mut self, index: usize, kind: &str, name: &str, object: &Node) {
        let Some(node) = object.get("spec").and_then(|s| s.get("policyName")) else {
            return;
        };
        if let Some(policy) = node.as_str().filter(|p| !p.is_empty()) {
            let binding = (kind.to_owned(), name.to_owned(), policy.to_owned());
            self.bindings
                .push((index, node.range, binding.0, binding.1, binding.2));
        }
    }

    /// The bindings that name a policy the folder does not hold: (file index, finding).
    pub fn missing_policies(&self) -> Vec<(usize, Diagnostic)> {
        let mut found = Vec::new();
        for (index, range, kind, name, policy) in &self.bindings {
            let policy_kind = kind.trim_end_matches("Binding");
            let known = self
                .policies
                .get(policy_kind)
                .is_some_and(|names| names.contains(policy));
            if !known {
                found.push((
                    *index,
                    error(
                        *range,
                        format!("{kind} {name:?} references policy {policy:?} which does not exist in the manifest directory"),
                    ),
                ));
            }
        }
        found
    }
}
