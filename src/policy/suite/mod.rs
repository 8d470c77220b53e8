//! Policy test suites: `kind: PolicyTest` documents, kaptest manifests and gator suites read into cases
//! ([`model`]), the documents they refer to loaded through the caller's loader ([`world`]), and each
//! case evaluated and compared with its expectation ([`run`]), with readable diffs ([`diff`]).

pub mod diff;
pub mod gator;
pub mod kaptest;
pub mod keys;
pub mod model;
pub mod run;
pub mod world;

pub use model::{Case, Format, Suite, read, read_tree};
pub use run::{CaseResult, RunHooks, run_suite, run_suite_with};
pub use world::{Loader, World, join};
