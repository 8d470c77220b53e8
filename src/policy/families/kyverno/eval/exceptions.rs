//! PolicyExceptions of Kyverno's CEL policies (`policies.kyverno.io` PolicyException): those
//! whose `policyRefs` name the policy and its kind apply to it (kyverno/kyverno
//! `pkg/cel/policies/vpol/engine/provider.go`), and one whose `matchConditions` all hold on the
//! request exempts it. For a ValidatingPolicy (`vpol/compiler/policy.go` `Evaluate`, before the
//! policy's own matchConditions): an exception with `images` or `allowedValues` only fills
//! `exceptions.allowedImages` / `allowedValues`; a full one makes the result `skip` ("rule is
//! skipped due to policy exception: KEYS"), or `pass` when the exception with the highest
//! `polex.kyverno.io/priority` label has `reportResult: pass` (`vpol/engine/engine.go`). For an
//! ImageValidatingPolicy (`pkg/image/verification/evaluator/policy.go`, after the
//! matchConditions) any matching exception skips. The exceptions come with the context
//! documents: the suite's `exceptions` files, or PolicyException documents in `--context`.

use serde_json::Value as Json;

use super::Status;
use super::validating::evaluate_bool;
use crate::policy::admission::expr::Scope;
use crate::policy::admission::json::str_at;

/// What the exceptions that apply decide.
#[derive(Debug, Default)]
pub struct Exempted {
    /// A full exemption: the status and message the policy's result becomes.
    pub result: Option<(Status, String)>,
    /// `spec.images` of the partial exceptions that matched.
    pub allowed_images: Vec<Json>,
    /// `spec.allowedValues` of the partial exceptions that matched.
    pub allowed_values: Vec<Json>,
}

/// The CEL PolicyExceptions among `documents` that name the policy `name` of `kind`.
pub fn applicable<'d>(documents: &'d [Json], name: &str, kind: &str) -> Vec<&'d Json> {
    documents
        .iter()
        .filter(|doc| is_exception(doc))
        .filter(
            |doc| match doc.get("spec").and_then(|s| s.get("policyRefs")) {
                Some(Json::Array(refs)) => refs
                    .iter()
                    .any(|r| str_at(r, &["name"]) == name && str_at(r, &["kind"]) == kind),
                _ => false,
            },
        )
        .collect()
}

/// Whether `doc` is a `policies.kyverno.io` PolicyException.
pub fn is_exception(doc: &Json) -> bool {
    str_at(doc, &["kind"]) == "PolicyException"
        && str_at(doc, &["apiVersion"]).starts_with("policies.kyverno.io/")
}

/// Whether every matchCondition of `exception` holds (`match`: a false one decides, errors fail
/// unless the policy's failurePolicy is `Ignore`).
fn matches(exception: &Json, scope: &Scope, ignore_errors: bool) -> Result<bool, String> {
    let conditions = match exception.get("spec").and_then(|s| s.get("matchConditions")) {
        Some(Json::Array(items)) => items.as_slice(),
        _ => &[],
    };
    let mut errors = Vec::new();
    for condition in conditions {
        match evaluate_bool(scope, str_at(condition, &["expression"])) {
            Ok(false) => return Ok(false),
            Ok(true) => {}
            Err(e) => errors.push(e),
        }
    }
    match errors.is_empty() {
        true => Ok(true),
        false if ignore_errors => Ok(false),
        false => Err(errors.join("; ")),
    }
}

/// `cache.MetaNamespaceKeyFunc`: `namespace/name`, or the name alone.
fn key(exception: &Json) -> String {
    let name = str_at(exception, &["metadata", "name"]);
    match str_at(exception, &["metadata", "namespace"]) {
        "" => name.to_string(),
        namespace => format!("{namespace}/{name}"),
    }
}

fn list(exception: &Json, field: &str) -> Vec<Json> {
    match exception.get("spec").and_then(|s| s.get(field)) {
        Some(Json::Array(items)) => items.clone(),
        _ => Vec::new(),
    }
}

/// A ValidatingPolicy's exceptions on the request in `scope`.
pub fn for_validating(
    exceptions: &[&Json],
    scope: &Scope,
    ignore_errors: bool,
) -> Result<Exempted, String> {
    let mut out = Exempted::default();
    let mut full: Vec<&Json> = Vec::new();
    let mut matched: Vec<&Json> = Vec::new();
    for exception in exceptions {
        let hit = match matches(exception, scope, ignore_errors) {
            Ok(hit) => hit,
            // An exemption already granted stands even if a later exception is broken.
            Err(_) if !full.is_empty() => continue,
            Err(e) => return Err(e),
        };
        if !hit {
            continue;
        }
        matched.push(exception);
        let (images, values) = (list(exception, "images"), list(exception, "allowedValues"));
        if images.is_empty() && values.is_empty() {
            full.push(exception);
        } else if full.is_empty() {
            out.allowed_images.extend(images);
            out.allowed_values.extend(values);
        }
    }
    if !full.is_empty() {
        out.result = Some(full_result(&matched));
    }
    Ok(out)
}

/// The result of a full exemption: the exception of the highest priority decides its report
/// result.
fn full_result(matched: &[&Json]) -> (Status, String) {
    let keys: Vec<String> = matched.iter().map(|e| key(e)).collect();
    let mut selected = 0;
    let mut highest = 0;
    for (i, exception) in matched.iter().enumerate() {
        let priority = str_at(
            exception,
            &["metadata", "labels", "polex.kyverno.io/priority"],
        );
        if let Ok(p) = priority.parse::<i64>()
            && p > highest
        {
            highest = p;
            selected = i;
        }
    }
    let report = matched
        .get(selected)
        .map(|e| str_at(e, &["spec", "reportResult"]))
        .unwrap_or("");
    let (status, word) = match report {
        "pass" => (Status::Pass, "passed"),
        _ => (Status::Skip, "skipped"),
    };
    (
        status,
        format!(
            "rule is {word} due to policy exception: {}",
            keys.join(", ")
        ),
    )
}

/// An ImageValidatingPolicy's exceptions: any that matches skips the policy.
pub fn for_image_validating(
    exceptions: &[&Json],
    scope: &Scope,
    ignore_errors: bool,
) -> Result<Option<(Status, String)>, String> {
    let mut keys = Vec::new();
    for exception in exceptions {
        if matches(exception, scope, ignore_errors)? {
            keys.push(key(exception));
        }
    }
    Ok((!keys.is_empty()).then(|| {
        (
            Status::Skip,
            format!(
                "rule is skipped due to policy exception: {}",
                keys.join(", ")
            ),
        )
    }))
}
