//! What a single-agent search returns: the plan (if any), why it stopped, and its statistics.

use crate::deadline::Stop;
use crate::stats::SearchStats;
use std::time::Instant;

/// The result of a single-agent search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOutcome<N, C> {
    /// The states from start to goal (both included) and the plan's cost, when a goal was found.
    pub solution: Option<(Vec<N>, C)>,
    /// `Some` when a budget stopped the search before it was complete; `solution == None` with
    /// `stopped == None` proves that no goal is reachable.
    pub stopped: Option<Stop>,
    /// Work done.
    pub stats: SearchStats,
}

impl<N, C> SearchOutcome<N, C> {
    /// The outcome of a search begun at `started`: its time taken written into `stats`.
    pub(crate) fn timed(
        solution: Option<(Vec<N>, C)>,
        stopped: Option<Stop>,
        mut stats: SearchStats,
        started: Instant,
    ) -> Self {
        stats.elapsed = started.elapsed();
        SearchOutcome {
            solution,
            stopped,
            stats,
        }
    }
}

/// A path with its cost in edges (unit costs).
pub(crate) fn with_edges<N>(path: Vec<N>) -> (Vec<N>, usize) {
    let edges = path.len() - 1;
    (path, edges)
}

impl<N, C: Copy> SearchOutcome<N, C> {
    /// The cost of the plan found, if any.
    pub fn cost(&self) -> Option<C> {
        self.solution.as_ref().map(|s| s.1)
    }

    /// The path found, if any.
    pub fn path(&self) -> Option<&[N]> {
        self.solution.as_ref().map(|s| s.0.as_slice())
    }
}

/// Parent index of the root in the search arenas.
pub(crate) const NO_PARENT: u32 = u32::MAX;

/// Walks parent links back from `goal`; `node(i)` gives the state and parent index of arena
/// entry `i` (the root's parent is `NO_PARENT` or `usize::MAX`).
pub(crate) fn reconstruct<'a, N: Clone + 'a>(
    goal: usize,
    node: impl Fn(usize) -> (&'a N, usize),
) -> Vec<N> {
    let mut path = Vec::new();
    let mut i = goal;
    while i != usize::MAX && i != NO_PARENT as usize {
        let (state, parent) = node(i);
        path.push(state.clone());
        i = parent;
    }
    path.reverse();
    path
}
