//! One ValidatingPolicy (or NamespacedValidatingPolicy) against one request, as kyverno/kyverno
//! decides it: `pkg/cel/policies/vpol/engine/engine.go` `handlePolicy` (match constraints, then
//! the compiled policy, then one rule result) and `pkg/cel/policies/vpol/compiler/policy.go`
//! `evaluateWithData` (matchConditions; variables lazily; validations in order, the first error or
//! `false` deciding; the message, messageExpression or "CEL expression validation failed at index
//! N"; audit annotations). JSON mode (`spec.evaluation.mode: JSON`) matches nothing and binds only
//! `object` (`evaluateJson`). The autogen variants (`vpol/autogen/autogen.go`) are the policy with
//! its text rewritten for the Pod controllers and their own match constraints
//! (`pkg/cel/autogen/match.go` `CreateMatchConstraints`). PolicyExceptions that name the policy
//! run first (`exceptions.rs`).

use super::super::autogen::{self, Rewrite};
use super::exceptions;
use super::library::{ContextData, Library};
use super::{EvalInput, FamilyOutcome, Response, Status, text_at, texts_at, value_of};
use crate::cel::eval::Value;
use crate::policy::admission::explain;
use crate::policy::admission::expr::{Compiled, Failure, POLICY_BUDGET, Scope};
use crate::policy::admission::matching;
use crate::policy::admission::view::{self, Document, Policy, Resources, Rule};
use crate::policy::{ApiVersion, PolicyKind, read_kinds};
use crate::schema::KubeVersion;
use crate::yaml::Node;

/// What a policy variant is, besides its (possibly rewritten) view.
struct Variant {
    name: Option<String>,
    policy: Policy,
}

/// Every variant's response, the policy as written first, then its autogen variants in the order
/// of their configuration names (`generateRuleForControllers` sorts them).
pub(super) fn evaluate(root: &Node, kind: &str, input: &EvalInput) -> Vec<Response> {
    let Some(policy) = read_view(root) else {
        return Vec::new();
    };
    let mut variants = vec![Variant {
        name: None,
        policy: policy.clone(),
    }];
    let mut rewrites = autogen::rewrites(root, kind);
    // `generateRuleForControllers` walks the configurations in sorted order.
    rewrites.sort_by_key(|r| r.config);
    for rewrite in rewrites {
        variants.push(Variant {
            name: Some(format!("autogen-{}", rewrite.config)),
            policy: rewritten(&policy, &rewrite),
        });
    }
    let settings = Settings::read(root, kind);
    variants
        .iter()
        .map(|variant| respond(variant, &settings, input))
        .collect()
}

/// The spec's fields the view does not carry.
pub(super) struct Settings {
    pub(super) kind: String,
    namespace: Option<String>,
    pub(super) actions: Vec<String>,
    json_mode: bool,
}

impl Settings {
    pub(super) fn read(root: &Node, kind: &str) -> Settings {
        let mut actions = texts_at(root, &["spec", "validationActions"]);
        // `ValidatingPolicySpec.ValidationActions`: none set is `[Deny]`.
        if actions.is_empty() {
            actions.push("Deny".to_string());
        }
        let namespaced = kind.starts_with("Namespaced");
        Settings {
            kind: kind.to_string(),
            namespace: namespaced.then(|| text_at(root, &["metadata", "namespace"]).to_string()),
            actions,
            json_mode: text_at(root, &["spec", "evaluation", "mode"]) == "JSON",
        }
    }
}

/// The policy's view: its spec read as a ValidatingAdmissionPolicy's, which it extends.
pub(super) fn read_view(root: &Node) -> Option<Policy> {
    let document = read_kinds::document(root, PolicyKind::ValidatingPolicy, ApiVersion::V1);
    match view::from_model(&document) {
        Document::Policy(policy) => Some(policy),
        Document::Binding(_) => None,
    }
}

/// `policy` with every expression and message rewritten by `rewrite` (Kyverno rewrites the JSON of
/// the whole spec) and the match constraints of the rewrite's controllers.
pub(super) fn rewritten(policy: &Policy, rewrite: &Rewrite) -> Policy {
    let apply = |text: &mut String| *text = rewrite.apply(text).text;
    let mut out = policy.clone();
    for v in &mut out.validations {
        apply(&mut v.expression);
        apply(&mut v.message);
        apply(&mut v.message_expression);
    }
    for a in &mut out.audit_annotations {
        apply(&mut a.value_expression);
    }
    for c in out.match_conditions.iter_mut().chain(&mut out.variables) {
        apply(&mut c.expression);
    }
    out.match_constraints = controller_constraints(policy.match_constraints.as_ref(), rewrite);
    out
}

/// `CreateMatchConstraints`: one rule per group and version of the controllers, with the
/// operations of the policy's first rule and its namespaceSelector; none without operations.
pub(super) fn controller_constraints(
    original: Option<&Resources>,
    rewrite: &Rewrite,
) -> Option<Resources> {
    let original = original?;
    let operations = original.resource_rules.first()?.operations.clone();
    if operations.is_empty() {
        return None;
    }
    let mut rules: Vec<Rule> = Vec::new();
    let mut kinds = rewrite.kinds.clone();
    kinds.sort_by(|a, b| (&a.group, &a.version).cmp(&(&b.group, &b.version)));
    for gvk in kinds {
        let resource = crate::schema::resources::plural(&gvk.kind);
        let same = rules.iter_mut().find(|r| {
            r.api_groups.first() == Some(&gvk.group) && r.api_versions.first() == Some(&gvk.version)
        });
        match same {
            Some(rule) => {
                rule.resources.push(resource);
                rule.resources.sort();
            }
            None => rules.push(Rule {
                operations: operations.clone(),
                api_groups: vec![gvk.group.clone()],
                api_versions: vec![gvk.version.clone()],
                resources: vec![resource],
                ..Rule::default()
            }),
        }
    }
    Some(Resources {
        namespace_selector: original.namespace_selector.clone(),
        resource_rules: rules,
        ..Resources::default()
    })
}

/// `hasSelector` of the CLI's policy processor.
pub(super) fn has_selector(constraints: Option<&Resources>) -> bool {
    let Some(c) = constraints else { return false };
    let selects = |s: &Option<view::Selector>| {
        s.as_ref().is_some_and(|s| {
            s.match_labels.as_ref().is_some_and(|l| !l.is_empty())
                || s.match_expressions.as_ref().is_some_and(|e| !e.is_empty())
        })
    };
    !selects(&c.namespace_selector)
        && !selects(&c.object_selector)
        && c.exclude_resource_rules.is_empty()
        && matches!(c.resource_rules.as_slice(), [rule] if rule.resource_names.is_empty())
}

/// Whether the variant applies to the request (`matchPolicy`: no constraints match nothing).
fn matches(variant: &Variant, settings: &Settings, input: &EvalInput) -> bool {
    matches_policy(&variant.policy, settings, input)
}

/// [`matches`] for any policy read as a view.
pub(super) fn matches_policy(policy: &Policy, settings: &Settings, input: &EvalInput) -> bool {
    if settings.json_mode {
        // The JSON path runs without a matcher (`NewEngine(provider, nil, nil)`).
        return true;
    }
    if let Some(namespace) = &settings.namespace
        && input.request.namespace != *namespace
    {
        return false;
    }
    let Some(constraints) = policy.match_constraints.as_ref() else {
        return false;
    };
    let minor = KubeVersion::newest().minor();
    matching::matches(Some(constraints), &input.request, minor).is_some()
}

fn respond(variant: &Variant, settings: &Settings, input: &EvalInput) -> Response {
    let mut outcome = FamilyOutcome {
        kind: settings.kind.clone(),
        policy: variant.policy.name.clone(),
        variant: variant.name.clone(),
        actions: settings.actions.clone(),
        ..FamilyOutcome::default()
    };
    let has_selector = has_selector(variant.policy.match_constraints.as_ref());
    if !matches(variant, settings, input) {
        return Response::no_match(outcome, has_selector);
    }
    let data = std::sync::Arc::new(ContextData::of(input));
    let ((status, message, annotations), explained) =
        explain::traced(|| run(&variant.policy, settings, input, data.clone()));
    outcome.explained = explained;
    let unavailable = data.unavailable_after(status);
    outcome.result = status.as_str().into();
    outcome.message = Some(message.clone());
    outcome.audit_annotations = annotations;
    decide(&mut outcome, status, &message);
    Response {
        outcome,
        status: Some(status),
        has_selector,
        patched: None,
        unavailable,
    }
}

/// What the request gets from a result under the policy's validationActions.
pub(super) fn decide(outcome: &mut FamilyOutcome, status: Status, message: &str) {
    let has = |action: &str| outcome.actions.iter().any(|a| a == action);
    let (deny, warn, audit) = (has("Deny"), has("Warn"), has("Audit"));
    outcome.decision = match status {
        Status::Pass => "allow",
        Status::Skip => "skip",
        Status::Error => "error",
        Status::Fail if deny => "deny",
        Status::Fail => "allow",
    }
    .into();
    if status == Status::Fail {
        if warn {
            outcome.warnings.push(message.to_string());
        }
        if audit {
            outcome
                .notes
                .push("Audit: the failure is recorded in the policy report".into());
        }
    }
}

/// The variables every expression sees (`evaluateWithData`'s data; `exceptions` with no
/// PolicyException matched).
pub(super) fn activation(settings: &Settings, input: &EvalInput) -> Vec<(&'static str, Value)> {
    let request = &input.request;
    let exceptions = serde_json::json!({"allowedImages": [], "allowedValues": []});
    if settings.json_mode {
        return vec![
            ("object", value_of(request.object.as_ref())),
            ("oldObject", Value::Null),
            ("request", Value::Null),
            ("namespaceObject", Value::Null),
            ("exceptions", value_of(Some(&exceptions))),
        ];
    }
    let request_json = request.to_json(&request.version, &request.resource);
    let namespace = request
        .namespace_object
        .as_ref()
        .filter(|_| !request.namespace.is_empty());
    vec![
        ("object", value_of(request.object.as_ref())),
        ("oldObject", value_of(request.old_object.as_ref())),
        ("request", value_of(Some(&request_json))),
        ("namespaceObject", value_of(namespace)),
        ("exceptions", value_of(Some(&exceptions))),
    ]
}

/// Evaluates a matched variant: the status, its message and the audit annotations.
fn run(
    policy: &Policy,
    settings: &Settings,
    input: &EvalInput,
    data: std::sync::Arc<ContextData>,
) -> (Status, String, Vec<(String, String)>) {
    let variables: Vec<(String, String)> = policy
        .variables
        .iter()
        .map(|v| (v.name.clone(), v.expression.clone()))
        .collect();
    let functions = Library::shared(data);
    let mut base = activation(settings, input);
    let applicable = exceptions::applicable(&input.context, &policy.name, &settings.kind);
    if !applicable.is_empty() {
        // Exceptions run before the matchConditions, on the request alone.
        let plain = Scope::kyverno(base.clone(), &[], functions.clone());
        let ignore = policy.failure_policy == "Ignore";
        match exceptions::for_validating(&applicable, &plain, ignore) {
            Err(e) => {
                return (
                    Status::Error,
                    format!("failed to load context: {e}"),
                    Vec::new(),
                );
            }
            Ok(exempted) => {
                if let Some((status, message)) = exempted.result {
                    return (status, message, Vec::new());
                }
                let allowed = serde_json::json!({
                    "allowedImages": exempted.allowed_images,
                    "allowedValues": exempted.allowed_values,
                });
                for (name, value) in &mut base {
                    if *name == "exceptions" {
                        *value = value_of(Some(&allowed));
                    }
                }
            }
        }
    }
    let scope = Scope::kyverno(base, &variables, functions);
    match match_conditions(policy, &scope) {
        Ok(true) => {}
        Ok(false) => return (Status::Skip, "skip".into(), Vec::new()),
        Err(e) => {
            return (
                Status::Error,
                format!("failed to load context: {e}"),
                Vec::new(),
            );
        }
    }
    for (index, validation) in policy.validations.iter().enumerate() {
        let label = || format!("validation[{index}]");
        match explain::labelled(label, || evaluate_bool(&scope, &validation.expression)) {
            Err(e) => return (Status::Error, format!("error: {e}"), Vec::new()),
            Ok(true) => {}
            Ok(false) => {
                let message = failure_message(&scope, validation, index);
                return match audit_annotations(policy, &scope) {
                    Ok(annotations) => (Status::Fail, message, annotations),
                    Err(e) => (Status::Error, format!("error: {e}"), Vec::new()),
                };
            }
        }
    }
    match audit_annotations(policy, &scope) {
        Ok(annotations) => (Status::Pass, "success".into(), annotations),
        Err(e) => (
            Status::Error,
            format!("failed to load context: {e}"),
            Vec::new(),
        ),
    }
}

/// Runs `text` in `scope` with a budget of its own.
pub(super) fn evaluate_text(scope: &Scope, text: &str) -> Result<Value, String> {
    let mut budget = POLICY_BUDGET;
    scope
        .run_plain(&Compiled::new(text), &mut budget)
        .map_err(|f| match f {
            Failure::Error(m) => m,
            Failure::Budget => f.message(),
        })
}

/// `utils.ConvertToNative[bool]`: a result that is not a bool is an error.
pub(super) fn evaluate_bool(scope: &Scope, text: &str) -> Result<bool, String> {
    match evaluate_text(scope, text)? {
        Value::Bool(b) => Ok(b),
        other => Err(format!(
            "type conversion error from '{}' to 'bool'",
            other.type_name()
        )),
    }
}

/// `match`: every condition runs; a `false` one skips; errors fail unless the failurePolicy is
/// `Ignore`, which skips.
pub(super) fn match_conditions(policy: &Policy, scope: &Scope) -> Result<bool, String> {
    match super::mutating::conditions_hold(policy, scope) {
        Err(_) if policy.failure_policy == "Ignore" => Ok(false),
        held => held,
    }
}

/// The message of a failed validation: its messageExpression's, its message, or the default.
pub(super) fn failure_message(
    scope: &Scope,
    validation: &view::Validation,
    index: usize,
) -> String {
    let mut message = validation.message.clone();
    if !validation.message_expression.is_empty() {
        let label = || format!("messageExpression[{index}]");
        let text = &validation.message_expression;
        message = match explain::labelled(label, || evaluate_text(scope, text)) {
            Err(e) => format!("failed to evaluate message expression: {e}"),
            Ok(Value::String(s)) => s.to_string(),
            Ok(other) => format!(
                "failed to convert message expression to string: type conversion error from '{}' to 'string'",
                other.type_name()
            ),
        };
    }
    if message.is_empty() {
        message = format!("CEL expression validation failed at index {index}");
    }
    message
}

/// `evaluateAuditAnnotations`: each key with a non-empty string value.
pub(super) fn audit_annotations(
    policy: &Policy,
    scope: &Scope,
) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for annotation in &policy.audit_annotations {
        let key = &annotation.key;
        let label = || format!("auditAnnotation {key}");
        match explain::labelled(label, || evaluate_text(scope, &annotation.value_expression)) {
            Err(e) => return Err(format!("failed to evaluate auditAnnotation '{key}': {e}")),
            Ok(Value::String(s)) if !s.is_empty() => out.push((key.clone(), s.to_string())),
            Ok(Value::String(_)) => {}
            Ok(other) => {
                return Err(format!(
                    "failed to convert auditAnnotation '{key}' expression: type conversion error from '{}' to 'string'",
                    other.type_name()
                ));
            }
        }
    }
    Ok(out)
}
