//! Conversion of the parser's character indices into byte offsets.
//!
//! saphyr-parser counts positions in characters. Building a char → byte table would cost four bytes a
//! character; instead a cursor walks from the last converted position, forwards or backwards. Event
//! positions arrive almost in order, so the total walk stays linear in the size of the text.

/// Converts character indices of one text into byte offsets of the same text.
pub(crate) struct CharCursor<'a> {
    text: &'a str,
    /// Whether every character is one byte (then no walking is needed).
    ascii: bool,
    /// A character index and its byte offset.
    chars: usize,
    bytes: usize,
}

impl<'a> CharCursor<'a> {
    /// A cursor at the start of `text`.
    pub(crate) fn new(text: &'a str) -> CharCursor<'a> {
        CharCursor {
            text,
            ascii: text.is_ascii(),
            chars: 0,
            bytes: 0,
        }
    }

    /// Byte offset of character index `index`, clamped to the end of the text.
    pub(crate) fn byte_of(&mut self, index: usize) -> usize {
        if self.ascii {
            return index.min(self.text.len());
        }
        let bytes = self.text.as_bytes();
        while self.chars < index && self.bytes < bytes.len() {
            self.bytes += 1;
            while bytes.get(self.bytes).is_some_and(|b| is_continuation(*b)) {
                self.bytes += 1;
            }
            self.chars += 1;
        }
        while self.chars > index && self.bytes > 0 {
            self.bytes -= 1;
            while self.bytes > 0 && bytes.get(self.bytes).is_some_and(|b| is_continuation(*b)) {
                self.bytes -= 1;
            }
            self.chars -= 1;
        }
        self.bytes
    }
}

/// Whether a byte continues a UTF-8 sequence.
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

#[cfg(test)]
mod tests {
    use super::CharCursor;

    #[test]
    fn walks_both_ways() {
        let text = "aé😀b";
        let mut cursor = CharCursor::new(text);
        assert_eq!(cursor.byte_of(3), 7);
        assert_eq!(cursor.byte_of(1), 1);
        assert_eq!(cursor.byte_of(2), 3);
        assert_eq!(cursor.byte_of(4), 8);
        assert_eq!(cursor.byte_of(9), 8);
        assert_eq!(cursor.byte_of(0), 0);
    }
}
