//! Iterative-deepening depth-first search.
//!
//! Runs [`depth_limited`] with limits 0, 1, 2, ... until a goal appears or
//! a limit cuts nothing (the space is exhausted). It finds a path with the fewest edges using
//! memory linear in the depth, at the price of re-expanding shallow layers.

use crate::deadline::Limits;
use crate::outcome::{with_edges, SearchOutcome};
use crate::single_agent::dls::depth_limited;
use crate::stats::SearchStats;
use std::hash::Hash;
use std::time::Instant;

/// Finds a path with the fewest edges by iterative deepening; the cost is the edge count.
///
/// ```
/// use search_core::{iddfs, Limits};
/// let out = iddfs(&1u32, |&n| [n + 1, n * 3], |&n| n == 10, &Limits::none());
/// assert_eq!(out.cost(), Some(3)); // 1 -> 3 -> 9 -> 10
/// ```
pub fn iddfs<N, FN, IN, FS>(
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
    let mut depth = 0;
    loop {
        let remaining = Limits {
            max_expanded: limits
                .max_expanded
                .map(|m| m.saturating_sub(stats.expanded)),
            deadline: limits.deadline,
        };
        let r = depth_limited(
            start,
            &mut successors,
            &mut success,
            |_| (),
            depth,
            &remaining,
        );
        stats.add(&r.stats);
        if r.goal || r.stopped.is_some() || !r.cutoff {
            let solution = r.goal.then(|| with_edges(r.path));
            return SearchOutcome::timed(solution, r.stopped, stats, timer);
        }
        depth += 1;
    }
}
