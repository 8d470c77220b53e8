//! The `admission-ls` binary: the command line (`check`, `serve`, `explain`, …) over the `ide` API.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
