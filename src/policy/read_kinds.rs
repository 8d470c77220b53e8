//! Reads whole documents: recognises the four kinds and reads their specs.

use super::model::*;
use super::model_kinds::*;
use super::node;
use super::read::{self, Fields};
use crate::text::TextRange;
use crate::yaml::Node;

/// The API group of the four admission kinds.
pub(crate) const GROUP: &str = "admissionregistration.k8s.io";

/// The kind and version of `root`, if it is one of the four admission kinds.
pub(crate) fn recognise(root: &Node) -> Option<(PolicyKind, ApiVersion)> {
    let api_version = node::lookup_str(root, "apiVersion")?;
    let written = api_version.strip_prefix(GROUP)?.strip_prefix('/')?;
    let version = [ApiVersion::V1alpha1, ApiVersion::V1beta1, ApiVersion::V1]
        .into_iter()
        .find(|v| v.as_str() == written)?;
    let kind = PolicyKind::from_name(node::lookup_str(root, "kind")?)?;
    Some((kind, version))
}

/// The name and paramKind of a recognised document, read as [`document`] reads them: what the
/// workspace index takes of each policy, without reading its validations, mutations and match
/// rules (a keystroke in a file of a thousand policies indexes them all again).
pub(crate) fn name_and_param_kind(
    root: &Node,
    kind: PolicyKind,
) -> (Option<String>, Opt<ParamKind>) {
    let kind_range = node::lookup(root, "kind").map_or(root.range, |e| e.value.range);
    let top = Fields::new(root, kind_range);
    let metadata = top.object("metadata", read::metadata);
    let name = metadata.and_then(|m| m.value.name).map(|n| n.value.value);
    let param_kind = match kind {
        PolicyKind::ValidatingPolicy | PolicyKind::MutatingPolicy => top
            .object("spec", |f| f.object("paramKind", read::param_kind))
            .and_then(|spec| spec.value),
        PolicyKind::ValidatingBinding | PolicyKind::MutatingBinding => None,
    };
    (name, param_kind)
}

/// Reads a recognised document.
pub(crate) fn document(root: &Node, kind: PolicyKind, version: ApiVersion) -> PolicyDocument {
    let kind_range = node::lookup(root, "kind").map_or(root.range, |e| e.value.range);
    let top = Fields::new(root, kind_range);
    let header = Header {
        version,
        kind,
        range: root.range,
        kind_range,
        metadata: top.object("metadata", read::metadata),
        metadata_key: top.key_range("metadata"),
    };
    match kind {
        PolicyKind::ValidatingPolicy => {
            PolicyDocument::ValidatingPolicy(header, spec(&top, kind_range, vap_spec))
        }
        PolicyKind::ValidatingBinding => {
            PolicyDocument::ValidatingBinding(header, spec(&top, kind_range, binding_spec))
        }
        PolicyKind::MutatingPolicy => {
            PolicyDocument::MutatingPolicy(header, spec(&top, kind_range, map_spec))
        }
        PolicyKind::MutatingBinding => {
            PolicyDocument::MutatingBinding(header, spec(&top, kind_range, binding_spec))
        }
    }
}

/// The spec, or an empty one anchored at the `kind:` value when `spec` is missing or not a mapping.
fn spec<T>(top: &Fields, kind_range: TextRange, read: impl Fn(&Fields) -> T) -> Spec<T> {
    match top.object("spec", &read) {
        Some(field) => Spec {
            key: Some(field.key),
            value: field.value,
        },
        None => {
            let key = top.key_range("spec");
            Spec {
                key,
                value: read(&Fields::empty(key.unwrap_or(kind_range))),
            }
        }
    }
}

fn vap_spec(f: &Fields) -> ValidatingPolicySpec {
    ValidatingPolicySpec {
        place: f.place,
        param_kind: f.object("paramKind", read::param_kind),
        match_constraints: f.object("matchConstraints", read::match_resources),
        validations: f.objects("validations", validation),
        failure_policy: f.text("failurePolicy"),
        audit_annotations: f.objects("auditAnnotations", audit_annotation),
        match_conditions: f.objects("matchConditions", read::match_condition),
        variables: f.objects("variables", read::variable),
    }
}

fn validation(f: &Fields) -> Validation {
    Validation {
        place: f.place,
        expression: f.text("expression"),
        message: f.text("message"),
        message_expression: f.text("messageExpression"),
        reason: f.text("reason"),
    }
}

fn audit_annotation(f: &Fields) -> AuditAnnotation {
    AuditAnnotation {
        place: f.place,
        key: f.text("key"),
        value_expression: f.text("valueExpression"),
    }
}

fn binding_spec(f: &Fields) -> BindingSpec {
    BindingSpec {
        place: f.place,
        policy_name: f.text("policyName"),
        param_ref: f.object("paramRef", param_ref),
        match_resources: f.object("matchResources", read::match_resources),
        validation_actions: f.texts("validationActions"),
    }
}

fn param_ref(f: &Fields) -> ParamRef {
    ParamRef {
        place: f.place,
        name: f.text("name"),
        namespace: f.text("namespace"),
        selector: f.object("selector", read::selector),
        parameter_not_found_action: f.text("parameterNotFoundAction"),
    }
}

fn map_spec(f: &Fields) -> MutatingPolicySpec {
    MutatingPolicySpec {
        place: f.place,
        param_kind: f.object("paramKind", read::param_kind),
        match_constraints: f.object("matchConstraints", read::match_resources),
        variables: f.objects("variables", read::variable),
        mutations: f.objects("mutations", mutation),
        failure_policy: f.text("failurePolicy"),
        match_conditions: f.objects("matchConditions", read::match_condition),
        reinvocation_policy: f.text("reinvocationPolicy"),
    }
}

fn mutation(f: &Fields) -> Mutation {
    let patch = |f: &Fields| PatchExpression {
        place: f.place,
        expression: f.text("expression"),
    };
    Mutation {
        place: f.place,
        patch_type: f.text("patchType"),
        apply_configuration: f.object("applyConfiguration", patch),
        json_patch: f.object("jsonPatch", patch),
    }
}
