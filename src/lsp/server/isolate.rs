//! Requests off the serve task. tower-lsp polls every handler's future on the one task that also
//! reads `didChange`, so a handler that computes in place holds up the edits behind it, and a panic
//! in it ends the server. [`Server::off_serve`] runs the work on the blocking pool instead: the serve
//! task only takes a snapshot under the state lock and waits. A panic becomes an `InternalError`
//! answer; `$/cancelRequest` (tower-lsp drops the handler's future) raises a [`Cancel`] flag that
//! long work polls between its steps.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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
}

/// Raises the flag when the handler's future is dropped: on `$/cancelRequest` tower-lsp drops it
/// before the work is done; after the work it is dropped too, when nobody looks any more.
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.0.store(true, Ordering::Relaxed);
    }
}

impl Server {
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

fn internal_error(method: &str, message: &str) -> Error {
    eprintln!("admission-ls: {method} failed: {message}");
    Error {
        code: ErrorCode::InternalError,
        message: format!("admission-ls: {method} failed: {message}").into(),
        data: None,
    }
}
