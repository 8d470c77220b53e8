//! Test suites read from YAML: `kind: PolicyTest` documents (schema in
//! `schemas/policytest.schema.json`, read by the Kubernetes family's `suites/policy_test.rs`),
//! kaptest manifests as they are (read by [`super::kaptest`]) and gator suites.
//! Both become a [`Suite`] of [`Case`]s; each case keeps its range so an editor can point at it.
//! A key the format does not have, a value of the wrong shape or a file that looks like a suite but
//! does not parse is a problem with its position in [`Suite::errors`] (or the `Err` of [`read`]), so
//! a typo never turns into a case that checks nothing.

use serde_json::{Map, Value as Json};

use super::gator;
use super::keys::Problems;
use crate::policy::PolicyKind;
use crate::policy::admission::json::{node_to_json, str_at};
use crate::policy::families::kubernetes::suites::{POLICY_TEST_KIND, policy_test};
use crate::schema::KubeVersion;
use crate::text::TextRange;
use crate::yaml;

/// Which format a suite was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `kind: PolicyTest`.
    PolicyTest,
    /// A kaptest manifest.
    Kaptest,
    /// A gator `Suite` (`test.gatekeeper.sh`).
    Gator,
    /// A Kyverno CLI `Test` (`kyverno-test.yaml`).
    KyvernoTest,
}

/// An object given inline or by reference to the suite's resources.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The object itself.
    Inline(Json),
    /// `{kind, name, namespace}` (kaptest: also `group`, `version`) looked up in the resources.
    Ref {
        /// API group (`None`: any; kaptest's `group`).
        group: Option<String>,
        /// API version (`None`: any; kaptest's `version`).
        version: Option<String>,
        /// Kind (empty: any).
        kind: String,
        /// Name.
        name: String,
        /// Namespace (empty: cluster-scoped or any).
        namespace: String,
    },
}

/// One mocked authorizer answer.
#[derive(Clone, Debug, PartialEq)]
pub struct AuthzRule {
    /// The check it answers, as a JSON pattern (`verb`, `group`, `resource`, `namespace`, `name`,
    /// `path`; absent = any).
    pub pattern: Json,
    /// The answer.
    pub allowed: bool,
}

/// What a case expects.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Expect {
    /// `allow` (kaptest `admit`), `deny`, `warn`, `audit`, `skip`, `error` or (kaptest) `mutate`.
    pub decision: String,
    /// The first message, exactly.
    pub message: Option<String>,
    /// The message of a failed validation, exactly, without the API server's prefix (kaptest's
    /// `deniedMessage`, compared with the policy decision's message).
    pub denied_message: Option<String>,
    /// The warnings, exactly.
    pub warnings: Option<Vec<String>>,
    /// Audit annotations that must be present with these values.
    pub audit_annotations: Option<Map<String, Json>>,
    /// The mutated object.
    pub object: Option<Json>,
    /// The mutated object as a reference to the suite's resources (kaptest's `expectObject`).
    pub object_ref: Option<Source>,
    /// Whether the referenced expected object takes the request object's name before comparing
    /// (kaptest does so unless `disableNameOverwrite: true`).
    pub rename_expected: bool,
    /// A custom-resource case (`expect.valid`): the object validated against the suite's CRDs
    /// instead of evaluated by a policy; whether it must be valid.
    pub valid: Option<bool>,
    /// The validation errors of a custom-resource case, exactly and in order.
    pub errors: Option<Vec<String>>,
}

/// One test case.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Case {
    /// Its name (kaptest cases are named from their policy, object and expectation).
    pub name: String,
    /// Where the case is in the suite file.
    pub range: TextRange,
    /// The policy's name (may be empty when the suite has one policy).
    pub policy: String,
    /// The policy's kind when the format says it (kaptest's `vapTestSuites` and `mapTestSuites`
    /// may name a validating and a mutating policy alike).
    pub policy_kind: Option<PolicyKind>,
    /// The binding's name, if one is chosen.
    pub binding: Option<String>,
    /// The operation, when given.
    pub operation: Option<String>,
    /// `object`.
    pub object: Option<Source>,
    /// `oldObject`.
    pub old_object: Option<Source>,
    /// `params`.
    pub params: Option<Source>,
    /// `namespace`.
    pub namespace: Option<Source>,
    /// `userInfo.username`.
    pub user: String,
    /// `userInfo.groups`.
    pub groups: Vec<String>,
    /// Mocked authorizer answers.
    pub authorizer: Vec<AuthzRule>,
    /// The expectation.
    pub expect: Expect,
    /// A gator case: its files and assertion (the other fields are unused).
    pub gator: Option<super::gator::GatorCase>,
}

/// A suite: its files and cases.
#[derive(Clone, Debug, PartialEq)]
pub struct Suite {
    /// Its name.
    pub name: String,
    /// The format.
    pub format: Format,
    /// Policy (and binding) files, relative to the suite file.
    pub policy_files: Vec<String>,
    /// Resource files (objects, params, namespaces, CRDs), relative to the suite file.
    pub resource_files: Vec<String>,
    /// Whether the objects are decoded and prepared as the API server does before admission
    /// (`defaults`, default true for PolicyTest suites; kaptest manifests run objects as written,
    /// as kaptest does).
    pub defaults: bool,
    /// Target Kubernetes version (`Err`: the suite's `kubeVersion` and why it was refused).
    pub kube_version: Result<KubeVersion, String>,
    /// The cases.
    pub cases: Vec<Case>,
    /// Problems found reading the suite (`file:line:col: message`); a suite with any does not pass.
    pub errors: Vec<String>,
}

/// Every suite in a YAML text. A document that is neither format is ignored; `Err` is a file that
/// looks like a suite (a `kind: PolicyTest` or kaptest line) but is not valid YAML, with the
/// position of the first syntax error. A file of other YAML that does not parse holds no suite.
pub fn read(text: &str, file_name: &str) -> Result<Vec<Suite>, String> {
    read_tree(text, &yaml::parse(text), file_name)
}

/// [`read`] of a text already parsed into `file` (the editor's shared tree).
pub fn read_tree(text: &str, file: &yaml::YamlFile, file_name: &str) -> Result<Vec<Suite>, String> {
    read_formats(
        text,
        file,
        file_name,
        &[Format::PolicyTest, Format::Kaptest, Format::Gator],
    )
}

/// [`read_tree`] of the suites of `formats` only (the family that runs them asks for its own).
pub fn read_formats(
    text: &str,
    file: &yaml::YamlFile,
    file_name: &str,
    formats: &[Format],
) -> Result<Vec<Suite>, String> {
    if let Some(error) = file.errors.first() {
        if !formats.iter().any(|format| looks_like(text, *format)) {
            return Ok(Vec::new());
        }
        let problems = Problems::new(text, file_name);
        return Err(format!(
            "{}: YAML syntax error: {}",
            problems.position(error.range),
            error.message
        ));
    }
    let mut suites = Vec::new();
    for (index, root) in file
        .documents
        .iter()
        .filter_map(|d| d.root.as_ref())
        .enumerate()
    {
        let json = node_to_json(root);
        let Some(format) = format_of(&json).filter(|format| formats.contains(format)) else {
            continue;
        };
        let mut problems = Problems::new(text, file_name);
        let suite = match format {
            Format::PolicyTest => policy_test::read(root, &json, file_name, index, &mut problems),
            Format::Kaptest => super::kaptest::read(root, &json, file_name, &mut problems),
            Format::Gator => super::gator::read(root, &json, file_name, &mut problems),
            Format::KyvernoTest => continue,
        };
        suites.push(Suite {
            errors: problems.messages,
            ..suite
        });
    }
    Ok(suites)
}

/// The format of a suite document read here (Kyverno's `Test` is read by its family).
fn format_of(json: &Json) -> Option<Format> {
    if str_at(json, &["kind"]) == POLICY_TEST_KIND {
        Some(Format::PolicyTest)
    } else if super::kaptest::is_manifest(json) {
        Some(Format::Kaptest)
    } else if super::gator::is_suite(json) {
        Some(Format::Gator)
    } else {
        None
    }
}

/// Whether a text that does not parse was meant as a suite: a top-level `kind: PolicyTest` (or
/// `kind: Suite` in a text naming gator's API version) or a top-level key only kaptest manifests
/// have.
pub fn looks_like_suite(text: &str) -> bool {
    [Format::PolicyTest, Format::Kaptest, Format::Gator]
        .iter()
        .any(|format| looks_like(text, *format))
}

/// [`looks_like_suite`] for one format.
pub fn looks_like(text: &str, format: Format) -> bool {
    // The line a format needs holds a word the text must then contain; a substring search for
    // it (vectorised) answers most texts, where walking every line was 25 million instructions
    // for a 33,000-line policy file, asked by the server after each of its keystrokes.
    let needed = match format {
        Format::PolicyTest => text.contains(POLICY_TEST_KIND),
        Format::Gator => text.contains(gator::API_VERSION),
        Format::Kaptest => super::kaptest::SUITE_KEYS.iter().any(|k| text.contains(k)),
        Format::KyvernoTest => false,
    };
    needed && any_line_like(text, format)
}

fn any_line_like(text: &str, format: Format) -> bool {
    text.lines().any(|line| {
        let line = line.trim_end();
        let kind = line
            .strip_prefix("kind:")
            .map(|v| v.trim().trim_matches(['"', '\'']));
        match format {
            Format::PolicyTest => kind == Some(POLICY_TEST_KIND),
            Format::Gator => kind == Some(gator::KIND) && text.contains(gator::API_VERSION),
            Format::Kaptest => super::kaptest::SUITE_KEYS.iter().any(|key| {
                line.strip_prefix(key)
                    .is_some_and(|rest| rest.starts_with(':'))
            }),
            Format::KyvernoTest => false,
        }
    })
}
