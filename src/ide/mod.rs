//! The API of admission-ls for its front-ends: plain data in, plain data out. The `lsp` and `cli`
//! modules call only this module; it knows nothing of the protocol.

mod actions;
mod add_required;
pub mod ahead;
mod completion;
pub mod crd_lenses;
mod cursor;
mod diagnostic_hover;
mod doc_cache;
#[cfg(test)]
mod doc_cache_tests;
mod family_variables;
mod hints;
mod hover;
#[cfg(test)]
mod invalidation_tests;
mod key_completion;
mod key_hover;
pub mod lenses;
pub mod live;
mod memo;
#[cfg(test)]
mod model_tests;
mod models;
mod navigation;
mod optional_guard;
pub mod origin;
mod parsed;
pub mod project_config;
mod references;
mod rename;
mod rename_local;
mod rename_targets;
mod render;
pub mod run;
pub mod run_families;
mod signature;
#[cfg(test)]
mod snapshot_tests;

mod signature_types;
mod snippets;
mod static_manifests;
mod symbols;
pub mod test_explorer;
mod tokens;
pub mod validate;
mod yaml_spot;

pub use crate::policy::diagnostic::Prediction;
pub use crate::policy::diagnostic::sort as sort_diagnostics;
pub use crate::policy::families::kyverno::KyvernoVersion;
pub use crate::policy::markers::{holds_document, marker_groups};
pub use crate::policy::{Code, Diagnostic, Severity};
pub use crate::schema::{KubeVersion, VersionError};
pub use crate::text::{Encoding, LineCol, LineIndex, TextRange, TextSize};
pub use actions::{ActionKind, CodeAction};
pub use completion::{CompletionItem, CompletionKind};
pub use hints::InlayHint;
pub use hover::HoverResult;
pub use models::ModelReads;
pub use navigation::NavigationTarget;
pub use origin::{FileOrigin, PatchKind, PathFacts};
pub use project_config::{ProjectConfig, is_config_file_name, parse_project_config};
pub use references::{Highlight, WorkspaceSymbol};
pub use rename::{FileEdit, Renamable};
pub use render::{RenderOptions, render_diagnostics};
pub use signature::{Signature, SignatureHelp};
pub use symbols::{Symbol, SymbolKind};
pub use tokens::{HighlightKind, HighlightToken};

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::policy::Workspace;

/// Identifies a file for the analysis; the front-end keeps the path or URI that goes with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// Settings that shape diagnostics; passed with every call, never stored.
#[derive(Clone, Debug, Default)]
pub struct DiagnosticsConfig {
    /// Target Kubernetes version.
    pub kube_version: KubeVersion,
    /// Codes the user turned off.
    pub disabled: Vec<Code>,
    /// Typed-check warnings (the typed checker disagrees, evaluation may succeed) count as errors
    /// (`--strict`, the editor setting `admissionLs.diagnostics.strict`).
    pub strict: bool,
    /// The Kyverno release the project targets (`--kyverno-version`, `kyvernoVersion`): calls of
    /// library functions added later are errors. The newest by default.
    pub kyverno_version: KyvernoVersion,
}

/// Prepares, ahead of the first diagnostics run, the bundled data a check against Kubernetes
/// 1.`minor` reads first (see [`crate::policy::prepare_schemas`]).
pub fn prepare_schemas(minor: u32) {
    crate::policy::prepare_schemas(minor);
}

impl DiagnosticsConfig {
    /// The target Kubernetes minor version.
    pub fn minor(&self) -> u32 {
        self.kube_version.minor()
    }
}

/// The inputs: the text of every file known to the analysis.
#[derive(Clone, Debug, Default)]
pub struct AnalysisHost {
    files: BTreeMap<FileId, Arc<str>>,
    /// How each file is read, from its path (a Helm template, a kustomize patch…); a file not
    /// here is read as written.
    origins: BTreeMap<FileId, FileOrigin>,
    /// What each file's origin changes about its diagnostics, for the text in `files`.
    readings: BTreeMap<FileId, Arc<origin::Reading>>,
    /// What each file contributes to the workspace, kept across snapshots: a keystroke in one file
    /// re-reads that file only, not the CRDs and policies of every other file.
    facts: Arc<Mutex<FactsCache>>,
    /// The diagnostics of each file's documents, kept across snapshots: a keystroke in one
    /// document re-checks that document only.
    documents: Arc<Mutex<doc_cache::DocCaches>>,
    /// The tree of each file's current text, shared by the diagnostics run and every request.
    parses: Arc<Mutex<parsed::ParseCache>>,
    /// The last diagnostics of each file, for the features that read them.
    memo: Arc<Mutex<memo::Memo>>,
    /// How many document models the snapshots have read (`models.rs`).
    model_counts: Arc<models::ModelCounts>,
    /// The last index built, with the facts it was built from: the snapshots of requests between
    /// two edits share it (and its converted schema types) instead of merging every file again.
    last_index: Arc<Mutex<Option<Arc<Index>>>>,
}

/// The workspace facts of one file's text, and the diagnostics of its unusable CRDs.
#[derive(Debug)]
struct FileFacts {
    text: Arc<str>,
    workspace: Workspace,
    /// [`Workspace::fingerprint`] of `workspace`, hashed once per text (it serializes schemas).
    fingerprint: u64,
    /// [`Workspace::crd_fingerprint`] of `workspace`.
    crd_fingerprint: u64,
    /// [`Workspace::base_fingerprint`] of `workspace`.
    base_fingerprint: u64,
    diagnostics: Vec<Diagnostic>,
}

type FactsCache = BTreeMap<FileId, Arc<FileFacts>>;

/// What one file contributes to the others (see [`Analysis::contribution`]), as a fingerprint:
/// equal contributions give the other files equal diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Contribution(Option<u64>);

impl Contribution {
    /// Nothing: a file with no CRD, policy or named object, or not in the analysis.
    pub const NONE: Contribution = Contribution(None);

    fn of(facts: &FileFacts) -> Contribution {
        static EMPTY: OnceLock<u64> = OnceLock::new();
        let empty = *EMPTY.get_or_init(|| Workspace::new().fingerprint());
        Contribution((facts.fingerprint != empty).then_some(facts.fingerprint))
    }
}

impl FileFacts {
    fn read(text: &Arc<str>) -> FileFacts {
        // Files that mention no kind we read are not parsed at all.
        if !affects_other_files(text) {
            return FileFacts::empty(text);
        }
        FileFacts::of_tree(text, &crate::yaml::parse(text))
    }

    fn empty(text: &Arc<str>) -> FileFacts {
        let workspace = Workspace::new();
        FileFacts {
            text: text.clone(),
            fingerprint: workspace.fingerprint(),
            crd_fingerprint: workspace.crd_fingerprint(),
            base_fingerprint: workspace.base_fingerprint(),
            workspace,
            diagnostics: Vec::new(),
        }
    }

    /// The facts of a file that tells the others nothing (a patch, a skipped file): its own
    /// diagnostics (a patch's CRD rules) without its contribution.
    fn silenced(self) -> FileFacts {
        FileFacts {
            diagnostics: self.diagnostics,
            ..FileFacts::empty(&self.text)
        }
    }

    /// The facts of `text`, already parsed into `yaml`.
    fn of_tree(text: &Arc<str>, yaml: &crate::yaml::YamlFile) -> FileFacts {
        if !affects_other_files(text) {
            return FileFacts::empty(text);
        }
        let mut workspace = Workspace::new();
        let diagnostics = crate::policy::index_file(yaml, &mut workspace);
        FileFacts {
            text: text.clone(),
            fingerprint: workspace.fingerprint(),
            crd_fingerprint: workspace.crd_fingerprint(),
            base_fingerprint: workspace.base_fingerprint(),
            workspace,
            diagnostics,
        }
    }
}

/// Whether a file's text may contribute facts to other files (it holds a CRD, a policy, or an
/// object with a name, which a binding's `paramRef` may name); a quick test that spares the parse
/// of files that cannot. Front-ends ask [`Analysis::affected_by`] what an edit invalidates.
fn affects_other_files(text: &str) -> bool {
    // Cheapest test first: almost every such text has `metadata` in its first lines, where a
    // text without a CRD would be searched to its end for the first.
    text.contains("metadata")
        || text.contains("AdmissionPolicy")
        || text.contains("CustomResourceDefinition")
}

impl AnalysisHost {
    /// An empty host.
    pub fn new() -> AnalysisHost {
        AnalysisHost::default()
    }

    /// Sets or replaces the text of a file; it is read as its origin says (a Helm template's
    /// actions are masked: [`AnalysisHost::file_text`] is then the masked text, of the same
    /// length).
    pub fn set_file(&mut self, file: FileId, text: Arc<str>) {
        let origin = self.origins.get(&file).copied().unwrap_or_default();
        let prepared = origin::prepare(text, origin);
        if *prepared.reading == origin::Reading::Plain {
            self.readings.remove(&file);
        } else {
            self.readings.insert(file, prepared.reading);
        }
        self.files.insert(file, prepared.text);
    }

    /// Sets how a file is read (from its path: [`origin::origin_of`]); takes effect at the next
    /// [`AnalysisHost::set_file`] of the file, so front ends set it first.
    pub fn set_origin(&mut self, file: FileId, origin: FileOrigin) {
        if origin == FileOrigin::Plain {
            self.origins.remove(&file);
        } else {
            self.origins.insert(file, origin);
        }
    }

    /// The current text of a file, if the host has it.
    pub fn file_text(&self, file: FileId) -> Option<Arc<str>> {
        self.files.get(&file).cloned()
    }

    /// Forgets a file.
    pub fn remove_file(&mut self, file: FileId) {
        self.files.remove(&file);
        self.readings.remove(&file);
        self.facts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&file);
        self.documents
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&file);
        self.parses
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&file);
        self.memo
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&file);
        *self.last_index.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// A cheap, immutable view of the current inputs for analysis on another thread.
    pub fn snapshot(&self) -> Analysis {
        Analysis {
            files: Arc::new(self.files.clone()),
            readings: Arc::new(self.readings.clone()),
            facts: self.facts.clone(),
            documents: self.documents.clone(),
            parses: self.parses.clone(),
            memo: self.memo.clone(),
            model_counts: self.model_counts.clone(),
            last_index: self.last_index.clone(),
            index: Arc::new(OnceLock::new()),
        }
    }
}

/// An immutable snapshot of the inputs; every feature is a method on it.
#[derive(Clone, Debug)]
pub struct Analysis {
    files: Arc<BTreeMap<FileId, Arc<str>>>,
    /// How the files not read as written are read.
    readings: Arc<BTreeMap<FileId, Arc<origin::Reading>>>,
    facts: Arc<Mutex<FactsCache>>,
    documents: Arc<Mutex<doc_cache::DocCaches>>,
    parses: Arc<Mutex<parsed::ParseCache>>,
    memo: Arc<Mutex<memo::Memo>>,
    model_counts: Arc<models::ModelCounts>,
    last_index: Arc<Mutex<Option<Arc<Index>>>>,
    /// The cross-file facts of this snapshot, gathered on first use and shared by every check.
    index: Arc<OnceLock<Arc<Index>>>,
}

/// What every file contributes to the others (CRDs, policy names), and the diagnostics of the
/// CRDs that cannot be used, by file.
#[derive(Debug)]
struct Index {
    /// The facts merged, by file: equal (the same allocations) means the same index.
    sources: Vec<(FileId, Arc<FileFacts>)>,
    /// A hash of every file's CRDs: equal means the schema types converted so far still hold.
    crd_fingerprint: u64,
    workspace: Arc<Workspace>,
    /// A hash of the fingerprints of every file's facts, in file order: equal when every file
    /// contributes the same facts, so documents' diagnostics may be reused.
    fingerprint: u64,
    /// The same of every file's [`Workspace::base_fingerprint`]: equal when only policy names
    /// and objects changed, so the diagnostics of documents that read none of those changes may
    /// be reused (`doc_cache.rs`).
    base_fingerprint: u64,
    crd_diagnostics: BTreeMap<FileId, Vec<Diagnostic>>,
}

/// The cached facts of `file`, if they were read from this very text (the same allocation).
fn cached_facts(
    cache: &Mutex<FactsCache>,
    file: FileId,
    text: &Arc<str>,
) -> Option<Arc<FileFacts>> {
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&file)
        .filter(|facts| Arc::ptr_eq(&facts.text, text))
        .cloned()
}

/// The facts of `file`, from the cache when its text is the same allocation as last time.
fn file_facts(
    cache: &Mutex<FactsCache>,
    file: FileId,
    text: &Arc<str>,
    silent: bool,
) -> Arc<FileFacts> {
    if let Some(facts) = cached_facts(cache, file, text) {
        return facts;
    }
    // Read outside the lock: another snapshot may be indexing at the same time.
    let facts = FileFacts::read(text);
    let facts = Arc::new(if silent { facts.silenced() } else { facts });
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(file, facts.clone());
    facts
}

impl Index {
    /// The index of `files`: `previous` itself when it was built from the same facts, else a new
    /// one that keeps `previous`'s converted schema types when the CRDs are the same.
    fn build(
        files: &BTreeMap<FileId, Arc<str>>,
        readings: &BTreeMap<FileId, Arc<origin::Reading>>,
        cache: &Mutex<FactsCache>,
        previous: Option<Arc<Index>>,
    ) -> Arc<Index> {
        let silent = |file: &FileId| readings.get(file).is_some_and(|r| r.is_silent());
        let sources: Vec<(FileId, Arc<FileFacts>)> = files
            .iter()
            .map(|(file, text)| (*file, file_facts(cache, *file, text, silent(file))))
            .collect();
        if let Some(previous) = previous
            .as_ref()
            .filter(|p| same_sources(&p.sources, &sources))
        {
            return previous.clone();
        }
        let mut workspace = Workspace::new();
        let mut crd_diagnostics = BTreeMap::new();
        let mut fingerprint = std::collections::hash_map::DefaultHasher::new();
        let mut crds = std::collections::hash_map::DefaultHasher::new();
        let mut base = std::collections::hash_map::DefaultHasher::new();
        for (file, facts) in &sources {
            std::hash::Hash::hash(&facts.fingerprint, &mut fingerprint);
            std::hash::Hash::hash(&facts.base_fingerprint, &mut base);
            std::hash::Hash::hash(&facts.crd_fingerprint, &mut crds);
            workspace.extend_from_file(file.0, &facts.workspace);
            if !facts.diagnostics.is_empty() {
                crd_diagnostics.insert(*file, facts.diagnostics.clone());
            }
        }
        let crd_fingerprint = std::hash::Hasher::finish(&crds);
        if let Some(previous) = previous.filter(|p| p.crd_fingerprint == crd_fingerprint) {
            workspace.adopt_types(&previous.workspace);
        }
        Arc::new(Index {
            sources,
            crd_fingerprint,
            workspace: Arc::new(workspace),
            fingerprint: std::hash::Hasher::finish(&fingerprint),
            base_fingerprint: std::hash::Hasher::finish(&base),
            crd_diagnostics,
        })
    }
}

impl Index {
    /// The diagnostics of `file`'s unusable CRDs.
    fn crd_diagnostics_of(&self, file: FileId) -> Vec<Diagnostic> {
        self.crd_diagnostics.get(&file).cloned().unwrap_or_default()
    }

    /// The facts `file` contributed to this index, if it is one of its files.
    fn facts_of(&self, file: FileId) -> Option<&FileFacts> {
        let found = self.sources.binary_search_by_key(&file, |(f, _)| *f).ok()?;
        self.sources.get(found).map(|(_, facts)| facts.as_ref())
    }
}

/// What [`Analysis::diagnosable`] found.
enum Diagnosable<'a> {
    /// The last diagnostics, computed from the same inputs.
    Remembered(Arc<Vec<Diagnostic>>),
    /// The inputs to compute them from, and the memo key to remember them under.
    Fresh {
        parsed: Arc<parsed::Parsed>,
        index: &'a Index,
        key: memo::Key,
    },
}

fn same_sources(a: &[(FileId, Arc<FileFacts>)], b: &[(FileId, Arc<FileFacts>)]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((fa, a), (fb, b))| fa == fb && Arc::ptr_eq(a, b))
}

impl Analysis {
    /// The text of a file, if the snapshot has it.
    pub fn file_text(&self, file: FileId) -> Option<Arc<str>> {
        self.files.get(&file).cloned()
    }

    /// Every diagnostic of a file, sorted by position; empty for an unknown file. Computed once
    /// per set of inputs: a second call (a hover, a quick fix) reuses the first's answer.
    pub fn diagnostics(&self, file: FileId, config: &DiagnosticsConfig) -> Vec<Diagnostic> {
        self.shared_diagnostics(file, config)
            .map(|d| d.as_ref().clone())
            .unwrap_or_default()
    }

    /// [`Analysis::diagnostics`], shared rather than copied; `None` for an unknown file.
    pub(crate) fn shared_diagnostics(
        &self,
        file: FileId,
        config: &DiagnosticsConfig,
    ) -> Option<Arc<Vec<Diagnostic>>> {
        let (parsed, index, key) = match self.diagnosable(file, config)? {
            Diagnosable::Remembered(diagnostics) => return Some(diagnostics),
            Diagnosable::Fresh { parsed, index, key } => (parsed, index, key),
        };
        let extra = index.crd_diagnostics_of(file);
        let inputs = doc_cache::Inputs {
            minor: config.minor(),
            workspace: &index.workspace,
            fingerprint: index.fingerprint,
            base_fingerprint: index.base_fingerprint,
        };
        let (text, yaml) = (&parsed.text, &parsed.yaml);
        let diagnostics = match self.reading(file) {
            Some(reading) if reading.skipped(text, yaml).is_some() => Vec::new(),
            reading => {
                let checked = doc_cache::check_file(&self.documents, file, text, yaml, &inputs);
                let all = diagnostics_of(yaml, config, extra, checked);
                match reading {
                    Some(reading) => reading.filter(text, yaml, all),
                    None => all,
                }
            }
        };
        let diagnostics = Arc::new(diagnostics);
        memo::remember(&self.memo, file, key, diagnostics.clone());
        Some(diagnostics)
    }

    /// How `file` is read when not as written (a Helm template, a patch, a skipped file).
    fn reading(&self, file: FileId) -> Option<&origin::Reading> {
        self.readings.get(&file).map(Arc::as_ref)
    }

    /// Why `file` is not checked (a Helm helper, a JSON 6902 patch, a Helm template whose YAML
    /// does not parse once masked), if it is not; `None` for a file that is checked or unknown.
    pub fn skipped(&self, file: FileId) -> Option<String> {
        let reading = self.reading(file)?;
        let parsed = self.parsed(file)?;
        reading.skipped(&parsed.text, &parsed.yaml)
    }

    /// The inputs of `file`'s diagnostics, or the last answer when it was computed from the same
    /// ones (then no document is checked); `None` for an unknown file.
    fn diagnosable(&self, file: FileId, config: &DiagnosticsConfig) -> Option<Diagnosable<'_>> {
        let parsed = self.parsed(file)?;
        self.prime_facts(file, &parsed);
        let index = self.index();
        let key = memo::Key::new(&parsed.text, index.fingerprint, config);
        if let Some(diagnostics) = memo::recall(&self.memo, file, &key) {
            doc_cache::note_nothing_checked(&self.documents, file);
            return Some(Diagnosable::Remembered(diagnostics));
        }
        Some(Diagnosable::Fresh { parsed, index, key })
    }

    /// How many documents of `file` the last diagnostics request of its host checked rather than
    /// reused (0 when answered from the memo); `None` before the first run. For tests and benchmarks of the reuse.
    pub fn checked_documents(&self, file: FileId) -> Option<usize> {
        doc_cache::checked(&self.documents, file)
    }

    /// How many document models (and sets of their sites' CEL trees) the snapshots of this
    /// snapshot's host have read so far. For tests and benchmarks of the sharing.
    pub fn model_reads(&self) -> ModelReads {
        self.model_counts.reads()
    }

    /// When the facts of `file` are not cached yet (a file just opened or edited), reads them from
    /// its shared tree, so that the index does not parse the text a second time (parsing was a
    /// quarter of the time from an edit to its diagnostics).
    fn prime_facts(&self, file: FileId, parsed: &parsed::Parsed) {
        if self.index.get().is_some() || cached_facts(&self.facts, file, &parsed.text).is_some() {
            return;
        }
        let facts = FileFacts::of_tree(&parsed.text, &parsed.yaml);
        let silent = self.reading(file).is_some_and(|r| r.is_silent());
        let facts = Arc::new(if silent { facts.silenced() } else { facts });
        self.facts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(file, facts);
    }

    /// What `file` contributes to the analysis of the other files in this snapshot: its CRDs,
    /// policy names with their paramKinds, and objects a binding's `paramRef` may name. Read once
    /// per text (a diagnostics run of the file has usually read it already).
    pub fn contribution(&self, file: FileId) -> Contribution {
        // The facts this snapshot's index was built from, when it was: the shared caches hold
        // one text per file, and a run of the next keystroke may already have replaced it (asking
        // them here would parse this text again and take the newer tree from the next run).
        if let Some(facts) = self.index.get().and_then(|index| index.facts_of(file)) {
            return Contribution::of(facts);
        }
        let Some(parsed) = self.parsed(file) else {
            return Contribution::NONE;
        };
        // From the shared tree, which the diagnostics and requests of this text read too.
        self.prime_facts(file, &parsed);
        let silent = self.reading(file).is_some_and(|r| r.is_silent());
        Contribution::of(&file_facts(&self.facts, file, &parsed.text, silent))
    }

    /// The other files whose diagnostics an edit of `file` may change, given what it contributed
    /// before the edit (`before`, from [`Analysis::contribution`] of an earlier snapshot, or
    /// [`Contribution::NONE`] for a file new to the analysis): none when its contribution is the
    /// same, else every other file, since any of them may hold a policy typed by its CRDs or a
    /// binding naming its policies or param objects.
    pub fn affected_by(&self, file: FileId, before: Contribution) -> Vec<FileId> {
        if self.contribution(file) == before {
            return Vec::new();
        }
        self.files.keys().copied().filter(|f| *f != file).collect()
    }

    /// The cross-file facts of the snapshot: CRDs and policy names of every file.
    pub fn workspace(&self) -> Arc<Workspace> {
        self.index().workspace.clone()
    }

    /// The cross-file facts of the snapshot, gathered on first use.
    fn index(&self) -> &Index {
        self.index.get_or_init(|| {
            let last = || self.last_index.lock().unwrap_or_else(|e| e.into_inner());
            let previous = last().clone();
            let index = Index::build(&self.files, &self.readings, &self.facts, previous);
            *last() = Some(index.clone());
            index
        })
    }
}

/// Diagnostics of several files checked together, as `admission-ls check` does: every file of
/// `files` and of `schemas` (extra CRD files, `--schema`) is one workspace, so a binding finds its
/// policy and a policy its CRD in another file. Returns the diagnostics of each of `files`, in
/// order; `schemas` files are read for their CRDs only.
pub fn diagnostics_for_files(
    files: &[Arc<str>],
    schemas: &[Arc<str>],
    config: &DiagnosticsConfig,
) -> Vec<Vec<Diagnostic>> {
    let mut host = AnalysisHost::new();
    let ids = (0u32..).map(FileId);
    for (id, text) in ids.zip(files.iter().chain(schemas)) {
        host.set_file(id, text.clone());
    }
    let analysis = host.snapshot();
    (0u32..)
        .map(FileId)
        .take(files.len())
        .map(|id| analysis.diagnostics(id, config))
        .collect()
}

/// Diagnostics of one file's text on its own: the file is the whole workspace.
pub fn diagnostics_for_text(text: &str, config: &DiagnosticsConfig) -> Vec<Diagnostic> {
    let yaml = crate::yaml::parse(text);
    let mut workspace = Workspace::new();
    let extra = crate::policy::index_file(&yaml, &mut workspace);
    let check = crate::policy::CheckConfig {
        kube_version: config.kube_version,
    };
    let checked = crate::policy::check_file_in(text, &yaml, &check, &workspace);
    diagnostics_of(&yaml, config, extra, checked)
}

/// The diagnostics of a file: its YAML syntax errors, `extra` (its unusable CRDs) and `checked`
/// (those of its admission documents), without the disabled codes, typed-check warnings as errors
/// under `strict`, sorted.
fn diagnostics_of(
    yaml: &crate::yaml::YamlFile,
    config: &DiagnosticsConfig,
    extra: Vec<Diagnostic>,
    checked: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let mut diagnostics: Vec<Diagnostic> = yaml
        .errors
        .iter()
        .map(|error| Diagnostic::new(Code::YamlSyntax, error.range, error.message.clone()))
        .collect();
    diagnostics.extend(extra);
    diagnostics.extend(checked);
    diagnostics.extend(crate::policy::families::kyverno::version_gate(
        yaml,
        config.kyverno_version,
    ));
    diagnostics.retain(|d| !config.disabled.contains(&d.code));
    if config.strict {
        diagnostics = diagnostics.into_iter().map(Diagnostic::strict).collect();
    }
    crate::policy::diagnostic::sort(&mut diagnostics);
    diagnostics
}
