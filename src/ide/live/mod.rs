//! Live verdicts: a policy evaluated against the sample objects its modelines name (and the cases
//! of PolicyTest and kaptest suites that test it), shown where the user types: after each
//! validation's and mutation's expression, and a summary after each modeline, with the evaluation
//! trace as the tooltip. DRA device selectors and an authentication configuration, run against
//! devices and claims rather than a request, have theirs in `against.rs`.
//! The front end reads the files a modeline names ([`Analysis::modelines`]) and the suites, then
//! asks for the verdicts ([`Analysis::modeline_verdicts`]) and their hints
//! ([`Analysis::live_hints`]); nothing here reads the disk.

mod against;
mod family_sites;
mod modeline;
mod render;
mod suites;

use std::collections::HashMap;

pub use crate::policy::families::evaluation::FamilyOutcome;
/// Whether a text holds (or was meant to hold) a PolicyTest or kaptest suite.
pub use crate::policy::suite::model::looks_like_suite;
pub use against::AgainstRun;
pub use modeline::{MARKER, MAX_SAMPLES, Modeline, SampleFiles, modelines};
pub use suites::MAX_CASES;

use crate::policy::admission::Outcome;
use crate::policy::admission::json::{documents, str_at};
use crate::policy::admission::view::{self, Document};
use crate::policy::families::EvaluatedAgainst;
use crate::text::{TextRange, TextSize};

use super::run::EvalRequest;
use super::{Analysis, DiagnosticsConfig, FileId};

/// A live hint: a label at an offset with the evaluation behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveHint {
    /// Where the label goes (after an expression or a modeline).
    pub offset: TextSize,
    /// The label, e.g. ` ✗ deny: replicas must be at most 5`.
    pub label: String,
    /// Markdown: each sample's result and the trace of the expression.
    pub tooltip: String,
}

/// One sample's evaluation of one policy of the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// What the sample is called in labels: its object's file, or `case NAME`.
    pub sample: String,
    /// The policy evaluated.
    pub policy: String,
    /// Where its summary goes (the end of its modeline); `None` for a suite's case.
    pub at: Option<TextSize>,
    /// The outcome, or why there is none (a file missing or unparsable, a bad modeline).
    pub result: Result<Evaluated, String>,
}

/// What evaluating a sample gave.
#[derive(Clone, Debug, PartialEq)]
pub enum Evaluated {
    /// An admission policy's outcome, with its validations, mutations and traces.
    Admission(Box<Outcome>),
    /// A family's verdicts on its policy (a Kyverno ValidatingPolicy…), one per variant run.
    Family(Vec<crate::policy::families::evaluation::FamilyOutcome>),
    /// A document run against something other than a request: DRA device selectors against
    /// devices, an authentication configuration against a token's claims.
    Against(Box<AgainstRun>),
}

/// The files modelines name, by the path as written: the text, or why it could not be read.
pub type LoadedFiles = HashMap<String, Result<String, String>>;

impl Analysis {
    /// The modelines of `file` (empty for a file the snapshot does not have).
    pub fn modelines(&self, file: FileId) -> Vec<Modeline> {
        self.parsed(file)
            .map(|parsed| modelines(&parsed.text))
            .unwrap_or_default()
    }

    /// The policies of `file` evaluated against the samples of its modelines, whose files are in
    /// `loaded`; `cancelled` is asked between samples (a newer edit makes these stale).
    pub fn modeline_verdicts(
        &self,
        file: FileId,
        path: &str,
        loaded: &LoadedFiles,
        config: &DiagnosticsConfig,
        cancelled: &dyn Fn() -> bool,
    ) -> Vec<Verdict> {
        let Some(parsed) = self.parsed(file) else {
            return Vec::new();
        };
        let policies = policies(&parsed.yaml);
        let mut out = Vec::new();
        for modeline in modelines(&parsed.text) {
            let Some(policy) = owner(&policies, modeline.range.start()) else {
                continue;
            };
            let at = Some(modeline.range.end());
            if !modeline.problems.is_empty() {
                out.push(Verdict {
                    sample: "modeline".to_string(),
                    policy: policy.name.clone(),
                    at,
                    result: Err(modeline.problems.join("; ")),
                });
                continue;
            }
            for sample in &modeline.samples {
                if out.len() >= MAX_SAMPLES || cancelled() {
                    return out;
                }
                let result = if policy.against == EvaluatedAgainst::Request {
                    let run = |request| evaluate(&request, policy.family);
                    sample_request(&parsed.text, path, &policy.name, sample, loaded, config)
                        .and_then(run)
                } else {
                    let minor = config.kube_version.minor();
                    let document = (policy.name.as_str(), policy.against);
                    against::evaluate(&parsed.text, document, sample, loaded, minor)
                };
                out.push(Verdict {
                    sample: sample.name().to_string(),
                    policy: policy.name.clone(),
                    at,
                    result,
                });
            }
        }
        out
    }

    /// The verdicts of the cases of `suites` (path, text) that test a policy of `file` through a
    /// policy file `is_this_file` accepts; `load` reads the files the suites name.
    pub fn suite_verdicts(
        &self,
        file: FileId,
        suites: &[(String, String)],
        is_this_file: &dyn Fn(&str) -> bool,
        load: crate::policy::suite::Loader<'_>,
        cancelled: &dyn Fn() -> bool,
    ) -> Vec<Verdict> {
        let Some(parsed) = self.parsed(file) else {
            return Vec::new();
        };
        let admission = policies(&parsed.yaml).into_iter().filter(|p| !p.family);
        let names: Vec<String> = admission.map(|p| p.name).collect();
        if names.is_empty() {
            return Vec::new();
        }
        suites::suite_verdicts(&names, suites, is_this_file, load, cancelled)
    }

    /// The hints of `verdicts` on `file`: after each validation and mutation of their policies,
    /// and after each modeline.
    pub fn live_hints(&self, file: FileId, verdicts: &[Verdict]) -> Vec<LiveHint> {
        let Some(parsed) = self.parsed(file) else {
            return Vec::new();
        };
        let whole = TextRange::up_to(TextSize::of(&*parsed.text));
        let mut out = render::summaries(verdicts);
        for model in parsed.models_in(whole) {
            let name = model
                .document
                .header()
                .name()
                .map(|n| n.value.value.clone());
            let Some(name) = name else { continue };
            let mine: Vec<&Verdict> = verdicts.iter().filter(|v| v.policy == name).collect();
            if !mine.is_empty() {
                out.extend(render::site_hints(&parsed.text, model.sites(), &mine));
            }
        }
        out.extend(family_hints(&parsed.text, &parsed.yaml, verdicts));
        out.sort_by_key(|h| h.offset);
        out
    }
}

/// The hints after the validations of the file's family policies: a Kyverno ValidatingPolicy's
/// from the traces of its verdicts, a Gatekeeper ConstraintTemplate's from its outcome.
fn family_hints(text: &str, file: &crate::yaml::YamlFile, verdicts: &[Verdict]) -> Vec<LiveHint> {
    let mut out = Vec::new();
    for root in file.documents.iter().filter_map(|d| d.root.as_ref()) {
        let template = crate::policy::families::gatekeeper::is_template(root);
        let Some(policy) = owned(root).filter(|p| p.family || template) else {
            continue;
        };
        let Some(family) = crate::policy::families::claiming(root) else {
            continue;
        };
        let mine: Vec<&Verdict> = verdicts
            .iter()
            .filter(|v| v.policy == policy.name)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let sites = family.expression_sites(root);
        if policy.against != EvaluatedAgainst::Request {
            out.extend(against::site_hints(text, &sites, &mine));
        } else if template {
            // Evaluated as its generated admission policy: its outcome has the validations.
            out.extend(render::site_hints(text, &sites, &mine));
        } else {
            out.extend(family_sites::site_hints(text, &sites, &mine));
        }
    }
    out
}

/// A policy of the file a modeline can name.
struct Owned {
    name: String,
    range: TextRange,
    /// Whether a document family (Kyverno…) evaluates it, rather than the admission paths.
    family: bool,
    /// What a sample is: a request's object, or the devices or claims the family runs it on.
    against: EvaluatedAgainst,
}

/// The admission policies of the file and the family policies whose evaluation is shown (Kyverno's
/// validating and mutating policies, Gatekeeper's ConstraintTemplates), in file order.
fn policies(file: &crate::yaml::YamlFile) -> Vec<Owned> {
    let roots = file.documents.iter().filter_map(|d| d.root.as_ref());
    roots.filter_map(owned).collect()
}

fn owned(root: &crate::yaml::Node) -> Option<Owned> {
    let range = root.range;
    if let Some(Document::Policy(policy)) = view::read(root) {
        let name = policy.name;
        return Some(Owned {
            name,
            range,
            family: false,
            against: EvaluatedAgainst::Request,
        });
    }
    let name = || text_of(root.get("metadata").and_then(|m| m.get("name")));
    if crate::policy::families::gatekeeper::is_template(root) {
        // `eval` runs a ConstraintTemplate as the API server runs its generated policy, with the
        // Constraint (`params=`, else the one in its file) as params: the admission path.
        return Some(Owned {
            name: name()?.to_string(),
            range,
            family: false,
            against: EvaluatedAgainst::Request,
        });
    }
    // Every other document the family that claims it evaluates: a Kyverno CEL policy against a
    // request, named by `metadata.name`; a DRA document or the API server's configuration
    // against its own kind of sample, named by its kind when it has no name.
    let family = crate::policy::families::claiming(root)?;
    if !family.evaluated(root) {
        return None;
    }
    let against = family.evaluated_against();
    let name = match against {
        EvaluatedAgainst::Request => name()?,
        _ => name().or_else(|| text_of(root.get("kind")))?,
    };
    Some(Owned {
        name: name.to_string(),
        range,
        family: true,
        against,
    })
}

fn text_of(node: Option<&crate::yaml::Node>) -> Option<&str> {
    node.and_then(crate::yaml::Node::as_str)
}

/// The policy a modeline at `at` is for: the first that ends after it, else the last.
fn owner(policies: &[Owned], at: TextSize) -> Option<&Owned> {
    let after = policies.iter().find(|p| p.range.end() >= at);
    after.or(policies.last())
}

/// The evaluation request of one modeline sample, or why the sample cannot be evaluated.
fn sample_request(
    text: &str,
    path: &str,
    policy: &str,
    sample: &SampleFiles,
    loaded: &LoadedFiles,
    config: &DiagnosticsConfig,
) -> Result<EvalRequest, String> {
    let read = |key: &str, file: &Option<String>, single: bool| -> Result<Option<String>, String> {
        let Some(file) = file else { return Ok(None) };
        let text = match loaded.get(file) {
            Some(Ok(text)) => text.clone(),
            Some(Err(e)) => return Err(format!("{key}={file}: {e}")),
            None => return Err(format!("{key}={file}: not read")),
        };
        check_sample(&text, single).map_err(|e| format!("{key}={file}: {e}"))?;
        Ok(Some(text))
    };
    Ok(EvalRequest {
        policy_path: path.to_string(),
        policy_text: text.to_string(),
        object: read("object", &sample.object, true)?,
        old_object: read("oldObject", &sample.old_object, true)?,
        params: read("params", &sample.params, false)?,
        namespace: read("namespace", &sample.namespace, true)?,
        policy: Some(policy.to_string()),
        kube_version: config.kube_version,
        ..EvalRequest::default()
    })
}

/// Why a sample file's text is not an object (one object, unless `single` is false).
fn check_sample(text: &str, single: bool) -> Result<(), String> {
    let docs = documents(text).map_err(|e| format!("does not parse: {e}"))?;
    let Some(first) = docs.first() else {
        return Err("holds no document".to_string());
    };
    if single && (str_at(first, &["kind"]).is_empty() || str_at(first, &["apiVersion"]).is_empty())
    {
        return Err("the document has no apiVersion or kind".to_string());
    }
    Ok(())
}

/// The evaluation of `request`: by its family, or as an admission policy with every expression's
/// trace kept.
fn evaluate(request: &EvalRequest, family: bool) -> Result<Evaluated, String> {
    if family {
        // Traced: each verdict keeps the traces of its expressions (its validations' hints).
        let outcomes =
            crate::policy::admission::explain::capture(|| super::run::evaluate_family(request)).0;
        let outcomes = outcomes.unwrap_or_else(|| Err("no family evaluates this policy".into()));
        return outcomes.map(Evaluated::Family);
    }
    let traced = crate::policy::admission::explain::capture(|| super::run::evaluate(request)).0;
    traced.map(|outcome| Evaluated::Admission(Box::new(outcome)))
}
