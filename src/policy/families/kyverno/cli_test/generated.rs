//! A GeneratingPolicy's rows, as Kyverno's CLI judges them (`commands/test/output.go`
//! `printTestResult`, the `Generation` branch, and `command.go` `checkResult`): a rule result
//! with no generated resource is compared by its status only; otherwise each generated resource
//! is one row, compared with the result's `patchedResources` file when set, then with its
//! `generatedResource` file, or with each `generatedResources` file until one is equal, and
//! then by the status. A resource missing from its file fails the row here, as there (the CLI's
//! leniency for missing patched resources is not in this branch).

use serde_json::Value as Json;

use super::Suite;
use super::eval::Response;
use super::model::Expected;
use super::patched::{self, Field};
use crate::policy::admission::json::str_at;

/// The failures of the generated resources of every response with a result; `Err` when a file
/// the result names cannot be read.
pub(super) fn check(
    expected: &Expected,
    responses: &[Response],
    suite: &Suite<'_>,
) -> Result<Vec<String>, String> {
    let mut failures = Vec::new();
    for response in responses.iter().filter(|r| r.status.is_some()) {
        for resource in response.outcome.generated.iter().flatten() {
            if let Some(failure) = check_one(expected, resource, suite)? {
                let what = format!(
                    "{}/{}",
                    str_at(resource, &["kind"]),
                    str_at(resource, &["metadata", "name"])
                );
                failures.push(format!("generated {what}: {failure}"));
            }
        }
    }
    Ok(failures)
}

/// `checkResult`'s resource comparisons for one generated resource.
fn check_one(
    expected: &Expected,
    resource: &Json,
    suite: &Suite<'_>,
) -> Result<Option<String>, String> {
    if let Some(docs) = suite.compared(&expected.patched_resources).transpose()? {
        let file = &expected.patched_resources;
        if let Some(failure) = one_file(resource, docs, file, Field::Patched) {
            return Ok(Some(failure));
        }
    }
    against_generated(expected, resource, suite)
}

/// `checkResult`'s comparison of a row's resource with the result's `generatedResource` file, or
/// with each `generatedResources` file until one is equal (`None`: equal, or no file named). The
/// CLI makes it on any kind's row: on another kind's, the row's resource is compared.
pub(super) fn against_generated(
    expected: &Expected,
    resource: &Json,
    suite: &Suite<'_>,
) -> Result<Option<String>, String> {
    if expected.generated_resources.is_empty() {
        let file = &expected.generated_resource;
        return match suite.compared(file).transpose()? {
            Some(docs) => Ok(one_file(resource, docs, file, Field::Generated)),
            None => Ok(None),
        };
    }
    let mut last = None;
    for file in &expected.generated_resources {
        let Some(docs) = suite.compared(file).transpose()? else {
            continue;
        };
        match patched::compare(resource, docs, file, Field::Generated) {
            Ok(None) => return Ok(None),
            Ok(Some(diff)) => last = Some(diff),
            // `checkResult` reports a load error only when no file gave a difference.
            Err(e) => {
                last.get_or_insert(e);
            }
        }
    }
    Ok(last.map(|diff| {
        format!("it matches none of the expected generated resources; the last: {diff}")
    }))
}

/// The comparison with one file, its difference or missing document as the failure.
fn one_file(resource: &Json, docs: &[Json], file: &str, field: Field) -> Option<String> {
    match patched::compare(resource, docs, file, field) {
        Ok(diff) => diff,
        Err(e) => Some(e),
    }
}
