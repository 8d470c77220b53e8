//! Structural validation of a Kyverno policy against its CRD schema, as the API server validates a
//! custom resource: the field sets and value kinds through the shared decoder (`policy/decode.rs`),
//! then the schema's `enum` and `required` rules, and `metadata` as the `ObjectMeta` the API server
//! decodes it into (its fields, a name). The schemas are the `openAPIV3Schema` of each
//! served version in kyverno/kyverno `config/crds/policies.kyverno.io` (descriptions left out,
//! `status` kept as a free-form object), keyed `version/Kind`.

use std::sync::{Arc, LazyLock};

use serde_json::Value;

use crate::policy::fields::TypeDef;
use crate::policy::report::Report;
use crate::policy::{Code, Diagnostic};
use crate::schema::structural::meta::is_object_meta_field;
use crate::text::TextRange;
use crate::yaml::{Node, NodeKind};

/// Every served `version/Kind` and its schema.
static SCHEMAS: LazyLock<Value> =
    LazyLock::new(|| serde_json::from_str(include_str!("schemas.json")).unwrap_or(Value::Null));

/// The schema of `kind` in `version`, if Kyverno serves it.
fn schema_of(kind: &str, version: &str) -> Option<&'static Value> {
    SCHEMAS.get(format!("{version}/{kind}"))
}

/// Reports the structural problems of the document at `root`.
pub(super) fn check(root: &Node, kind: &str, version: &str, out: &mut Vec<Diagnostic>) {
    let Some(schema) = schema_of(kind, version) else {
        return;
    };
    let def = TypeDef::inline(kind, Arc::new(schema.clone()));
    let mut report = Report::new(out);
    // A value of the wrong kind fails decoding before validation, as for the built-in kinds.
    // A document without `spec` is a fragment (a chainsaw assertion, a status read back), never
    // created: only its fields are checked. A misspelled `spec` is still an unknown field.
    let fragment = root.get("spec").is_none();
    if crate::policy::decode::decode(root, &def, &mut report) && !fragment {
        metadata(root, &mut report);
        let mut rules = Rules {
            report: &mut report,
        };
        rules.value(root, schema, "", root.range);
    }
}

/// `metadata`, which the CRD schema leaves open: the API server decodes it as `ObjectMeta`
/// (apiextensions-apiserver `pkg/apiserver/schema/objectmeta/coerce.go`), dropping any other
/// key (a warning, as for any unknown field), and refuses an object with neither `name` nor
/// `generateName` (apimachinery `ValidateObjectMetaAccessor`, called by
/// `pkg/registry/customresource/validator.go`).
fn metadata(root: &Node, report: &mut Report<'_>) {
    let entry = root.entry("metadata");
    let meta = entry.map(|e| &e.value);
    if let Some(NodeKind::Mapping(entries)) = meta.map(|m| &m.kind) {
        for entry in entries {
            let Some(key) = entry.key.as_str() else {
                continue;
            };
            if !is_object_meta_field(key) {
                let message = format!("unknown field \"metadata.{key}\"");
                report.other(Code::UnknownField, entry.key.range, message);
            }
        }
    }
    let named = |key: &str| {
        meta.and_then(|m| m.get(key))
            .and_then(Node::as_str)
            .is_some_and(|text| !text.is_empty())
    };
    if !named("name") && !named("generateName") {
        let anchor = entry
            .or_else(|| root.entry("kind"))
            .map_or(root.range, |e| e.key.range);
        report.required(anchor, "metadata.name", "name or generateName is required");
    }
}

/// The `enum` and `required` rules of the schema.
struct Rules<'r, 'a> {
    report: &'r mut Report<'a>,
}

impl Rules<'_, '_> {
    /// Checks `node` against `schema`; `anchor` is where a missing field of `node` is reported.
    fn value(&mut self, node: &Node, schema: &Value, path: &str, anchor: TextRange) {
        match &node.kind {
            NodeKind::Mapping(entries) => {
                self.required(node, schema, path, anchor);
                let properties = schema.get("properties");
                for entry in entries {
                    let Some(key) = entry.key.as_str() else {
                        continue;
                    };
                    let Some(field) = properties.and_then(|p| p.get(key)) else {
                        continue;
                    };
                    let child = join(path, key);
                    self.value(&entry.value, field, &child, entry.key.range);
                }
            }
            NodeKind::Sequence(items) => {
                let Some(item_schema) = schema.get("items") else {
                    return;
                };
                for (i, item) in items.iter().enumerate() {
                    let child = format!("{path}[{i}]");
                    self.value(item, item_schema, &child, item.range);
                }
            }
            _ => self.enumerated(node, schema, path),
        }
    }

    fn required(&mut self, node: &Node, schema: &Value, path: &str, anchor: TextRange) {
        let Some(required) = schema.get("required").and_then(Value::as_array) else {
            return;
        };
        for name in required.iter().filter_map(Value::as_str) {
            if node.get(name).is_none_or(Node::is_null) {
                self.report.required(anchor, &join(path, name), "");
            }
        }
    }

    fn enumerated(&mut self, node: &Node, schema: &Value, path: &str) {
        let (Some(allowed), Some(value)) =
            (schema.get("enum").and_then(Value::as_array), node.as_str())
        else {
            return;
        };
        let allowed: Vec<&str> = allowed.iter().filter_map(Value::as_str).collect();
        if !allowed.contains(&value) {
            self.report.not_supported(node.range, path, value, &allowed);
        }
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}
