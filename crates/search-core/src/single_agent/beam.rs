//! Beam search: breadth-first by layers, keeping only the `width` most promising nodes of each
//! layer, for a good goal fast where an exact search is out of reach.
//!
//! It proves nothing (a goal outside the beam is never seen), but it finds good goals in time
//! and memory linear in `width` times the depth, which makes it the lower end of an exact
//! search's window: a branch and bound started above the beam's best has less to explore.
//! A node is kept once, in the first layer and from the best parent that reached it (later
//! meetings are dropped), so on a finite space the beam empties and the search ends.

use crate::deadline::{Limits, Stop};
use crate::stats::SearchStats;
use crate::tables::hash::FastSet;
use std::hash::Hash;
use std::time::Instant;

/// What a beam search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BeamOutcome<N> {
    /// The best goal met (the path from the start to it and its value).
    pub best: Option<(Vec<N>, i64)>,
    /// Set when a limit stopped the search before the beam emptied.
    pub stopped: Option<Stop>,
    /// Work done.
    pub stats: SearchStats,
}

/// Beam search for the highest-valued goal.
///
/// * `successors(n)`: the nodes one step from `n` (never called on a goal);
/// * `rank(n)`: how promising `n` is, higher first; `None` drops `n` (a dead end);
/// * `goal(n)`: `n`'s value when it is a goal (goals are recorded, not expanded);
/// * `key(n)`: the identity that detects a node met again.
///
/// ```
/// use search_core::{beam_search, Limits};
/// // Walk from 0 by +1 or +2 up to 10; being at 10 is a goal worth 10 minus the steps taken.
/// let out = beam_search(
///     &(0u32, 0u32),
///     |&(n, steps)| [(n + 1, steps + 1), (n + 2, steps + 1)].into_iter().filter(|m| m.0 <= 10),
///     |&(n, _)| Some(n),
///     |&(n, steps)| (n == 10).then_some(10 - steps as i64),
///     |&(n, _)| n,
///     4,
///     &Limits::none(),
/// );
/// let (path, value) = out.best.unwrap();
/// assert_eq!((value, path.len()), (5, 6));
/// ```
pub fn beam_search<N, K, R, FN, IN, FR, FG, FK>(
    start: &N,
    mut successors: FN,
    mut rank: FR,
    mut goal: FG,
    mut key: FK,
    width: usize,
    limits: &Limits,
) -> BeamOutcome<N>
where
    N: Clone,
    K: Eq + Hash,
    R: Ord,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FR: FnMut(&N) -> Option<R>,
    FG: FnMut(&N) -> Option<i64>,
    FK: FnMut(&N) -> K,
{
    let timer = Instant::now();
    let mut stats = SearchStats::default();
    // Every layer kept, each node with its parent's index in the layer before.
    let mut layers: Vec<Vec<(N, usize)>> = vec![vec![(start.clone(), 0)]];
    // The best goal: itself, its parent's layer and index there, its value.
    let mut best: Option<(N, usize, usize, i64)> = None;
    let mut stopped = None;
    if let Some(v) = goal(start) {
        stats.elapsed = timer.elapsed();
        return BeamOutcome {
            best: Some((vec![start.clone()], v)),
            stopped,
            stats,
        };
    }
    let mut seen = FastSet::default();
    seen.insert(key(start));
    'layers: loop {
        let depth = layers.len() - 1;
        let layer = &layers[depth];
        let mut next: Vec<(R, N, usize)> = Vec::new();
        for (i, (node, _)) in layer.iter().enumerate() {
            if let Some(stop) = limits.check(stats.expanded) {
                stopped = Some(stop);
                break 'layers;
            }
            stats.expanded += 1;
            for child in successors(node) {
                stats.generated += 1;
                if let Some(v) = goal(&child) {
                    if best.as_ref().is_none_or(|b| v > b.3) {
                        best = Some((child, depth, i, v));
                    }
                    continue;
                }
                if !seen.insert(key(&child)) {
                    continue;
                }
                if let Some(r) = rank(&child) {
                    next.push((r, child, i));
                }
            }
        }
        if next.is_empty() {
            break;
        }
        // Stable: among equal ranks, earlier parents (better ranked) first.
        next.sort_by(|a, b| b.0.cmp(&a.0));
        next.truncate(width);
        stats.max_frontier = stats.max_frontier.max(next.len());
        layers.push(next.into_iter().map(|(_, n, p)| (n, p)).collect());
    }
    stats.elapsed = timer.elapsed();
    let best = best.map(|(node, depth, parent, v)| {
        let mut path = vec![node];
        let (mut d, mut i) = (depth, parent);
        loop {
            let (n, p) = &layers[d][i];
            path.push(n.clone());
            if d == 0 {
                break;
            }
            (d, i) = (d - 1, *p);
        }
        path.reverse();
        (path, v)
    });
    BeamOutcome {
        best,
        stopped,
        stats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a grid walk where the goal's value falls with the steps taken, a wide beam finds the
    /// best goal and a narrow one a worse one; every path is a real path.
    #[test]
    fn a_wider_beam_finds_at_least_as_good_a_goal() {
        // From (0, 0), steps right or down (or a detour up from row 3); a goal on column 6,
        // worth 20 minus the row minus the steps.
        let successors = |&(r, c, steps): &(i32, i32, i32)| {
            let mut v = vec![(r, c + 1, steps + 1), (r + 1, c, steps + 1)];
            if r == 3 {
                v.push((r - 1, c, steps + 1));
            }
            v.into_iter().filter(|&(r, c, _)| r <= 6 && c <= 6)
        };
        let goal = |&(r, c, steps): &(i32, i32, i32)| (c == 6).then_some(i64::from(20 - r - steps));
        let run = |width| {
            beam_search(
                &(0, 0, 0),
                successors,
                |&(r, _, _)| Some(r), // a misleading rank: deep rows first
                goal,
                |&(r, c, _)| (r, c),
                width,
                &Limits::none(),
            )
        };
        let narrow = run(1).best.unwrap();
        let wide = run(100).best.unwrap();
        assert_eq!(wide.1, 14);
        assert!(narrow.1 <= wide.1);
        for (path, _) in [narrow, wide] {
            assert_eq!(path[0], (0, 0, 0));
            for w in path.windows(2) {
                assert!(successors(&w[0]).any(|n| n == w[1]));
            }
        }
    }

    #[test]
    fn a_node_limit_stops_it() {
        let out = beam_search(
            &0u64,
            |&n| [n + 1, n + 2],
            |&n| Some(n),
            |_| None,
            |&n| n,
            8,
            &Limits::nodes(50),
        );
        assert_eq!((out.best, out.stopped), (None, Some(Stop::NodeLimit)));
    }
}
