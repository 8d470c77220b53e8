//! The `admission-ls` binary: the command line (`check`, `serve`, `explain`, …) over the `ide` API.

mod cli;

/// mimalloc rather than the system allocator: checking a file allocates many small trees (YAML
/// nodes, CEL types), and with glibc's allocator a third of the profile was malloc and free.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(cli::run());
}
