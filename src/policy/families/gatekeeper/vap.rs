//! The ValidatingAdmissionPolicy Gatekeeper generates from a template (gatekeeper
//! `pkg/drivers/k8scel/transform/make_vap_objects.go` `TemplateToPolicyDefinition`): `paramKind`
//! the Constraint kind in `v1beta1`, the driver's variables `anyObject` and `params`
//! (`cel_snippets.go`) before the template's, its validations, match conditions and failure
//! policy. Gatekeeper's own namespace and kind match conditions are left out: the Constraint's
//! `spec.match` is applied before the CEL runs (by gator and the webhook alike).
//!
//! The typed check and evaluation run on this policy, so the template's CEL is typed and evaluated
//! exactly as a ValidatingAdmissionPolicy's. [`Generated::origin`] maps each expression of the
//! policy back to the field of the template it came from.

use serde_json::{Value as Json, json};

use crate::yaml::Node;

/// The driver's variables, in order (`AllVariablesV1Beta1`).
const DRIVER_VARIABLES: &[(&str, &str)] = &[
    (
        "anyObject",
        r#"has(request.operation) && request.operation == "DELETE" && object == null ? oldObject : object"#,
    ),
    (
        "params",
        "!has(params.spec) ? null : !has(params.spec.parameters) ? null: params.spec.parameters",
    ),
];

/// The generated policy as text, with the template field of each of its expression fields.
pub struct Generated {
    /// The policy, as JSON text (which the YAML reader reads).
    pub text: String,
    /// `(policy path, template path)` of every expression the template wrote.
    pub origin: Vec<(String, String)>,
}

impl Generated {
    /// The template field an expression path of the generated policy came from.
    pub fn template_path(&self, policy_path: &str) -> Option<&str> {
        self.origin
            .iter()
            .find(|(policy, _)| policy == policy_path)
            .map(|(_, template)| template.as_str())
    }
}

/// The policy generated from the template at `root`, with `rules` as its `resourceRules` (each
/// `(group, version, resource)`; none: every resource, as Gatekeeper's default).
pub fn generate(root: &Node, rules: &[(String, String, String)]) -> Option<Generated> {
    let kind = super::template_kind(root)?;
    let (index, code) = super::cel_code(root).next()?;
    let source = code.get("source")?;
    let prefix = format!("spec.targets[0].code[{index}].source");
    let mut origin = Vec::new();
    let mut variables: Vec<Json> = DRIVER_VARIABLES
        .iter()
        .map(|(name, expression)| json!({"name": name, "expression": expression}))
        .collect();
    for (i, item) in items(source, "variables").iter().enumerate() {
        origin.push((
            format!("spec.variables[{}].expression", variables.len()),
            format!("{prefix}.variables[{i}].expression"),
        ));
        variables.push(json!({"name": text(item, "name"), "expression": text(item, "expression")}));
    }
    let mut conditions = Vec::new();
    for (i, item) in items(source, "matchCondition").iter().enumerate() {
        origin.push((
            format!("spec.matchConditions[{i}].expression"),
            format!("{prefix}.matchCondition[{i}].expression"),
        ));
        conditions
            .push(json!({"name": text(item, "name"), "expression": text(item, "expression")}));
    }
    let mut validations = Vec::new();
    for (i, item) in items(source, "validations").iter().enumerate() {
        for field in ["expression", "messageExpression"] {
            origin.push((
                format!("spec.validations[{i}].{field}"),
                format!("{prefix}.validations[{i}].{field}"),
            ));
        }
        let mut validation = json!({"expression": text(item, "expression")});
        for field in ["message", "messageExpression"] {
            let value = text(item, field);
            if !value.is_empty() {
                validation[field] = Json::from(value);
            }
        }
        validations.push(validation);
    }
    let failure_policy = source
        .get("failurePolicy")
        .and_then(Node::as_str)
        .unwrap_or("Fail");
    let name = root
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Node::as_str)
        .unwrap_or("");
    let policy = json!({
        "apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingAdmissionPolicy",
        "metadata": {"name": format!("gatekeeper-{name}")},
        "spec": {
            "paramKind": {"apiVersion": format!("{}/{}", super::CONSTRAINTS, super::crd::VERSIONS[0]), "kind": kind},
            "matchConstraints": {"resourceRules": resource_rules(rules)},
            "matchConditions": conditions,
            "validations": validations,
            "failurePolicy": failure_policy,
            "variables": variables,
        }
    });
    Some(Generated {
        text: policy.to_string(),
        origin,
    })
}

/// The items of a list field of the source.
fn items<'n>(source: &'n Node, list: &str) -> &'n [Node] {
    source.get(list).and_then(Node::as_sequence).unwrap_or(&[])
}

/// A string field of an item ("" when absent or not a string).
fn text(item: &Node, field: &str) -> String {
    item.get(field)
        .and_then(|node| node.as_scalar())
        .filter(|_| !item.get(field).is_some_and(Node::is_null))
        .map_or(String::new(), |scalar| scalar.value.clone())
}

/// The `resourceRules` for CREATE and UPDATE (`buildDefaultMatchConstraints`) of `rules`.
fn resource_rules(rules: &[(String, String, String)]) -> Json {
    if rules.is_empty() {
        return json!([{
            "operations": ["CREATE", "UPDATE"],
            "apiGroups": ["*"], "apiVersions": ["*"], "resources": ["*"]
        }]);
    }
    Json::Array(
        rules
            .iter()
            .map(|(group, version, resource)| {
                json!({
                    "operations": ["CREATE", "UPDATE"],
                    "apiGroups": [group], "apiVersions": [version], "resources": [resource]
                })
            })
            .collect(),
    )
}
