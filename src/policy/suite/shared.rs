//! The listing and the run of the suites read into the shared model ([`super::model`]): the
//! Kubernetes family's PolicyTest and kaptest, Gatekeeper's gator `Suite`. Each family asks for
//! its own formats; a file meant as one of them that does not parse is one suite with the error,
//! reported in the first of them.

use super::model::{Format, read_formats};
use super::report::{CaseItem, RunOptions, SuiteItem, SuiteReport};
use super::world::Loader;
use crate::yaml::YamlFile;

/// The suites of `formats` in `text` as the explorer lists them.
pub fn items(path: &str, text: &str, file: &YamlFile, formats: &[Format]) -> Vec<SuiteItem> {
    match read_formats(text, file, path, formats) {
        Ok(suites) => suites
            .into_iter()
            .map(|suite| {
                let cases = suite
                    .cases
                    .iter()
                    .map(|case| CaseItem {
                        name: case.name.clone(),
                        range: case.range,
                    })
                    .collect();
                SuiteItem::new(suite.name, suite.format, suite.errors, cases)
            })
            .collect(),
        Err(error) => vec![SuiteItem::new(
            path.to_string(),
            first(formats),
            vec![error],
            Vec::new(),
        )],
    }
}

/// The reports of running the suites of `formats` in `text`.
pub fn run(
    path: &str,
    text: &str,
    file: &YamlFile,
    formats: &[Format],
    load: Loader<'_>,
    options: &RunOptions<'_>,
) -> Vec<SuiteReport> {
    let suites = match read_formats(text, file, path, formats) {
        Ok(suites) => suites,
        Err(error) => {
            return vec![SuiteReport {
                path: path.to_string(),
                name: path.to_string(),
                format: first(formats),
                errors: vec![error],
                cases: Vec::new(),
            }];
        }
    };
    suites
        .into_iter()
        .map(|mut suite| {
            if let Some(version) = options.kube_version {
                suite.kube_version = Ok(version);
            }
            let (errors, cases) = super::run_suite_with(path, &suite, load, options.hooks);
            SuiteReport {
                path: path.to_string(),
                name: suite.name.clone(),
                format: suite.format,
                errors,
                cases,
            }
        })
        .collect()
}

/// The format a file's syntax error is reported in.
fn first(formats: &[Format]) -> Format {
    formats.first().copied().unwrap_or(Format::PolicyTest)
}
