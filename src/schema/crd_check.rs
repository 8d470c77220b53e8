//! The `openAPIV3Schema`s of a `CustomResourceDefinition` checked as the API server checks them on
//! create (apiextensions `validation.go`, the v3 schema validator), plus one bound of our own, so
//! that a broken or hostile CRD gets a diagnostic on itself instead of silently typing nothing:
//!
//! - `$ref`, `definitions`, `patternProperties`, `dependencies`, `id`, `additionalItems` are
//!   forbidden ("$ref is not supported"); `type: "null"` is forbidden;
//! - `type` must be one of the six OpenAPI v3 types, `x-kubernetes-map-type` `atomic` or `granular`;
//! - `items` must be one schema, not a list of schemas;
//! - a field set to `null` is absent, as Go's JSON decoder reads it;
//! - `x-kubernetes-validations` inside `allOf`/`anyOf`/`oneOf`/`not` is not structural
//!   (apiextensions-apiserver `pkg/apiserver/schema/validation.go` `validateValueValidation`);
//! - fields of the wrong JSON kind (`properties` that is not a map, `x-kubernetes-…` flags that are
//!   not booleans…) are invalid: the API server fails to decode them;
//! - an `enum` of more than [`MAX_ENUM_VALUES`] values is too many (a warning: the API server
//!   only bounds the CRD's total size, about 1.5 MiB in etcd); nothing here uses enum values, and
//!   such an enum is dropped from the kept schema so that it costs no memory.
//!
//! Problems come back with the path of the offending field; at most [`MAX_PROBLEMS`] per CRD.

use serde_json::Value;

/// Enum values kept per schema node; a real enum is a few dozen values, a generated list of
/// regions or instance types a few hundred or thousand.
pub const MAX_ENUM_VALUES: usize = 10_000;

/// Problems reported per CRD; the rest are the same mistake repeated.
pub const MAX_PROBLEMS: usize = 20;

/// Schema nesting followed (the YAML → JSON conversion stops at 256 levels already).
const MAX_DEPTH: usize = 256;

const OPENAPI_TYPES: &[&str] = &["array", "boolean", "integer", "number", "object", "string"];

const UNSUPPORTED: &[&str] = &[
    "$ref",
    "additionalItems",
    "definitions",
    "dependencies",
    "id",
    "patternProperties",
];

const FLAGS: &[&str] = &[
    "nullable",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
    "x-kubernetes-preserve-unknown-fields",
];

/// One step of a path into the CRD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A field of an object.
    Key(String),
    /// A property name under `properties` (printed `[name]`, as the API server does).
    Property(String),
    /// A list position.
    Index(usize),
}

/// What kind of field error a problem is (the API server's error types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// `Forbidden`.
    Forbidden,
    /// `Unsupported value`.
    NotSupported,
    /// `Invalid value` (or a decoding error).
    Invalid,
    /// `Too many` (our own bound, a warning).
    TooMany,
}

/// One problem of a CRD's schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaProblem {
    /// Path from the CRD's root to the offending field.
    pub path: Vec<Step>,
    /// Error type.
    pub kind: ProblemKind,
    /// The message, with the path rendered in front (`spec.versions[0]…: Forbidden: …`).
    pub message: String,
}

/// The problems of every `openAPIV3Schema` of `crd` (the CRD as JSON); enums over the bound are
/// removed from `crd`.
pub fn check_crd_schemas(crd: &mut Value) -> Vec<SchemaProblem> {
    let mut check = Check {
        out: Vec::new(),
        quantifiers: 0,
    };
    let mut path = vec![Step::Key("spec".into())];
    if let Some(spec) = crd.get_mut("spec") {
        if let Some(schema) = spec.pointer_mut("/validation/openAPIV3Schema") {
            path.extend([
                Step::Key("validation".into()),
                Step::Key("openAPIV3Schema".into()),
            ]);
            check.schema(schema, &mut path, 0);
            path.truncate(1);
        }
        let versions = spec.get_mut("versions").and_then(Value::as_array_mut);
        for (i, version) in versions.into_iter().flatten().enumerate() {
            if let Some(schema) = version.pointer_mut("/schema/openAPIV3Schema") {
                path.extend([
                    Step::Key("versions".into()),
                    Step::Index(i),
                    Step::Key("schema".into()),
                    Step::Key("openAPIV3Schema".into()),
                ]);
                check.schema(schema, &mut path, 0);
                path.truncate(1);
            }
        }
    }
    check.out
}

/// `spec.versions[0].schema.openAPIV3Schema.properties[spec].$ref`.
pub fn render_path(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Step::Property(name) => out.push_str(&format!("[{name}]")),
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

struct Check {
    out: Vec<SchemaProblem>,
    /// How many `allOf`/`anyOf`/`oneOf`/`not` the walk is inside.
    quantifiers: usize,
}

impl Check {
    fn push(&mut self, path: &[Step], kind: ProblemKind, detail: String) {
        if self.out.len() >= MAX_PROBLEMS {
            return;
        }
        let message = format!("{}: {detail}", render_path(path));
        self.out.push(SchemaProblem {
            path: path.to_vec(),
            kind,
            message,
        });
    }

    /// Reports a problem at `path` + `key`.
    fn at(&mut self, path: &mut Vec<Step>, key: &str, kind: ProblemKind, detail: String) {
        path.push(Step::Key(key.to_string()));
        self.push(path, kind, detail);
        path.pop();
    }

    fn schema(&mut self, node: &mut Value, path: &mut Vec<Step>, depth: usize) {
        if depth > MAX_DEPTH || self.out.len() >= MAX_PROBLEMS {
            return;
        }
        let Some(object) = node.as_object_mut() else {
            let detail = format!("Invalid value: {}: must be a schema object", short(node));
            return self.push(path, ProblemKind::Invalid, detail);
        };
        // Go's encoding/json decodes a JSON null into a field as the field's zero value, so the
        // API server reads `anyOf: null` (controller-gen writes it) as no `anyOf` at all.
        object.retain(|_, value| !value.is_null());
        let keys: Vec<String> = object.keys().cloned().collect();
        for key in keys {
            let Some(value) = object.get_mut(&key) else {
                continue;
            };
            self.field(&key, value, path, depth);
        }
        let too_many = object
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| values.len() > MAX_ENUM_VALUES);
        if too_many {
            object.remove("enum");
        }
    }

    fn field(&mut self, key: &str, value: &mut Value, path: &mut Vec<Step>, depth: usize) {
        if UNSUPPORTED.contains(&key) {
            let detail = format!("Forbidden: {key} is not supported");
            return self.at(path, key, ProblemKind::Forbidden, detail);
        }
        if FLAGS.contains(&key) && !value.is_boolean() {
            let detail = format!("Invalid value: {}: must be a boolean", short(value));
            return self.at(path, key, ProblemKind::Invalid, detail);
        }
        if key == "x-kubernetes-validations" && self.quantifiers > 0 {
            let detail = "Forbidden: must be empty to be structural".to_string();
            return self.at(path, key, ProblemKind::Forbidden, detail);
        }
        match key {
            "type" => self.type_field(value, path),
            "properties" => self.properties(value, path, depth),
            "items" => self.items(value, path, depth),
            "additionalProperties" => {
                if value.is_object() {
                    path.push(Step::Key(key.into()));
                    self.schema(value, path, depth + 1);
                    path.pop();
                } else if !value.is_boolean() {
                    let detail = format!(
                        "Invalid value: {}: must be a boolean or a schema",
                        short(value)
                    );
                    self.at(path, key, ProblemKind::Invalid, detail);
                }
            }
            "allOf" | "anyOf" | "oneOf" => {
                self.quantifiers += 1;
                self.schema_list(key, value, path, depth);
                self.quantifiers -= 1;
            }
            "not" => {
                self.quantifiers += 1;
                path.push(Step::Key(key.into()));
                self.schema(value, path, depth + 1);
                path.pop();
                self.quantifiers -= 1;
            }
            "x-kubernetes-map-type" => self.map_type(value, path),
            "enum" => match value.as_array() {
                Some(values) if values.len() > MAX_ENUM_VALUES => {
                    let detail = format!(
                        "Too many: {}: must have at most {MAX_ENUM_VALUES} items (admission-ls's bound; the enum is ignored)",
                        values.len()
                    );
                    self.at(path, key, ProblemKind::TooMany, detail);
                }
                Some(_) => {}
                None => {
                    let detail = format!("Invalid value: {}: must be a list", short(value));
                    self.at(path, key, ProblemKind::Invalid, detail);
                }
            },
            _ => {}
        }
    }

    /// `x-kubernetes-map-type` is `atomic` or `granular` (apiextensions-apiserver
    /// `pkg/apis/apiextensions/validation/validation.go` `ValidateCustomResourceDefinitionOpenAPISchema`);
    /// the API server then compiles no rule of the node, so an `oldSelf` there is never checked.
    fn map_type(&mut self, value: &Value, path: &mut Vec<Step>) {
        let supported = ["atomic", "granular"];
        if value.as_str().is_some_and(|name| supported.contains(&name)) {
            return;
        }
        let detail = match value.as_str() {
            Some(name) => {
                format!("Unsupported value: \"{name}\": supported values: \"atomic\", \"granular\"")
            }
            None => format!("Invalid value: {}: must be a string", short(value)),
        };
        let kind = if value.is_string() {
            ProblemKind::NotSupported
        } else {
            ProblemKind::Invalid
        };
        self.at(path, "x-kubernetes-map-type", kind, detail);
    }

    fn type_field(&mut self, value: &Value, path: &mut Vec<Step>) {
        let (kind, detail) = match value.as_str() {
            Some(name) if OPENAPI_TYPES.contains(&name) => return,
            Some("null") => (
                ProblemKind::Forbidden,
                "Forbidden: type cannot be set to null, use nullable as an alternative".to_string(),
            ),
            Some(name) => {
                let supported: Vec<String> =
                    OPENAPI_TYPES.iter().map(|t| format!("\"{t}\"")).collect();
                (
                    ProblemKind::NotSupported,
                    format!(
                        "Unsupported value: \"{name}\": supported values: {}",
                        supported.join(", ")
                    ),
                )
            }
            None => (
                ProblemKind::Invalid,
                format!("Invalid value: {}: must be a string", short(value)),
            ),
        };
        self.at(path, "type", kind, detail);
    }

    fn properties(&mut self, value: &mut Value, path: &mut Vec<Step>, depth: usize) {
        let Some(properties) = value.as_object_mut() else {
            let detail = format!("Invalid value: {}: must be a map of schemas", short(value));
            return self.at(path, "properties", ProblemKind::Invalid, detail);
        };
        path.push(Step::Key("properties".into()));
        for (name, schema) in properties.iter_mut() {
            path.push(Step::Property(name.clone()));
            self.schema(schema, path, depth + 1);
            path.pop();
        }
        path.pop();
    }

    fn items(&mut self, value: &mut Value, path: &mut Vec<Step>, depth: usize) {
        if value.is_array() {
            let detail = "Forbidden: items must be a schema object and not an array".to_string();
            return self.at(path, "items", ProblemKind::Forbidden, detail);
        }
        path.push(Step::Key("items".into()));
        self.schema(value, path, depth + 1);
        path.pop();
    }

    fn schema_list(&mut self, key: &str, value: &mut Value, path: &mut Vec<Step>, depth: usize) {
        let Some(schemas) = value.as_array_mut() else {
            let detail = format!("Invalid value: {}: must be a list of schemas", short(value));
            return self.at(path, key, ProblemKind::Invalid, detail);
        };
        path.push(Step::Key(key.into()));
        for (i, schema) in schemas.iter_mut().enumerate() {
            path.push(Step::Index(i));
            self.schema(schema, path, depth + 1);
            path.pop();
        }
        path.pop();
    }
}

/// A value as JSON, cut short: enough to recognise it in a message.
fn short(value: &Value) -> String {
    const MAX: usize = 40;
    let text = value.to_string();
    if text.chars().count() <= MAX {
        return text;
    }
    let cut: String = text.chars().take(MAX).collect();
    format!("{cut}…")
}
