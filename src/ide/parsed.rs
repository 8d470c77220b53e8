//! The parse of each file, computed once per text and shared by every feature and the
//! diagnostics run: a hover after a keystroke reads the tree the run just built instead of parsing
//! the file again. One tree per file is kept (the one of its current text), in the host, so that
//! the snapshots of successive requests share it; a new text replaces it, re-reading only the YAML
//! documents the edit touched (`yaml::incremental`). Beside the tree it keeps the model of each
//! document a request has read (`models.rs`) and the text's line index.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use super::models::{Carried, DocumentModel, ModelCounts, Models};
use super::{Analysis, FileId};
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
    /// The model of each document, read when a request first needs it.
    models: Models,
    /// The line index of the text, built when a front end first converts a range of it.
    line_index: OnceLock<Arc<LineIndex>>,
}

impl Parsed {
    /// The models of the admission documents that overlap `range` (ends included), read once per
    /// text and kept: a request at a cursor reads the document there, not the thousand others of
    /// a large file, and the next request on it reads nothing.
    pub(crate) fn models_in(&self, range: TextRange) -> Vec<&DocumentModel> {
        let documents = self.yaml.documents.iter().enumerate();
        documents
            .filter(|(_, d)| d.range.start() <= range.end() && range.start() <= d.range.end())
            .filter_map(|(index, _)| self.models.get(&self.yaml, index))
            .collect()
    }

    /// The model of every admission document of the file, for a whole-file request: the kept one
    /// where a request has read it, else one read for this call and not kept (keeping a model per
    /// document of a large file would cost more memory than reading them costs time).
    pub(crate) fn all_models(&self) -> impl Iterator<Item = Arc<DocumentModel>> + '_ {
        let indices = 0..self.yaml.documents.len();
        indices.filter_map(|index| self.models.peek(&self.yaml, index))
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
    /// The line index of `file`'s text, built once per text and shared by every request and
    /// diagnostics run (each request used to index the whole text again: a megabyte for a
    /// 33,000-line file); `None` for a file the snapshot does not have.
    pub fn line_index(&self, file: FileId) -> Option<Arc<LineIndex>> {
        let parsed = self.parsed(file)?;
        let index = parsed
            .line_index
            .get_or_init(|| Arc::new(LineIndex::shared(parsed.text.clone())));
        Some(index.clone())
    }

    /// The parse of every file whose text contains each of `needles`, in file order.
    /// Workspace-wide searches (references, rename, navigation) look for a name few files
    /// mention: the text test spares parsing the others.
    pub(crate) fn parsed_mentioning<'s>(
        &'s self,
        needles: &'s [&'s str],
    ) -> impl Iterator<Item = (FileId, Arc<Parsed>)> + 's {
        let files = self
            .files
            .iter()
            .filter(move |(_, text)| needles.iter().all(|needle| text.contains(needle)));
        files.filter_map(|(&file, _)| Some((file, self.parsed(file)?)))
    }

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
        let carried = previous
            .as_ref()
            .map(|p| p.models.carried(&p.text, &p.yaml));
        let (yaml, pieces) = reparse(text, previous);
        let parsed = Arc::new(Parsed::new(text, yaml, pieces, carried, &self.model_counts));
        let mut cache = self.parses.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(file, parsed.clone());
        Some(parsed)
    }
}

impl Parsed {
    /// The parse of `text` into `yaml`, taking over the models `carried` from the file's
    /// previous parse where they still hold.
    fn new(
        text: &Arc<str>,
        yaml: YamlFile,
        pieces: Pieces,
        carried: Option<Carried>,
        counts: &Arc<ModelCounts>,
    ) -> Parsed {
        let models = Models::new(text, &yaml, carried, counts.clone());
        Parsed {
            text: text.clone(),
            yaml,
            pieces,
            models,
            line_index: OnceLock::new(),
        }
    }
}

/// The tree of `text` from the file's previous parse: moving its trees when this is the last
/// holder of it (the usual case, an edit after the diagnostics run of the last text), copying
/// them when a request on an older snapshot still reads it.
fn reparse(text: &str, previous: Option<Arc<Parsed>>) -> (YamlFile, Pieces) {
    match previous.map(Arc::try_unwrap) {
        // A large opened text may have been parsed ahead, as soon as its message arrived.
        None => super::ahead::take(text).unwrap_or_else(|| incremental::reparse(text, None)),
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
