//! Requests off the serve task. tower-lsp polls every handler's future on the one task that also
//! reads `didChange`, so a handler that computes in place holds up the edits behind it, and a panic
//! in it ends the server. [`Server::off_serve`] runs the work on the blocking pool instead: the serve
//! task only takes a snapshot under the state lock and waits. A panic becomes an `InternalError`
//! answer; `$/cancelRequest` (tower-lsp drops the handler's future) raises a [`Cancel`] flag that
//! long work polls between its steps. Long work (the commands: a suite run, an evaluation, a
//! validation) first takes one of [`LONG_WORK_SLOTS`] slots, waiting in a queue of at most
//! [`LONG_WORK_QUEUE`], so however many commands a client sends, the blocking pool keeps threads
//! for edits' diagnostics and requests at a cursor.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use tokio::sync::Semaphore;

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};

use super::Server;
use crate::lsp::diagnostics::panic_message;
use crate::lsp::fault;

/// Whether the client gave up on the request: work that runs long polls it and stops early.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// The client cancelled the request (or the server dropped it).
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// A flag already raised, for tests of what work does when cancelled.
    #[cfg(test)]
    pub fn raised() -> Cancel {
        Cancel(Arc::new(AtomicBool::new(true)))
    }
}

/// Raises the flag when the handler's future is dropped: on `$/cancelRequest` tower-lsp drops it
/// before the work is done; after the work it is dropped too, when nobody looks any more.
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.0.store(true, Ordering::Relaxed);
    }
}

/// How many long commands run at once (the runtime's blocking pool has 8 threads, one of them
/// reading stdin).
pub const LONG_WORK_SLOTS: usize = 2;

/// How many long commands wait for a slot; one more is refused with a message.
pub const LONG_WORK_QUEUE: usize = 16;

/// The slots of long work and the number of commands waiting for one.
#[derive(Debug)]
pub struct LongWork {
    slots: Semaphore,
    waiting: AtomicUsize,
}

impl Default for LongWork {
    fn default() -> LongWork {
        LongWork {
            slots: Semaphore::new(LONG_WORK_SLOTS),
            waiting: AtomicUsize::new(0),
        }
    }
}

/// Counts a command as waiting while it lives (a cancelled command's future is dropped).
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Server {
    /// [`Server::off_serve`] for long work: waits for a slot first, or is refused when the queue
    /// is full. A command cancelled while it waits never runs.
    pub(super) async fn off_serve_long<T, F>(&self, method: &str, work: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> T + Send + 'static,
    {
        let long = &self.shared.long_work;
        if long.waiting.fetch_add(1, Ordering::SeqCst) >= LONG_WORK_SLOTS + LONG_WORK_QUEUE {
            long.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(queue_full(method));
        }
        let waiting = Waiting(&long.waiting);
        let Ok(_slot) = long.slots.acquire().await else {
            return Err(queue_full(method));
        };
        let outcome = self.off_serve(method, work).await;
        drop(waiting);
        outcome
    }

    /// Runs `work` on the blocking pool and answers with its result; a panic in it is logged and
    /// answered as an internal error, and the server keeps serving. `method` names the request in
    /// the log (and for the debug-only fault switch, [`fault`]).
    pub(super) async fn off_serve<T, F>(&self, method: &str, work: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> T + Send + 'static,
    {
        let cancel = Cancel::default();
        let guard = CancelOnDrop(cancel.clone());
        let label = method.to_owned();
        let task = tokio::task::spawn_blocking(move || {
            let start = Instant::now();
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                fault::inject(&label, &cancel);
                work(&cancel)
            }));
            if cancel.is_cancelled() {
                let elapsed = start.elapsed().as_millis();
                eprintln!("admission-ls: {label} cancelled; stopped after {elapsed} ms");
            }
            outcome.map_err(|panic| panic_message(panic.as_ref()).to_owned())
        });
        let outcome = task.await;
        drop(guard);
        match outcome {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(message)) => Err(internal_error(method, &message)),
            Err(join) => Err(internal_error(method, &join.to_string())),
        }
    }
}

fn queue_full(method: &str) -> Error {
    let message = format!(
        "admission-ls: {method} refused: {LONG_WORK_SLOTS} commands are running and \
         {LONG_WORK_QUEUE} waiting; run it again when they are done"
    );
    eprintln!("{message}");
    Error {
        code: ErrorCode::ServerError(REQUEST_FAILED),
        message: message.into(),
        data: None,
    }
}

/// LSP's `RequestFailed`: the request was valid but the server could not do it now.
const REQUEST_FAILED: i64 = -32803;

fn internal_error(method: &str, message: &str) -> Error {
    eprintln!("admission-ls: {method} failed: {message}");
    Error {
        code: ErrorCode::InternalError,
        message: format!("admission-ls: {method} failed: {message}").into(),
        data: None,
    }
}
