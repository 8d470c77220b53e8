//! The cases of test suites that test a policy of the file, as live verdicts: every family's
//! suites (`families::suites`, the same run as `admission-ls test`), each case of a suite whose
//! policy files include this file and that is for one of the file's policies run traced; a case
//! whose run gives an admission outcome (PolicyTest, kaptest, a gator case on the generated
//! policy) is a sample of its policy. The front end finds the suite files and reads them; `load`
//! reads the files they name (the editor's text first).

use std::cell::Cell;

use super::{Evaluated, Verdict};
use crate::policy::admission::explain;
use crate::policy::families::suites as family_suites;
use crate::policy::suite::{self, CaseResult, Loader, RunHooks, RunOptions};

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
        if cancelled() || out.len() >= MAX_CASES {
            break;
        }
        let room = MAX_CASES - out.len();
        let selection = Selection {
            policies,
            is_this_file,
            cancelled,
            room,
        };
        out.extend(run_cases(path, text, &selection, load));
    }
    out
}

/// Which cases of a suite file run.
struct Selection<'a> {
    /// The file's policy names.
    policies: &'a [String],
    is_this_file: &'a dyn Fn(&str) -> bool,
    cancelled: &'a dyn Fn() -> bool,
    /// Cases run at most.
    room: usize,
}

impl Selection<'_> {
    /// The one policy of the file, which a case that names none is for.
    fn only(&self) -> Option<&String> {
        match self.policies {
            [only] => Some(only),
            _ => None,
        }
    }

    /// Whether `one`, a suite of `path`, loads this file as a policy file.
    fn tests_this_file(&self, path: &str, one: &suite::Suite) -> bool {
        let joined = |f: &String| suite::join(path, f);
        one.policy_files
            .iter()
            .any(|f| (self.is_this_file)(&joined(f)))
    }

    /// Whether `case` is for one of the file's policies.
    fn is_mine(&self, case: &suite::Case) -> bool {
        self.policies.contains(&case.policy) || (case.policy.is_empty() && self.only().is_some())
    }

    /// Whether `case`, in a suite of `path`, names this file as its policy: a gator case names
    /// its template by path, in each test rather than in a suite-wide list of policy files.
    fn names_this_file(&self, path: &str, case: &suite::Case) -> bool {
        case.gator.is_some() && self.names_this_path(path, &case.policy)
    }

    /// Whether `written`, a path in a suite of `path`, is this file.
    fn names_this_path(&self, path: &str, written: &str) -> bool {
        !written.is_empty() && (self.is_this_file)(&suite::join(path, written))
    }
}

/// At most `selection.room` cases of the suites of `text` (at `path`) that test this file, run
/// traced by their family, as verdicts; a case that gave no admission outcome and no error (a
/// family's own verdict, shown nowhere here) is left out.
fn run_cases(path: &str, text: &str, selection: &Selection<'_>, load: Loader<'_>) -> Vec<Verdict> {
    let chosen = Cell::new(0usize);
    let select = |path: &str, one: &suite::Suite, case: &suite::Case| {
        let wanted = selection.tests_this_file(path, one) && selection.is_mine(case)
            || selection.names_this_file(path, case);
        let take = wanted && chosen.get() < selection.room && !(selection.cancelled)();
        chosen.set(chosen.get() + usize::from(take));
        take
    };
    let options = RunOptions {
        hooks: RunHooks {
            select: &select,
            ..RunHooks::default()
        },
        ..RunOptions::default()
    };
    let file = crate::yaml::parse(text);
    let run = || family_suites::run(path, text, &file, load, &options);
    let (reports, _) = explain::capture(run);
    let cases = reports.into_iter().flat_map(|report| report.cases);
    cases
        .filter_map(|case| {
            // A gator case names its template's file; gator runs the file's first template, whose
            // hints carry the template's name (its outcome names the generated policy).
            let template = selection.names_this_path(path, &case.policy);
            let owner = if template {
                selection.policies.first()
            } else {
                selection.only()
            };
            verdict(case, owner, template)
        })
        .collect()
}

/// The verdict of one case that ran: its outcome, else why it could not run. `owner` is the
/// file's policy a case without a name of its own is for; `by_file` when the case named this
/// file rather than a policy (then `owner` is the policy, whatever the outcome calls it).
fn verdict(case: CaseResult, owner: Option<&String>, by_file: bool) -> Option<Verdict> {
    let policy = match (&case.outcome, owner) {
        (_, Some(owner)) if by_file => owner.clone(),
        (Some(outcome), _) => outcome.policy.clone(),
        (None, Some(owner)) if case.policy.is_empty() => owner.clone(),
        (None, _) => case.policy.clone(),
    };
    let result = match (case.outcome, case.error) {
        (Some(outcome), _) => Ok(Evaluated::Admission(Box::new(outcome))),
        (None, Some(error)) => Err(error),
        (None, None) => return None,
    };
    Some(Verdict {
        sample: format!("case {}", case.name),
        policy,
        at: None,
        result,
    })
}
