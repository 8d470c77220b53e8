//! A Constraint read as the binding of its template: its kind must be one a ConstraintTemplate of
//! the workspace creates (frameworks `crds.go`: served in `v1beta1` and `v1alpha1`), its object is
//! checked against that CRD's schema as the API server does (`spec.parameters` against the
//! template's schema, `spec.match` against Gatekeeper's match schema; unknown fields are pruned),
//! and `spec.enforcementAction` is one Gatekeeper's webhook accepts (gatekeeper
//! `pkg/util/enforcement_action.go` `ValidateEnforcementAction`).

use serde_json::Value as Json;

use super::CONSTRAINTS;
use crate::policy::admission::json::yaml_to_json;
use crate::policy::workspace::Workspace;
use crate::policy::{Code, Diagnostic};
use crate::schema::structural::Schema;
use crate::schema::structural::prune::prune;
use crate::schema::structural::validate::validate_custom;
use crate::text::TextRange;
use crate::yaml::Node;

/// The enforcement actions Gatekeeper supports (`supportedEnforcementActions`).
const ACTIONS: &[&str] = &["deny", "dryrun", "warn", "scoped"];

/// Every diagnostic of a Constraint.
pub fn check(root: &Node, workspace: &Workspace, out: &mut Vec<Diagnostic>) {
    let Some(api_version) = root.get("apiVersion") else {
        return;
    };
    let version = api_version
        .as_str()
        .and_then(|v| v.split_once('/'))
        .map_or("", |(_, v)| v);
    let kind_node = root.get("kind");
    let kind = kind_node.and_then(Node::as_str).unwrap_or("");
    if !super::crd::VERSIONS.contains(&version) {
        let message = format!(
            "apiVersion: Unsupported value: \"{CONSTRAINTS}/{version}\": Gatekeeper serves Constraints in {}",
            super::crd::VERSIONS.join(", ")
        );
        out.push(Diagnostic::new(
            Code::NotSupported,
            api_version.range,
            message,
        ));
        return;
    }
    enforcement_action(root, out);
    let candidates = workspace.crd_kinds(CONSTRAINTS, version, kind);
    if candidates.is_empty() {
        let range = kind_node.map_or(api_version.range, |n| n.range);
        let message = format!(
            "kind: no ConstraintTemplate in the workspace creates the Constraint kind \"{kind}\" (its spec.crd.spec.names.kind); the Constraint is not checked against its parameters' schema"
        );
        out.push(Diagnostic::new(Code::UnresolvedReference, range, message));
        return;
    }
    let Some(object) = yaml_to_json(root) else {
        return;
    };
    // Several templates may create the kind (versions of one template side by side): only what
    // every one of their schemas finds is reported.
    let mut agreed: Option<Vec<Diagnostic>> = None;
    for schema in candidates.iter().filter_map(|crd| crd.schema.as_deref()) {
        let mut found = Vec::new();
        schema_errors(root, schema, &mut object.clone(), &mut found);
        agreed = Some(match agreed {
            None => found,
            Some(before) => before.into_iter().filter(|d| found.contains(d)).collect(),
        });
    }
    out.extend(agreed.unwrap_or_default());
}

/// The pruned fields (warnings) and the schema errors of the object.
fn schema_errors(root: &Node, schema: &Json, object: &mut Json, out: &mut Vec<Diagnostic>) {
    for path in prune(object, Some(Schema(schema)), true) {
        if path.starts_with("metadata") || path.starts_with("status") {
            continue;
        }
        let message = format!(
            "{path}: unknown field \"{}\": the Constraint's CRD (made from its template) does not declare it; the API server drops it",
            last_segment(&path)
        );
        let range = key_range(root, &path);
        out.push(Diagnostic::new(Code::UnknownField, range, message));
    }
    for error in validate_custom(schema, object, None) {
        let code = match error.kind {
            "FieldValueRequired" => Code::Required,
            "FieldValueNotSupported" => Code::NotSupported,
            "FieldValueTooLong" | "FieldValueTooMany" => Code::TooMany,
            "FieldValueDuplicate" => Code::Duplicate,
            "FieldValueForbidden" => Code::Forbidden,
            _ => Code::Invalid,
        };
        let range = value_range(root, &error.field);
        out.push(Diagnostic::new(code, range, error.message));
    }
}

/// `spec.enforcementAction`, when written, is a supported action.
fn enforcement_action(root: &Node, out: &mut Vec<Diagnostic>) {
    let Some(node) = root.get("spec").and_then(|s| s.get("enforcementAction")) else {
        return;
    };
    let Some(action) = node.as_str() else {
        return;
    };
    if !ACTIONS.contains(&action) {
        let message = format!(
            "spec.enforcementAction: unrecognized enforcementAction: \"{action}\" is not within the supported list [{}]",
            ACTIONS.join(" ")
        );
        out.push(Diagnostic::new(Code::NotSupported, node.range, message));
    }
}

fn last_segment(path: &str) -> &str {
    let last = path.rsplit('.').next().unwrap_or(path);
    last.split('[').next().unwrap_or(last)
}

/// The steps of a field path such as `spec.parameters.labels[0].key`.
fn steps(path: &str) -> Vec<Step<'_>> {
    let mut steps = Vec::new();
    for part in path.split('.') {
        let mut pieces = part.split('[');
        if let Some(key) = pieces.next().filter(|k| !k.is_empty()) {
            steps.push(Step::Key(key));
        }
        for index in pieces {
            if let Ok(i) = index.trim_end_matches(']').parse() {
                steps.push(Step::Index(i));
            }
        }
    }
    steps
}

enum Step<'p> {
    Key(&'p str),
    Index(usize),
}

/// The node at `path` as far as it exists, with the key range of its last key.
fn walk<'n>(root: &'n Node, path: &str) -> (&'n Node, Option<TextRange>) {
    let mut node = root;
    let mut key = None;
    for step in steps(path) {
        match step {
            Step::Key(name) => {
                let Some(entry) = node.entry(name) else { break };
                key = Some(entry.key.range);
                node = &entry.value;
            }
            Step::Index(i) => {
                let Some(item) = node.as_sequence().and_then(|items| items.get(i)) else {
                    break;
                };
                key = None;
                node = item;
            }
        }
    }
    (node, key)
}

/// The range of the key at `path` (the node when the path ends at a list item).
fn key_range(root: &Node, path: &str) -> TextRange {
    let (node, key) = walk(root, path);
    key.unwrap_or(node.range)
}

/// The range of the value at `path`, as far as it exists.
fn value_range(root: &Node, path: &str) -> TextRange {
    walk(root, path).0.range
}
