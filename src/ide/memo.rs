//! The last diagnostics of each file, kept with what they were computed from (the text, the
//! workspace fingerprint, the target minor, the disabled codes and the Kyverno release): features that read a file's
//! diagnostics (hover on a diagnostic, quick fixes) take them from the last run instead of
//! computing them again, and a run with unchanged inputs (a save, a re-check) answers at once.
//! Without a fresh run they check the documents they are about only
//! ([`Analysis::diagnostics_around`]).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::{Analysis, DiagnosticsConfig, FileId};
use crate::policy::families::kyverno::KyvernoVersion;
use crate::policy::{Code, Diagnostic};
use crate::text::TextRange;

/// What a file's diagnostics were computed from.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Key {
    text: Arc<str>,
    fingerprint: u64,
    minor: u32,
    disabled: Vec<Code>,
    strict: bool,
    kyverno: KyvernoVersion,
}

impl Key {
    pub(super) fn new(text: &Arc<str>, fingerprint: u64, config: &DiagnosticsConfig) -> Key {
        Key {
            text: text.clone(),
            fingerprint,
            minor: config.minor(),
            disabled: config.disabled.clone(),
            strict: config.strict,
            kyverno: config.kyverno_version,
        }
    }

    fn matches(&self, other: &Key) -> bool {
        Arc::ptr_eq(&self.text, &other.text)
            && (
                self.fingerprint,
                self.minor,
                &self.disabled,
                self.strict,
                self.kyverno,
            ) == (
                other.fingerprint,
                other.minor,
                &other.disabled,
                other.strict,
                other.kyverno,
            )
    }
}

/// The last diagnostics by file.
pub(super) type Memo = BTreeMap<FileId, (Key, Arc<Vec<Diagnostic>>)>;

/// The diagnostics of `file` if they were computed from `key`.
pub(super) fn recall(memo: &Mutex<Memo>, file: FileId, key: &Key) -> Option<Arc<Vec<Diagnostic>>> {
    let memo = memo.lock().unwrap_or_else(|e| e.into_inner());
    let (stored, diagnostics) = memo.get(&file)?;
    stored.matches(key).then(|| diagnostics.clone())
}

/// Keeps `diagnostics` of `file` as computed from `key`, in place of the last ones.
pub(super) fn remember(
    memo: &Mutex<Memo>,
    file: FileId,
    key: Key,
    diagnostics: Arc<Vec<Diagnostic>>,
) {
    let mut memo = memo.lock().unwrap_or_else(|e| e.into_inner());
    memo.insert(file, (key, diagnostics));
}

impl Analysis {
    /// The diagnostics a request about `range` of `file` shows (hover, quick fixes): the last
    /// run's when they were computed from this snapshot's inputs, else those of the documents that
    /// overlap `range` only, checked for this request and not kept; a hover that comes before the
    /// run of a large file does not check its thousand other documents. `None` for an unknown
    /// file.
    pub(crate) fn diagnostics_around(
        &self,
        file: FileId,
        range: TextRange,
        config: &DiagnosticsConfig,
    ) -> Option<Arc<Vec<Diagnostic>>> {
        let (parsed, index) = match self.diagnosable(file, config)? {
            super::Diagnosable::Remembered(diagnostics) => return Some(diagnostics),
            super::Diagnosable::Fresh { parsed, index, .. } => (parsed, index),
        };
        let yaml = &parsed.yaml;
        let overlapping = yaml
            .documents
            .iter()
            .filter(|d| d.range.intersect(range).is_some());
        let checked = overlapping
            .filter_map(crate::policy::checked_root)
            .flat_map(|root| crate::policy::check_root(root, config.minor(), &index.workspace));
        let extra = index.crd_diagnostics_of(file);
        let found = super::diagnostics_of(yaml, config, extra, checked.collect());
        let found = match self.reading(file) {
            Some(reading) => reading.filter(&parsed.text, yaml, found),
            None => found,
        };
        Some(Arc::new(found))
    }
}
