//! Order-keeping parallel map over contiguous chunks, for the few places where one file holds
//! enough independent work (documents of a 30,000-line file) that a second core halves the wait
//! from an edit to its diagnostics. It lives in the lowest module so that every layer can use it.
//!
//! Work is split only when each thread gets at least `min_per_thread` items; otherwise, and
//! whenever a thread cannot be started, everything runs on the calling thread. Results come back
//! in input order, so output stays deterministic.

use std::thread;

/// Most threads one call uses: the work is a single file, and editors run other requests at the
/// same time.
const MAX_THREADS: usize = 4;

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
    let chunk = items.len().div_ceil(threads);
    let f = &f;
    thread::scope(|scope| {
        let mut chunks = items.chunks(chunk);
        let first = chunks.next().unwrap_or(&[]);
        let handles: Vec<_> = chunks
            .map(|part| {
                let spawned = thread::Builder::new()
                    .spawn_scoped(scope, move || part.iter().map(f).collect::<Vec<R>>());
                (part, spawned)
            })
            .collect();
        let mut out: Vec<R> = first.iter().map(f).collect();
        for (part, spawned) in handles {
            // A thread that could not start (or stopped) has its chunk done here instead.
            match spawned.map(|handle| handle.join()) {
                Ok(Ok(results)) => out.extend(results),
                _ => out.extend(part.iter().map(f)),
            }
        }
        out
    })
}

fn thread_count(items: usize, min_per_thread: usize) -> usize {
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    let useful = items / min_per_thread.max(1);
    cores.min(MAX_THREADS).min(useful).max(1)
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
    fn empty_input_gives_empty_output() {
        let items: Vec<u32> = Vec::new();
        assert!(map_chunks(&items, 1, |x| *x).is_empty());
    }
}
