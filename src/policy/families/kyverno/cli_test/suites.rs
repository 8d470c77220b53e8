//! Kyverno CLI `Test` documents as the Kyverno family's suites: listed with one case per (result
//! entry, resource) as [`super::case_list`] names them, and run by [`super::run`] into the shared
//! reports, the caller's selection seeing each case by its name.

use super::model::API_VERSION;
use crate::policy::suite::{
    self, Case, Format, Loader, RunOptions, SuiteItem, SuiteReport, model::Suite,
};
use crate::schema::KubeVersion;
use crate::yaml::YamlFile;

/// Kyverno's `Test` suites.
pub struct KyvernoSuites;

impl crate::policy::families::Suites for KyvernoSuites {
    fn might_hold(&self, text: &str) -> bool {
        text.contains(API_VERSION)
    }

    /// `kyverno test` finds its suites by this name (the `--file-name` default of
    /// `cmd/cli/kubectl-kyverno/commands/test/command.go`), which projects keep in `.kyverno-test/`.
    fn hidden_file_names(&self) -> &'static [&'static str] {
        &["kyverno-test.yaml"]
    }

    /// `kyverno test` runs a Test whole: its rows are the results it checks.
    fn runs_whole(&self) -> bool {
        true
    }

    fn items(&self, path: &str, _text: &str, file: &YamlFile) -> Vec<SuiteItem> {
        super::tests(file)
            .iter()
            .map(|test| {
                let cases = super::case_list(test)
                    .into_iter()
                    .map(|(name, range)| suite::CaseItem { name, range })
                    .collect();
                SuiteItem::new(
                    name_or_path(&test.name, path),
                    Format::KyvernoTest,
                    Vec::new(),
                    cases,
                )
            })
            .collect()
    }

    fn run(
        &self,
        path: &str,
        _text: &str,
        file: &YamlFile,
        load: Loader<'_>,
        options: &RunOptions<'_>,
    ) -> Vec<SuiteReport> {
        super::tests(file)
            .iter()
            .map(|test| report(path, test, load, options))
            .collect()
    }
}

/// The report of one `Test` document.
fn report(
    path: &str,
    test: &super::model::TestFile,
    load: Loader<'_>,
    options: &RunOptions<'_>,
) -> SuiteReport {
    let hooks = &options.hooks;
    // The suite and case the caller's selection sees: their names.
    let suite = Suite {
        name: test.name.clone(),
        format: Format::KyvernoTest,
        policy_files: test.policies.clone(),
        resource_files: test.resources.clone(),
        defaults: false,
        kube_version: Ok(KubeVersion::newest()),
        cases: Vec::new(),
        errors: Vec::new(),
    };
    let select = |name: &str| {
        let case = Case {
            name: name.to_string(),
            ..Case::default()
        };
        (hooks.select)(path, &suite, &case)
    };
    let run = super::run(
        path,
        test,
        load,
        &super::Hooks {
            select: &select,
            clock: hooks.clock,
            now: options.now,
            kyverno_version: options.kyverno_version,
        },
    );
    SuiteReport {
        path: path.to_string(),
        name: name_or_path(&run.name, path),
        format: Format::KyvernoTest,
        errors: run.errors,
        cases: run.cases,
    }
}

/// A suite's name, or its file's path when it has none.
fn name_or_path(name: &str, path: &str) -> String {
    if name.is_empty() {
        path.to_string()
    } else {
        name.to_string()
    }
}
