//! Parsing a large document ahead of its analysis. Between the moment a 33,000-line file's
//! `didOpen` arrives and the moment its diagnostics run asks for its tree, the message goes
//! through the transport's check, the protocol library's own decoding and dispatch, and the
//! server's bookkeeping: about 7 ms during which the YAML parse, the first step of those
//! diagnostics, could already run on the other core.
//!
//! [`parse_ahead`] parses a text and keeps the result, keyed by the text, for the analysis to take
//! ([`take`]) when it parses exactly that text with nothing to reuse. Only one parse is kept: a
//! newer one replaces it, and one nobody took is dropped once [`KEEP_RUNS`] diagnostics runs have
//! ended since (the front end reports their ends with [`run_ended`]; the document's own run is
//! normally the first). Taking a parse still running waits for it, so the analysis never parses the
//! same text twice.

use std::sync::{Arc, Condvar, Mutex};

use crate::yaml::YamlFile;
use crate::yaml::incremental::{self, Pieces};

/// Texts shorter than this are parsed when asked: they parse in less time than it takes to hand
/// them over.
pub const MIN_BYTES: usize = 128 * 1024;

/// How many diagnostics runs may end before a parse nobody took is dropped.
const KEEP_RUNS: u32 = 2;

/// The parse kept for the analysis.
struct Ahead {
    text: Arc<str>,
    /// Diagnostics runs ended since it was kept.
    runs_ended: u32,
    result: Arc<Pending>,
}

/// A parse's result once its thread has it.
#[derive(Default)]
struct Pending {
    state: Mutex<State>,
    done: Condvar,
}

#[derive(Default)]
enum State {
    #[default]
    Running,
    Done(Box<(YamlFile, Pieces)>),
    /// The parse panicked (the analysis will meet the same panic, and report it, when it parses).
    Failed,
}

static AHEAD: Mutex<Option<Ahead>> = Mutex::new(None);

fn slot() -> std::sync::MutexGuard<'static, Option<Ahead>> {
    AHEAD.lock().unwrap_or_else(|e| e.into_inner())
}

/// Parses `text` on this thread and keeps the result for [`take`]; a text shorter than
/// [`MIN_BYTES`] is left alone.
pub fn parse_ahead(text: Arc<str>) {
    if text.len() < MIN_BYTES {
        return;
    }
    let result = Arc::new(Pending::default());
    *slot() = Some(Ahead {
        text: text.clone(),
        runs_ended: 0,
        result: result.clone(),
    });
    let parsed = std::panic::catch_unwind(|| incremental::reparse(&text, None));
    let mut state = result.state.lock().unwrap_or_else(|e| e.into_inner());
    *state = match parsed {
        Ok(parsed) => State::Done(Box::new(parsed)),
        Err(_) => State::Failed,
    };
    result.done.notify_all();
}

/// Counts the end of a diagnostics run against the kept parse, dropping it after [`KEEP_RUNS`].
pub fn run_ended() {
    let stale = {
        let mut slot = slot();
        match slot.as_mut() {
            Some(ahead) => {
                ahead.runs_ended += 1;
                if ahead.runs_ended >= KEEP_RUNS {
                    slot.take()
                } else {
                    None
                }
            }
            None => None,
        }
    };
    // Dropped outside the lock: a large file's tree takes a while to free.
    drop(stale);
}

/// The parse of `text` made ahead, waiting for it if it is still running; `None` when none was
/// made for this text (or it failed).
pub(crate) fn take(text: &str) -> Option<(YamlFile, Pieces)> {
    let ahead = {
        let mut slot = slot();
        match slot.as_ref() {
            Some(ahead) if *ahead.text == *text => slot.take(),
            _ => None,
        }
    }?;
    let mut state = ahead.result.state.lock().unwrap_or_else(|e| e.into_inner());
    while matches!(*state, State::Running) {
        state = ahead
            .result
            .done
            .wait(state)
            .unwrap_or_else(|e| e.into_inner());
    }
    match std::mem::take(&mut *state) {
        State::Done(parsed) => Some(*parsed),
        State::Running | State::Failed => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn large_text(marker: &str) -> Arc<str> {
        let document =
            format!("kind: ConfigMap\nmetadata:\n  name: {marker}\ndata:\n  a: b\n---\n");
        document.repeat(MIN_BYTES / document.len() + 1).into()
    }

    /// One test, as the kept parse is process-wide.
    #[test]
    fn a_parse_made_ahead_is_taken_once_for_its_text_only() {
        let text = large_text("ahead-once");
        parse_ahead(text.clone());
        assert!(take(&large_text("ahead-different")).is_none());
        let taken = take(&text).expect("the parse made ahead");
        assert_eq!(taken.0, incremental::reparse(&text, None).0);
        assert!(take(&text).is_none(), "taken once");
        let short: Arc<str> = "kind: ConfigMap\n".into();
        parse_ahead(short.clone());
        assert!(take(&short).is_none(), "short texts are not parsed ahead");
        let untaken = large_text("ahead-untaken");
        parse_ahead(untaken.clone());
        run_ended();
        run_ended();
        assert!(take(&untaken).is_none(), "dropped after two runs");
    }
}
