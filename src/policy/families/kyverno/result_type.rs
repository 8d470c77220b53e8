//! Kyverno's result-type rule (kyverno/kyverno `pkg/cel/compiler/compiler.go`: `IsExactType`):
//! a validation or match condition must be exactly `bool`, a message expression exactly
//! `string`, an audit annotation `string` or `null_type`; otherwise the policy is refused with
//! "output is expected to be of type …". Reported as an error only when the expression checked
//! cleanly to a concrete type: a `dyn` result here may be a precise type in Kyverno's compiler
//! (a library result this checker declares as `dyn`), so it is not proof of a refusal.

use crate::cel::types::Type;
use crate::policy::families::FamilySite;
use crate::policy::report::quote;
use crate::policy::{Code, Diagnostic};

/// The error for `site` whose expression checked cleanly to `result`, if Kyverno refuses it.
pub(super) fn check(site: &FamilySite, result: &Type) -> Option<Diagnostic> {
    let (allowed, name): (&[Type], &str) = match site.role {
        "validation" | "matchCondition" | "targetMatchCondition" => (&[Type::Bool], "bool"),
        "messageExpression" => (&[Type::String], "string"),
        "auditAnnotation" => (&[Type::String, Type::Null], "string"),
        _ => return None,
    };
    if allowed.contains(result) || result.is_dyn_or_error() || matches!(result, Type::Param(_)) {
        return None;
    }
    let message = format!(
        "{}: Invalid value: {}: output is expected to be of type {name}",
        site.path,
        quote(&site.text)
    );
    Some(Diagnostic::new(Code::CelResultType, site.range, message))
}
