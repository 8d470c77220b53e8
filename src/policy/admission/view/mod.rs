//! The policy and the binding as evaluation reads them: plain values taken from the typed model
//! the checker reads ([`crate::policy::PolicyDocument`], from `read_kinds::document`), once per
//! document, so evaluation walks fields instead of looking paths up in JSON. An absent or `null`
//! field reads as empty, as a Go struct's zero value does in the API server.

mod read;

pub use read::{from_model, read};

#[cfg(test)]
pub(crate) use read::document_of;

use crate::policy::{ApiVersion, PolicyKind};

/// A ValidatingAdmissionPolicy or MutatingAdmissionPolicy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Which of the two.
    pub kind: PolicyKind,
    /// `metadata.name`.
    pub name: String,
    /// `spec.paramKind`.
    pub param_kind: Option<ParamKind>,
    /// `spec.matchConstraints`.
    pub match_constraints: Option<Resources>,
    /// `spec.failurePolicy`.
    pub failure_policy: String,
    /// `spec.validations` (validating).
    pub validations: Vec<Validation>,
    /// `spec.auditAnnotations` (validating).
    pub audit_annotations: Vec<AuditAnnotation>,
    /// `spec.matchConditions`.
    pub match_conditions: Vec<Named>,
    /// `spec.variables`.
    pub variables: Vec<Named>,
    /// `spec.mutations` (mutating).
    pub mutations: Vec<Mutation>,
    /// `spec.reinvocationPolicy` (mutating).
    pub reinvocation_policy: String,
}

/// A ValidatingAdmissionPolicyBinding or MutatingAdmissionPolicyBinding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// Which of the two.
    pub kind: PolicyKind,
    /// The version it is written in.
    pub version: ApiVersion,
    /// `metadata.name`.
    pub name: String,
    /// `spec.policyName`.
    pub policy_name: String,
    /// `spec.validationActions`.
    pub validation_actions: Vec<String>,
    /// `spec.paramRef`.
    pub param_ref: Option<ParamRef>,
    /// `spec.matchResources`.
    pub match_resources: Option<Resources>,
}

/// `paramKind`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamKind {
    /// `apiVersion`.
    pub api_version: String,
    /// `kind`.
    pub kind: String,
}

/// `paramRef`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamRef {
    /// `name`.
    pub name: String,
    /// `namespace`.
    pub namespace: String,
    /// `selector`.
    pub selector: Option<Selector>,
    /// `parameterNotFoundAction`.
    pub parameter_not_found_action: String,
}

/// `matchConstraints` / `matchResources`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// `namespaceSelector`.
    pub namespace_selector: Option<Selector>,
    /// `objectSelector`.
    pub object_selector: Option<Selector>,
    /// `resourceRules`; none (absent or empty) matches every resource.
    pub resource_rules: Vec<Rule>,
    /// `excludeResourceRules`.
    pub exclude_resource_rules: Vec<Rule>,
    /// `matchPolicy`.
    pub match_policy: String,
}

/// A `NamedRuleWithOperations`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rule {
    /// `operations`.
    pub operations: Vec<String>,
    /// `apiGroups`.
    pub api_groups: Vec<String>,
    /// `apiVersions`.
    pub api_versions: Vec<String>,
    /// `resources`.
    pub resources: Vec<String>,
    /// `resourceNames`.
    pub resource_names: Vec<String>,
    /// `scope`.
    pub scope: String,
}

/// A label selector.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selector {
    /// `matchLabels`, `None` when absent.
    pub match_labels: Option<Vec<(String, String)>>,
    /// `matchExpressions`, `None` when absent.
    pub match_expressions: Option<Vec<Requirement>>,
}

/// A `matchExpressions` item.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Requirement {
    /// `key`.
    pub key: String,
    /// `operator`.
    pub operator: String,
    /// `values`.
    pub values: Vec<String>,
}

/// A `name` and an `expression`: a variable or a matchCondition.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Named {
    /// `name`.
    pub name: String,
    /// `expression`.
    pub expression: String,
}

/// A `validations` item.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Validation {
    /// `expression`.
    pub expression: String,
    /// `message`.
    pub message: String,
    /// `messageExpression`.
    pub message_expression: String,
    /// `reason`.
    pub reason: String,
}

/// An `auditAnnotations` item.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuditAnnotation {
    /// `key`.
    pub key: String,
    /// `valueExpression`.
    pub value_expression: String,
}

/// A `mutations` item.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mutation {
    /// `patchType`.
    pub patch_type: String,
    /// `applyConfiguration.expression`.
    pub apply_configuration: String,
    /// `jsonPatch.expression`.
    pub json_patch: String,
}

/// A document evaluation can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Document {
    /// A policy of either kind.
    Policy(Policy),
    /// A binding of either kind.
    Binding(Binding),
}

#[cfg(test)]
mod tests;
