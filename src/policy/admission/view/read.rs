//! Reading the evaluation view from the typed model: each field's value, "" or empty when absent.

use super::*;
use crate::policy::model::{self, Opt, Text};
use crate::policy::model_kinds::{self as kinds, PolicyDocument};
use crate::policy::{node, read_kinds};
use crate::yaml::Node;

/// The policy or binding `root` holds, when its `kind` is one of the four. The kind alone decides,
/// as it does for the API server's decoder once the group is right; an `apiVersion` this project
/// does not know is read as `v1` so a document the checker rejects can still run leniently.
pub fn read(root: &Node) -> Option<Document> {
    let kind = PolicyKind::from_name(node::lookup_str(root, "kind")?)?;
    let version = read_kinds::recognise(root).map_or_else(|| written_version(root), |(_, v)| v);
    Some(from_model(&read_kinds::document(root, kind, version)))
}

/// The version after the last `/` of `apiVersion`, `v1` when it is none of the three.
fn written_version(root: &Node) -> ApiVersion {
    let written = node::lookup_str(root, "apiVersion").unwrap_or("");
    let version = written.rsplit('/').next().unwrap_or("");
    [ApiVersion::V1alpha1, ApiVersion::V1beta1]
        .into_iter()
        .find(|v| v.as_str() == version)
        .unwrap_or(ApiVersion::V1)
}

/// The evaluation view of a document of the typed model.
pub fn from_model(document: &PolicyDocument) -> Document {
    let header = document.header();
    let name = text(&header.metadata.as_ref().and_then(|m| m.value.name.clone()));
    match document {
        PolicyDocument::ValidatingPolicy(_, spec) => {
            Document::Policy(validating(name, &spec.value))
        }
        PolicyDocument::MutatingPolicy(_, spec) => Document::Policy(mutating(name, &spec.value)),
        PolicyDocument::ValidatingBinding(h, spec) | PolicyDocument::MutatingBinding(h, spec) => {
            Document::Binding(binding(h, name, &spec.value))
        }
    }
}

/// A policy of `kind` with nothing set but its name.
fn empty(kind: PolicyKind, name: String) -> Policy {
    Policy {
        kind,
        name,
        param_kind: None,
        match_constraints: None,
        failure_policy: String::new(),
        validations: Vec::new(),
        audit_annotations: Vec::new(),
        match_conditions: Vec::new(),
        variables: Vec::new(),
        mutations: Vec::new(),
        reinvocation_policy: String::new(),
    }
}

fn validating(name: String, spec: &kinds::ValidatingPolicySpec) -> Policy {
    Policy {
        param_kind: object(&spec.param_kind, param_kind),
        match_constraints: object(&spec.match_constraints, resources),
        failure_policy: text(&spec.failure_policy),
        validations: objects(&spec.validations, |v| Validation {
            expression: text(&v.expression),
            message: text(&v.message),
            message_expression: text(&v.message_expression),
            reason: text(&v.reason),
        }),
        audit_annotations: objects(&spec.audit_annotations, |a| AuditAnnotation {
            key: text(&a.key),
            value_expression: text(&a.value_expression),
        }),
        match_conditions: objects(&spec.match_conditions, |c| named(&c.name, &c.expression)),
        variables: objects(&spec.variables, |v| named(&v.name, &v.expression)),
        ..empty(PolicyKind::ValidatingPolicy, name)
    }
}

fn mutating(name: String, spec: &kinds::MutatingPolicySpec) -> Policy {
    let patch = |p: &Opt<kinds::PatchExpression>| {
        p.as_ref()
            .map(|p| text(&p.value.expression))
            .unwrap_or_default()
    };
    Policy {
        param_kind: object(&spec.param_kind, param_kind),
        match_constraints: object(&spec.match_constraints, resources),
        failure_policy: text(&spec.failure_policy),
        match_conditions: objects(&spec.match_conditions, |c| named(&c.name, &c.expression)),
        variables: objects(&spec.variables, |v| named(&v.name, &v.expression)),
        mutations: objects(&spec.mutations, |m| Mutation {
            patch_type: text(&m.patch_type),
            apply_configuration: patch(&m.apply_configuration),
            json_patch: patch(&m.json_patch),
        }),
        reinvocation_policy: text(&spec.reinvocation_policy),
        ..empty(PolicyKind::MutatingPolicy, name)
    }
}

fn binding(header: &kinds::Header, name: String, spec: &kinds::BindingSpec) -> Binding {
    Binding {
        kind: header.kind,
        version: header.version,
        name,
        policy_name: text(&spec.policy_name),
        validation_actions: texts(&spec.validation_actions),
        param_ref: object(&spec.param_ref, |r| ParamRef {
            name: text(&r.name),
            namespace: text(&r.namespace),
            selector: object(&r.selector, selector),
            parameter_not_found_action: text(&r.parameter_not_found_action),
        }),
        match_resources: object(&spec.match_resources, resources),
    }
}

fn param_kind(kind: &model::ParamKind) -> ParamKind {
    ParamKind {
        api_version: text(&kind.api_version),
        kind: text(&kind.kind),
    }
}

fn resources(resources: &model::MatchResources) -> Resources {
    Resources {
        namespace_selector: object(&resources.namespace_selector, selector),
        object_selector: object(&resources.object_selector, selector),
        resource_rules: objects(&resources.resource_rules, rule),
        exclude_resource_rules: objects(&resources.exclude_resource_rules, rule),
        match_policy: text(&resources.match_policy),
    }
}

fn rule(rule: &model::NamedRule) -> Rule {
    Rule {
        operations: texts(&rule.operations),
        api_groups: texts(&rule.api_groups),
        api_versions: texts(&rule.api_versions),
        resources: texts(&rule.resources),
        resource_names: texts(&rule.resource_names),
        scope: text(&rule.scope),
    }
}

fn selector(selector: &model::Selector) -> Selector {
    Selector {
        match_labels: selector.match_labels.as_ref().map(|m| {
            let pairs = m.value.entries.iter();
            pairs
                .map(|(k, v)| (k.value.clone(), v.value.clone()))
                .collect()
        }),
        match_expressions: selector.match_expressions.as_ref().map(|list| {
            let items = list.value.items.iter();
            items
                .map(|r| Requirement {
                    key: text(&r.key),
                    operator: text(&r.operator),
                    values: texts(&r.values),
                })
                .collect()
        }),
    }
}

fn named(name: &Opt<Text>, expression: &Opt<Text>) -> Named {
    Named {
        name: text(name),
        expression: text(expression),
    }
}

/// A string field's value, "" when absent.
fn text(field: &Opt<Text>) -> String {
    field
        .as_ref()
        .map(|f| f.value.value.clone())
        .unwrap_or_default()
}

/// A string list's values, empty when absent.
fn texts(field: &Opt<model::List<Text>>) -> Vec<String> {
    objects(field, |t| t.value.clone())
}

fn object<T, U>(field: &Opt<T>, read: impl Fn(&T) -> U) -> Option<U> {
    field.as_ref().map(|f| read(&f.value))
}

fn objects<T, U>(field: &Opt<model::List<T>>, read: impl Fn(&T) -> U) -> Vec<U> {
    field
        .as_ref()
        .map(|f| f.value.items.iter().map(read).collect())
        .unwrap_or_default()
}

/// The view of a document given as JSON (for unit tests): its JSON text read as YAML.
#[cfg(test)]
pub(crate) fn document_of(json: &serde_json::Value) -> Document {
    let file = crate::yaml::parse(&json.to_string());
    let root = file.documents.first().and_then(|d| d.root.as_ref());
    match root.and_then(read) {
        Some(document) => document,
        None => panic!("not a policy or binding: {json}"),
    }
}
