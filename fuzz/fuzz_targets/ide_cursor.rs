//! Editor features at a cursor: arbitrary text (decoded lossily, as the server decodes files) and
//! an arbitrary offset, possibly inside a multi-byte character or past the end, through every
//! cursor feature of the `ide` API (hover, completion, definition, references, signature help,
//! code actions) and the whole-file ones (tokens, symbols, inlay hints, lenses). Any panic,
//! overflow or timeout is a finding: a cursor anywhere must give an empty or correct answer.
#![no_main]

use admission_ls::ide::{AnalysisHost, DiagnosticsConfig, FileId, TextRange, TextSize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((head, body)) = data.split_first_chunk::<2>() else {
        return;
    };
    let text = String::from_utf8_lossy(body);
    // The offset wraps around a little past the end, so that the end and beyond are tried too.
    let offset = u16::from_le_bytes(*head) as usize % (text.len() + 4);
    let offset = TextSize::from(offset as u32);
    let mut host = AnalysisHost::new();
    host.set_file(FileId(0), text.as_ref().into());
    let analysis = host.snapshot();
    let (file, config) = (FileId(0), DiagnosticsConfig::default());
    let _ = analysis.hover(file, offset, &config);
    let _ = analysis.completions(file, offset, &config);
    let _ = analysis.goto_definition(file, offset, &config);
    let _ = analysis.references(file, offset);
    let _ = analysis.signature_help(file, offset, &config);
    let _ = analysis.code_actions(file, TextRange::empty(offset), &config);
    let whole = TextRange::up_to(TextSize::of(text.as_ref()));
    let _ = analysis.semantic_tokens(file);
    let _ = analysis.document_symbols(file);
    let _ = analysis.inlay_hints(file, whole, &config);
});
