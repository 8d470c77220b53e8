//! Where a file comes from, when that changes how it is read: a Helm chart template (its template
//! actions masked, the diagnostics they could change left out), a patch a kustomization names
//! (read for its YAML and CEL syntax only, never as a whole document), or a file that is not YAML
//! at all (Helm's `.tpl` helpers). The front ends find the facts that need the disk (is there a
//! `Chart.yaml` above the file, does a kustomization name it); the decisions are made here, by
//! path and text, so the command line and the server read a file the same way.

pub mod kustomize;
mod patch_rules;
mod taint;

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::policy::{Code, Diagnostic};
use crate::text::LineIndex;
use crate::yaml::YamlFile;
use crate::yaml::template::{self, Action};

/// How a file is read, decided from its path and what the front end found on the disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FileOrigin {
    /// A file as written.
    #[default]
    Plain,
    /// A file under the `templates/` folder of a Helm chart: Go template text that renders YAML.
    HelmTemplate,
    /// Helm's named templates (`*.tpl`, `_helpers.tpl`): template text that is not YAML.
    HelmHelpers,
    /// A file a kustomization names as a patch.
    Patch(PatchKind),
}

/// How a kustomization names a patch file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatchKind {
    /// `patches:` (a strategic-merge patch or a JSON 6902 patch, told apart by its content).
    Either,
    /// `patchesStrategicMerge:`.
    StrategicMerge,
    /// `patchesJson6902:`.
    Json6902,
}

/// What the front end found on the disk about a file's path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathFacts {
    /// One of [`chart_candidates`] of the path holds a `Chart.yaml`.
    pub in_chart: bool,
    /// A kustomization names the file as a patch.
    pub patch: Option<PatchKind>,
}

/// How the file at `path` is read.
pub fn origin_of(path: &Path, facts: PathFacts) -> FileOrigin {
    let name = path.file_name().map(|n| n.to_string_lossy());
    if name.is_some_and(|n| n.ends_with(".tpl")) {
        return FileOrigin::HelmHelpers;
    }
    if let Some(kind) = facts.patch {
        return FileOrigin::Patch(kind);
    }
    if facts.in_chart {
        return FileOrigin::HelmTemplate;
    }
    FileOrigin::Plain
}

/// Whether a file of `origin` holding `text` is Go template text rather than YAML as written (a
/// Helm helper, or a chart template with actions): what a suite search leaves out.
pub fn is_go_template(origin: FileOrigin, text: &str) -> bool {
    match origin {
        FileOrigin::HelmHelpers => true,
        FileOrigin::HelmTemplate => template::has_actions(text),
        FileOrigin::Plain | FileOrigin::Patch(_) => false,
    }
}

/// The folders that make `path` a chart template if one of them holds a `Chart.yaml`: the parent
/// of every `templates` folder above the file (Helm renders `templates/` and its subfolders).
pub fn chart_candidates(path: &Path) -> Vec<PathBuf> {
    let mut candidates = Vec::new();
    let mut prefix = PathBuf::new();
    let folders = path.parent().map(Path::components).into_iter().flatten();
    for component in folders {
        if matches!(component, Component::Normal(name) if name == "templates") {
            candidates.push(if prefix.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                prefix.clone()
            });
        }
        prefix.push(component);
    }
    candidates
}

/// A file's text as the analysis reads it, and what its origin changes about its diagnostics.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    /// The text the parser reads: the file's, or for a template the same length with its actions
    /// masked.
    pub text: Arc<str>,
    /// What the origin changes.
    pub reading: Arc<Reading>,
}

/// How a file's diagnostics follow from its origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// As written.
    Plain,
    /// A template: its actions, whose neighbourhood the diagnostics leave out.
    Template(Vec<Action>),
    /// A strategic-merge patch: YAML and CEL syntax only, and it tells the other files nothing.
    Patch,
    /// Not read: the reason.
    Skipped(String),
}

/// What the analysis reads of `text` from a file of `origin`.
pub(crate) fn prepare(text: Arc<str>, origin: FileOrigin) -> Prepared {
    let reading = match origin {
        FileOrigin::Plain => Reading::Plain,
        FileOrigin::HelmHelpers => {
            Reading::Skipped("a Helm helper template (.tpl): Go template text, not YAML".to_owned())
        }
        FileOrigin::Patch(kind) => patch_reading(&text, kind),
        FileOrigin::HelmTemplate if template::has_actions(&text) => {
            let masked = template::mask(&text);
            return Prepared {
                text: masked.text.into(),
                reading: Arc::new(Reading::Template(masked.actions)),
            };
        }
        FileOrigin::HelmTemplate => Reading::Plain,
    };
    Prepared {
        text,
        reading: Arc::new(reading),
    }
}

/// A patch named by `patchesJson6902`, or by `patches` holding a list of operations, is skipped;
/// any other is a strategic-merge patch.
fn patch_reading(text: &str, kind: PatchKind) -> Reading {
    let operations = kind == PatchKind::Json6902
        || (kind == PatchKind::Either && kustomize::is_operation_list(text));
    if operations {
        Reading::Skipped(
            "a JSON 6902 patch a kustomization names (a list of operations on another document)"
                .to_owned(),
        )
    } else {
        Reading::Patch
    }
}

impl Reading {
    /// Whether the file tells the other files nothing (its CRDs and policy names are left out of
    /// the workspace): a patch changes another document, a skipped file is not read.
    pub(crate) fn is_silent(&self) -> bool {
        matches!(self, Reading::Patch | Reading::Skipped(_))
    }

    /// Why the file is not checked, if it is not: its own reason, or for a template whose YAML
    /// does not parse once masked, the first syntax error.
    pub(crate) fn skipped(&self, text: &str, yaml: &YamlFile) -> Option<String> {
        match self {
            Reading::Skipped(reason) => Some(reason.clone()),
            Reading::Template(_) => {
                let error = yaml.errors.first()?;
                let at =
                    LineIndex::new(text).line_col(error.range.start(), crate::text::Encoding::Utf8);
                Some(format!(
                    "a Helm template whose YAML does not parse once its template actions are \
                     masked (line {}: {})",
                    at.line + 1,
                    error.message
                ))
            }
            Reading::Plain | Reading::Patch => None,
        }
    }

    /// The diagnostics of the file read this way, from those of its text.
    pub(crate) fn filter(
        &self,
        text: &str,
        yaml: &YamlFile,
        diagnostics: Vec<Diagnostic>,
    ) -> Vec<Diagnostic> {
        match self {
            Reading::Plain => diagnostics,
            Reading::Skipped(_) => Vec::new(),
            Reading::Patch => {
                let mut kept: Vec<Diagnostic> = diagnostics
                    .into_iter()
                    .filter(|d| matches!(d.code, Code::YamlSyntax | Code::CelSyntax))
                    .collect();
                for found in patch_rules::rule_syntax(yaml) {
                    if !kept.contains(&found) {
                        kept.push(found);
                    }
                }
                crate::policy::diagnostic::sort(&mut kept);
                kept
            }
            Reading::Template(_) if !yaml.errors.is_empty() => Vec::new(),
            Reading::Template(actions) => taint::Taint::of(text, yaml, actions).keep(diagnostics),
        }
    }
}
