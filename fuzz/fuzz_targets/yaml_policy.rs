//! YAML + policy model: arbitrary bytes (decoded lossily, as the server and the CLI decode files)
//! through the whole diagnostics pipeline. Any panic, overflow or timeout is a finding.
#![no_main]

use admission_ls::ide::{DiagnosticsConfig, diagnostics_for_text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = diagnostics_for_text(&text, &DiagnosticsConfig::default());
});
