//! What every family's suites give the front ends, whatever their format: the result of each case
//! ([`CaseResult`]) and of each suite ([`SuiteReport`]), how a run is driven ([`RunHooks`],
//! [`RunOptions`]), and a suite's cases listed with their positions before anything runs
//! ([`SuiteItem`], [`CaseItem`]), for the test explorer and the lenses.

use std::time::Duration;

use super::model::{Case, Format, Suite};
use crate::policy::admission::Outcome;
use crate::schema::KubeVersion;
use crate::text::TextRange;

/// The result of one case.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// The case's name.
    pub name: String,
    /// Where the case is in its file.
    pub range: TextRange,
    /// The policy it ran.
    pub policy: String,
    /// Whether it passed.
    pub passed: bool,
    /// Why it could not run, if it could not.
    pub error: Option<String>,
    /// What did not match, as readable lines (diffs included).
    pub failures: Vec<String>,
    /// The evaluation, when it ran.
    pub outcome: Option<Outcome>,
    /// How long the case took (by the caller's clock; zero without one).
    pub duration: Duration,
}

/// How a run is driven: which cases run, and the caller's clock for their durations (the core
/// reads no time itself).
#[derive(Clone, Copy)]
pub struct RunHooks<'a> {
    /// Whether a case (of this suite file and suite) runs; the others are left out of the results.
    pub select: &'a dyn Fn(&str, &Suite, &Case) -> bool,
    /// The time since some fixed instant.
    pub clock: &'a dyn Fn() -> Duration,
}

impl Default for RunHooks<'_> {
    fn default() -> Self {
        RunHooks {
            select: &|_, _, _| true,
            clock: &|| Duration::ZERO,
        }
    }
}

/// The results of one suite.
#[derive(Clone, Debug)]
pub struct SuiteReport {
    /// The suite file.
    pub path: String,
    /// The suite's name.
    pub name: String,
    /// Its format.
    pub format: Format,
    /// Problems with the suite's files (missing, unreadable).
    pub errors: Vec<String>,
    /// The cases.
    pub cases: Vec<CaseResult>,
}

impl SuiteReport {
    /// Whether every case passed and every file loaded.
    pub fn passed(&self) -> bool {
        self.errors.is_empty() && self.cases.iter().all(|c| c.passed)
    }
}

/// What a test run selects and overrides; the default runs every case with the suites' own versions.
#[derive(Clone, Copy, Default)]
pub struct RunOptions<'a> {
    /// Which cases run and the clock that times them.
    pub hooks: RunHooks<'a>,
    /// The Kubernetes version every suite runs against instead of its own `kubeVersion`.
    pub kube_version: Option<KubeVersion>,
    /// The wall-clock time library functions return (Kyverno's `time.now()`); `None`: no clock.
    pub now: Option<crate::cel::eval::Timestamp>,
    /// The Kyverno release Kyverno suites run as (`--kyverno-version`); `None`: the newest.
    pub kyverno_version: Option<crate::policy::families::kyverno::KyvernoVersion>,
}

/// A suite as the explorer lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteItem {
    /// Its name (the file's path when it has none).
    pub name: String,
    /// Its format.
    pub format: Format,
    /// From its first case to its last (empty at the start of the file when it has none).
    pub range: TextRange,
    /// Why it cannot be read, when it cannot.
    pub errors: Vec<String>,
    /// Its cases.
    pub cases: Vec<CaseItem>,
}

/// A case as the explorer lists it: the name a run selects it by, and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseItem {
    /// The case's name, as the run reports it.
    pub name: String,
    /// Where it is in the suite file.
    pub range: TextRange,
}

impl SuiteItem {
    /// The item of a suite named `name` with `cases`; its range spans them.
    pub fn new(
        name: String,
        format: Format,
        errors: Vec<String>,
        cases: Vec<CaseItem>,
    ) -> SuiteItem {
        let start = cases.iter().map(|c| c.range.start()).min();
        let end = cases.iter().map(|c| c.range.end()).max();
        let range = match (start, end) {
            (Some(start), Some(end)) => TextRange::new(start, end),
            _ => TextRange::default(),
        };
        SuiteItem {
            name,
            format,
            range,
            errors,
            cases,
        }
    }
}
