//! The API of admission-ls for its front-ends: plain data in, plain data out. The `lsp` and `cli`
//! modules call only this module; it knows nothing of the protocol.

pub mod lenses;
mod render;
pub mod run;

pub use crate::policy::{Code, Diagnostic, Severity};
pub use crate::text::{Encoding, LineCol, LineIndex, TextRange, TextSize};
pub use render::{RenderOptions, render_diagnostics};

use std::collections::BTreeMap;
use std::sync::Arc;

/// Identifies a file for the analysis; the front-end keeps the path or URI that goes with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// Settings that shape diagnostics; passed with every call, never stored.
#[derive(Clone, Debug, Default)]
pub struct DiagnosticsConfig {
    /// Target Kubernetes minor version (1.NN → NN); `None` means the newest supported.
    pub kube_minor: Option<u32>,
    /// Codes the user turned off.
    pub disabled: Vec<Code>,
}

/// The inputs: the text of every file known to the analysis.
#[derive(Clone, Debug, Default)]
pub struct AnalysisHost {
    files: BTreeMap<FileId, Arc<str>>,
}

impl AnalysisHost {
    /// An empty host.
    pub fn new() -> AnalysisHost {
        AnalysisHost::default()
    }

    /// Sets or replaces the text of a file.
    pub fn set_file(&mut self, file: FileId, text: Arc<str>) {
        self.files.insert(file, text);
    }

    /// Forgets a file.
    pub fn remove_file(&mut self, file: FileId) {
        self.files.remove(&file);
    }

    /// A cheap, immutable view of the current inputs for analysis on another thread.
    pub fn snapshot(&self) -> Analysis {
        Analysis {
            files: Arc::new(self.files.clone()),
        }
    }
}

/// An immutable snapshot of the inputs; every feature is a method on it.
#[derive(Clone, Debug)]
pub struct Analysis {
    files: Arc<BTreeMap<FileId, Arc<str>>>,
}

impl Analysis {
    /// The text of a file, if the snapshot has it.
    pub fn file_text(&self, file: FileId) -> Option<Arc<str>> {
        self.files.get(&file).cloned()
    }

    /// Every diagnostic of a file, sorted by position; empty for an unknown file.
    pub fn diagnostics(&self, file: FileId, config: &DiagnosticsConfig) -> Vec<Diagnostic> {
        let Some(text) = self.files.get(&file) else {
            return Vec::new();
        };
        diagnostics_for_text(text, config)
    }
}

/// Diagnostics of one file's text on its own (no cross-file references yet).
pub fn diagnostics_for_text(text: &str, config: &DiagnosticsConfig) -> Vec<Diagnostic> {
    let yaml = crate::yaml::parse(text);
    let mut diagnostics: Vec<Diagnostic> = yaml
        .errors
        .iter()
        .map(|error| Diagnostic::new(Code::YamlSyntax, error.range, error.message.clone()))
        .collect();
    let check = crate::policy::CheckConfig {
        kube_minor: config.kube_minor,
    };
    diagnostics.extend(crate::policy::check_file(text, &yaml, &check));
    diagnostics.retain(|d| !config.disabled.contains(&d.code));
    crate::policy::diagnostic::sort(&mut diagnostics);
    diagnostics
}
