//! `default` values that break an `x-kubernetes-validations` rule of their schema, refused when
//! the CRD is written (apiextensions-apiserver `pkg/apiserver/schema/defaulting/validation.go`
//! `ValidateDefaults`, called from `pkg/apis/apiextensions/validation/validation.go`).
//!
//! Each `default` under `properties` and `items` (the only places the API server looks) that is
//! valid for its schema is evaluated against every rule of that schema's subtree, as a value with
//! no old value (the ratcheting pass with the default as its own old value only turns these
//! failures into warnings, so the API server runs the rules again without one). A failure is
//! worded as a custom resource's failed rule, at `<schema path>.default` and the value's own
//! fields below it, and reported at the default's characters.

use serde_json::json;

use super::custom_resource::rule_errors;
use crate::policy::node::{entries, key_text, lookup};
use crate::policy::{Code, Diagnostic, yaml_to_json};
use crate::schema::structural::validate::validate_custom;
use crate::yaml::Node;

/// Deeper schemas are not searched for defaults.
const MAX_DEPTH: usize = 64;

/// Adds a diagnostic for every failed rule of every `default` of the schema `root` (at field path
/// `path`) for Kubernetes 1.`minor`; `true` when there was one.
pub(super) fn check(root: &Node, path: &str, minor: u32, out: &mut Vec<Diagnostic>) -> bool {
    let before = out.len();
    visit(root, path, true, 0, minor, out);
    out.len() > before
}

fn visit(
    schema: &Node,
    path: &str,
    root: bool,
    depth: usize,
    minor: u32,
    out: &mut Vec<Diagnostic>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    if let Some(default) = lookup(schema, "default") {
        check_default(schema, &default.value, path, root, minor, out);
    }
    if let Some(items) = lookup(schema, "items") {
        visit(
            &items.value,
            &format!("{path}.items"),
            false,
            depth + 1,
            minor,
            out,
        );
    }
    let properties = lookup(schema, "properties").and_then(|p| entries(&p.value));
    for property in properties.unwrap_or(&[]) {
        let Some(key) = key_text(property) else {
            continue;
        };
        let at = format!("{path}.properties[{key}]");
        visit(&property.value, &at, false, depth + 1, minor, out);
    }
}

fn check_default(
    schema: &Node,
    default: &Node,
    path: &str,
    root: bool,
    minor: u32,
    out: &mut Vec<Diagnostic>,
) {
    let (Some(schema), Some(value)) = (yaml_to_json(schema), yaml_to_json(default)) else {
        return;
    };
    // The rules run only on a default its schema accepts (`ValidateCustomResource` first).
    let wrapped = json!({"type": "object", "properties": {"default": schema}});
    if !validate_custom(&wrapped, &json!({ "default": value }), None).is_empty() {
        return;
    }
    let at = format!("{path}.default");
    for error in rule_errors(&schema, &value, &at, root, minor) {
        out.push(Diagnostic::new(Code::Invalid, default.range, error.message));
    }
}
