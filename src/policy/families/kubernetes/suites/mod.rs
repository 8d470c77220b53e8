//! The Kubernetes family's test suites: `kind: PolicyTest` documents ([`policy_test`], schema in
//! `schemas/policytest.schema.json`) and kaptest manifests
//! ([`kaptest`]), whose cases [`run`] evaluates as the API server admits a request
//! (`policy/apiserver.rs`). The suite model, its loader and the reports are shared with the other
//! families' suites (`policy/suite/`).

pub mod kaptest;
pub mod policy_test;
pub mod run;

use crate::policy::families::Suites;
use crate::policy::suite::{Format, Loader, RunOptions, SuiteItem, SuiteReport, shared};
use crate::yaml::YamlFile;

/// The kind of the suite documents this project defines (`schemas/policytest.schema.json`).
pub const POLICY_TEST_KIND: &str = "PolicyTest";

/// The formats of the family's suites.
const FORMATS: &[Format] = &[Format::PolicyTest, Format::Kaptest];

/// PolicyTest and kaptest suites.
pub struct KubernetesSuites;

impl Suites for KubernetesSuites {
    fn might_hold(&self, text: &str) -> bool {
        text.contains(POLICY_TEST_KIND) || kaptest::SUITE_KEYS.iter().any(|key| text.contains(key))
    }

    fn items(&self, path: &str, text: &str, file: &YamlFile) -> Vec<SuiteItem> {
        shared::items(path, text, file, FORMATS)
    }

    fn run(
        &self,
        path: &str,
        text: &str,
        file: &YamlFile,
        load: Loader<'_>,
        options: &RunOptions<'_>,
    ) -> Vec<SuiteReport> {
        shared::run(path, text, file, FORMATS, load, options)
    }
}
