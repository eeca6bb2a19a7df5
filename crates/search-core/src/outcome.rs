//! What a single-agent search returns: the plan (if any), why it stopped, and its statistics.

use crate::{SearchStats, Stop};

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

/// Walks parent links (indices into `nodes`, `usize::MAX` at the root) back from `goal`.
pub(crate) fn reconstruct<N: Clone>(nodes: &[(N, usize)], goal: usize) -> Vec<N> {
    let mut path = Vec::new();
    let mut i = goal;
    while i != usize::MAX {
        path.push(nodes[i].0.clone());
        i = nodes[i].1;
    }
    path.reverse();
    path
}
