//! The API server's result-type rule (`compile.go`): the checked type must be
//! exactly one of the types the field allows — no `dyn` leniency — unless the field allows any
//! type (variables, given as `dyn` in the allowed list).

use super::Checked;
use crate::cel::types::Type;

/// The `cel-result-type` message when `checked.result` is not exactly one of `expected`
/// (`must evaluate to bool but got dyn`, `must evaluate to one of [string null_type] but got int`),
/// or `None` when it is, when `expected` allows anything (contains `dyn` or is empty), or when the
/// expression already failed to check (its own errors say why).
pub fn result_type_error(checked: &Checked, expected: &[Type]) -> Option<String> {
    let result = &checked.result;
    if result.is_error() || expected.is_empty() || expected.contains(&Type::Dyn) {
        return None;
    }
    if expected.contains(result) {
        return None;
    }
    let wanted = match expected {
        [single] => single.to_string(),
        many => {
            let names: Vec<String> = many.iter().map(Type::to_string).collect();
            format!("one of [{}]", names.join(" "))
        }
    };
    Some(format!("must evaluate to {wanted} but got {result}"))
}
