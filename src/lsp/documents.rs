//! The open documents: the text of each (one flat copy per version, shared with the analysis, the
//! live verdicts and the commands), the client's version, and the `FileId` the analysis knows the
//! document by. Edits are applied here, synchronously, by the notification handlers (never after
//! an `.await`, so that edits apply in the order they arrive): each notification's changes build
//! the next text once, positions converted by `encoding::from_proto` (LF, CRLF and a lone CR end
//! lines; a position past the end of its line or of the text is clamped to that end). Whether a
//! version looks like a test suite is decided once and shared.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use tower_lsp_server::ls_types::{TextDocumentContentChangeEvent, Uri};

use super::encoding::from_proto;
use crate::ide::{Contribution, Encoding, FileId};

/// One open document.
#[derive(Debug)]
pub struct Document {
    /// The client's version with the last open or change.
    pub version: i32,
    /// The analysis' name for this document.
    pub file: FileId,
    /// Whether the analysis host has the current text; the text is copied to the host lazily, when a
    /// diagnostics run starts, so that a burst of keystrokes costs one copy, not one per keystroke.
    pub synced: bool,
    /// What the text of the last diagnostics run contributed to the other files (`ide` compares
    /// it with the next run's to say which files an edit affects).
    pub contribution: Contribution,
    /// The current text, the only copy the store keeps: the run, the live verdicts and the
    /// requests share it (a 33,000-line file is a megabyte; a rope beside it was another).
    text: Arc<str>,
    /// Whether the current text looks like a test suite, decided on first use after each change
    /// (a scan of every line, asked after every publish).
    suite: OnceLock<bool>,
}

impl Document {
    /// A document opened with `text` at `version`.
    pub fn new(text: impl Into<Arc<str>>, version: i32, file: FileId) -> Document {
        Document {
            version,
            file,
            synced: false,
            contribution: Contribution::NONE,
            text: text.into(),
            suite: OnceLock::new(),
        }
    }

    /// Applies the changes of one notification in order (each a range edit, or the whole text when
    /// it has no range), each to the text the previous one left: they edit one buffer, copied into
    /// the shared text once at the end.
    pub fn apply_changes(
        &mut self,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
    ) {
        let Some((first, rest)) = changes.split_first() else {
            return;
        };
        self.synced = false;
        self.suite = OnceLock::new();
        let mut next = first_edit(&self.text, first, encoding);
        for change in rest {
            edit_in_place(&mut next, change, encoding);
        }
        self.text = Arc::from(next);
    }

    /// The current text as the analysis takes it (the same allocation until the next change).
    pub fn text(&self) -> Arc<str> {
        self.text.clone()
    }

    /// Whether the current text looks like a test suite (`ide::live::looks_like_suite`).
    pub fn looks_like_suite(&self) -> bool {
        *self
            .suite
            .get_or_init(|| crate::ide::live::looks_like_suite(&self.text))
    }
}

/// The byte span a ranged change replaces in `text`; a client may send its start after its end,
/// which is taken as the same span rather than refused.
fn replaced_span(
    text: &str,
    change: &TextDocumentContentChangeEvent,
    encoding: Encoding,
) -> Option<std::ops::Range<usize>> {
    let range = change.range?;
    let (start, end) = from_proto::byte_offsets(text, range.start, range.end, encoding);
    Some(start.min(end)..start.max(end))
}

/// The text after `change`, built in one allocation of its final size from the shared text.
fn first_edit(text: &str, change: &TextDocumentContentChangeEvent, encoding: Encoding) -> String {
    let Some(span) = replaced_span(text, change, encoding) else {
        return change.text.clone();
    };
    let mut next = String::with_capacity(text.len() - span.len() + change.text.len());
    next.push_str(&text[..span.start]);
    next.push_str(&change.text);
    next.push_str(&text[span.end..]);
    next
}

/// Applies a later change of the same notification to the buffer the first one built.
fn edit_in_place(text: &mut String, change: &TextDocumentContentChangeEvent, encoding: Encoding) {
    match replaced_span(text, change, encoding) {
        Some(span) => text.replace_range(span, &change.text),
        None => change.text.clone_into(text),
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

    fn edit(doc: &mut Document, start: (u32, u32), end: (u32, u32), text: &str) {
        let change = change(Some((start, end)), text);
        doc.apply_changes(std::slice::from_ref(&change), Encoding::Utf16);
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

    fn change(
        range: Option<((u32, u32), (u32, u32))>,
        text: &str,
    ) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range.map(|((l1, c1), (l2, c2))| {
                Range::new(Position::new(l1, c1), Position::new(l2, c2))
            }),
            range_length: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn lone_cr_line_ends_and_positions_inside_a_crlf() {
        let mut doc = Document::new("a\rb\r\nc😀d\r", 1, FileId(0));
        edit(&mut doc, (1, 0), (1, 1), "B");
        assert_eq!(
            &*doc.text(),
            "a\rB\r\nc😀d\r",
            "line 1 starts after the lone CR"
        );
        // Column 1 of line 1 is before its CRLF: the edit never splits the break.
        edit(&mut doc, (1, 1), (1, 2), "+");
        assert_eq!(&*doc.text(), "a\rB+\r\nc😀d\r");
        // Column 2 of line 2 is inside the emoji's surrogate pair: its start.
        edit(&mut doc, (2, 2), (2, 2), "^");
        assert_eq!(&*doc.text(), "a\rB+\r\nc^😀d\r");
        // Line 3 is the empty line after the last CR; line 4 is past the end.
        edit(&mut doc, (3, 5), (4, 0), "e");
        assert_eq!(&*doc.text(), "a\rB+\r\nc^😀d\re");
    }

    #[test]
    fn changes_of_one_notification_apply_in_order_each_to_the_previous_text() {
        let changes = [
            change(Some(((0, 0), (0, 1))), "x\r"),
            change(Some(((1, 0), (1, 0))), "\n"),
            change(None, "whole\ntext\n"),
            change(Some(((1, 4), (0, 2))), "😀"),
            change(Some(((0, 4), (9, 9))), ""),
        ];
        let mut batched = Document::new("abc\n", 1, FileId(0));
        batched.apply_changes(&changes, Encoding::Utf16);
        let mut one_by_one = Document::new("abc\n", 1, FileId(0));
        let mut rope = ropey::Rope::from_str("abc\n");
        for (n, change) in changes.iter().enumerate() {
            one_by_one.apply_changes(std::slice::from_ref(change), Encoding::Utf16);
            rope = rope_edit(rope, change);
            assert_eq!(&*one_by_one.text(), rope.to_string(), "after change {n}");
        }
        assert_eq!(&*batched.text(), "wh😀");
        assert_eq!(batched.text(), one_by_one.text());
        let mut unchanged = Document::new("abc\n", 1, FileId(0));
        let before = unchanged.text();
        unchanged.apply_changes(&[], Encoding::Utf16);
        assert!(
            Arc::ptr_eq(&before, &unchanged.text()),
            "no change, no copy"
        );
    }

    /// The same change made on a rope, the store's former text (positions converted as the store
    /// converts them: `tests/property_incremental.rs` holds that conversion to the rope's own).
    fn rope_edit(mut rope: ropey::Rope, change: &TextDocumentContentChangeEvent) -> ropey::Rope {
        let Some(range) = change.range else {
            return ropey::Rope::from_str(&change.text);
        };
        let text = rope.to_string();
        let char_at = |p| {
            let byte = from_proto::byte_offset(&text, p, Encoding::Utf16);
            rope.byte_to_char(byte)
        };
        let (start, end) = (char_at(range.start), char_at(range.end));
        let (start, end) = (start.min(end), start.max(end));
        rope.remove(start..end);
        rope.insert(start, &change.text);
        rope
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
