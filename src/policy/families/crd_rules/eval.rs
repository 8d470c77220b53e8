//! One `x-kubernetes-validations` rule compiled for a schema node and evaluated against values of
//! that node, as the API server does when a custom resource is created or updated
//! (apiextensions-apiserver `pkg/apiserver/schema/cel/validation.go`): a transition rule (one
//! that reads `oldSelf`) is skipped without an old value unless `optionalOldSelf` is set, in which
//! case `oldSelf` is `optional.none()`. Compile errors read as cel-go prints them
//! (`compilation failed: ERROR: <input>:1:10: …`).

use std::sync::Arc;

use serde_json::Value as Json;

use crate::cel::ast::Ast;
use crate::cel::check::check;
use crate::cel::eval::{Activation, EvalOptions, Value, evaluate_checked, evaluate_checked_traced};
use crate::cel::types::Type;
use crate::policy::admission::explain;
use crate::schema::SchemaTypes;
use crate::text::TextSize;

use super::value::typed_value;

/// How a rule is compiled.
#[derive(Clone, Copy, Debug)]
pub struct RuleOptions {
    /// Target Kubernetes minor version.
    pub minor: u32,
    /// The node is a resource root (the schema's root, or an embedded resource): `apiVersion`,
    /// `kind` and `metadata.name`/`generateName` are typed even where the schema omits them.
    pub resource_root: bool,
    /// `optionalOldSelf: true`.
    pub optional_old_self: bool,
}

/// A rule that compiled.
pub struct NodeRule {
    rule: String,
    ast: Ast,
    /// The checker's type of each node, for results taken from the chosen overload.
    types: Vec<Type>,
    schema: Arc<Json>,
    uses_old_self: bool,
    optional_old_self: bool,
}

/// What evaluating a rule gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleOutcome {
    /// The rule holds.
    Pass,
    /// The rule is false.
    Fail,
    /// A transition rule without an old value: not evaluated.
    Skipped,
}

/// Compiles `rule` for the schema node `schema` (OpenAPI JSON); the error is the API server's
/// message.
pub fn compile_node_rule(
    schema: &Json,
    rule: &str,
    options: RuleOptions,
) -> Result<NodeRule, String> {
    compile_for(
        schema,
        rule,
        options,
        &Type::Bool,
        "cel expression must evaluate to a bool",
    )
}

/// Compiles a `messageExpression` for the schema node `schema`: it must be a `string`.
pub fn compile_message_expression(
    schema: &Json,
    expression: &str,
    options: RuleOptions,
) -> Result<NodeRule, String> {
    let what = "messageExpression must evaluate to a string";
    compile_for(schema, expression, options, &Type::String, what)
}

fn compile_for(
    schema: &Json,
    rule: &str,
    options: RuleOptions,
    expected: &Type,
    what: &str,
) -> Result<NodeRule, String> {
    let schema_minor = crate::policy::typecheck::schema_minor(options.minor);
    let types = Arc::new(SchemaTypes::new(schema_minor));
    let shared = Arc::new(schema.clone());
    let self_type = match types.register_schema("selfType", shared.clone(), options.resource_root) {
        Type::Dyn if schema.get("type").is_none() && !preserves(schema) => Type::Dyn,
        ty => ty,
    };
    let env = super::compile::env(options.minor, &types, &self_type, options.optional_old_self);
    let parsed = crate::cel::parse(rule);
    if let Some(error) = parsed.errors.first() {
        return Err(compilation_failed(rule, error.span.start(), &error.message));
    }
    let checked = check(&parsed.ast, &env);
    // Check errors come first; a program-build error only once the check is clean.
    let (build, issues): (Vec<_>, Vec<_>) =
        checked.errors.iter().partition(|e| e.at_program_build());
    if let Some(error) = issues.first() {
        return Err(compilation_failed(rule, error.span.start(), &error.message));
    }
    if let Some(error) = build.first() {
        return Err(error.message.clone());
    }
    if checked.result != *expected {
        return Err(what.to_string());
    }
    Ok(NodeRule {
        rule: rule.to_string(),
        uses_old_self: super::compile::uses_old_self(&parsed.ast, &checked),
        ast: parsed.ast,
        types: checked.types,
        schema: shared,
        optional_old_self: options.optional_old_self,
    })
}

fn preserves(schema: &Json) -> bool {
    schema
        .get("x-kubernetes-preserve-unknown-fields")
        .and_then(Json::as_bool)
        == Some(true)
}

/// cel-go's issue text: `compilation failed: ERROR: <input>:LINE:COLUMN: message`, 1-based,
/// columns counted in code points.
fn compilation_failed(rule: &str, at: TextSize, message: &str) -> String {
    let at = usize::from(at).min(rule.len());
    let before = rule.get(..at).unwrap_or(rule);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("compilation failed: ERROR: <input>:{line}:{column}: {message}")
}

impl NodeRule {
    /// Whether the rule reads `oldSelf`.
    pub fn is_transition(&self) -> bool {
        self.uses_old_self
    }

    /// Evaluates the rule with `self` = `value` and `oldSelf` = `old`; the error is the runtime
    /// error's message followed by ` evaluating rule: <rule>`.
    pub fn evaluate(&self, value: &Json, old: Option<&Json>) -> Result<RuleOutcome, String> {
        if self.uses_old_self && old.is_none() && !self.optional_old_self {
            return Ok(RuleOutcome::Skipped);
        }
        match self.value(value, old)? {
            Value::Bool(true) => Ok(RuleOutcome::Pass),
            Value::Bool(false) => Ok(RuleOutcome::Fail),
            other => Err(format!("expected a bool, got {}", other.type_name())),
        }
    }

    /// Evaluates a messageExpression compiled by [`compile_message_expression`].
    pub fn message(&self, value: &Json, old: Option<&Json>) -> Result<String, String> {
        match self.value(value, old)? {
            Value::String(text) => Ok(text.to_string()),
            other => Err(format!("expected a string, got {}", other.type_name())),
        }
    }

    fn value(&self, value: &Json, old: Option<&Json>) -> Result<Value, String> {
        let mut activation = Activation::new();
        activation.bind("self", typed_value(value, &self.schema));
        let old = old.map(|o| typed_value(o, &self.schema));
        if self.optional_old_self {
            activation.bind("oldSelf", Value::Optional(old.map(Arc::new)));
        } else if let Some(old) = old {
            activation.bind("oldSelf", old);
        }
        let options = EvalOptions::default();
        let evaluation = if explain::enabled() {
            // Inside a capture (`validate --explain`): kept under the caller's label.
            let (run, trace) =
                evaluate_checked_traced(&self.ast, &self.types, &activation, &options);
            explain::keep(None, &self.rule, &self.ast, &trace);
            run
        } else {
            evaluate_checked(&self.ast, &self.types, &activation, &options)
        };
        evaluation
            .result
            .map_err(|error| self.runtime_error(&error.to_string()))
    }

    /// The validator's wording of a runtime error (`pkg/apiserver/schema/cel/validation.go`).
    fn runtime_error(&self, error: &str) -> String {
        let rule = self.rule.trim();
        if error.starts_with("no such overload") {
            format!(
                "'{error}': call arguments did not match a supported operator, function or macro signature for rule: {rule}"
            )
        } else if error.starts_with("operation cancelled: actual cost limit exceeded") {
            format!(
                "'{error}': no further validation rules will be run due to call cost exceeds limit for rule: {rule}"
            )
        } else {
            format!("{error} evaluating rule: {rule}")
        }
    }
}
