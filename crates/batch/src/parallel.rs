//! An ordered parallel map for batch work (games to play, positions to search): each thread
//! keeps its own state (a search table, say) and takes the next index when it is free; the
//! results come back in index order, so the output does not depend on the thread count.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `f(&mut state, i)` for every `i` in `0..n`, on `threads` threads (at least one), each with
/// its own `state` made by `init`; the results in index order.
///
/// ```
/// // Each thread counts its own calls; the squares come back in order all the same.
/// let squares = batch::parallel_map(10, 3, || 0u32, |calls, i| {
///     *calls += 1;
///     i * i
/// });
/// assert_eq!(squares, (0..10).map(|i| i * i).collect::<Vec<_>>());
/// ```
pub fn parallel_map<S, R: Send>(
    n: usize,
    threads: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, usize) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, n.max(1)) {
            scope.spawn(|| {
                let mut state = init();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let r = f(&mut state, i);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every index is computed"))
        .collect()
}
