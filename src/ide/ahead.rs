//! Parsing a large document ahead of its analysis. Between the moment a 33,000-line file's
//! `didOpen` arrives and the moment its diagnostics run asks for its tree, the message goes
//! through the protocol library's decoding and dispatch and the server's bookkeeping, during which
//! the YAML parse, the first step of those diagnostics, can already run on the other core.
//!
//! The front end reads the text out of such a message, [`promise`]s its parse and fulfils the
//! [`Promise`] with that same shared text on a thread of its own; the analysis takes the parse
//! ([`take`]) when it parses exactly that text with nothing to reuse, waiting for the text and the
//! parse if they are not ready, so the same text is never parsed twice. Only one parse is kept: a
//! newer one replaces it, and one nobody took is dropped once [`KEEP_RUNS`] diagnostics runs have
//! ended since (the front end reports their ends with [`run_ended`]; the document's own run is
//! normally the first).

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crate::yaml::YamlFile;
use crate::yaml::incremental::{self, Pieces};

/// Texts shorter than this are parsed when asked: they parse in less time than it takes to hand
/// them over.
pub const MIN_BYTES: usize = 128 * 1024;

/// How many diagnostics runs may end before a parse nobody took is dropped.
const KEEP_RUNS: u32 = 2;

/// The parse kept for the analysis.
struct Ahead {
    /// Diagnostics runs ended since it was promised.
    runs_ended: u32,
    result: Arc<Pending>,
}

/// A parse promised ahead, and what became of it.
#[derive(Default)]
struct Pending {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
enum State {
    /// Promised, the text not handed over yet: the analysis may ask for a tree meanwhile, and must
    /// then wait rather than parse the same text a second time beside the parse ahead.
    #[default]
    Reading,
    /// The text is known (shared with the document, not copied: a copy of a large text is a
    /// megabyte of fresh pages) and being parsed.
    Parsing(Arc<str>),
    Done(Arc<str>, Box<(YamlFile, Pieces)>),
    /// Not a text to parse after all, the parse panicked (the analysis will meet the same panic,
    /// and report it, when it parses), or the parse was taken.
    Gone,
}

static AHEAD: Mutex<Option<Ahead>> = Mutex::new(None);

fn slot() -> MutexGuard<'static, Option<Ahead>> {
    AHEAD.lock().unwrap_or_else(|e| e.into_inner())
}

impl Pending {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, state: State) {
        *self.state() = state;
        self.changed.notify_all();
    }
}

/// A parse promised to the analysis: [`Promise::fulfil`] parses the text; dropping it unfulfilled
/// tells whoever waits that there is nothing to take.
pub struct Promise(Arc<Pending>);

/// Promises a parse (replacing any kept one), for a message whose text is about to be read.
pub fn promise() -> Promise {
    let result = Arc::new(Pending::default());
    let replaced = slot().replace(Ahead {
        runs_ended: 0,
        result: result.clone(),
    });
    drop(replaced);
    Promise(result)
}

impl Promise {
    /// Parses `text` on this thread and keeps the result for [`take`].
    pub fn fulfil(self, text: Arc<str>) {
        self.0.set(State::Parsing(text.clone()));
        let parsed = std::panic::catch_unwind(|| incremental::reparse(&text, None));
        if let Ok(parsed) = parsed {
            self.0.set(State::Done(text, Box::new(parsed)));
        }
    }
}

impl Drop for Promise {
    fn drop(&mut self) {
        let mut state = self.0.state();
        if matches!(*state, State::Reading | State::Parsing(_)) {
            *state = State::Gone;
            self.0.changed.notify_all();
        }
    }
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
    let pending = slot().as_ref()?.result.clone();
    let mut state = pending.state();
    loop {
        match &*state {
            State::Reading => {}
            State::Parsing(kept) if same_text(kept, text) => {}
            State::Done(kept, _) if same_text(kept, text) => break,
            State::Parsing(_) | State::Done(..) | State::Gone => return None,
        }
        state = pending
            .changed
            .wait(state)
            .unwrap_or_else(|e| e.into_inner());
    }
    let State::Done(_, parsed) = std::mem::take(&mut *state) else {
        return None;
    };
    *state = State::Gone;
    drop(state);
    let mut slot = slot();
    if slot
        .as_ref()
        .is_some_and(|a| Arc::ptr_eq(&a.result, &pending))
    {
        *slot = None;
    }
    Some(*parsed)
}

/// Whether `kept` is `text`: normally the very same shared text, compared by address first.
fn same_text(kept: &str, text: &str) -> bool {
    std::ptr::eq(kept, text) || kept == text
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
        promise().fulfil(text.clone());
        assert!(take(&large_text("ahead-different")).is_none());
        let taken = take(&text).expect("the parse made ahead");
        assert_eq!(taken.0, incremental::reparse(&text, None).0);
        assert!(take(&text).is_none(), "taken once");
        drop(promise());
        assert!(
            take(&text).is_none(),
            "a promise dropped unfulfilled gives nothing"
        );
        let untaken = large_text("ahead-untaken");
        promise().fulfil(untaken.clone());
        run_ended();
        run_ended();
        assert!(take(&untaken).is_none(), "dropped after two runs");
        // Asked for while the text is still being read out of its message: waits for it.
        let late = promise();
        let reader = std::thread::spawn({
            let text = text.clone();
            move || {
                std::thread::sleep(std::time::Duration::from_millis(50));
                late.fulfil(text);
            }
        });
        assert!(take(&text).is_some(), "waited for the text and its parse");
        reader.join().expect("the reading thread");
    }
}
