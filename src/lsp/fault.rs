//! A fault switch for tests of the server's isolation, honoured only in debug builds: the
//! environment variable `ADMISSION_LS_FAULT` holds `method=action` entries separated by commas,
//! where `method` is an LSP method (`textDocument/hover`) or a command (`admission-ls.runTests`)
//! and `action` is `panic` or `sleep:MILLISECONDS` (a sleep that stops early when the request is
//! cancelled). Release builds ignore the variable.

use super::server::Cancel;

/// Acts on the entry for `method`, if the switch names it.
#[cfg(debug_assertions)]
pub fn inject(method: &str, cancel: &Cancel) {
    let Ok(spec) = std::env::var("ADMISSION_LS_FAULT") else {
        return;
    };
    for entry in spec.split(',') {
        match entry.split_once('=') {
            Some((target, "panic")) if target == method => panic!("fault injected into {method}"),
            Some((target, action)) if target == method => {
                if let Some(ms) = action.strip_prefix("sleep:").and_then(|m| m.parse().ok()) {
                    sleep_unless_cancelled(std::time::Duration::from_millis(ms), cancel);
                }
            }
            _ => {}
        }
    }
}

/// Release builds: no faults.
#[cfg(not(debug_assertions))]
pub fn inject(_method: &str, _cancel: &Cancel) {}

#[cfg(debug_assertions)]
fn sleep_unless_cancelled(duration: std::time::Duration, cancel: &Cancel) {
    let step = std::time::Duration::from_millis(5);
    let start = std::time::Instant::now();
    while start.elapsed() < duration && !cancel.is_cancelled() {
        std::thread::sleep(step);
    }
}
