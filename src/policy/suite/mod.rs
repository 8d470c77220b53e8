//! Policy test suites: `kind: PolicyTest` documents and kaptest manifests read into cases
//! ([`model`]), the documents they refer to loaded through the caller's loader ([`world`]), and each
//! case evaluated and compared with its expectation ([`run`]), with readable diffs ([`diff`]).

pub mod diff;
pub mod model;
pub mod run;
pub mod world;

pub use model::{Case, Format, Suite, read};
pub use run::{CaseResult, run_suite};
pub use world::{Loader, World, join};
