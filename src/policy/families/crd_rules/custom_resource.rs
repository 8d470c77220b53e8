//! A custom resource validated against its CRD as the API server does on create and update
//! (apiextensions-apiserver `pkg/registry/customresource/strategy.go`): decoded first (pruned,
//! `metadata` coerced, defaulted: [`crate::schema::structural`]), then its values against the
//! structural schema ([`crate::schema::structural::validate`]), then every
//! `x-kubernetes-validations` rule at the nodes the object has
//! (`pkg/apiserver/schema/cel/validation.go`): `oldSelf` bound where the old object has the
//! correlated value (an object's property, a map's value, a `map` list's item with the same keys),
//! transition rules skipped without one unless `optionalOldSelf`, and, on update, unchanged values
//! not validated again (ratcheting).
//!
//! A failed rule reads as the validator of the target version words it: `<path>: Invalid value:
//! <value>: <message>` (the value as [`super::bad_value`] shows it), the message being the
//! `messageExpression`'s value, else `message`, else `failed rule: <rule>`; `reason` picks the
//! error type and `fieldPath` the path.

use serde_json::Value as Json;

use super::bad_value;
use super::eval::{RuleOptions, RuleOutcome, compile_message_expression, compile_node_rule};
use crate::policy::admission::explain;
use crate::schema::CrdKind;
use crate::schema::structural::validate::{FieldError, validate_custom};
use crate::schema::structural::{Decoded, decode_crd_object};

/// What the API server says when a type error keeps it from running the rules.
const NOT_CHECKED: &str = "Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/// Deeper values are not walked for rules.
const MAX_DEPTH: usize = 128;

/// The outcome of validating one custom resource.
#[derive(Clone, Debug)]
pub struct CustomResourceCheck {
    /// The object as decoded (pruned, defaulted): what rules see and what would be stored.
    pub object: Json,
    /// What decoding did.
    pub decoded: Decoded,
    /// Every error, schema errors first, then failed rules.
    pub errors: Vec<FieldError>,
}

/// Validates `object` (with `old` on update) against the CRD version `crd`, for Kubernetes
/// 1.`minor`.
pub fn validate_custom_resource(
    crd: &CrdKind,
    object: &Json,
    old: Option<&Json>,
    minor: u32,
) -> CustomResourceCheck {
    let mut object = object.clone();
    let decoded = decode_crd_object(crd, &mut object);
    let old = old.map(|old| {
        let mut old = old.clone();
        decode_crd_object(crd, &mut old);
        old
    });
    let mut errors: Vec<FieldError> = decoded
        .errors
        .iter()
        .map(|e| FieldError::new("metadata", "FieldValueInvalid", e.clone()))
        .collect();
    if let Some(schema) = crd.schema.as_deref() {
        errors.extend(validate_custom(schema, &object, old.as_ref()));
        // A value of the wrong type blocks the rules (`hasBlockingErr` in the CR strategy).
        if errors.iter().any(|e| e.kind == "FieldValueTypeInvalid") {
            errors.push(FieldError::new(
                "<nil>",
                "FieldValueInvalid",
                NOT_CHECKED.to_string(),
            ));
        } else {
            let walk = Walk { minor };
            walk.node(schema, &object, old.as_ref(), "", true, 0, &mut errors);
        }
    }
    CustomResourceCheck {
        object,
        decoded,
        errors,
    }
}

/// The failed rules of `value` under `schema` (no old value), with field paths from `path`: how
/// the API server checks a schema's `default` against the rules below it.
pub(super) fn rule_errors(
    schema: &Json,
    value: &Json,
    path: &str,
    resource_root: bool,
    minor: u32,
) -> Vec<FieldError> {
    let mut out = Vec::new();
    Walk { minor }.node(schema, value, None, path, resource_root, 0, &mut out);
    out
}

struct Walk {
    minor: u32,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

impl Walk {
    #[allow(clippy::too_many_arguments)]
    fn node(
        &self,
        schema: &Json,
        value: &Json,
        old: Option<&Json>,
        path: &str,
        resource_root: bool,
        depth: usize,
        out: &mut Vec<FieldError>,
    ) {
        if depth > MAX_DEPTH || value.is_null() || old == Some(value) {
            return; // nothing to validate, or unchanged on update (ratcheting)
        }
        self.rules(schema, value, old, path, resource_root, out);
        match value {
            Json::Object(fields) => {
                let properties = schema.get("properties").and_then(Json::as_object);
                let values = schema.get("additionalProperties").filter(|v| v.is_object());
                for (key, child) in fields {
                    let Some(child_schema) = properties.and_then(|p| p.get(key)).or(values) else {
                        continue;
                    };
                    let embedded = child_schema.get("x-kubernetes-embedded-resource")
                        == Some(&Json::Bool(true));
                    let old_child = old.and_then(|o| o.get(key));
                    let at = join(path, key);
                    self.node(
                        child_schema,
                        child,
                        old_child,
                        &at,
                        embedded,
                        depth + 1,
                        out,
                    );
                }
            }
            Json::Array(items) => {
                let Some(item_schema) = schema.get("items") else {
                    return;
                };
                let keys = map_keys(schema);
                for (i, item) in items.iter().enumerate() {
                    let old_item = correlated(&keys, item, old);
                    let at = format!("{path}[{i}]");
                    self.node(item_schema, item, old_item, &at, false, depth + 1, out);
                }
            }
            _ => {}
        }
    }

    fn rules(
        &self,
        schema: &Json,
        value: &Json,
        old: Option<&Json>,
        path: &str,
        resource_root: bool,
        out: &mut Vec<FieldError>,
    ) {
        let Some(rules) = schema
            .get("x-kubernetes-validations")
            .and_then(Json::as_array)
        else {
            return;
        };
        for (index, rule) in rules.iter().enumerate() {
            let text = |key: &str| rule.get(key).and_then(Json::as_str).unwrap_or("");
            let options = RuleOptions {
                minor: self.minor,
                resource_root,
                optional_old_self: rule.get("optionalOldSelf") == Some(&Json::Bool(true)),
            };
            // A rule that does not compile is the CRD's problem (reported on the CRD).
            let Ok(compiled) = compile_node_rule(schema, text("rule"), options) else {
                continue;
            };
            let label = |what: &str| {
                let at = if path.is_empty() { "<root>" } else { path };
                format!("{at} x-kubernetes-validations[{index}].{what}")
            };
            let outcome = explain::labelled(|| label("rule"), || compiled.evaluate(value, old));
            let detail = match outcome {
                Ok(RuleOutcome::Pass | RuleOutcome::Skipped) => continue,
                Ok(RuleOutcome::Fail) => explain::labelled(
                    || label("messageExpression"),
                    || failure_message(schema, rule, value, old, options),
                ),
                Err(error) => error,
            };
            let shown = bad_value::shown(node_type(schema), value, self.minor);
            out.push(rule_error(rule, path, shown.as_deref(), &detail));
        }
    }
}

/// The message of a failed rule: the messageExpression's value, else `message`, else
/// `failed rule: <rule>`.
fn failure_message(
    schema: &Json,
    rule: &Json,
    value: &Json,
    old: Option<&Json>,
    options: RuleOptions,
) -> String {
    let text = |key: &str| {
        rule.get(key)
            .and_then(Json::as_str)
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let fallback = if text("message").is_empty() {
        format!("failed rule: {}", text("rule"))
    } else {
        text("message")
    };
    let expression = text("messageExpression");
    if expression.is_empty() {
        return fallback;
    }
    compile_message_expression(schema, &expression, options)
        .and_then(|compiled| compiled.message(value, old))
        .map(|m| m.trim().to_string())
        .ok()
        .filter(|m| !m.is_empty() && !m.contains('\n'))
        .unwrap_or(fallback)
}

/// The field error of a failed rule: `fieldPath` appended to the path, `reason` its type, the bad
/// value `shown` as the target version prints it (none: omitted).
fn rule_error(rule: &Json, path: &str, shown: Option<&str>, detail: &str) -> FieldError {
    let field_path = rule.get("fieldPath").and_then(Json::as_str).unwrap_or("");
    let path = format!("{path}{}", keyed_path(field_path));
    let path = path.trim_start_matches('.').to_string();
    let with_value = |what: &str| match shown {
        Some(value) => format!("{what}: {value}"),
        None => what.to_string(),
    };
    match rule.get("reason").and_then(Json::as_str) {
        Some("FieldValueForbidden") => {
            FieldError::new(&path, "FieldValueForbidden", format!("Forbidden: {detail}"))
        }
        Some("FieldValueRequired") => FieldError::new(
            &path,
            "FieldValueRequired",
            format!("Required value: {detail}"),
        ),
        Some("FieldValueDuplicate") => {
            FieldError::new(&path, "FieldValueDuplicate", with_value("Duplicate value"))
        }
        _ => FieldError::new(
            &path,
            "FieldValueInvalid",
            format!("{}: {detail}", with_value("Invalid value")),
        ),
    }
}

/// The schema node's `type` (empty when it has none).
fn node_type(schema: &Json) -> &str {
    schema.get("type").and_then(Json::as_str).unwrap_or("")
}

/// A rule's `fieldPath` (`.a.b`, `.labels['x.y']`) as a field path suffix (`.a.b`, `.labels[x.y]`).
fn keyed_path(field_path: &str) -> String {
    field_path.replace("['", "[").replace("']", "]")
}

/// The `x-kubernetes-list-map-keys` of a `map` list's schema (empty for other lists).
fn map_keys(schema: &Json) -> Vec<String> {
    if schema.get("x-kubernetes-list-type").and_then(Json::as_str) != Some("map") {
        return Vec::new();
    }
    schema
        .get("x-kubernetes-list-map-keys")
        .and_then(Json::as_array)
        .map(|keys| {
            keys.iter()
                .filter_map(Json::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The old list's item with the same map keys as `item` (only `map` lists correlate).
fn correlated<'a>(keys: &[String], item: &Json, old: Option<&'a Json>) -> Option<&'a Json> {
    if keys.is_empty() {
        return None;
    }
    let key_of =
        |v: &Json| -> Vec<Option<Json>> { keys.iter().map(|k| v.get(k).cloned()).collect() };
    let wanted = key_of(item);
    old?.as_array()?.iter().find(|o| key_of(o) == wanted)
}
