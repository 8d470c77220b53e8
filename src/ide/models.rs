//! The policy model of each document of a parsed file, read at most once per text and shared by
//! every feature: the `PolicyDocument`, its expression sites and each site's CEL tree. Hover,
//! completion, signature help, inlay hints and the rest used to read the model and parse the CEL
//! again on every request.
//!
//! Models are read lazily, for the documents a request touches only: a hover in a file of a
//! thousand policies reads one model, and keeps one. Whole-file requests (semantic tokens, document
//! symbols) use the models already kept and read the others without keeping them, so that they do
//! not pin a model per document of a large file. A new text of the file takes over the models of
//! the documents whose text and position the edit did not change (see [`Carried`]).

use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use crate::cel::ast::Ast;
use crate::policy::{ExpressionSite, PolicyDocument};
use crate::text::{TextRange, TextSize, to_size};
use crate::yaml::{Document, YamlFile};

/// One admission document's model, its expression sites and their CEL trees.
#[derive(Debug)]
pub(crate) struct DocumentModel {
    /// The typed model of the document.
    pub document: PolicyDocument,
    /// Its expression sites, read on first use (symbols need none).
    sites: OnceLock<Vec<ExpressionSite>>,
    /// The sites' trees, parsed on first use (tokens and symbols need none).
    trees: OnceLock<Trees>,
    /// Where reads are counted.
    counts: Arc<ModelCounts>,
}

/// The CEL trees of a document's sites.
#[derive(Debug)]
struct Trees {
    /// The recovered tree of every site (`Some` for each: half-typed text is typed too).
    recovered: Vec<Option<Ast>>,
    /// Whether each site parsed without errors.
    clean: Vec<bool>,
}

impl DocumentModel {
    /// The model of `document`, if it is an admission document that parsed cleanly.
    pub(crate) fn read(document: &Document) -> Option<DocumentModel> {
        DocumentModel::counted(document, &Arc::default())
    }

    fn counted(document: &Document, counts: &Arc<ModelCounts>) -> Option<DocumentModel> {
        counts.models.fetch_add(1, Ordering::Relaxed);
        let document = crate::policy::read_document(document)?;
        Some(DocumentModel {
            document,
            sites: OnceLock::new(),
            trees: OnceLock::new(),
            counts: counts.clone(),
        })
    }

    /// The expression sites of the document, in field order.
    pub(crate) fn sites(&self) -> &[ExpressionSite] {
        self.sites.get_or_init(|| self.document.expression_sites())
    }

    /// The recovered tree of each site, in site order (every entry is `Some`).
    pub(crate) fn trees(&self) -> &[Option<Ast>] {
        &self.parsed().recovered
    }

    /// The tree of each site that parsed without errors (`None` for the others, whose errors the
    /// diagnostics report): borrowed when every site is clean, the usual case.
    pub(crate) fn clean_trees(&self) -> Cow<'_, [Option<Ast>]> {
        let trees = self.parsed();
        if trees.clean.iter().all(|clean| *clean) {
            return Cow::Borrowed(&trees.recovered);
        }
        let kept = trees.recovered.iter().zip(&trees.clean);
        Cow::Owned(
            kept.map(|(tree, clean)| tree.clone().filter(|_| *clean))
                .collect(),
        )
    }

    fn parsed(&self) -> &Trees {
        self.trees.get_or_init(|| {
            self.counts.trees.fetch_add(1, Ordering::Relaxed);
            let parses: Vec<crate::cel::Parsed> = self
                .sites()
                .iter()
                .map(|site| crate::cel::parse(&site.text))
                .collect();
            Trees {
                clean: parses.iter().map(crate::cel::Parsed::is_ok).collect(),
                recovered: parses.into_iter().map(|p| Some(p.ast)).collect(),
            }
        })
    }
}

/// How many document models and sets of site trees the snapshots of a host have read, for tests
/// and benchmarks of the sharing.
#[derive(Debug, Default)]
pub(super) struct ModelCounts {
    models: AtomicUsize,
    trees: AtomicUsize,
}

/// What [`ModelCounts`] has counted so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelReads {
    /// Documents whose model was read (kept or not).
    pub models: usize,
    /// Documents whose sites' CEL was parsed.
    pub trees: usize,
}

impl ModelCounts {
    pub(super) fn reads(&self) -> ModelReads {
        ModelReads {
            models: self.models.load(Ordering::Relaxed),
            trees: self.trees.load(Ordering::Relaxed),
        }
    }
}

/// The models of one text's documents, by document index; each read on first use.
#[derive(Debug)]
pub(super) struct Models {
    slots: Box<[OnceLock<Option<Arc<DocumentModel>>>]>,
    counts: Arc<ModelCounts>,
}

impl Models {
    /// The (unread) models of `yaml`'s documents, with those `carried` from the previous text of
    /// the file that still hold.
    pub(super) fn new(
        text: &str,
        yaml: &YamlFile,
        carried: Option<Carried>,
        counts: Arc<ModelCounts>,
    ) -> Models {
        let slots: Box<[_]> = yaml.documents.iter().map(|_| OnceLock::new()).collect();
        if let Some(carried) = carried {
            carried.hand_over(text, yaml, &slots);
        }
        Models { slots, counts }
    }

    /// The model of document `index` of `yaml` (the tree these models belong to), read and kept
    /// on first use; `None` for a document that is not an admission document.
    pub(super) fn get(&self, yaml: &YamlFile, index: usize) -> Option<&DocumentModel> {
        let slot = self.slots.get(index)?;
        let model = slot.get_or_init(|| {
            let document = yaml.documents.get(index)?;
            DocumentModel::counted(document, &self.counts).map(Arc::new)
        });
        model.as_deref()
    }

    /// The model of document `index`: the kept one if a request read it, else read for the caller
    /// only.
    pub(super) fn peek(&self, yaml: &YamlFile, index: usize) -> Option<Arc<DocumentModel>> {
        if let Some(kept) = self.slots.get(index).and_then(OnceLock::get) {
            return kept.clone();
        }
        let document = yaml.documents.get(index)?;
        DocumentModel::counted(document, &self.counts).map(Arc::new)
    }

    /// The models read so far, to be handed to the next text's models.
    pub(super) fn carried(&self, text: &Arc<str>, yaml: &YamlFile) -> Carried {
        let kept = self.slots.iter().enumerate().filter_map(|(index, slot)| {
            let model = slot.get()?.clone()?;
            Some((key_range(text, yaml, index)?, model))
        });
        Carried {
            text: text.clone(),
            models: kept.collect(),
        }
    }
}

/// The models a file's previous text had read, each with the range of its key: the text between
/// the end of the previous document and the start of the next, from which the YAML parser reads
/// the document (as `doc_cache` keys diagnostics). A document whose key is the same text at the
/// same place has the same tree, so the same model, ranges included.
pub(super) struct Carried {
    text: Arc<str>,
    models: Vec<(TextRange, Arc<DocumentModel>)>,
}

impl Carried {
    /// Puts each carried model whose key still holds into the slot of its document in `yaml`.
    fn hand_over(
        &self,
        text: &str,
        yaml: &YamlFile,
        slots: &[OnceLock<Option<Arc<DocumentModel>>>],
    ) {
        if self.models.is_empty() {
            return;
        }
        for (index, slot) in slots.iter().enumerate() {
            let Some(key) = key_range(text, yaml, index) else {
                continue;
            };
            let Some(model) = self.model_at(key, text) else {
                continue;
            };
            let _ = slot.set(Some(model));
        }
    }

    /// The model whose key is `key` with the same text.
    fn model_at(&self, key: TextRange, text: &str) -> Option<Arc<DocumentModel>> {
        let found = self
            .models
            .binary_search_by_key(&key.start(), |(k, _)| k.start());
        let (old, model) = self.models.get(found.ok()?)?;
        let same = *old == key && slice(&self.text, key)? == slice(text, key)?;
        same.then(|| model.clone())
    }
}

/// The range of the key of document `index` of `yaml` (see [`Carried`]): from the end of the
/// previous document to the start of the next, the text its tree is a function of. The
/// diagnostics cache keys documents by the same range.
pub(super) fn key_range(text: &str, yaml: &YamlFile, index: usize) -> Option<TextRange> {
    let documents = &yaml.documents;
    let start = index
        .checked_sub(1)
        .and_then(|previous| documents.get(previous))
        .map_or(TextSize::from(0), |previous| previous.range.end());
    let end = documents
        .get(index + 1)
        .map_or(to_size(text.len()), |next| next.range.start());
    (start <= end).then(|| TextRange::new(start, end))
}

fn slice(text: &str, range: TextRange) -> Option<&str> {
    text.get(usize::from(range.start())..usize::from(range.end()))
}
