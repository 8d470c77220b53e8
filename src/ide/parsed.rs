//! The parse of each file, computed once per text and shared by every feature and the
//! diagnostics run: a hover after a keystroke reads the tree the run just built instead of parsing
//! the file again. One tree per file is kept (the one of its current text), in the host, so that
//! the snapshots of successive requests share it; a new text replaces it.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::{Analysis, FileId};
use crate::yaml::YamlFile;

/// A file's text and its YAML tree.
#[derive(Debug)]
pub(crate) struct Parsed {
    /// The text the tree was read from.
    pub text: Arc<str>,
    /// The tree.
    pub yaml: YamlFile,
}

/// The trees of the host's files, by file; each valid while its text is the file's text.
pub(super) type ParseCache = BTreeMap<FileId, Arc<Parsed>>;

impl Analysis {
    /// The parse of `file` in this snapshot; `None` for a file the snapshot does not have.
    pub(crate) fn parsed(&self, file: FileId) -> Option<Arc<Parsed>> {
        let text = self.files.get(&file)?;
        if let Some(parsed) = cached(&self.parses, file, text) {
            return Some(parsed);
        }
        // Parse outside the lock: another snapshot's request may be reading the cache.
        let parsed = Arc::new(Parsed {
            text: text.clone(),
            yaml: crate::yaml::parse(text),
        });
        let mut cache = self.parses.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(file, parsed.clone());
        Some(parsed)
    }
}

/// The cached tree of `file`, if it was read from this very text (the same allocation).
fn cached(cache: &Mutex<ParseCache>, file: FileId, text: &Arc<str>) -> Option<Arc<Parsed>> {
    let cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .get(&file)
        .filter(|parsed| Arc::ptr_eq(&parsed.text, text))
        .cloned()
}
