//! Breadth-first search: fewest edges, each state visited once.
//!
//! The goal test is done when a state is generated (the earliest moment it is safe for unit
//! costs), which saves expanding a whole layer compared with testing on pop.

use crate::deadline::Limits;
use crate::outcome::reconstruct;
use crate::outcome::SearchOutcome;
use crate::stats::SearchStats;
use crate::tables::hash::FastMap;
use std::collections::hash_map::Entry;
use std::collections::VecDeque;
use std::hash::Hash;
use std::time::Instant;

/// Finds a path with the fewest edges. The cost returned is the number of edges.
///
/// ```
/// use search_core::{bfs, Limits};
/// // Knight moves on a 8x8 board from a1 (0,0) to h8 (7,7): 6 moves.
/// let knight = |&(x, y): &(i32, i32)| {
///     [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
///         .into_iter()
///         .map(move |(dx, dy)| (x + dx, y + dy))
///         .filter(|&(x, y)| (0..8).contains(&x) && (0..8).contains(&y))
/// };
/// let out = bfs(&(0, 0), knight, |&p| p == (7, 7), &Limits::none());
/// assert_eq!(out.cost(), Some(6));
/// ```
pub fn bfs<N, FN, IN, FS>(
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
    let done = |goal: usize, nodes: &[(N, usize)], depth: &[usize], stats: SearchStats| {
        let path = reconstruct(goal, |k| (&nodes[k].0, nodes[k].1));
        SearchOutcome::timed(Some((path, depth[goal])), None, stats, timer)
    };
    let mut nodes: Vec<(N, usize)> = vec![(start.clone(), usize::MAX)];
    let mut depth = vec![0usize];
    if success(start) {
        return done(0, &nodes, &depth, stats);
    }
    let mut seen: FastMap<N, ()> = FastMap::default();
    seen.insert(start.clone(), ());
    let mut queue = VecDeque::from([0usize]);
    let mut stopped = None;
    while let Some(i) = queue.pop_front() {
        if let Some(stop) = limits.check(stats.expanded) {
            stopped = Some(stop);
            break;
        }
        stats.expanded += 1;
        let node = nodes[i].0.clone();
        for next in successors(&node) {
            stats.generated += 1;
            if let Entry::Vacant(v) = seen.entry(next) {
                let j = nodes.len();
                let is_goal = success(v.key());
                nodes.push((v.key().clone(), i));
                depth.push(depth[i] + 1);
                v.insert(());
                if is_goal {
                    return done(j, &nodes, &depth, stats);
                }
                queue.push_back(j);
            }
        }
        stats.max_frontier = stats.max_frontier.max(queue.len());
    }
    SearchOutcome::timed(None, stopped, stats, timer)
}
