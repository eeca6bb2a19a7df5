//! Depth-first branch and bound: the best-valued goal reachable from a start, in memory that
//! grows with the depth, not the breadth, of the space.
//!
//! Every node has an upper bound on the value of any goal reachable from it; a node whose bound
//! does not beat the best goal found so far is never expanded, and children are tried highest
//! bound first, so good goals come early and raise the bar for the rest. A node explored to
//! the end is remembered with its rank (for example the time it was reached): meeting it again
//! at the same or a worse rank cannot lead anywhere new (the goals it reaches were all reached
//! from it before), so the search skips it. That table is capped; when it is full it starts
//! afresh, which costs repeated work, never correctness. Cut short by [`Limits`], the search
//! still knows an upper bound on the best value: the best goal found, or the highest bound of
//! a child not yet explored, whichever is higher.

use crate::deadline::{Limits, Stop};
use crate::stats::SearchStats;
use crate::tables::hash::{FastMap, FastSet};
use std::hash::Hash;
use std::time::Instant;

/// What a branch-and-bound search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchBoundOutcome<N> {
    /// The best goal found (the path from the start to it and its value), if it beats the
    /// `floor` the search was given.
    pub best: Option<(Vec<N>, i64)>,
    /// The value no goal reachable from the start exceeds: exact (the best value, or the floor
    /// when nothing beat it) when the search finished, an upper bound when it was stopped.
    pub upper: i64,
    /// Set when a limit stopped the search before it finished.
    pub stopped: Option<Stop>,
    /// Work done.
    pub stats: SearchStats,
}

/// Options of [`branch_and_bound`].
#[derive(Debug, Clone, Copy)]
pub struct BranchBoundOptions {
    /// Only goals of a higher value count (for example a value already known to be reachable).
    pub floor: i64,
    /// Budgets.
    pub limits: Limits,
    /// Most nodes the table of explored nodes holds before it is cleared.
    pub table_limit: usize,
}

impl Default for BranchBoundOptions {
    fn default() -> Self {
        BranchBoundOptions {
            floor: i64::MIN,
            limits: Limits::none(),
            table_limit: 1 << 24,
        }
    }
}

/// One node on the search path with its children, best bound first.
struct Frame<N> {
    node: N,
    children: Vec<(N, i64)>,
    next: usize,
}

/// The highest-valued goal reachable from `start`.
///
/// * `successors(n)`: the nodes one step from `n` (never called on a goal);
/// * `bound(n)`: an upper bound on the value of every goal reachable from `n` (a goal's own
///   value for a goal), `None` when no goal is reachable from it;
/// * `goal(n)`: `n`'s value when it is a goal;
/// * `key(n)`: the identity of `n` in the table of explored nodes and its rank: a node met
///   again with a rank at least that of its explored twin is skipped.
///
/// ```
/// use search_core::{branch_and_bound, BranchBoundOptions};
/// // From 1, double or add 3, never past 20; a goal's value is the number itself, and from n
/// // nothing above 20 is reachable.
/// let out = branch_and_bound(
///     &1i64,
///     |&n| [n * 2, n + 3].into_iter().filter(|&m| m <= 20),
///     |&n| Some(if n > 17 { n } else { 20 }),
///     |&n| (n > 17).then_some(n),
///     |&n| (n, 0),
///     &BranchBoundOptions::default(),
/// );
/// let (path, value) = out.best.unwrap();
/// assert_eq!((value, out.upper, out.stopped), (20, 20, None));
/// assert_eq!((path[0], *path.last().unwrap()), (1, 20));
/// ```
pub fn branch_and_bound<N, K, FN, IN, FB, FG, FK>(
    start: &N,
    mut successors: FN,
    mut bound: FB,
    mut goal: FG,
    mut key: FK,
    options: &BranchBoundOptions,
) -> BranchBoundOutcome<N>
where
    N: Clone,
    K: Eq + Hash + Clone,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FB: FnMut(&N) -> Option<i64>,
    FG: FnMut(&N) -> Option<i64>,
    FK: FnMut(&N) -> (K, u32),
{
    let timer = Instant::now();
    let mut stats = SearchStats::default();
    let mut best_value = options.floor;
    let mut best: Option<(Vec<N>, i64)> = None;
    let finish = |best, upper, stopped, mut stats: SearchStats| {
        stats.elapsed = timer.elapsed();
        BranchBoundOutcome {
            best,
            upper,
            stopped,
            stats,
        }
    };
    if let Some(v) = goal(start) {
        let best = (v > best_value).then(|| (vec![start.clone()], v));
        return finish(best, v.max(best_value), None, stats);
    }
    let Some(root_bound) = bound(start) else {
        return finish(None, best_value, None, stats);
    };
    let mut explored: FastMap<K, u32> = FastMap::default();
    let mut on_path: FastSet<K> = FastSet::default();
    let mut stack: Vec<Frame<N>> = Vec::new();
    // Expands `node` (already known to beat the best) into a frame of its live children.
    let mut open = |node: N,
                    stats: &mut SearchStats,
                    best_value: &mut i64,
                    best: &mut Option<(Vec<N>, i64)>,
                    stack: &[Frame<N>]| {
        stats.expanded += 1;
        let mut children = Vec::new();
        for child in successors(&node) {
            stats.generated += 1;
            if let Some(v) = goal(&child) {
                if v > *best_value {
                    *best_value = v;
                    let mut path: Vec<N> = stack.iter().map(|f| f.node.clone()).collect();
                    path.push(node.clone());
                    path.push(child);
                    *best = Some((path, v));
                }
                continue;
            }
            if let Some(b) = bound(&child).filter(|&b| b > *best_value) {
                children.push((child, b));
            }
        }
        // Highest bound first (stable, so the caller's order breaks ties).
        children.sort_by_key(|&(_, b)| std::cmp::Reverse(b));
        Frame {
            node,
            children,
            next: 0,
        }
    };
    if root_bound > best_value {
        on_path.insert(key(start).0);
        let frame = open(
            start.clone(),
            &mut stats,
            &mut best_value,
            &mut best,
            &stack,
        );
        stack.push(frame);
    }
    while let Some(top) = stack.last_mut() {
        // The next child that still beats the best (children are sorted, so once one does not,
        // none after it does).
        let child = match top.children.get(top.next) {
            Some((c, b)) if *b > best_value => {
                top.next += 1;
                c.clone()
            }
            _ => {
                let done = stack.pop().expect("a frame");
                let (k, rank) = key(&done.node);
                on_path.remove(&k);
                if explored.len() >= options.table_limit {
                    explored.clear();
                }
                let r = explored.entry(k).or_insert(rank);
                *r = (*r).min(rank);
                continue;
            }
        };
        let (k, rank) = key(&child);
        if on_path.contains(&k) || explored.get(&k).is_some_and(|&r| r <= rank) {
            continue;
        }
        if let Some(stop) = options.limits.check(stats.expanded) {
            // Nothing beyond the unexplored children (and the child in hand) was left out.
            let pending = stack
                .iter()
                .filter_map(|f| f.children.get(f.next.saturating_sub(1)).map(|c| c.1))
                .max()
                .unwrap_or(best_value);
            return finish(best, pending.max(best_value), Some(stop), stats);
        }
        on_path.insert(k);
        let frame = open(child, &mut stats, &mut best_value, &mut best, &stack);
        stack.push(frame);
        stats.max_frontier = stats.max_frontier.max(stack.len());
    }
    finish(best, best_value, None, stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small graph with cycles: nodes 0..n, edges i -> (i * a + b) % n for a few (a, b);
    /// goals are the multiples of 7 with value (i * 13) % 50.
    fn graph_best(n: u64, limits: Limits, table_limit: usize) -> BranchBoundOutcome<u64> {
        branch_and_bound(
            &1u64,
            |&i| [(i * 3 + 1) % n, (i * 5 + 2) % n, (i + 1) % n],
            |&i| Some(if i % 7 == 0 { (i * 13 % 50) as i64 } else { 49 }),
            |&i| (i % 7 == 0).then_some((i * 13 % 50) as i64),
            |&i| (i, 0),
            &BranchBoundOptions {
                limits,
                table_limit,
                ..Default::default()
            },
        )
    }

    /// The best goal value among the nodes reachable without passing through a goal.
    fn exhaustive(n: u64) -> i64 {
        let mut seen = vec![false; n as usize];
        let mut stack = vec![1u64];
        seen[1] = true;
        let mut best = i64::MIN;
        while let Some(i) = stack.pop() {
            if i % 7 == 0 {
                best = best.max((i * 13 % 50) as i64);
                continue;
            }
            for j in [(i * 3 + 1) % n, (i * 5 + 2) % n, (i + 1) % n] {
                if !seen[j as usize] {
                    seen[j as usize] = true;
                    stack.push(j);
                }
            }
        }
        best
    }

    #[test]
    fn finds_the_best_goal_with_and_without_a_full_table() {
        for n in [10, 23, 50, 101, 997] {
            let truth = exhaustive(n);
            // A table too small to hold much makes the search re-explore (exponentially so on
            // the large graph), but never changes the answer.
            let tables: &[usize] = if n <= 23 {
                &[1, 4, 1 << 20]
            } else {
                &[64, 1 << 20]
            };
            for &table in tables {
                let out = graph_best(n, Limits::none(), table);
                assert_eq!(out.upper, truth, "n {n} table {table}");
                let (path, v) = out.best.unwrap();
                assert_eq!(v, truth);
                assert_eq!(path[0], 1);
                for w in path.windows(2) {
                    let i = w[0];
                    assert!([(i * 3 + 1) % n, (i * 5 + 2) % n, (i + 1) % n].contains(&w[1]));
                }
            }
        }
    }

    #[test]
    fn a_stopped_search_reports_a_sound_upper_bound() {
        let truth = exhaustive(997);
        let out = graph_best(997, Limits::nodes(3), 1 << 20);
        assert_eq!(out.stopped, Some(Stop::NodeLimit));
        assert!(out.upper >= truth);
        assert!(out.best.as_ref().map_or(i64::MIN, |b| b.1) <= truth);
    }

    #[test]
    fn the_floor_hides_goals_that_do_not_beat_it() {
        let out = graph_best(997, Limits::none(), 1 << 20);
        let best = out.best.unwrap().1;
        let out = branch_and_bound(
            &1u64,
            |&i| [(i * 3 + 1) % 997, (i * 5 + 2) % 997, (i + 1) % 997],
            |&i| Some(if i % 7 == 0 { (i * 13 % 50) as i64 } else { 49 }),
            |&i| (i % 7 == 0).then_some((i * 13 % 50) as i64),
            |&i| (i, 0),
            &BranchBoundOptions {
                floor: best,
                ..Default::default()
            },
        );
        assert_eq!((out.best, out.upper), (None, best));
    }
}
