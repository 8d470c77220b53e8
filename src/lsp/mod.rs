//! The language server over stdio (tower-lsp-server glue): document store, position encoding,
//! debounced diagnostics tagged with document versions. No feature logic lives here.

/// Runs the server on stdin/stdout until the client says `exit`.
pub fn run_stdio() -> anyhow::Result<()> {
    Ok(())
}
