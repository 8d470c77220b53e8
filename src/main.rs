//! The `admission-ls` binary: the command line (`check`, `serve`, `explain`, …) over the `ide` API.

mod cli;

/// mimalloc rather than the system allocator: checking a file allocates many small trees (YAML
/// nodes, CEL types), and with glibc's allocator a third of the profile was malloc and free.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc's `mi_option_t` (the same index in its v2 and v3; the
/// Rust bindings name it only under its old name in v2).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() {
    return_freed_memory_at_once();
    std::process::exit(cli::run());
}

/// Memory freed goes back to the system at once instead of after mimalloc's default second. The
/// server frees a file's previous text and trees after every keystroke, on whichever thread ran
/// it: with the delay, a few seconds of typing in a 33,000-line file kept up to 25 MB of freed
/// pages resident (peak RSS 56-62 MB instead of 37-40), for no measurable gain in keystroke time.
/// A `MIMALLOC_PURGE_DELAY` in the environment still wins (the call only sets the default).
fn return_freed_memory_at_once() {
    // SAFETY: sets an option's default value; mimalloc reads options with no other precondition,
    // and this runs before any thread of ours is started.
    unsafe { libmimalloc_sys::mi_option_set_default(PURGE_DELAY, 0) };
}
