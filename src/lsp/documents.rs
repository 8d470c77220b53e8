//! The open documents: a rope per document for cheap incremental edits, the client's version, and the
//! `FileId` the analysis knows the document by. Edits are applied here, synchronously, by the
//! notification handlers (never after an `.await`, so that edits apply in the order they arrive).
//! The flat text of a version, and whether it looks like a test suite, are computed once and
//! shared: the diagnostics run, the live verdicts and the commands all read the same copy.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use ropey::Rope;
use tower_lsp_server::ls_types::{TextDocumentContentChangeEvent, Uri};

use super::encoding::from_proto;
use crate::ide::{Contribution, Encoding, FileId};

/// One open document.
#[derive(Debug)]
pub struct Document {
    /// The current text.
    pub rope: Rope,
    /// The version the client gave with the last open or change.
    pub version: i32,
    /// The analysis' name for this document.
    pub file: FileId,
    /// Whether the analysis host has the current text; the text is copied to the host lazily, when a
    /// diagnostics run starts, so that a burst of keystrokes costs one copy, not one per keystroke.
    pub synced: bool,
    /// What the text of the last diagnostics run contributed to the other files (`ide` compares
    /// it with the next run's to say which files an edit affects).
    pub contribution: Contribution,
    /// The current text in one piece, made on first use after each change: a 33,000-line file
    /// is a megabyte, and each reader taking its own copy (the run, then the live verdicts'
    /// checks after every publish) kept several of them alive at once.
    flat: OnceLock<Arc<str>>,
    /// Whether the current text looks like a test suite, decided on first use after each change
    /// (a scan of every line, asked after every publish).
    suite: OnceLock<bool>,
}

impl Document {
    /// A document opened with `text` at `version`.
    pub fn new(text: &str, version: i32, file: FileId) -> Document {
        Document {
            rope: Rope::from_str(text),
            version,
            file,
            synced: false,
            contribution: Contribution::NONE,
            // The opened text is the first run's input: copied once, here, not out of the rope.
            flat: OnceLock::from(Arc::from(text)),
            suite: OnceLock::new(),
        }
    }

    /// Applies one content change (a range edit, or the whole text when it has no range).
    pub fn apply_change(&mut self, change: &TextDocumentContentChangeEvent, encoding: Encoding) {
        self.synced = false;
        self.flat = OnceLock::new();
        self.suite = OnceLock::new();
        let Some(range) = change.range else {
            self.rope = Rope::from_str(&change.text);
            return;
        };
        let start = from_proto::char_index(&self.rope, range.start, encoding);
        let end = from_proto::char_index(&self.rope, range.end, encoding);
        // A client may send start after end; treat it as the same span rather than fail.
        let (start, end) = (start.min(end), start.max(end));
        self.rope.remove(start..end);
        self.rope.insert(start, &change.text);
    }

    /// The current text as the analysis takes it (the same allocation until the next change).
    pub fn text(&self) -> Arc<str> {
        self.flat
            .get_or_init(|| {
                let mut text = String::with_capacity(self.rope.len_bytes());
                for chunk in self.rope.chunks() {
                    text.push_str(chunk);
                }
                Arc::from(text)
            })
            .clone()
    }

    /// Whether the current text looks like a test suite (`ide::live::looks_like_suite`).
    pub fn looks_like_suite(&self) -> bool {
        *self
            .suite
            .get_or_init(|| crate::ide::live::looks_like_suite(&self.text()))
    }
}

/// The table from URIs to `FileId`s; an id is never reused, so a stale result can't hit another file.
#[derive(Debug, Default)]
pub struct FileIds {
    by_uri: HashMap<Uri, FileId>,
    next: u32,
}

impl FileIds {
    /// Every URI with its id.
    pub fn uris(&self) -> impl Iterator<Item = (FileId, &Uri)> {
        self.by_uri.iter().map(|(uri, file)| (*file, uri))
    }

    /// The id of `uri`, allocating one the first time.
    pub fn get_or_insert(&mut self, uri: &Uri) -> FileId {
        if let Some(file) = self.by_uri.get(uri) {
            return *file;
        }
        let file = FileId(self.next);
        self.next += 1;
        self.by_uri.insert(uri.clone(), file);
        file
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp_server::ls_types::{Position, Range};

    fn edit(doc: &mut Document, (l1, c1): (u32, u32), (l2, c2): (u32, u32), text: &str) {
        let range = Range::new(Position::new(l1, c1), Position::new(l2, c2));
        let change = TextDocumentContentChangeEvent {
            range: Some(range),
            range_length: None,
            text: text.to_owned(),
        };
        doc.apply_change(&change, Encoding::Utf16);
    }

    #[test]
    fn incremental_edits_apply_in_utf16_and_clamp() {
        let mut doc = Document::new("a: \"é😀x\"\r\nb: 1\n", 1, FileId(0));
        edit(&mut doc, (0, 7), (0, 8), "YZ");
        assert_eq!(&*doc.text(), "a: \"é😀YZ\"\r\nb: 1\n");
        edit(&mut doc, (1, 3), (1, 99), "22");
        assert_eq!(&*doc.text(), "a: \"é😀YZ\"\r\nb: 22\n");
        edit(&mut doc, (99, 0), (7, 7), "c: 3\n");
        assert_eq!(&*doc.text(), "a: \"é😀YZ\"\r\nb: 22\nc: 3\n");
        edit(&mut doc, (1, 0), (0, 0), "");
        assert_eq!(&*doc.text(), "b: 22\nc: 3\n");
    }

    #[test]
    fn the_shared_text_and_the_suite_look_follow_each_edit() {
        let mut doc = Document::new("kind: PolicyTestX\n# PolicyTest\n", 1, FileId(0));
        let opened = doc.text();
        assert!(Arc::ptr_eq(&opened, &doc.text()), "one copy per version");
        assert!(
            !doc.looks_like_suite(),
            "the word alone is not a suite's kind line"
        );
        edit(&mut doc, (0, 16), (0, 17), "");
        assert_eq!(&*doc.text(), "kind: PolicyTest\n# PolicyTest\n");
        assert!(doc.looks_like_suite());
        edit(&mut doc, (0, 0), (1, 0), "vapTestSuites:\n");
        assert!(doc.looks_like_suite(), "a kaptest manifest's key");
        edit(&mut doc, (0, 0), (0, 3), "");
        assert!(
            !doc.looks_like_suite(),
            "`TestSuites:` is not one of its keys"
        );
        let gator = "kind: Suite\napiVersion: test.gatekeeper.sh/v1alpha1\n";
        edit(&mut doc, (0, 0), (99, 0), gator);
        assert!(doc.looks_like_suite());
        assert!(!Arc::ptr_eq(&opened, &doc.text()));
    }
}
