//! The language server over stdio (tower-lsp-server glue): document store, position encoding,
//! diagnostics tagged with document versions, coalesced while a run is under way. No feature logic lives here.

mod capabilities;
mod code_lens;
mod commands;
pub mod config;
mod diagnostics;
pub mod disk;
mod documents;
pub mod encoding;
mod fault;
mod features;
pub mod glob;
mod live;
pub mod origin;
mod server;
mod state;
pub mod test_explorer;
mod tokens;
mod transport;
mod workspace;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use tower_lsp_server::LspService;

/// The `source` of every diagnostic the server and the CLI report.
pub const SOURCE: &str = "admission-ls";

/// Runs the server on stdin/stdout until the client says `exit` or closes stdin; returns the process
/// exit status the specification asks for: 0 if `shutdown` came before, 1 otherwise.
pub fn run_stdio() -> anyhow::Result<i32> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(8)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let shutdown_requested = Arc::new(AtomicBool::new(false));
    let flag = shutdown_requested.clone();
    runtime.block_on(async move {
        let (service, socket) = LspService::new(|client| server::Server::new(client, flag));
        let transport = transport::Transport::start(tokio::io::stdin(), tokio::io::stdout());
        let transport::Transport {
            input,
            output,
            writer,
        } = transport;
        // Handlers wait on the blocking pool rather than compute, so many may be in flight; a
        // higher limit than tower-lsp's 4 keeps slow commands from filling every slot ahead of
        // an edit.
        tower_lsp_server::Server::new(input, output, socket)
            .concurrency_level(64)
            .serve(service)
            .await;
        writer.flush().await;
    });
    // The stdin reader may be blocked in a read that never returns; don't wait for it.
    runtime.shutdown_background();
    Ok(if shutdown_requested.load(Ordering::SeqCst) {
        0
    } else {
        1
    })
}
