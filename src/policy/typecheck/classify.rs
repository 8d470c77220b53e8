//! Which typed-check findings fail at admission and which only the typed checker sees.
//!
//! At admission `object`, `oldObject` and `params` are JSON-shaped values
//! (`runtime.DefaultUnstructuredConverter`, then cel-go's native adapter: maps, lists, strings,
//! `int64`, `float64`, booleans and `null`), and the API server only writes the typed checker's
//! findings to `status.typeChecking` as warnings (apiserver
//! `pkg/admission/plugin/policy/validating/typechecking.go`). So a typed finding is an error only
//! when every evaluation that reaches it fails:
//!
//! - an undefined field of a schema object: the JSON object can never hold the key (unknown fields
//!   are pruned), so the selection is `no such key`;
//! - a field selection on a scalar: a JSON scalar has no fields;
//! - no overload whose arguments are all of a type the JSON value has exactly (`int`, `uint`,
//!   `string`, `bool`, lists and maps of them): the runtime has no such overload either;
//! - the mutations' checks: a JSON Patch the API server cannot apply, an apply configuration
//!   that sets an atomic list, map or struct or gives a field a value of another type.
//!
//! Everything else may succeed and is a warning: `==`, `!=` and `in` compare heterogeneous values
//! as unequal instead of failing (cel-go's heterogeneous equality); a schema object is a map at
//! run time, so `in`, `[k]`, `size()` and the comprehension macros work on it; `double` (a
//! `number` field may hold an integer), `bytes`, `timestamp` and `duration` (strings in JSON),
//! `null`, `dyn` and optionals may have another runtime type than the checker's; mixed list
//! literals and ternaries with branches of two types are refused only by the checker
//! (`HomogeneousAggregateLiterals` is a checker option, nothing checks it at run time).

use super::super::diagnostic::Prediction;
use crate::cel::check::{CheckError, CheckErrorKind};

/// Type names whose runtime value has exactly that type.
const EXACT: &[&str] = &["int", "uint", "string", "bool", "list", "map"];

/// Functions that never fail on operands of different types.
const HETEROGENEOUS: &[&str] = &["_==_", "_!=_", "@in"];

/// What a finding of the typed check predicts.
pub fn prediction(error: &CheckError) -> Prediction {
    let fails = match error.kind {
        CheckErrorKind::UndefinedField | CheckErrorKind::Undeclared | CheckErrorKind::Version => {
            true
        }
        CheckErrorKind::NoOverload => no_overload_fails(&error.message),
        CheckErrorKind::Type => type_error_fails(&error.message),
    };
    if fails {
        Prediction::FailsAtAdmission
    } else {
        Prediction::TypedCheck
    }
}

/// `found no matching overload for 'F' applied to '(A, B)'`: fails when `F` is not heterogeneous
/// and every type named in the arguments is exact.
fn no_overload_fails(message: &str) -> bool {
    let Some(rest) = message.strip_prefix("found no matching overload for '") else {
        return false;
    };
    let Some((function, args)) = rest.split_once("' applied to ") else {
        return false;
    };
    if function == "_?_:_" {
        // cel-go evaluates the branch the condition picks, whatever the other branch's type: the
        // conditional fails only on a condition that is not a bool.
        let condition = args
            .trim_start_matches(['\'', '('])
            .split(',')
            .next()
            .unwrap_or("");
        return all_exact(condition) && condition.trim() != "bool";
    }
    !HETEROGENEOUS.contains(&function) && all_exact(args)
}

fn type_error_fails(message: &str) -> bool {
    if message.contains("does not support field selection") {
        return true;
    }
    if let Some(range) = message.strip_prefix("expression of type '") {
        // A comprehension over a value that is neither a list nor a map at run time either.
        let ty = range.split('\'').next().unwrap_or("");
        return all_exact(ty) && !ty.starts_with("list") && !ty.starts_with("map");
    }
    // The mutations' own checks: a patch the API server cannot apply (an unknown op, a value that
    // does not fit its path) and an apply configuration that sets an atomic part (the apiserver's
    // structured-merge-diff refuses it with this very message), or a field of the wrong type,
    // fail the mutation whenever it runs.
    message.starts_with("expected type of field")
        || message.starts_with("JSONPatch ")
        || message.starts_with("may not mutate atomic")
}

fn all_exact(types: &str) -> bool {
    types
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|token| !token.is_empty())
        .all(|token| EXACT.contains(&token))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(kind: CheckErrorKind, message: &str) -> CheckError {
        CheckError {
            kind,
            span: crate::text::TextRange::default(),
            anchor: 0.into(),
            message: message.to_string(),
            suggestion: None,
        }
    }

    #[test]
    fn overloads_of_exact_types_fail_and_others_may_not() {
        let cases = [
            (
                "'_<=_' applied to '(int, string)'",
                Prediction::FailsAtAdmission,
            ),
            ("'_==_' applied to '(bool, string)'", Prediction::TypedCheck),
            (
                "'_?_:_' applied to '(bool, string, int)'",
                Prediction::TypedCheck,
            ),
            (
                "'_?_:_' applied to '(int, string, string)'",
                Prediction::FailsAtAdmission,
            ),
            (
                "'@in' applied to '(string, Pod.metadata)'",
                Prediction::TypedCheck,
            ),
            (
                "'orValue' applied to 'optional_type(string).(null_type)'",
                Prediction::TypedCheck,
            ),
            ("'_+_' applied to '(double, int)'", Prediction::TypedCheck),
            (
                "'startsWith' applied to 'int.(string)'",
                Prediction::FailsAtAdmission,
            ),
        ];
        for (tail, expected) in cases {
            let message = format!("found no matching overload for {tail}");
            let got = prediction(&error(CheckErrorKind::NoOverload, &message));
            assert_eq!(got, expected, "{message}");
        }
    }

    #[test]
    fn mutations_the_api_server_cannot_apply_fail_and_mixed_literals_may_not() {
        let cases = [
            (
                "JSONPatch op 'insert' is not one of add, remove, replace, move, copy, test",
                Prediction::FailsAtAdmission,
            ),
            (
                "may not mutate atomic arrays, maps or structs: spec.selector",
                Prediction::FailsAtAdmission,
            ),
            (
                "expected type 'string' but found 'int'",
                Prediction::TypedCheck,
            ),
            (
                "expression of type 'Pod.metadata' cannot be range of a comprehension (must be list, map, or dynamic)",
                Prediction::TypedCheck,
            ),
            (
                "expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)",
                Prediction::FailsAtAdmission,
            ),
        ];
        for (message, expected) in cases {
            let got = prediction(&error(CheckErrorKind::Type, message));
            assert_eq!(got, expected, "{message}");
        }
    }
}
