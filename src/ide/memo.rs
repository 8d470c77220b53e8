//! The last diagnostics of each file, kept with what they were computed from (the text, the
//! workspace fingerprint, the target minor and the disabled codes): features that read a file's
//! diagnostics (hover on a diagnostic, quick fixes) take them from the last run instead of
//! computing them again, and a run with unchanged inputs (a save, a re-check) answers at once.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::{DiagnosticsConfig, FileId};
use crate::policy::{Code, Diagnostic};

/// What a file's diagnostics were computed from.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Key {
    text: Arc<str>,
    fingerprint: u64,
    minor: u32,
    disabled: Vec<Code>,
}

impl Key {
    pub(super) fn new(text: &Arc<str>, fingerprint: u64, config: &DiagnosticsConfig) -> Key {
        Key {
            text: text.clone(),
            fingerprint,
            minor: config.minor(),
            disabled: config.disabled.clone(),
        }
    }

    fn matches(&self, other: &Key) -> bool {
        Arc::ptr_eq(&self.text, &other.text)
            && (self.fingerprint, self.minor, &self.disabled)
                == (other.fingerprint, other.minor, &other.disabled)
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
