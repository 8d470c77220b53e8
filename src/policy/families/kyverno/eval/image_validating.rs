//! One ImageValidatingPolicy (or its namespaced variant) against one request, as kyverno/kyverno
//! decides it: `pkg/cel/policies/ivpol/engine/engine.go` (match constraints, then one result per
//! policy; `enforceRequired` after the validations pass) and
//! `pkg/image/verification/evaluator/policy.go` `Evaluate`: matchConditions (false: no result),
//! the images of the request (`pkg/cel/compiler/images.go`: the Pod, Pod controller and CronJob
//! extractors by the request's resource, then `spec.images`) filtered by `matchImageReferences`
//! (`glob.rs`, or a CEL expression over `ref`), the digest check (`verifyDigest`, on by default),
//! then `images`, `attestors` and `attestations` bound and the validations run in order as a
//! ValidatingPolicy's are; a matching PolicyException skips the policy. Signature checks read their outcome from the context
//! (`image_verify.rs`). A Pod policy also runs as its autogen variants on the Pod controllers.

use std::sync::Arc;

use serde_json::Value as Json;

use super::super::autogen;
use super::exceptions;
use super::glob::Glob;
use super::image_verify::{Reference, Verifier};
use super::library::ContextData;
use super::validating::{self, Settings, evaluate_text};
use super::{EvalInput, FamilyOutcome, Response, Status, value_of};
use crate::cel::eval::{ExternalFunctions, MapValue, Value};
use crate::policy::admission::explain;
use crate::policy::admission::expr::Scope;
use crate::policy::admission::json::yaml_to_json;
use crate::policy::admission::view::Policy;
use crate::yaml::Node;

/// The responses of the policy and of its autogen variants (`ivpol/autogen/autogen.go`: the
/// spec rewritten for the Pod controllers as a ValidatingPolicy's, `ivpol/engine/provider.go`
/// compiles them beside it) to `input`; one that does not match gives a `no match` response.
pub(super) fn evaluate(root: &Node, kind: &str, input: &EvalInput) -> Vec<Response> {
    let Some(policy) = validating::read_view(root) else {
        return Vec::new();
    };
    let settings = Settings::read(root, kind);
    let mut rewrites = autogen::rewrites(root, kind);
    rewrites.sort_by_key(|r| r.config);
    let mut responses = vec![respond(root, &policy, &settings, input)];
    for rewrite in rewrites {
        let variant = validating::rewritten(&policy, &rewrite);
        let mut response = respond(root, &variant, &settings, input);
        response.outcome.variant = Some(format!("autogen-{}", rewrite.config));
        responses.push(response);
    }
    responses
}

fn respond(root: &Node, policy: &Policy, settings: &Settings, input: &EvalInput) -> Response {
    let mut outcome = FamilyOutcome {
        kind: settings.kind.clone(),
        policy: policy.name.clone(),
        actions: settings.actions.clone(),
        ..FamilyOutcome::default()
    };
    let has_selector = validating::has_selector(policy.match_constraints.as_ref());
    let data = Arc::new(ContextData::of(input));
    let result = if validating::matches_policy(policy, settings, input) {
        let (result, explained) =
            explain::traced(|| run(root, policy, settings, input, data.clone()));
        outcome.explained = explained;
        result
    } else {
        None
    };
    // A verification without data is recorded as a lookup without data is.
    let unavailable = status_of(&result).and_then(|status| data.unavailable_after(status));
    let status = status_of(&result);
    match result {
        None => {
            outcome.result = "no match".into();
            outcome.decision = "skip".into();
        }
        Some((status, message, annotations)) => {
            outcome.result = status.as_str().into();
            outcome.message = Some(message.clone());
            outcome.audit_annotations = annotations;
            validating::decide(&mut outcome, status, &message);
        }
    }
    Response {
        outcome,
        status,
        has_selector,
        patched: None,
        unavailable,
    }
}

type Outcome = (Status, String, Vec<(String, String)>);

fn status_of(result: &Option<Outcome>) -> Option<Status> {
    result.as_ref().map(|r| r.0)
}

fn error(message: impl std::fmt::Display) -> Option<Outcome> {
    Some((
        Status::Error,
        format!("failed to evaluate policy: {message}"),
        Vec::new(),
    ))
}

/// The spec's image fields.
struct ImageSpec {
    references: Vec<Reference>,
    extractors: Vec<(String, String)>,
    attestors: Vec<(String, Json)>,
    attestations: Vec<String>,
    verify_digest: bool,
    required: bool,
}

impl ImageSpec {
    fn read(root: &Node) -> Result<ImageSpec, String> {
        let spec = root.get("spec");
        let list = |key: &str| -> Vec<&Node> {
            match spec.and_then(|s| s.get(key)).map(|n| &n.kind) {
                Some(crate::yaml::NodeKind::Sequence(items)) => items.iter().collect(),
                _ => Vec::new(),
            }
        };
        let field = |node: &Node, key: &str| {
            node.get(key)
                .and_then(Node::as_str)
                .unwrap_or("")
                .to_string()
        };
        let mut references = Vec::new();
        for (i, entry) in list("matchImageReferences").into_iter().enumerate() {
            let (glob, expression) = (field(entry, "glob"), field(entry, "expression"));
            references.push(if !glob.is_empty() {
                Reference::Glob(Glob::compile(&glob).map_err(|e| {
                    format!("spec.matchImageReferences[{i}].glob: Invalid value: \"{glob}\": {e}")
                })?)
            } else {
                Reference::Expression(expression)
            });
        }
        let configuration = |key: &str| {
            spec.and_then(|s| s.get("validationConfigurations"))
                .and_then(|c| c.get(key))
                .and_then(Node::as_scalar)
                .and_then(|s| s.as_bool())
                .unwrap_or(true)
        };
        Ok(ImageSpec {
            references,
            extractors: list("images")
                .into_iter()
                .map(|e| (field(e, "name"), field(e, "expression")))
                .collect(),
            attestors: list("attestors")
                .into_iter()
                .map(|a| (field(a, "name"), yaml_to_json(a).unwrap_or(Json::Null)))
                .collect(),
            attestations: list("attestations")
                .into_iter()
                .map(|a| field(a, "name"))
                .collect(),
            verify_digest: configuration("verifyDigest"),
            required: configuration("required"),
        })
    }
}

/// The built-in extractors of `pkg/cel/compiler/images.go` for the request's resource.
fn default_extractors(input: &EvalInput) -> Vec<(String, String)> {
    let r = &input.request;
    let path = match (r.group.as_str(), r.version.as_str(), r.resource.as_str()) {
        ("", "v1", "pods") => "spec",
        ("batch", "v1", "jobs")
        | ("apps", "v1", "deployments" | "statefulsets" | "daemonsets" | "replicasets") => {
            "spec.template.spec"
        }
        ("batch", "v1", "cronjobs") => "spec.jobTemplate.spec.template.spec",
        _ => return Vec::new(),
    };
    ["containers", "initContainers", "ephemeralContainers"]
        .iter()
        .map(|name| {
            let text = format!(
                "(object != null ? object : oldObject).{path}.?{name}.orValue([]).map(e, e.image)"
            );
            (name.to_string(), text)
        })
        .collect()
}

fn run(
    root: &Node,
    policy: &Policy,
    settings: &Settings,
    input: &EvalInput,
    data: Arc<ContextData>,
) -> Option<Outcome> {
    let spec = match ImageSpec::read(root) {
        Ok(spec) => spec,
        Err(e) => {
            return Some((
                Status::Error,
                format!("failed to compile policy: {e}"),
                Vec::new(),
            ));
        }
    };
    let variables: Vec<(String, String)> = policy
        .variables
        .iter()
        .map(|v| (v.name.clone(), v.expression.clone()))
        .collect();
    let verifier = Arc::new(Verifier::new(
        data,
        spec.references,
        spec.attestations.clone(),
    ));
    let functions: Arc<dyn ExternalFunctions> = verifier.clone();
    let base_activation = validating::activation(settings, input);
    let scope = Scope::kyverno(base_activation.clone(), &variables, functions.clone());
    match validating::match_conditions(policy, &scope) {
        Ok(true) => {}
        // `Evaluate` returns no result: the policy gives no response.
        Ok(false) => return None,
        Err(e) => return error(e),
    }
    let applicable = exceptions::applicable(&input.context, &policy.name, &settings.kind);
    let ignore = policy.failure_policy == "Ignore";
    match exceptions::for_image_validating(&applicable, &scope, ignore) {
        Ok(Some((status, message))) => return Some((status, message, Vec::new())),
        Ok(None) => {}
        Err(e) => return error(e),
    }
    let mut extractors = default_extractors(input);
    extractors.extend(spec.extractors);
    let (images, matched) = match extract_images(&scope, &extractors, &verifier) {
        Ok(found) => found,
        Err(e) => return error(e),
    };
    if spec.verify_digest
        && let Some(result) = check_digests(&matched, functions.as_ref())
    {
        return Some(result);
    }
    let mut activation = base_activation;
    activation.push(("images", images));
    activation.push(("attestors", attestors_value(&spec.attestors)));
    activation.push(("attestations", attestations_value(&spec.attestations)));
    let scope = Scope::kyverno(activation, &variables, functions);
    let result = validations(policy, &scope);
    if spec.required
        && let (Status::Pass, _, annotations) = &result
        && let Some(message) = unverified(&matched, &verifier)
    {
        return Some((Status::Fail, message, annotations.clone()));
    }
    Some(result)
}

/// Each extractor's images, those the policy selects kept (`images`), and all of them in order.
fn extract_images(
    scope: &Scope,
    extractors: &[(String, String)],
    verifier: &Verifier,
) -> Result<(Value, Vec<String>), String> {
    let mut categories = MapValue::with_capacity(extractors.len());
    let mut matched = Vec::new();
    for (name, text) in extractors {
        let label = || format!("images {name}");
        let found = match explain::labelled(label, || evaluate_text(scope, text))? {
            Value::List(items) => items
                .iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s.to_string()),
                    other => Err(format!(
                        "type conversion error from '{}' to 'string'",
                        other.type_name()
                    )),
                })
                .collect::<Result<Vec<_>, _>>()?,
            other => {
                return Err(format!(
                    "type conversion error from '{}' to '[]string'",
                    other.type_name()
                ));
            }
        };
        let mut kept = Vec::new();
        for image in found {
            if verifier.selects(&image)? {
                kept.push(Value::string(&image));
                matched.push(image);
            }
        }
        categories.insert_str(name, Value::list(kept));
    }
    Ok((Value::Map(Arc::new(categories)), matched))
}

/// `checkDigests`: every selected image must name a digest.
fn check_digests(images: &[String], functions: &dyn ExternalFunctions) -> Option<Outcome> {
    for image in images {
        let parsed = functions.call("parseImageReference", None, &[Value::string(image)])?;
        if let Value::Error(e) = &parsed {
            return error(format!("failed to parse image reference {image}: {e}"));
        }
        let digest = functions.call("containsDigest", Some(&parsed), &[]);
        if !matches!(digest, Some(Value::Bool(true))) {
            return Some((
                Status::Fail,
                format!("image {image} does not have a digest"),
                Vec::new(),
            ));
        }
    }
    None
}

fn attestors_value(attestors: &[(String, Json)]) -> Value {
    let mut map = MapValue::with_capacity(attestors.len());
    for (name, attestor) in attestors {
        map.insert_str(name, value_of(Some(attestor)));
    }
    Value::Map(Arc::new(map))
}

fn attestations_value(names: &[String]) -> Value {
    let mut map = MapValue::with_capacity(names.len());
    for name in names {
        map.insert_str(name, Value::string(name));
    }
    Value::Map(Arc::new(map))
}

/// The validations in order, as a ValidatingPolicy's: the first error or `false` decides.
fn validations(policy: &Policy, scope: &Scope) -> Outcome {
    for (index, validation) in policy.validations.iter().enumerate() {
        let label = || format!("validation[{index}]");
        match explain::labelled(label, || evaluate_text(scope, &validation.expression)) {
            Err(e) => {
                return (
                    Status::Error,
                    format!("failed to evaluate policy: {e}"),
                    Vec::new(),
                );
            }
            Ok(Value::Bool(true)) => {}
            Ok(Value::Bool(false)) => {
                let message = validating::failure_message(scope, validation, index);
                return match validating::audit_annotations(policy, scope) {
                    Ok(annotations) => (Status::Fail, message, annotations),
                    Err(e) => (
                        Status::Error,
                        format!("failed to evaluate policy: {e}"),
                        Vec::new(),
                    ),
                };
            }
            Ok(other) => {
                return (
                    Status::Error,
                    format!(
                        "error: type conversion error from '{}' to 'bool'",
                        other.type_name()
                    ),
                    Vec::new(),
                );
            }
        }
    }
    match validating::audit_annotations(policy, scope) {
        Ok(annotations) => (Status::Pass, "success".into(), annotations),
        Err(e) => (
            Status::Error,
            format!("failed to evaluate policy: {e}"),
            Vec::new(),
        ),
    }
}

/// `EnforceRequired`: the first selected image no verification succeeded on.
fn unverified(images: &[String], verifier: &Verifier) -> Option<String> {
    images.iter().find_map(|image| match verifier.status(image) {
        (true, _) => None,
        (false, true) => Some(format!(
            "image {image} failed signature or attestation verification"
        )),
        (false, false) => Some(format!(
            "image {image} is not verified: no policy performed a signature or attestation check on it"
        )),
    })
}
