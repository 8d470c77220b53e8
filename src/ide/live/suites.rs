//! The cases of test suites (PolicyTest and kaptest) that test a policy of the file, as live
//! verdicts: a suite whose policy files include this file, each of its cases for one of the
//! file's policies run as `admission-ls test` runs it, traced. The front end finds the suite files
//! and reads them; `load` reads the files they name (the editor's text first).

use std::cell::Cell;

use super::{Evaluated, Verdict};
use crate::policy::admission::explain;
use crate::policy::suite::{self, Format, Loader, RunHooks};

/// Suite cases evaluated at most per file, after every edit.
pub const MAX_CASES: usize = 8;

/// The verdicts of the cases of `suites` (path, text) that test one of `policies` (the file's
/// policy names) through a policy file `is_this_file` accepts (paths as the suite joins them).
pub fn suite_verdicts(
    policies: &[String],
    suites: &[(String, String)],
    is_this_file: &dyn Fn(&str) -> bool,
    load: Loader<'_>,
    cancelled: &dyn Fn() -> bool,
) -> Vec<Verdict> {
    let mut out = Vec::new();
    for (path, text) in suites {
        let Ok(read) = suite::read(text, path) else {
            continue;
        };
        for one in read
            .iter()
            .filter(|s| tests_this_file(s, path, is_this_file))
        {
            if cancelled() || out.len() >= MAX_CASES {
                return out;
            }
            out.extend(run_cases(
                path,
                one,
                policies,
                load,
                cancelled,
                MAX_CASES - out.len(),
            ));
        }
    }
    out
}

/// Whether `one`, a suite of `path`, loads this file as a policy file.
fn tests_this_file(one: &suite::Suite, path: &str, is_this_file: &dyn Fn(&str) -> bool) -> bool {
    matches!(one.format, Format::PolicyTest | Format::Kaptest)
        && one
            .policy_files
            .iter()
            .any(|f| is_this_file(&suite::join(path, f)))
}

/// At most `room` cases of `one` for one of `policies`, run traced.
fn run_cases(
    path: &str,
    one: &suite::Suite,
    policies: &[String],
    load: Loader<'_>,
    cancelled: &dyn Fn() -> bool,
    room: usize,
) -> Vec<Verdict> {
    let only = (policies.len() == 1).then(|| policies[0].clone());
    let chosen = Cell::new(0usize);
    let select = |_: &str, _: &suite::Suite, case: &suite::Case| {
        let mine = policies.contains(&case.policy) || (case.policy.is_empty() && only.is_some());
        let take = mine && chosen.get() < room && !cancelled();
        chosen.set(chosen.get() + usize::from(take));
        take
    };
    let hooks = RunHooks {
        select: &select,
        ..RunHooks::default()
    };
    let ((_, cases), _) = explain::capture(|| suite::run_suite_with(path, one, load, hooks));
    cases
        .into_iter()
        .map(|case| {
            let policy = match (&case.outcome, &only) {
                (Some(outcome), _) => outcome.policy.clone(),
                (None, Some(only)) if case.policy.is_empty() => only.clone(),
                (None, _) => case.policy.clone(),
            };
            Verdict {
                sample: format!("case {}", case.name),
                policy,
                at: None,
                result: case
                    .outcome
                    .map(|outcome| Evaluated::Admission(Box::new(outcome)))
                    .ok_or_else(|| case.error.unwrap_or_default()),
            }
        })
        .collect()
}
