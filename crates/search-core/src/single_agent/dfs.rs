//! Depth-first graph search that returns a whole plan.
//!
//! This is the "plan once, then replay" agent of the course assignments: it follows the first
//! successor first, never re-enters a state it has seen anywhere before (closed set), and
//! returns the first path to a goal it meets. The plan is valid but not necessarily shortest.
//! It is iterative (an explicit stack of successor iterators), so deep spaces cannot overflow
//! the call stack.

use crate::deadline::Limits;
use crate::outcome::{with_edges, SearchOutcome};
use crate::stats::SearchStats;
use crate::tables::hash::FastSet;
use std::hash::Hash;
use std::time::Instant;

/// Depth-first search with a closed set; the cost returned is the number of edges.
///
/// ```
/// use search_core::{dfs, Limits};
/// // Count up by 1 or 2 from 0; the first successor (+1) is followed first.
/// let out = dfs(&0u32, |&n| [n + 1, n + 2].into_iter().filter(|&m| m <= 5), |&n| n == 5, &Limits::none());
/// assert_eq!(out.solution, Some((vec![0, 1, 2, 3, 4, 5], 5)));
/// ```
pub fn dfs<N, FN, IN, FS>(
    start: &N,
    mut successors: FN,
    mut success: FS,
    limits: &Limits,
) -> SearchOutcome<N, usize>
where
    N: Eq + Hash + Clone,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FS: FnMut(&N) -> bool,
{
    let timer = Instant::now();
    let mut stats = SearchStats::default();
    let mut path = vec![start.clone()];
    let mut seen: FastSet<N> = FastSet::default();
    seen.insert(start.clone());
    let finish = |path: Option<Vec<N>>, stopped, stats: SearchStats| {
        SearchOutcome::timed(path.map(with_edges), stopped, stats, timer)
    };
    if success(start) {
        return finish(Some(path), None, stats);
    }
    stats.expanded += 1;
    let mut stack = vec![successors(start).into_iter()];
    while let Some(top) = stack.last_mut() {
        match top.next() {
            None => {
                stack.pop();
                path.pop();
            }
            Some(next) => {
                stats.generated += 1;
                if !seen.insert(next.clone()) {
                    continue;
                }
                path.push(next);
                let node = path.last().unwrap();
                if success(node) {
                    return finish(Some(path), None, stats);
                }
                if let Some(stop) = limits.check(stats.expanded) {
                    return finish(None, Some(stop), stats);
                }
                stats.expanded += 1;
                let it = successors(node).into_iter();
                stack.push(it);
                stats.max_frontier = stats.max_frontier.max(stack.len());
            }
        }
    }
    finish(None, None, stats)
}
