//! The bundled data itself: every block inflates to its stated length and every line of every
//! version parses, and the decoder stops at the wanted line and refuses broken streams.

use super::{Ordering, Stored, bundle, definition, inflate, kinds, nth_line, versions};

/// Every block of `bundle()` inflated whole.
fn whole_blocks() -> Vec<(usize, Vec<u8>)> {
    let bundle = bundle();
    let dictionary = bundle.dictionary_text();
    bundle
        .blocks
        .iter()
        .map(|(first, stored)| {
            let text = inflate(bundle.stored(*stored), dictionary, stored.length, |_| false)
                .expect("valid block");
            (*first, text[dictionary.len()..].to_vec())
        })
        .collect()
}

#[test]
fn every_block_inflates_to_its_length_and_the_blocks_follow_each_other() {
    let bundle = bundle();
    assert_eq!(bundle.dictionary_text().len(), bundle.dictionary.length);
    let mut next_line = 1;
    for ((first, text), (_, stored)) in whole_blocks().iter().zip(&bundle.blocks) {
        assert_eq!(*first, next_line, "blocks are consecutive");
        assert_eq!(text.len(), stored.length);
        assert_eq!(text.last(), Some(&b'\n'), "a block holds whole lines");
        next_line += memchr::memchr_iter(b'\n', text).count();
    }
    assert!(next_line > 1400, "{next_line} lines");
}

#[test]
fn every_line_read_alone_equals_its_line_in_the_whole_block_and_is_json() {
    let bundle = bundle();
    let before = bundle.inflated.load(Ordering::Relaxed);
    let mut lines = 0;
    for (first, text) in whole_blocks() {
        let body = text.strip_suffix(b"\n").expect("whole lines");
        for (number, line) in body.split(|b| *b == b'\n').enumerate() {
            let alone = bundle.with_line(first + number, <[u8]>::to_vec);
            assert_eq!(alone, line, "line {}", first + number);
            assert!(serde_json::from_slice::<serde_json::Value>(line).is_ok());
            lines += 1;
        }
    }
    assert!(bundle.inflated.load(Ordering::Relaxed) >= before + lines);
    assert!(
        bundle.with_line(0, <[u8]>::is_empty),
        "the header is no block's"
    );
    assert!(bundle.with_line(usize::MAX, <[u8]>::is_empty));
}

#[test]
fn every_definition_of_every_version_decodes() {
    assert_eq!(versions(), &[30, 31, 32, 33, 34, 35, 36, 37]);
    for minor in versions() {
        let index = bundle().index(*minor).expect("bundled version");
        assert!(
            index.defs.len() > 600,
            "1.{minor}: {} defs",
            index.defs.len()
        );
        for name in index.defs.keys() {
            assert!(definition(*minor, name).is_some(), "1.{minor} {name}");
        }
        for entry in kinds(*minor) {
            assert!(index.defs.contains_key(&*entry.definition));
        }
    }
}

#[test]
fn inflating_stops_at_the_wanted_line_and_a_broken_stream_is_none() {
    let bundle = bundle();
    let dictionary = bundle.dictionary_text();
    let (first, stored) = bundle.blocks[bundle.blocks.len() / 2];
    let early = inflate(bundle.stored(stored), dictionary, stored.length, |piece| {
        piece.contains(&b'\n')
    })
    .expect("valid block");
    let text = &early[dictionary.len()..];
    assert!(
        !text.is_empty() && text.len() < stored.length,
        "stopped early"
    );
    let line = nth_line(text, 0).expect("a whole first line");
    assert_eq!(bundle.with_line(first, <[u8]>::to_vec), line);

    let data = bundle.stored(stored);
    let short = Stored {
        length: stored.length - 1,
        ..stored
    };
    let too_long = inflate(data, dictionary, short.length, |_| false);
    assert_eq!(too_long, None, "more text than the table says");
    assert_eq!(
        inflate(&data[..data.len() / 2], dictionary, stored.length, |_| {
            false
        }),
        None
    );
    assert_eq!(inflate(&[0xff; 8], &[], 10, |_| false), None);
    assert_eq!(nth_line(b"a\nb\n", 2), None);
}
