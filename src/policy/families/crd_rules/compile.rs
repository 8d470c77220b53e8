//! Compiling the `rule` and `messageExpression` of one `x-kubernetes-validations` entry as the
//! API server does when the CRD is written (apiextensions-apiserver
//! `pkg/apiserver/schema/cel/compilation.go`): `self` typed from the schema node, `oldSelf` the
//! same type (`optional_type` of it with `optionalOldSelf: true`), the Kubernetes libraries of the
//! target version; a rule must be exactly `bool`, a messageExpression exactly `string`. Every error
//! lands on the characters of the scalar it comes from.

use std::sync::Arc;

use crate::cel::ast::{Ast, ExprId};
use crate::cel::check::{CheckError, Checked, Env, Reference, SharedProvider, check};
use crate::cel::cost;
use crate::cel::types::Type;
use crate::policy::node::scalar;
use crate::policy::{Code, Diagnostic};
use crate::schema::SchemaTypes;
use crate::text::TextRange;
use crate::yaml::Node;

use super::cost::RuleSizes;

const SELF_DOC: &str = "The value of the schema node this rule is on.";
const OLD_SELF_DOC: &str =
    "The value before the update (transition rules run on updates only, when both values exist).";

/// A compiled expression: whether it reads `oldSelf` and its estimated cost (`None` when the
/// estimate depends on a size nothing bounds, as `dyn` values).
pub struct Compiled {
    /// The expression refers to `oldSelf`.
    pub uses_old_self: bool,
    /// Estimated worst-case cost of one evaluation.
    pub cost: Option<u64>,
}

/// The environment of a rule of the node typed `self_type`.
pub fn env(minor: u32, types: &Arc<SchemaTypes>, self_type: &Type, optional_old_self: bool) -> Env {
    let mut env = Env::kubernetes(minor, false);
    env.push_provider(types.clone() as SharedProvider);
    env.declare("self", self_type.clone(), Some(SELF_DOC));
    let old = if optional_old_self {
        Type::optional(self_type.clone())
    } else {
        self_type.clone()
    };
    env.declare("oldSelf", old, Some(OLD_SELF_DOC));
    env
}

/// Parses and checks the expression in scalar `node` (at field path `path`) against `env`,
/// requiring `result` (`what` names it in the message); `None` when it has errors, all reported.
pub fn compile(
    node: &Node,
    path: &str,
    env: &Env,
    sizes: &RuleSizes,
    result: (&Type, &str),
    out: &mut Vec<Diagnostic>,
) -> Option<Compiled> {
    let scalar = scalar(node)?;
    let map = |span: TextRange| scalar.source_map.to_file_range(span);
    let parsed = crate::cel::parse(&scalar.value);
    for error in &parsed.errors {
        let message = format!("{path}: {}", error.message);
        out.push(Diagnostic::new(Code::CelSyntax, map(error.span), message));
    }
    if !parsed.errors.is_empty() {
        return None;
    }
    let checked = check(&parsed.ast, env);
    for error in &checked.errors {
        let code = crate::policy::typecheck::error_code(error.kind);
        out.push(Diagnostic::new(
            code,
            map(error.span),
            checker_message(path, error),
        ));
    }
    if !checked.errors.is_empty() {
        return None;
    }
    let (expected, what) = result;
    if checked.result != *expected && !checked.result.is_error() {
        let whole = TextRange::up_to(crate::text::TextSize::of(scalar.value.as_str()));
        out.push(Diagnostic::new(
            Code::CelResultType,
            map(whole),
            format!("{path}: {what} (got {})", checked.result),
        ));
        return None;
    }
    let estimate = cost::estimate_value(&parsed.ast, &checked, sizes);
    Some(Compiled {
        uses_old_self: uses_old_self(&parsed.ast, &checked),
        cost: (!estimate.unknown).then_some(estimate.cost.max),
    })
}

/// The checker's message after the field path, with its suggestion.
fn checker_message(path: &str, error: &CheckError) -> String {
    let mut text = format!("{path}: {}", error.message);
    if let Some(name) = &error.suggestion
        && !text.contains("did you mean")
    {
        text.push_str(&format!("; did you mean '{name}'?"));
    }
    text
}

/// Whether the checked expression refers to the variable `oldSelf` (a transition rule).
pub fn uses_old_self(ast: &Ast, checked: &Checked) -> bool {
    (0..ast.len()).any(|i| {
        let id = ExprId(u32::try_from(i).unwrap_or(u32::MAX));
        matches!(checked.reference(id), Some(Reference::Variable { name, .. }) if name == "oldSelf")
    })
}
