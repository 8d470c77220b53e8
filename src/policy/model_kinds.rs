//! The policy model, part two: the specs of the four kinds and the document enum.

use super::model::*;
use crate::text::TextRange;

/// The fields every document has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Which version.
    pub version: ApiVersion,
    /// Which kind.
    pub kind: PolicyKind,
    /// The document root's range.
    pub range: TextRange,
    /// The `kind:` value's range: where problems of the whole document are reported.
    pub kind_range: TextRange,
    /// `metadata`.
    pub metadata: Opt<Metadata>,
    /// The `metadata` key, also when its value is null.
    pub metadata_key: Option<TextRange>,
}

impl Header {
    /// `metadata.name`, when set.
    pub fn name(&self) -> Option<&Field<Text>> {
        self.metadata.as_ref()?.value.name.as_ref()
    }
}

/// A `validations` item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Validation {
    /// Where it is.
    pub place: Place,
    /// `expression`.
    pub expression: Opt<Text>,
    /// `message`.
    pub message: Opt<Text>,
    /// `messageExpression`.
    pub message_expression: Opt<Text>,
    /// `reason`.
    pub reason: Opt<Text>,
}

/// An `auditAnnotations` item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditAnnotation {
    /// Where it is.
    pub place: Place,
    /// `key`.
    pub key: Opt<Text>,
    /// `valueExpression`.
    pub value_expression: Opt<Text>,
}

/// The spec of a ValidatingAdmissionPolicy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidatingPolicySpec {
    /// Where it is (the anchor is the `kind:` value when `spec` is missing).
    pub place: Place,
    /// `paramKind`.
    pub param_kind: Opt<ParamKind>,
    /// `matchConstraints`.
    pub match_constraints: Opt<MatchResources>,
    /// `validations`.
    pub validations: Opt<List<Validation>>,
    /// `failurePolicy`.
    pub failure_policy: Opt<Text>,
    /// `auditAnnotations`.
    pub audit_annotations: Opt<List<AuditAnnotation>>,
    /// `matchConditions`.
    pub match_conditions: Opt<List<MatchCondition>>,
    /// `variables`.
    pub variables: Opt<List<Variable>>,
}

/// `paramRef` of a binding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamRef {
    /// Where it is.
    pub place: Place,
    /// `name`.
    pub name: Opt<Text>,
    /// `namespace`.
    pub namespace: Opt<Text>,
    /// `selector`.
    pub selector: Opt<Selector>,
    /// `parameterNotFoundAction`.
    pub parameter_not_found_action: Opt<Text>,
}

/// The spec of a binding (both kinds; `validationActions` only in a ValidatingAdmissionPolicyBinding).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingSpec {
    /// Where it is.
    pub place: Place,
    /// `policyName`.
    pub policy_name: Opt<Text>,
    /// `paramRef`.
    pub param_ref: Opt<ParamRef>,
    /// `matchResources`.
    pub match_resources: Opt<MatchResources>,
    /// `validationActions`.
    pub validation_actions: Opt<List<Text>>,
}

/// `applyConfiguration` or `jsonPatch` of a mutation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchExpression {
    /// Where it is.
    pub place: Place,
    /// `expression`.
    pub expression: Opt<Text>,
}

/// A `mutations` item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutation {
    /// Where it is.
    pub place: Place,
    /// `patchType`.
    pub patch_type: Opt<Text>,
    /// `applyConfiguration`.
    pub apply_configuration: Opt<PatchExpression>,
    /// `jsonPatch`.
    pub json_patch: Opt<PatchExpression>,
}

/// The spec of a MutatingAdmissionPolicy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MutatingPolicySpec {
    /// Where it is.
    pub place: Place,
    /// `paramKind`.
    pub param_kind: Opt<ParamKind>,
    /// `matchConstraints`.
    pub match_constraints: Opt<MatchResources>,
    /// `variables`.
    pub variables: Opt<List<Variable>>,
    /// `mutations`.
    pub mutations: Opt<List<Mutation>>,
    /// `failurePolicy`.
    pub failure_policy: Opt<Text>,
    /// `matchConditions`.
    pub match_conditions: Opt<List<MatchCondition>>,
    /// `reinvocationPolicy`.
    pub reinvocation_policy: Opt<Text>,
}

placed!(
    Validation,
    AuditAnnotation,
    ValidatingPolicySpec,
    ParamRef,
    BindingSpec,
    PatchExpression,
    Mutation,
    MutatingPolicySpec
);

/// A spec as read; when `spec` is missing, an empty one anchored at the `kind:` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec<T> {
    /// The `spec` key, when written.
    pub key: Option<TextRange>,
    /// The spec.
    pub value: T,
}

/// One admission document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyDocument {
    /// A ValidatingAdmissionPolicy.
    ValidatingPolicy(Header, Spec<ValidatingPolicySpec>),
    /// A ValidatingAdmissionPolicyBinding.
    ValidatingBinding(Header, Spec<BindingSpec>),
    /// A MutatingAdmissionPolicy.
    MutatingPolicy(Header, Spec<MutatingPolicySpec>),
    /// A MutatingAdmissionPolicyBinding.
    MutatingBinding(Header, Spec<BindingSpec>),
}

impl ParamRef {
    /// `namespace`, unless it is absent or empty (both mean "the request's namespace").
    pub fn namespace_value(&self) -> Option<&str> {
        let namespace = self.namespace.as_ref()?;
        Some(namespace.value.value.as_str()).filter(|n| !n.is_empty())
    }
}

impl PolicyDocument {
    /// The header: version, kind and metadata.
    pub fn header(&self) -> &Header {
        match self {
            PolicyDocument::ValidatingPolicy(h, _)
            | PolicyDocument::ValidatingBinding(h, _)
            | PolicyDocument::MutatingPolicy(h, _)
            | PolicyDocument::MutatingBinding(h, _) => h,
        }
    }

    /// A binding's spec (its kind is the header's); `None` for a policy.
    pub fn binding_spec(&self) -> Option<&Spec<BindingSpec>> {
        match self {
            PolicyDocument::ValidatingBinding(_, spec)
            | PolicyDocument::MutatingBinding(_, spec) => Some(spec),
            PolicyDocument::ValidatingPolicy(..) | PolicyDocument::MutatingPolicy(..) => None,
        }
    }

    /// `metadata.name`, when set.
    pub fn name(&self) -> Option<&str> {
        self.header().name().map(|n| n.value.value.as_str())
    }
}
