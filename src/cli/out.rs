//! Writing the command line's output. Every command builds its report as text and hands it here:
//! a reader that closes the pipe early (`admission-ls check | head -1`) ends the output quietly
//! with status 141, what a shell reports for a process stopped by SIGPIPE, instead of a panic;
//! messages to a closed standard error are dropped.

use std::io::{self, Write};

/// The exit status after the reader closed standard output: 128 + SIGPIPE (13).
pub const EXIT_CLOSED_PIPE: i32 = 141;

/// Writes `text` to standard output and returns `status`, or [`EXIT_CLOSED_PIPE`] when the reader
/// went away, or 2 on another write error.
pub fn emit(text: &str, status: i32) -> i32 {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => status,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_CLOSED_PIPE,
        Err(e) => {
            error(&format!(
                "admission-ls: error: cannot write the output: {e}"
            ));
            super::EXIT_USAGE
        }
    }
}

/// Writes one line to standard error; a closed standard error is ignored.
pub fn error(line: &str) {
    let mut stderr = io::stderr().lock();
    let _ = writeln!(stderr, "{line}");
}
