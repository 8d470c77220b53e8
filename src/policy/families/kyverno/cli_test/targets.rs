//! A result that names one of the suite's `targetResources`, judged as Kyverno's CLI judges it:
//! every resource of the suite is a trigger, and for each one the mutate-existing
//! MutatingPolicies run on the target in the suite's order, each on the target the previous one
//! produced (`processor/policy_processor.go`, `mpol/engine/engine.go` `Evaluate`); each response
//! that mutated it is one row (`commands/test/test.go` collects them in `Target`, by target, of
//! any policy; `output.go` `printTestResult`), compared with the result's `patchedResources`
//! file (the target after every policy of that trigger, a missing document failing the row) and
//! by its status (`pass`).
//!
//! Stricter than the CLI: a target no policy mutated is an error case (the CLI then finds no
//! resource of that name and judges the result on every resource of the suite).

use serde_json::Value as Json;

use super::eval::{self, Response, Status};
use super::model::Expected;
use super::patched::{self, Field};
use super::{Suite, errored, input_for, is_mutating, judged, named, with_root};
use crate::policy::admission::json::str_at;
use crate::policy::suite::CaseResult;

/// One case about the target(s) named `resource`.
pub(super) fn judge(expected: &Expected, resource: &str, suite: &Suite<'_>) -> CaseResult {
    let docs = match suite.compared(&expected.patched_resources) {
        None => None,
        Some(Ok(docs)) => Some(docs),
        Some(Err(e)) => return errored(expected, e),
    };
    let mut rows = 0;
    let mut failures = Vec::new();
    for target in named(suite.targets, resource) {
        for trigger in suite.resources {
            let (mutated, passed) = match run_trigger(trigger, target, suite) {
                Ok(run) => run,
                Err(e) => return errored(expected, e),
            };
            for response in passed {
                rows += 1;
                failures.extend(check_row(expected, &mutated, docs, &response));
            }
        }
    }
    if rows == 0 {
        return errored(
            expected,
            format!(
                "target '{resource}' was not mutated by any mutate-existing policy of the suite (Kyverno's CLI then judges this result on every resource)"
            ),
        );
    }
    judged(expected, failures)
}

/// The mutate-existing policies for one trigger on `target`: the target after all of them and
/// the responses that mutated it.
fn run_trigger(
    trigger: &Json,
    target: &Json,
    suite: &Suite<'_>,
) -> Result<(Json, Vec<Response>), String> {
    let input = input_for(trigger, suite.values);
    let mut current = target.clone();
    let mut passed = Vec::new();
    for policy in suite.policies.iter().filter(|p| is_mutating(&p.kind)) {
        let found = with_root(policy, |root| {
            eval::target_responses(root, &policy.kind, &input, std::slice::from_ref(&current))
        })?;
        for (_, response) in found {
            if let (Some(Status::Pass), Some(object)) = (response.status, &response.patched) {
                current = object.clone();
                passed.push(response);
            }
        }
    }
    Ok((current, passed))
}

/// `checkResult` for one row: the patched target, then the status.
fn check_row(
    expected: &Expected,
    mutated: &Json,
    docs: Option<&[Json]>,
    response: &Response,
) -> Option<String> {
    let what = format!(
        "{}/{} ({})",
        str_at(mutated, &["kind"]),
        str_at(mutated, &["metadata", "name"]),
        response.outcome.policy
    );
    if let Some(docs) = docs {
        let file = &expected.patched_resources;
        match patched::compare(mutated, docs, file, Field::Patched) {
            Ok(None) => {}
            Ok(Some(diff)) => return Some(format!("{what}: {diff}")),
            Err(e) => return Some(format!("{what}: {e}")),
        }
    }
    let status = response.status.map_or("none", Status::as_str);
    (status != expected.result).then(|| format!("{what}: want {}, got {status}", expected.result))
}
