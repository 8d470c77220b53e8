//! Command-line parsing, file walking and output formats; the features themselves live in `ide`.

/// Runs the command line and returns the process exit status.
pub fn run() -> i32 {
    match admission_ls::lsp::run_stdio() {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("admission-ls: {error:#}");
            2
        }
    }
}
