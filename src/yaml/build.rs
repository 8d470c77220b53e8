//! Building the tree of one piece of the file from saphyr-parser's events.
//!
//! The tree is built with an explicit stack of open collections, never by recursion, and the stack is
//! bounded by [`MAX_DEPTH`]; aliases are expanded into copies within a budget of [`MAX_NODES`] copied
//! nodes a document (the only way a small file makes a big tree: nodes written out are bounded by
//! the size of the file). On any error the open collections are closed with what they hold, the document is
//! marked and reading of the piece stops (saphyr-parser cannot recover).

use saphyr_parser::{Event, Parser, ScanError, Span};

use std::borrow::Cow;

use super::alias::{self, AliasRatio, Anchors, Size};
use super::bom;
use super::cursor::CharCursor;
use super::json_values;
use super::mask;
use super::merge;
use super::scalar::{ScalarSite, build_scalar};
use super::separators;
use super::source_map::size;
use super::split;
use super::{Document, Entry, Node, NodeKind, ScalarStyle, SyntaxError, locate};
use crate::text::TextRange;

/// Deepest nesting of collections accepted in a document.
pub const MAX_DEPTH: usize = 1000;
/// Most nodes a document may hold in copies made for aliases: the expanded copies plus the anchored
/// nodes kept for copying. An alias past the budget is a syntax error.
pub const MAX_NODES: usize = 1_000_000;

/// Parses the piece `text[start..end]`, appending its documents and errors.
pub(crate) fn parse_piece(
    text: &str,
    (start, end): (usize, usize),
    documents: &mut Vec<Document>,
    errors: &mut Vec<SyntaxError>,
) {
    // What follows a `...` line in its piece is never read (see `split`).
    let end = split::read_end(text, (start, end));
    let Some(piece) = text.get(start..end) else {
        return;
    };
    // Quoted scalars the parser must see on one line (see `mask`); each found costs one more read.
    let mut masks = Vec::new();
    let mark = bom::chunk_mark(text, (start, end));
    loop {
        let mut shown = mask::masked(piece, start, &masks);
        if let Some(mark) = mark {
            shown = Cow::Owned(bom::moved_to_start(&shown, start, mark));
        }
        let mut builder = Builder::new(text, start, &shown, &masks);
        builder.moved_mark = mark;
        let may_mask = masks.len() < mask::MAX_MASKS;
        if let Some(retry) = read_events(&mut builder, &shown, may_mask) {
            masks.push(retry);
            continue;
        }
        builder.finish_document(None);
        let refused = separators::refusals(text, (start, end));
        if let Some(first) = builder
            .documents
            .first_mut()
            .filter(|_| !refused.is_empty())
        {
            first.has_errors = true;
        }
        let from = errors.len();
        errors.extend(refused);
        errors.append(&mut builder.errors);
        errors[from..].sort_by_key(|error| error.range.start());
        documents.append(&mut builder.documents);
        return;
    }
}

/// Feeds the parser's events for `shown` to `builder`, until the end or the first error. Returns
/// the quoted scalar to read again on one line when the error is one go-yaml does not make and
/// `may_mask`.
fn read_events(builder: &mut Builder<'_>, shown: &str, may_mask: bool) -> Option<mask::Mask> {
    let mut parser = Parser::new_from_str(shown);
    while let Some(result) = parser.next_event() {
        let outcome = match result {
            Ok((event, span)) => builder.event(event, span),
            Err(error) => {
                let at = builder.file_offset(error.marker().index());
                let retry = match error.info() {
                    mask::UNDER_INDENTED => mask::maskable(builder.text, at, builder.limit),
                    mask::TAB_INDENTED => mask::tab(builder.text, at),
                    mask::TAB_AFTER_COLON => mask::tab_after_colon(builder.text, at),
                    _ => None,
                };
                if let Some(retry) = retry.filter(|_| may_mask) {
                    return Some(retry);
                }
                Err(builder.scan_error(&error))
            }
        };
        if let Err(error) = outcome {
            builder.fail(error);
            break;
        }
    }
    None
}

/// A collection being read.
struct Frame {
    /// Byte offset of its first character.
    start: usize,
    /// Whether it is a flow collection (`[…]`, `{…}`), whose end the parser reports exactly.
    flow: bool,
    tag: Option<Box<str>>,
    anchor: usize,
    /// Its size so far.
    size: Size,
    content: FrameContent,
}

/// The children of an open collection, which wait on the builder's shared stacks until it closes
/// (the index is where its children start there): the collection's vector is then allocated once
/// at its final length, instead of growing by doubling with up to half of it unused in the tree.
enum FrameContent {
    Sequence(usize),
    /// Where its entries start, and the key waiting for its value.
    Mapping(usize, Option<Node>),
}

/// State while reading one piece.
pub(crate) struct Builder<'a> {
    /// The whole file.
    pub(crate) text: &'a str,
    /// Byte offset of the piece in the file.
    base: usize,
    /// End of the piece in the file.
    pub(crate) limit: usize,
    cursor: CharCursor<'a>,
    stack: Vec<Frame>,
    /// The items of the open sequences, innermost last.
    items: Vec<Node>,
    /// The entries of the open mappings, innermost last.
    entries: Vec<Entry>,
    anchors: Anchors,
    /// go-yaml's count of the current document's decoding, for its refusal of aliasing.
    ratio: AliasRatio,
    /// Furthest file offset reached by an event of the current document.
    pub(crate) last_end: usize,
    /// The `---` of the current document, if any, and whether a document is open.
    doc_start: Option<usize>,
    doc_open: bool,
    /// Where the current document's first content may start, and how far it reaches so far.
    doc_first: usize,
    doc_end: usize,
    root: Option<Node>,
    has_errors: bool,
    /// What go-yaml's decoding of the current document refuses (a merge of a scalar, a list as
    /// a key): reported only when the document parses, as go-yaml decodes only then.
    decode_errors: Vec<SyntaxError>,
    documents: Vec<Document>,
    errors: Vec<SyntaxError>,
    /// What the parser was shown differently: a quoted scalar shown on one line has our value.
    masks: &'a [mask::Mask],
    /// The byte order mark starting the chunk, shown at the start of the piece (see `bom`).
    moved_mark: Option<usize>,
}

impl<'a> Builder<'a> {
    fn new(text: &'a str, base: usize, piece: &'a str, masks: &'a [mask::Mask]) -> Builder<'a> {
        Builder {
            text,
            base,
            limit: base + piece.len(),
            cursor: CharCursor::new(piece),
            stack: Vec::new(),
            items: Vec::new(),
            entries: Vec::new(),
            anchors: Anchors::default(),
            ratio: AliasRatio::default(),
            last_end: base,
            doc_start: None,
            doc_open: false,
            doc_first: base,
            doc_end: base,
            root: None,
            has_errors: false,
            decode_errors: Vec::new(),
            documents: Vec::new(),
            errors: Vec::new(),
            masks,
            moved_mark: None,
        }
    }

    /// Whether the quoted scalar opening at `from` was shown to the parser on one line.
    pub(crate) fn is_masked(&self, from: usize) -> bool {
        mask::on_one_line(self.masks, from)
    }

    /// Column of the innermost open block collection (the indentation a block scalar's indentation
    /// indicator counts from), if any.
    pub(crate) fn block_indent(&self) -> Option<usize> {
        let frame = self.stack.iter().rev().find(|frame| !frame.flow)?;
        Some(super::scalar::column(self.text, frame.start))
    }

    /// The file byte offset of the parser's character index `index`.
    pub(crate) fn file_offset(&mut self, index: usize) -> usize {
        let at = self.base + self.cursor.byte_of(index);
        match self.moved_mark {
            Some(mark) => bom::file_offset(at, self.base, mark),
            None => at,
        }
    }

    /// File byte offsets of a span.
    pub(crate) fn bytes(&mut self, span: Span) -> (usize, usize) {
        let start = self.file_offset(span.start.index());
        let end = self.file_offset(span.end.index());
        (start, end.max(start))
    }

    fn event(&mut self, event: Event<'_>, span: Span) -> Result<(), SyntaxError> {
        match event {
            Event::DocumentStart(true) => {
                let (start, end) = self.bytes(span);
                self.open_document(Some(start), end);
            }
            // An implicit start is reported at the first token, which may lie past a block
            // scalar's header: it must not move the position the header is searched from.
            Event::DocumentStart(false) => self.open_document(None, self.last_end),
            Event::DocumentEnd => {
                let (_, end) = self.bytes(span);
                self.finish_document(Some(end));
            }
            Event::Scalar(value, style, anchor, tag) => {
                self.open_document(None, self.last_end);
                let site = ScalarSite {
                    value: &value,
                    style,
                    tag: tag.as_deref(),
                    anchor,
                    span,
                };
                self.ratio.node();
                let key_end = self.pending_key_end();
                let node = build_scalar(self, &site, key_end);
                self.check_block_indentation(&node);
                self.complete(node, anchor, Size::ONE);
            }
            Event::SequenceStart(anchor, tag) => {
                self.open_collection(span, anchor, tag.as_deref(), false)?
            }
            Event::MappingStart(anchor, tag) => {
                self.open_collection(span, anchor, tag.as_deref(), true)?
            }
            Event::SequenceEnd | Event::MappingEnd => self.close_collection(Some(span)),
            Event::Alias(id) => self.alias(id, span)?,
            Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
        }
        Ok(())
    }

    /// Starts a document unless one is open.
    fn open_document(&mut self, start: Option<usize>, end: usize) {
        if self.doc_open {
            return;
        }
        self.doc_open = true;
        self.doc_start = start;
        self.doc_first = locate::skip_gap(self.text, self.last_end.min(end)).min(self.limit);
        self.doc_end = end;
        self.last_end = self.last_end.max(end);
    }

    /// Ends the open document (closing what is still open), extending it to `end` if given.
    fn finish_document(&mut self, end: Option<usize>) {
        while !self.stack.is_empty() {
            self.close_collection(None);
        }
        if !self.doc_open && !self.has_errors {
            return;
        }
        let refused = self.root.as_ref().filter(|_| !self.has_errors);
        if let Some(refused) = refused.and_then(json_values::refusal) {
            self.fail_decode(refused);
        }
        if self.has_errors {
            self.decode_errors.clear();
        } else if !self.decode_errors.is_empty() {
            self.has_errors = true;
            self.errors.append(&mut self.decode_errors);
        }
        // saphyr reads an empty document as an empty plain scalar; we say there is no root.
        let root = self.root.take().filter(|root| !root.is_empty_plain());
        let root_range = root.as_ref().map(|node| node.range);
        let start = self
            .doc_start
            .or(root_range.map(|r| usize::from(r.start())))
            .unwrap_or(self.doc_first.min(self.doc_end));
        let mut last = self
            .doc_end
            .max(root_range.map_or(0, |r| usize::from(r.end())));
        if let Some(end) = end.filter(|end| *end > last) {
            // Only an explicit `...` extends the document; an implicit end sits on the next token.
            if self
                .text
                .get(last..end)
                .is_some_and(|s| s.trim_start().starts_with("..."))
            {
                last = locate::trim_end(self.text, last, end);
            }
        }
        let range = TextRange::new(size(start), size(last.max(start)));
        self.documents.push(Document {
            range,
            root,
            has_errors: self.has_errors,
        });
        self.doc_open = false;
        self.has_errors = false;
        self.doc_start = None;
        self.anchors.clear();
        self.ratio = AliasRatio::default();
    }

    /// Records an error: the document is cut short here.
    fn fail(&mut self, error: SyntaxError) {
        // An error before any event still makes a document, up to the error.
        self.open_document(None, usize::from(error.range.start()));
        self.doc_end = self.doc_end.max(usize::from(error.range.end()));
        self.has_errors = true;
        self.errors.push(error);
    }

    /// Records what go-yaml's decoding refuses, for the end of the document.
    fn fail_decode(&mut self, error: SyntaxError) {
        self.decode_errors.push(error);
    }

    /// A syntax error for saphyr's error: at the character it points at.
    fn scan_error(&mut self, error: &ScanError) -> SyntaxError {
        let at = self.file_offset(error.marker().index());
        SyntaxError {
            range: locate::char_range(self.text, at),
            message: clean_message(error.info()),
        }
    }

    /// An error of our own at a span.
    fn error_at(&mut self, span: Span, message: String) -> SyntaxError {
        let (start, _) = self.bytes(span);
        SyntaxError {
            range: locate::char_range(self.text, start),
            message,
        }
    }

    /// End of the key waiting for a value in the innermost mapping, if any.
    fn pending_key_end(&self) -> Option<usize> {
        match self.stack.last().map(|frame| &frame.content) {
            Some(FrameContent::Mapping(_, Some(key))) => Some(usize::from(key.range.end())),
            _ => None,
        }
    }

    fn open_collection(
        &mut self,
        span: Span,
        anchor: usize,
        tag: Option<&saphyr_parser::Tag>,
        mapping: bool,
    ) -> Result<(), SyntaxError> {
        self.open_document(None, self.last_end);
        self.ratio.node();
        if self.stack.len() >= MAX_DEPTH {
            return Err(self.error_at(span, format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        let (start, end) = self.bytes(span);
        let props =
            (tag.is_some() || anchor > 0).then(|| locate::skip_properties(self.text, start));
        let content = props.as_ref().map_or(start, |p| p.content);
        let flow = matches!(self.text.as_bytes().get(content), Some(b'[' | b'{')) && content < end;
        let content = if flow || mapping {
            content
        } else {
            locate::dash_before(self.text, content)
        };
        let tag_text = super::scalar::tag_text(self.text, tag, props.as_ref());
        self.last_end = self.last_end.max(if flow { end } else { content });
        let content_kind = if mapping {
            FrameContent::Mapping(self.entries.len(), None)
        } else {
            FrameContent::Sequence(self.items.len())
        };
        self.stack.push(Frame {
            start: content,
            flow,
            tag: tag_text,
            anchor,
            size: Size::ONE,
            content: content_kind,
        });
        Ok(())
    }

    /// Closes the innermost collection; `span` is its end event, `None` when closing after an error.
    fn close_collection(&mut self, span: Option<Span>) {
        let Some(frame) = self.stack.pop() else {
            return;
        };
        let kind = match frame.content {
            FrameContent::Sequence(start) => {
                NodeKind::Sequence(self.items.drain(start.min(self.items.len())..).collect())
            }
            FrameContent::Mapping(start, key) => {
                if let Some(key) = key {
                    // A key cut short by an error: its value is missing, right after its colon.
                    let at = size(locate::after_colon(self.text, usize::from(key.range.end())));
                    let value = super::scalar::empty_scalar(at);
                    self.entries.push(Entry { key, value });
                }
                NodeKind::Mapping(
                    self.entries
                        .drain(start.min(self.entries.len())..)
                        .collect(),
                )
            }
        };
        let last_child = match &kind {
            NodeKind::Sequence(items) => items.last(),
            NodeKind::Mapping(entries) => entries.last().map(|e| &e.value),
            NodeKind::Scalar(_) => None,
        };
        let mut end = last_child.map_or(frame.start, |n| usize::from(n.range.end()));
        if frame.flow {
            // A flow collection ends at its closing bracket, or (cut short) covers at least its opening.
            end = match span.map(|span| self.bytes(span)) {
                Some((close_start, close_end)) => {
                    self.closing_bracket_end(close_start, close_end).max(end)
                }
                None => end.max(frame.start + 1),
            };
        }
        let range = TextRange::new(size(frame.start), size(end.max(frame.start)));
        let kind = self.resolve_merges(kind);
        let node = Node {
            range,
            tag: frame.tag,
            kind,
        };
        self.complete(node, frame.anchor, frame.size);
    }

    /// A mapping with its merge keys resolved (after its range is known: merged entries lie
    /// elsewhere in the file). A merge go-yaml refuses fails the document, as it fails kubectl's
    /// decoding of it, but the reading goes on.
    fn resolve_merges(&mut self, kind: NodeKind) -> NodeKind {
        let NodeKind::Mapping(entries) = kind else {
            return kind;
        };
        let (entries, refused) = merge::resolve(entries);
        if let Some(range) = refused {
            let at = usize::from(range.start());
            self.fail_decode(SyntaxError {
                range: locate::char_range(self.text, at),
                message: merge::NOT_A_MAP.to_owned(),
            });
        }
        NodeKind::Mapping(entries)
    }

    /// A tab in a block scalar's indentation that go-yaml refuses (see `block::refused_tab`).
    fn check_block_indentation(&mut self, node: &Node) {
        let is_block = matches!(
            node.as_scalar().map(|s| s.style),
            Some(ScalarStyle::Literal | ScalarStyle::Folded)
        );
        if !is_block {
            return;
        }
        let header = usize::from(node.range.start());
        let parent = self.block_indent();
        if let Some(tab) = super::block::refused_tab(self.text, header, self.limit, parent) {
            self.fail(SyntaxError {
                range: locate::char_range(self.text, tab),
                message: "found a tab character where an indentation space is expected".to_owned(),
            });
        }
    }

    /// go-yaml refuses a tab between a block sequence's `-` and its item: after the `-` a
    /// simple key may start, and `yaml_parser_scan_to_next_token` (scannerc.go) skips tabs only
    /// where none may, so the tab is "found character that cannot start any token". saphyr
    /// takes it as a blank.
    fn check_tab_after_dash(&mut self, node: &Node) {
        let in_block_sequence = self
            .stack
            .last()
            .is_some_and(|frame| !frame.flow && matches!(frame.content, FrameContent::Sequence(_)));
        if !in_block_sequence {
            return;
        }
        let start = usize::from(node.range.start());
        let Some((dash, blanks)) = locate::dash_and_blanks_before(self.text, start) else {
            return;
        };
        if let Some(tab) = blanks.find('\t') {
            let at = dash + 1 + tab;
            self.fail(SyntaxError {
                range: locate::char_range(self.text, at),
                message: "found character that cannot start any token".to_owned(),
            });
        }
    }

    /// End of a flow collection's closing bracket. saphyr's end event can run on over the spaces and
    /// the comment after the bracket, which would put them inside the collection's range.
    fn closing_bracket_end(&self, close_start: usize, close_end: usize) -> usize {
        match self.text.as_bytes().get(close_start) {
            Some(b']' | b'}') => close_start + 1,
            _ => close_end,
        }
    }

    /// Expands an alias into a copy of its anchored node.
    fn alias(&mut self, id: usize, span: Span) -> Result<(), SyntaxError> {
        self.open_document(None, self.last_end);
        if let Some(size) = self.anchors.size_of(id)
            && self.ratio.alias(size.decodes)
        {
            let refused = self.error_at(span, alias::EXCESSIVE.to_owned());
            self.fail_decode(refused);
        }
        if self.ratio.is_excessive() {
            // go-yaml refuses the document: no more copies, only the rest of the syntax to read.
            let (start, _) = self.bytes(span);
            let placeholder = super::scalar::empty_scalar(super::source_map::size(start));
            self.complete(placeholder, 0, Size::ONE);
            return Ok(());
        }
        match self.anchors.expand(id, self.stack.len()) {
            Ok((mut copy, size)) => {
                let (start, end) = self.bytes(span);
                copy.range =
                    TextRange::new(super::source_map::size(start), super::source_map::size(end));
                self.complete(copy, 0, size.aliased());
                Ok(())
            }
            Err(error) => {
                let message = match self.open_anchor_name(id, span) {
                    // go-yaml's words (decode.go `alias`) for an alias inside its own anchor.
                    Some(name) => format!("anchor '{name}' value contains itself"),
                    None => error.message(),
                };
                Err(self.error_at(span, message))
            }
        }
    }

    /// The name written at the alias `span` when its anchor is a collection still open around
    /// it (`a: &a [*a]`).
    fn open_anchor_name(&mut self, id: usize, span: Span) -> Option<String> {
        if !self.stack.iter().any(|frame| frame.anchor == id) {
            return None;
        }
        let (start, end) = self.bytes(span);
        let written = self.text.get(start..end)?.trim_start_matches('*');
        Some(written.to_owned())
    }

    /// Attaches a finished node to its parent (or makes it the root) and records its anchor.
    fn complete(&mut self, node: Node, anchor: usize, size: Size) {
        self.last_end = self.last_end.max(usize::from(node.range.end()));
        self.check_tab_after_dash(&node);
        if anchor > 0 {
            self.anchors.keep(anchor, &node, size);
        }
        let Some(frame) = self.stack.last_mut() else {
            self.root = Some(node);
            return;
        };
        frame.size = frame.size.with_child(size);
        match &mut frame.content {
            FrameContent::Sequence(_) => self.items.push(node),
            FrameContent::Mapping(_, key) => match key.take() {
                Some(key) => self.entries.push(Entry { key, value: node }),
                None => {
                    let collection = !matches!(node.kind, NodeKind::Scalar(_));
                    let at = usize::from(node.range.start());
                    *key = Some(node);
                    if collection {
                        // go-yaml decodes a mapping into a Go map, whose keys cannot be lists
                        // or maps (decode.go `mapping`: "invalid map key").
                        self.fail_decode(SyntaxError {
                            range: locate::char_range(self.text, at),
                            message: "invalid map key".to_owned(),
                        });
                    }
                }
            },
        }
    }
}

/// saphyr's message made to read like ours: lower-case start, no trailing full stop; where
/// go-yaml refuses the same text in other words, go-yaml's (what kubectl prints).
fn clean_message(info: &str) -> String {
    let trimmed = info.trim().trim_end_matches('.');
    if trimmed.starts_with("tabs disallowed within this context") {
        // A tab indenting a block: go-yaml's scanner cannot start a token with it.
        return "found character that cannot start any token".to_owned();
    }
    let mut chars = trimmed.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => "syntax error".to_owned(),
    }
}
