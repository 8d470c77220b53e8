//! Base-protocol framing of the byte stream from the client: `Content-Length` headers (names in any
//! case, as HTTP header names are), a bounded header block and a bounded body. Garbage between
//! frames (the tail of a body whose `Content-Length` was too short) is skipped up to the next
//! `Content-Length` header, so one bad frame costs that frame only.

/// The longest header block read before it is given up as garbage.
const MAX_HEADER_BYTES: usize = 8 * 1024;

/// The largest body accepted; a larger one is skipped (and answered as a parse error). Far above
/// any YAML file the workspace scan reads, below what would let one frame exhaust memory.
pub const MAX_BODY_BYTES: usize = 256 * 1024 * 1024;

const CONTENT_LENGTH: &[u8] = b"content-length";

/// The most reserved ahead for a body whose header has arrived: a header can claim any length up to
/// [`MAX_BODY_BYTES`], and a larger body grows as it arrives.
const MAX_RESERVED_BYTES: usize = 16 * 1024 * 1024;

/// What the reader found next in the stream.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A complete body.
    Body(Vec<u8>),
    /// A header block or body that is not a message: answered as a parse error, then skipped.
    Broken(String),
}

/// Splits the client's byte stream into frames; feed it with [`FrameReader::push`].
#[derive(Debug, Default)]
pub struct FrameReader {
    buffer: Vec<u8>,
    /// The body length of the frame whose header was read, while its body is incomplete.
    body_length: Option<usize>,
    /// Bytes of an oversized body still to be dropped as they arrive.
    skipping: usize,
}

impl FrameReader {
    /// Appends bytes read from the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        let dropped = self.skipping.min(bytes.len());
        self.skipping -= dropped;
        self.buffer.extend_from_slice(&bytes[dropped..]);
    }

    /// The next complete frame, or `None` until more bytes arrive.
    pub fn next_frame(&mut self) -> Option<Frame> {
        if let Some(length) = self.body_length {
            if self.buffer.len() < length {
                return None;
            }
            self.body_length = None;
            let rest = self.buffer.split_off(length);
            return Some(Frame::Body(std::mem::replace(&mut self.buffer, rest)));
        }
        self.next_header()
    }

    fn next_header(&mut self) -> Option<Frame> {
        let Some(end) = find(&self.buffer, b"\r\n\r\n") else {
            return self.overlong_header();
        };
        let block = self.buffer[..end].to_vec();
        let start = header_start(&block);
        if start > 0 {
            // Bytes before the header: the tail of a body that was cut short.
            self.buffer.drain(..start);
            eprintln!("admission-ls: skipped {start} bytes before a Content-Length header");
            return self.next_header();
        }
        self.buffer.drain(..end + 4);
        match content_length(&block) {
            Ok(length) if length > MAX_BODY_BYTES => Some(self.skip_body(length)),
            Ok(length) => {
                self.body_length = Some(length);
                // Room for the whole body at once: growing by doubling would fault in and copy
                // twice a large body's size (a 1.25 MB didOpen) on its way.
                let wanted = length.min(MAX_RESERVED_BYTES);
                self.buffer
                    .reserve(wanted.saturating_sub(self.buffer.len()));
                self.next_frame()
            }
            Err(reason) => Some(Frame::Broken(reason)),
        }
    }

    /// A header block longer than any real one: dropped up to the next `Content-Length` in it, or
    /// entirely.
    fn overlong_header(&mut self) -> Option<Frame> {
        if self.buffer.len() <= MAX_HEADER_BYTES {
            return None;
        }
        let whole = self.buffer.len();
        let cut = find_ignore_case(&self.buffer[1..], CONTENT_LENGTH).map_or(whole, |at| at + 1);
        self.buffer.drain(..cut);
        Some(Frame::Broken(format!(
            "no header end in {cut} bytes; skipped them"
        )))
    }

    fn skip_body(&mut self, length: usize) -> Frame {
        let dropped = length.min(self.buffer.len());
        self.buffer.drain(..dropped);
        self.skipping = length - dropped;
        Frame::Broken(format!(
            "a body of {length} bytes is over the limit of {MAX_BODY_BYTES}; skipped it"
        ))
    }
}

/// Where the header that starts a frame begins in `block`: 0 when the block starts with a header
/// line, else the first `Content-Length` in it (or the whole block when there is none).
fn header_start(block: &[u8]) -> usize {
    let first_line = block.split(|&b| b == b'\n').next().unwrap_or_default();
    if is_header_line(first_line) {
        return 0;
    }
    find_ignore_case(block, CONTENT_LENGTH).unwrap_or(block.len() + 4)
}

/// `Name: value` with an HTTP token as the name.
fn is_header_line(line: &[u8]) -> bool {
    let Some(colon) = line.iter().position(|&b| b == b':') else {
        return false;
    };
    colon > 0
        && line[..colon]
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-_".contains(b))
}

/// The `Content-Length` of a header block; other headers (`Content-Type`) are allowed and
/// ignored.
fn content_length(block: &[u8]) -> Result<usize, String> {
    let text = std::str::from_utf8(block).map_err(|_| "a header is not ASCII".to_owned())?;
    let mut length = None;
    for line in text.split("\r\n") {
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!("a header line has no colon: {line:?}"));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let parsed = value.trim().parse::<usize>();
            length =
                Some(parsed.map_err(|_| format!("Content-Length is not a number: {value:?}"))?);
        }
    }
    length.ok_or_else(|| "a header block has no Content-Length".to_owned())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, needle)
}

fn find_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Frame> {
        let mut reader = FrameReader::default();
        reader.push(input);
        std::iter::from_fn(|| reader.next_frame()).collect()
    }

    fn body(text: &str) -> Frame {
        Frame::Body(text.as_bytes().to_vec())
    }

    #[test]
    fn a_frame_arriving_byte_by_byte_is_read_once_complete() {
        let mut reader = FrameReader::default();
        let input = b"Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}";
        for byte in input {
            assert_eq!(reader.next_frame(), None);
            reader.push(&[*byte]);
        }
        assert_eq!(reader.next_frame(), Some(body("{}")));
        assert_eq!(reader.next_frame(), None);
    }

    #[test]
    fn header_names_are_read_in_any_case() {
        let input = b"content-length: 2\r\n\r\n{}CONTENT-LENGTH:3\r\n\r\n[1]";
        assert_eq!(frames(input), vec![body("{}"), body("[1]")]);
    }

    #[test]
    fn the_tail_of_a_short_body_is_skipped_up_to_the_next_header() {
        let input = b"Content-Length: 3\r\n\r\n{\"a\":1}Content-Length: 2\r\n\r\n{}";
        assert_eq!(frames(input), vec![body("{\"a"), body("{}")]);
    }

    #[test]
    fn a_header_block_without_length_or_with_a_bad_one_is_broken_and_skipped() {
        let input = b"Content-Type: x\r\n\r\nContent-Length: -1\r\n\r\nContent-Length: 2\r\n\r\n{}";
        let found = frames(input);
        assert!(matches!(found[0], Frame::Broken(_)), "{found:?}");
        assert!(matches!(found[1], Frame::Broken(_)), "{found:?}");
        assert_eq!(found[2..], [body("{}")]);
    }

    #[test]
    fn an_oversized_body_is_skipped_as_it_arrives() {
        let mut reader = FrameReader::default();
        let header = format!("Content-Length: {}\r\n\r\n", MAX_BODY_BYTES + 1);
        reader.push(header.as_bytes());
        assert!(matches!(reader.next_frame(), Some(Frame::Broken(_))));
        reader.push(&vec![b'x'; MAX_BODY_BYTES]);
        reader.push(b"xContent-Length: 2\r\n\r\n{}");
        assert_eq!(reader.next_frame(), Some(body("{}")));
    }

    #[test]
    fn endless_garbage_without_a_header_end_is_dropped() {
        let mut reader = FrameReader::default();
        reader.push(&vec![b'x'; MAX_HEADER_BYTES + 1]);
        assert!(matches!(reader.next_frame(), Some(Frame::Broken(_))));
        reader.push(b"Content-Length: 2\r\n\r\n{}");
        assert_eq!(reader.next_frame(), Some(body("{}")));
    }
}
