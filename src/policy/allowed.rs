//! The closed value sets of the policy API (`failurePolicy`, `operations`, `patchType`…): one list
//! each, shared by the structural validation, which reports `not-supported` outside them, and the
//! editor, which offers them as completions. The published OpenAPI schema does not enumerate them.

use super::PolicyKind;

/// `failurePolicy`.
pub const FAILURE_POLICIES: &[&str] = &["Fail", "Ignore"];
/// `matchPolicy`.
pub const MATCH_POLICIES: &[&str] = &["Equivalent", "Exact"];
/// `operations` of a rule.
pub const OPERATIONS: &[&str] = &["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
/// `operations` of a MutatingAdmissionPolicy(Binding)'s `resourceRules`: mutations never see DELETE.
pub const MUTATING_OPERATIONS: &[&str] = &["*", "CONNECT", "CREATE", "UPDATE"];
/// `scope` of a rule.
pub const SCOPES: &[&str] = &["*", "Cluster", "Namespaced"];
/// `reason` of a validation (`Unauthorized` is documented but rejected by the API server).
pub const REASONS: &[&str] = &["Forbidden", "Invalid", "RequestEntityTooLarge"];
/// `validationActions` of a binding.
pub const VALIDATION_ACTIONS: &[&str] = &["Audit", "Deny", "Warn"];
/// `paramRef.parameterNotFoundAction`.
pub const PARAMETER_NOT_FOUND_ACTIONS: &[&str] = &["Deny", "Allow"];
/// `patchType` of a mutation.
pub const PATCH_TYPES: &[&str] = &["ApplyConfiguration", "JSONPatch"];
/// `reinvocationPolicy`.
pub const REINVOCATION_POLICIES: &[&str] = &["IfNeeded", "Never"];
/// `operator` of a label selector requirement.
pub const SELECTOR_OPERATORS: &[&str] = &["In", "NotIn", "Exists", "DoesNotExist"];

/// The values allowed at the key path `keys` (list indices left out: `spec`, `validations`,
/// `reason`) of a document of `kind`; empty where the value is not from a closed set.
pub fn values(kind: PolicyKind, keys: &[&str]) -> &'static [&'static str] {
    let mutating = matches!(
        kind,
        PolicyKind::MutatingPolicy | PolicyKind::MutatingBinding
    );
    match keys {
        ["spec", "failurePolicy"] if !is_binding(kind) => FAILURE_POLICIES,
        ["spec", "reinvocationPolicy"] if kind == PolicyKind::MutatingPolicy => {
            REINVOCATION_POLICIES
        }
        ["spec", "validations", "reason"] if kind == PolicyKind::ValidatingPolicy => REASONS,
        ["spec", "validationActions"] if kind == PolicyKind::ValidatingBinding => {
            VALIDATION_ACTIONS
        }
        ["spec", "paramRef", "parameterNotFoundAction"] if is_binding(kind) => {
            PARAMETER_NOT_FOUND_ACTIONS
        }
        ["spec", "mutations", "patchType"] if kind == PolicyKind::MutatingPolicy => PATCH_TYPES,
        ["spec", _, "matchPolicy"] => MATCH_POLICIES,
        ["spec", _, "resourceRules", "operations"] if mutating => MUTATING_OPERATIONS,
        [
            "spec",
            _,
            "resourceRules" | "excludeResourceRules",
            "operations",
        ] => OPERATIONS,
        ["spec", _, "resourceRules" | "excludeResourceRules", "scope"] => SCOPES,
        [.., "matchExpressions", "operator"] => SELECTOR_OPERATORS,
        _ => &[],
    }
}

fn is_binding(kind: PolicyKind) -> bool {
    matches!(
        kind,
        PolicyKind::ValidatingBinding | PolicyKind::MutatingBinding
    )
}
