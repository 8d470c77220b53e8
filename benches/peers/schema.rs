//! A JSON schema of the policy kinds' structure (no CEL), for yaml-language-server's `yaml.schemas`
//! setting: what a user would configure to get editor checks of these files without admission-ls.

use serde_json::{Value, json};

fn strings() -> Value {
    json!({"type": "array", "items": {"type": "string"}})
}

fn expression_list(extra: Value) -> Value {
    let mut properties = json!({"expression": {"type": "string"}});
    if let (Some(p), Some(e)) = (properties.as_object_mut(), extra.as_object()) {
        p.extend(e.clone());
    }
    json!({"type": "array", "items": {"type": "object", "required": ["expression"],
        "properties": properties, "additionalProperties": false}})
}

fn spec() -> Value {
    let rule = json!({"type": "object", "additionalProperties": false, "properties": {
        "apiGroups": strings(), "apiVersions": strings(), "operations": strings(),
        "resources": strings(), "scope": {"type": "string"}}});
    json!({"type": "object", "additionalProperties": false, "properties": {
        "failurePolicy": {"enum": ["Fail", "Ignore"]},
        "paramKind": {"type": "object", "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"}}},
        "matchConstraints": {"type": "object", "properties": {
            "resourceRules": {"type": "array", "items": rule},
            "matchPolicy": {"enum": ["Exact", "Equivalent"]}}},
        "variables": {"type": "array", "items": {"type": "object", "required": ["name", "expression"],
            "properties": {"name": {"type": "string"}, "expression": {"type": "string"}}}},
        "matchConditions": {"type": "array", "items": {"type": "object", "required": ["name", "expression"],
            "properties": {"name": {"type": "string"}, "expression": {"type": "string"}}}},
        "validations": expression_list(json!({"message": {"type": "string"},
            "messageExpression": {"type": "string"},
            "reason": {"enum": ["Unauthorized", "Forbidden", "Invalid", "RequestEntityTooLarge"]}})),
        "auditAnnotations": {"type": "array", "items": {"type": "object",
            "properties": {"key": {"type": "string"}, "valueExpression": {"type": "string"}}}}}})
}

/// The schema: a ValidatingAdmissionPolicy with metadata and a typed `spec`.
pub fn validating_admission_policy() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "required": ["apiVersion", "kind", "metadata", "spec"],
        "properties": {
            "apiVersion": {"const": "admissionregistration.k8s.io/v1"},
            "kind": {"enum": ["ValidatingAdmissionPolicy"]},
            "metadata": {"type": "object", "required": ["name"],
                "properties": {"name": {"type": "string"}, "labels": {"type": "object"}}},
            "spec": spec()
        }
    })
}
