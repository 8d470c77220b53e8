//! Order-keeping parallel map over contiguous chunks, for the few places where one file holds
//! enough independent work (documents of a 30,000-line file) that a second core halves the wait
//! from an edit to its diagnostics. It lives in the lowest module so that every layer can use it.
//!
//! Work is split only when each thread gets at least `min_per_thread` items; otherwise, and
//! whenever a thread cannot be started, everything runs on the calling thread. Results come back
//! in input order, so output stays deterministic.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::thread;

/// Most threads one call uses: the work is a single file, and editors run other requests at the
/// same time.
const MAX_THREADS: usize = 4;

/// Pieces per thread: the threads take pieces in turn until none is left, so a thread whose
/// documents were cheap takes over pieces of one whose documents were not (a large CRD beside
/// small policies), rather than waiting for it at the end.
const PIECES_PER_THREAD: usize = 8;

/// `items.iter().map(f).collect()`, computed on up to [`MAX_THREADS`] threads in contiguous
/// chunks of at least `min_per_thread` items.
pub fn map_chunks<T, R, F>(items: &[T], min_per_thread: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    let threads = thread_count(items.len(), min_per_thread);
    if threads <= 1 {
        return items.iter().map(&f).collect();
    }
    let pieces: Vec<&[T]> = items
        .chunks(items.len().div_ceil(threads * PIECES_PER_THREAD))
        .collect();
    let done = Pieces::new(pieces.len());
    let work = || done.take_all(&pieces, &f);
    thread::scope(|scope| {
        // A thread that cannot start leaves its share to the others.
        let helpers: Vec<_> = (1..threads)
            .filter_map(|_| thread::Builder::new().spawn_scoped(scope, work).ok())
            .collect();
        work();
        for helper in helpers {
            // A helper that panicked left its piece unfinished: `collect` computes it again here.
            let _ = helper.join();
        }
    });
    done.collect(&pieces, &f)
}

/// The results of each piece, filled by whichever thread took it.
struct Pieces<R> {
    next: AtomicUsize,
    results: Mutex<Vec<Option<Vec<R>>>>,
}

impl<R> Pieces<R> {
    fn new(count: usize) -> Self {
        Pieces {
            next: AtomicUsize::new(0),
            results: Mutex::new((0..count).map(|_| None).collect()),
        }
    }

    /// Takes pieces until none is left.
    fn take_all<T, F: Fn(&T) -> R>(&self, pieces: &[&[T]], f: &F) {
        loop {
            let index = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(piece) = pieces.get(index) else {
                return;
            };
            let results: Vec<R> = piece.iter().map(f).collect();
            let mut slots = self.results.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(slot) = slots.get_mut(index) {
                *slot = Some(results);
            }
        }
    }

    /// The results in input order. A piece a thread took but did not finish (it panicked) is
    /// computed here, so that a panic surfaces on the calling thread as it would without threads.
    fn collect<T, F: Fn(&T) -> R>(self, pieces: &[&[T]], f: &F) -> Vec<R> {
        let slots = self.results.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut out = Vec::with_capacity(pieces.iter().map(|p| p.len()).sum());
        for (slot, piece) in slots.into_iter().zip(pieces) {
            match slot {
                Some(results) => out.extend(results),
                None => out.extend(piece.iter().map(f)),
            }
        }
        out
    }
}

/// Whether [`map_chunks`] would split `items` items of at least `min_per_thread` per thread over
/// several threads (for work that prepares each thread when it does).
pub fn splits(items: usize, min_per_thread: usize) -> bool {
    thread_count(items, min_per_thread) > 1
}

fn thread_count(items: usize, min_per_thread: usize) -> usize {
    let useful = items / min_per_thread.max(1);
    cores().min(MAX_THREADS).min(useful).max(1)
}

/// The cores this process may use, asked once: the answer reads the cgroup's CPU quota from
/// files, a dozen system calls that every large file's parse and check would repeat.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| thread::available_parallelism().map_or(1, |n| n.get()))
}

#[cfg(test)]
mod tests {
    use super::map_chunks;

    #[test]
    fn keeps_input_order_whatever_the_split() {
        let items: Vec<u32> = (0..1000).collect();
        for min in [1, 7, 100, 1000, 5000] {
            let doubled = map_chunks(&items, min, |x| x * 2);
            let expected: Vec<u32> = items.iter().map(|x| x * 2).collect();
            assert_eq!(doubled, expected, "min_per_thread {min}");
        }
    }

    #[test]
    fn a_panicking_item_panics_on_the_calling_thread() {
        let items: Vec<u32> = (0..1000).collect();
        let outcome = std::panic::catch_unwind(|| {
            map_chunks(&items, 1, |x| {
                assert!(*x != 777, "item 777");
                *x
            })
        });
        let message = outcome.expect_err("the panic reaches the caller");
        let text = message
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| message.downcast_ref::<&str>().copied());
        assert_eq!(text, Some("item 777"));
    }

    #[test]
    fn empty_input_gives_empty_output() {
        let items: Vec<u32> = Vec::new();
        assert!(map_chunks(&items, 1, |x| *x).is_empty());
    }
}
