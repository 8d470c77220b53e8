//! Policy test suites: the suite documents of `kind: PolicyTest`, kaptest manifests and gator suites
//! read into cases ([`model`]), the documents they refer to loaded through the caller's loader
//! ([`world`]), readable diffs ([`diff`]), and what every family's suites report ([`report`]).
//! Each family runs its own suites behind `families::Suites`: the PolicyTest and kaptest runner
//! lives with the Kubernetes family (`families/kubernetes/suites/`), re-exported here as [`run`]
//! and [`kaptest`], the gator reader and runner with Gatekeeper's ([`gator`]).

pub mod diff;
pub mod keys;
pub mod model;
pub mod report;
pub mod shared;
pub mod world;

pub use crate::policy::families::gatekeeper::gator;
pub use crate::policy::families::kubernetes::suites::{kaptest, run};
pub use model::{Case, Format, Suite, read, read_tree};
pub use report::{CaseItem, CaseResult, RunHooks, RunOptions, SuiteItem, SuiteReport};
pub use run::{run_suite, run_suite_with};
pub use world::{Loader, World, join};
