//! Test suites behind the families: a family whose component has a test format (the Kubernetes
//! family's PolicyTest and kaptest, Gatekeeper's gator `Suite`, Kyverno's CLI `Test`) declares its
//! suite documents with a [`Suites`] of its own, returned by `Family::suites`. The command line's
//! `test`, the server's test explorer and run command ask every family here: which texts may hold
//! a suite ([`might_hold`]), the suites of a file with their cases and positions ([`items`]), and
//! the reports of a run ([`run`]).

use super::FAMILIES;
use crate::policy::suite::{Loader, RunOptions, SuiteItem, SuiteReport};
use crate::yaml::YamlFile;

/// The suite documents of one family: how they are recognised, listed and run.
pub trait Suites: Sync {
    /// Whether `text` may hold one of the family's suites: a cheap text search that may take in a
    /// file holding none, never leaves out one that holds one.
    fn might_hold(&self, text: &str) -> bool;
    /// The names of the family's suite files that its component finds in hidden folders, which
    /// the folder walks skip (Kyverno's `.kyverno-test/kyverno-test.yaml`).
    fn hidden_file_names(&self) -> &'static [&'static str] {
        &[]
    }
    /// Whether the family's component runs a suite only as a whole (Kyverno's CLI runs a Test;
    /// its rows are the results it checks): the editor gives such a suite one lens, at its
    /// document, instead of one per case.
    fn runs_whole(&self) -> bool {
        false
    }
    /// The family's suites of `text` (parsed into `file`, read from `path`) with their cases and
    /// where each is, before anything runs; a file meant as a suite that cannot be read gives one
    /// suite with the error.
    fn items(&self, path: &str, text: &str, file: &YamlFile) -> Vec<SuiteItem>;
    /// Runs the family's suites of `text`: one report per suite, with the cases `options` selects.
    fn run(
        &self,
        path: &str,
        text: &str,
        file: &YamlFile,
        load: Loader<'_>,
        options: &RunOptions<'_>,
    ) -> Vec<SuiteReport>;
}

/// The suites of every family that has some, in [`FAMILIES`] order.
fn all() -> impl Iterator<Item = &'static dyn Suites> {
    FAMILIES.iter().filter_map(|family| family.suites())
}

/// Whether `text` may hold a suite of any family.
pub fn might_hold(text: &str) -> bool {
    all().any(|suites| suites.might_hold(text))
}

/// Whether a file named `name` in a hidden folder is a family's suite file.
pub fn named_in_hidden_folders(name: &str) -> bool {
    all().any(|suites| suites.hidden_file_names().contains(&name))
}

/// The suites of `text` of every family, in file order.
pub fn items(path: &str, text: &str, file: &YamlFile) -> Vec<SuiteItem> {
    let items = items_run_whole(path, text, file).into_iter();
    items.map(|(item, _)| item).collect()
}

/// [`items`], each with whether its family runs it only as a whole ([`Suites::runs_whole`]).
pub fn items_run_whole(path: &str, text: &str, file: &YamlFile) -> Vec<(SuiteItem, bool)> {
    let mut items: Vec<(SuiteItem, bool)> = all()
        .filter(|suites| suites.might_hold(text))
        .flat_map(|suites| {
            let whole = suites.runs_whole();
            let items = suites.items(path, text, file).into_iter();
            items.map(move |item| (item, whole))
        })
        .collect();
    items.sort_by_key(|(item, _)| item.range.start());
    items
}

/// The reports of running every family's suites of `text`.
pub fn run(
    path: &str,
    text: &str,
    file: &YamlFile,
    load: Loader<'_>,
    options: &RunOptions<'_>,
) -> Vec<SuiteReport> {
    all()
        .filter(|suites| suites.might_hold(text))
        .flat_map(|suites| suites.run(path, text, file, load, options))
        .collect()
}
