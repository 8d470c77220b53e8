//! The parse of each file, computed once per text and shared by every feature and the
//! diagnostics run: a hover after a keystroke reads the tree the run just built instead of parsing
//! the file again. One tree per file is kept (the one of its current text), in the host, so that
//! the snapshots of successive requests share it; a new text replaces it, re-reading only the YAML
//! documents the edit touched (`yaml::incremental`).

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use super::{Analysis, FileId};
use crate::policy::PolicyDocument;
use crate::text::{LineIndex, TextRange};
use crate::yaml::YamlFile;
use crate::yaml::incremental::{self, Pieces, Previous};

/// A file's text and its YAML tree.
#[derive(Debug)]
pub(crate) struct Parsed {
    /// The text the tree was read from.
    pub text: Arc<str>,
    /// The tree.
    pub yaml: YamlFile,
    /// Where its documents came from, for the next text's incremental parse.
    pieces: Pieces,
    /// The line index of the text, built on first use: the diagnostics run and every hover or
    /// completion on this text convert ranges with one index instead of indexing a large file
    /// each time.
    lines: OnceLock<Arc<LineIndex>>,
}

impl Parsed {
    /// The admission documents of the file that overlap `range` (ends included): a request at a
    /// cursor reads the document there, not the thousand others of a large file.
    pub(crate) fn documents_in(&self, range: TextRange) -> Vec<PolicyDocument> {
        self.yaml
            .documents
            .iter()
            .filter(|d| d.range.start() <= range.end() && range.start() <= d.range.end())
            .filter_map(crate::policy::read_document)
            .collect()
    }

    /// The line index of the text.
    pub(crate) fn line_index(&self) -> Arc<LineIndex> {
        self.lines
            .get_or_init(|| Arc::new(LineIndex::shared(self.text.clone())))
            .clone()
    }

    /// The tree of `text`, this file's text with a small edit (completion tries a placeholder at
    /// the cursor): only the documents the edit touched are parsed.
    pub(crate) fn edited(&self, text: &str) -> YamlFile {
        let previous = Previous {
            text: &self.text,
            yaml: &self.yaml,
            pieces: &self.pieces,
        };
        incremental::reparse(text, Some(&previous)).0
    }
}

/// The trees of the host's files, by file; each valid while its text is the file's text.
pub(super) type ParseCache = BTreeMap<FileId, Arc<Parsed>>;

impl Analysis {
    /// The parse of `file` in this snapshot; `None` for a file the snapshot does not have.
    pub(crate) fn parsed(&self, file: FileId) -> Option<Arc<Parsed>> {
        let text = self.files.get(&file)?;
        let previous = {
            let mut cache = self.parses.lock().unwrap_or_else(|e| e.into_inner());
            match cache.get(&file) {
                Some(parsed) if Arc::ptr_eq(&parsed.text, text) => return Some(parsed.clone()),
                // Taken out so that, when nothing else holds it, its trees move to the new one.
                _ => cache.remove(&file),
            }
        };
        // Parse outside the lock: another snapshot's request may be reading the cache.
        let (yaml, pieces) = reparse(text, previous);
        let parsed = Arc::new(Parsed {
            text: text.clone(),
            yaml,
            pieces,
            lines: OnceLock::new(),
        });
        let mut cache = self.parses.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(file, parsed.clone());
        Some(parsed)
    }
}

/// The tree of `text` from the file's previous parse: moving its trees when this is the last
/// holder of it (the usual case, an edit after the diagnostics run of the last text), copying
/// them when a request on an older snapshot still reads it.
fn reparse(text: &str, previous: Option<Arc<Parsed>>) -> (YamlFile, Pieces) {
    match previous.map(Arc::try_unwrap) {
        None => incremental::reparse(text, None),
        Some(Ok(old)) => incremental::reparse_owned(text, &old.text, old.yaml, &old.pieces),
        Some(Err(shared)) => {
            let previous = Previous {
                text: &shared.text,
                yaml: &shared.yaml,
                pieces: &shared.pieces,
            };
            incremental::reparse(text, Some(&previous))
        }
    }
}
