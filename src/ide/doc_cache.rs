//! Reuse of the diagnostics of unchanged documents: a keystroke in one policy of a file of a
//! thousand re-checks that policy only.
//!
//! A document's diagnostics depend only on its tree, the target minor version and the workspace
//! (`policy::check_root`). The tree of a document is a function of the text of the piece the
//! YAML parser read it from, which lies between the end of the previous document and the start
//! of the next (directives, indentation and the trailing blank lines a `|+` block keeps
//! included). That text is the key; the minor and the workspace's CRDs (its base fingerprint)
//! must match too, and each policy name or object the check looked up must still give the same
//! answer (`policy::workspace::reads`): a syntax error that hides one policy of a thousand
//! re-checks that document, not the others.
//! Diagnostics are stored with ranges relative to the start of the key, so a document that only
//! moved (an edit above it) is reused as well. After each run a file's cache holds exactly the
//! documents of that run. The keys are ranges of the run's text, which the cache shares, found by
//! a hash and compared before use: a thousand-document file's cache copies none of its text.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hasher;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::FileId;
use crate::policy::workspace::reads::{self, Reads};
use crate::policy::{Diagnostic, Workspace};
use crate::text::{TextRange, TextSize, to_size};
use crate::yaml::{Node, YamlFile};

/// The reusable diagnostics of one file's last run.
#[derive(Debug)]
pub(super) struct DocCache {
    minor: u32,
    fingerprint: u64,
    base_fingerprint: u64,
    /// The text of the run; keys are ranges of it.
    text: Arc<str>,
    /// By the hash of a document's key text: the key's range in `text` and what its check found,
    /// shared with the next run's cache when it reuses it (a keystroke in a file of a thousand
    /// documents used to copy the other 999 findings, lookups included, into the new cache).
    /// Of two keys with one hash only the first is kept.
    documents: HashMap<u64, (TextRange, Arc<Checked>)>,
    /// How many documents the last request checked rather than reused (evidence for tests); 0
    /// when the file's diagnostics were answered from the memo without a run.
    pub(super) checked: AtomicUsize,
}

/// What the check of one document found: its diagnostics, with ranges relative to its key, and
/// the workspace lookups it made.
#[derive(Clone, Debug)]
struct Checked {
    diagnostics: Vec<Diagnostic>,
    reads: Reads,
}

/// The caches of every file, shared by the snapshots of a host.
pub(super) type DocCaches = BTreeMap<FileId, Arc<DocCache>>;

/// What the diagnostics of a file's documents depend on besides their own text.
pub(super) struct Inputs<'a> {
    pub(super) minor: u32,
    pub(super) workspace: &'a Workspace,
    /// [`Workspace::fingerprint`] of `workspace`.
    pub(super) fingerprint: u64,
    /// [`Workspace::base_fingerprint`] of `workspace`.
    pub(super) base_fingerprint: u64,
}

/// Records that a request answered the diagnostics of `file` without checking any document.
pub(super) fn note_nothing_checked(caches: &Mutex<DocCaches>, file: FileId) {
    if let Some(cache) = lock(caches).get(&file) {
        cache.checked.store(0, Ordering::Relaxed);
    }
}

/// How many documents of `file` the last request checked; `None` before the first run.
pub(super) fn checked(caches: &Mutex<DocCaches>, file: FileId) -> Option<usize> {
    lock(caches)
        .get(&file)
        .map(|cache| cache.checked.load(Ordering::Relaxed))
}

/// One checked document of this run.
struct Slot<'a> {
    root: &'a Node,
    /// Its key; `None` when the document cannot be cached.
    key: Option<Key<'a>>,
}

/// The key of a document, where it starts in the file, and what the last run left for it.
struct Key<'a> {
    text: &'a str,
    /// The hash of `text`.
    hash: u64,
    start: TextSize,
    /// What the last run found, reused as it is.
    reused: Option<Arc<Checked>>,
}

impl Slot<'_> {
    fn reused(&self) -> bool {
        self.key.as_ref().is_some_and(|k| k.reused.is_some())
    }
}

/// The diagnostics of the admission documents of `file`, reusing those of documents whose key
/// text is unchanged since the last run with the same inputs; then records this run.
pub(super) fn check_file(
    caches: &Mutex<DocCaches>,
    file: FileId,
    text: &Arc<str>,
    yaml: &YamlFile,
    inputs: &Inputs,
) -> Vec<Diagnostic> {
    let previous = lock(caches)
        .get(&file)
        .filter(|c| c.minor == inputs.minor && c.base_fingerprint == inputs.base_fingerprint)
        .cloned();
    let mut slots = slots(text, yaml);
    if let Some(previous) = &previous {
        for key in slots.iter_mut().filter_map(|s| s.key.as_mut()) {
            key.reused = previous.recall(key, inputs).cloned();
        }
    }
    let fresh = check_missing(&slots, inputs);
    let mut cache = DocCache {
        minor: inputs.minor,
        fingerprint: inputs.fingerprint,
        base_fingerprint: inputs.base_fingerprint,
        text: text.clone(),
        documents: HashMap::with_capacity(slots.len()),
        checked: AtomicUsize::new(fresh.len()),
    };
    let diagnostics = assemble(slots, fresh, &mut cache);
    lock(caches).insert(file, Arc::new(cache));
    diagnostics
}

impl DocCache {
    /// What the last run found for a document with the key text of `key`, if it still holds in
    /// the workspace of `inputs` (always, when the workspace has the same facts).
    fn recall(&self, key: &Key, inputs: &Inputs) -> Option<&Arc<Checked>> {
        let (range, checked) = self.documents.get(&key.hash)?;
        let stored = self
            .text
            .get(usize::from(range.start())..usize::from(range.end()));
        let holds = self.fingerprint == inputs.fingerprint || checked.reads.hold(inputs.workspace);
        (stored == Some(key.text) && holds).then_some(checked)
    }
}

fn lock(caches: &Mutex<DocCaches>) -> std::sync::MutexGuard<'_, DocCaches> {
    caches.lock().unwrap_or_else(|e| e.into_inner())
}

/// The checked documents of `yaml`, each with its key.
fn slots<'a>(text: &'a str, yaml: &'a YamlFile) -> Vec<Slot<'a>> {
    let documents = &yaml.documents;
    let mut slots = Vec::new();
    for (i, document) in documents.iter().enumerate() {
        let Some(root) = crate::policy::checked_root(document) else {
            continue;
        };
        let around = super::models::key_range(text, yaml, i);
        slots.push(Slot {
            root,
            key: key(text, document.range, around),
        });
    }
    slots
}

/// The key of a document at `range`: the text `around` it, if that does hold the document.
fn key(text: &str, range: TextRange, around: Option<TextRange>) -> Option<Key<'_>> {
    let around = around.filter(|a| a.contains_range(range))?;
    let text = text.get(usize::from(around.start())..usize::from(around.end()))?;
    Some(Key {
        text,
        hash: hash(text),
        start: around.start(),
        reused: None,
    })
}

/// The hash of a key text. FxHash's byte hashing rather than SipHash: every run hashes the whole
/// file (SipHash was a tenth of a keystroke's CPU time in a 33,000-line file), and a collision,
/// even a contrived one, costs a re-check only, since a hit compares the texts.
fn hash(text: &str) -> u64 {
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(text.as_bytes());
    hasher.finish()
}

/// Checks the documents that have nothing to reuse, on several threads for many of them.
fn check_missing(slots: &[Slot], inputs: &Inputs) -> Vec<(Vec<Diagnostic>, Reads)> {
    let missing: Vec<&Node> = slots
        .iter()
        .filter(|s| !s.reused())
        .map(|s| s.root)
        .collect();
    crate::policy::map_documents(&missing, |root| {
        reads::recording(|| crate::policy::check_root(root, inputs.minor, inputs.workspace))
    })
}

/// The diagnostics of every slot in file ranges, recording each slot in `cache`, the cache of
/// this run. `fresh` holds the diagnostics of the slots that reused nothing, in order.
fn assemble(
    slots: Vec<Slot>,
    fresh: Vec<(Vec<Diagnostic>, Reads)>,
    cache: &mut DocCache,
) -> Vec<Diagnostic> {
    let mut fresh = fresh.into_iter();
    let mut diagnostics = Vec::new();
    for slot in slots {
        let Some(key) = slot.key else {
            diagnostics.extend(fresh.next().unwrap_or_default().0);
            continue;
        };
        let checked = match key.reused {
            Some(checked) => checked,
            None => {
                let (found, reads) = fresh.next().unwrap_or_default();
                let Some(relative) = relative_to(&found, key.text, key.start) else {
                    diagnostics.extend(found);
                    continue;
                };
                Arc::new(Checked {
                    diagnostics: relative,
                    reads,
                })
            }
        };
        diagnostics.extend(shifted(&checked.diagnostics, key.start));
        let range = TextRange::at(key.start, to_size(key.text.len()));
        cache.documents.entry(key.hash).or_insert((range, checked));
    }
    diagnostics
}

/// `diagnostics` with ranges relative to `start`, if every one lies inside `key` placed there
/// (one that does not cannot be moved with the document, so the document is not cached).
fn relative_to(diagnostics: &[Diagnostic], key: &str, start: TextSize) -> Option<Vec<Diagnostic>> {
    let around = TextRange::at(start, to_size(key.len()));
    diagnostics
        .iter()
        .map(|d| {
            let range = Some(d.range).filter(|r| around.contains_range(*r))?;
            Some(Diagnostic {
                range: range.checked_sub(start)?,
                ..d.clone()
            })
        })
        .collect()
}

/// Relative `diagnostics` moved to a document whose key starts at `start`.
fn shifted(diagnostics: &[Diagnostic], start: TextSize) -> impl Iterator<Item = Diagnostic> + '_ {
    diagnostics.iter().map(move |d| Diagnostic {
        // Cannot overflow: the range lies inside the key, which lies inside the file.
        range: d.range.checked_add(start).unwrap_or(d.range),
        ..d.clone()
    })
}
