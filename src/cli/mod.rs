//! Command-line parsing, file walking and output formats; the features themselves live in `ide`.

mod eval;
mod test;

/// Runs the command line and returns the process exit status.
pub fn run() -> i32 {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match argv.first().map(String::as_str) {
        Some("eval") => return eval::main(&argv),
        Some("test") => return test::main(&argv),
        _ => {}
    }
    match admission_ls::lsp::run_stdio() {
        Ok(()) => 0,
        Err(error) => {
            eprintln!("admission-ls: {error:#}");
            2
        }
    }
}
