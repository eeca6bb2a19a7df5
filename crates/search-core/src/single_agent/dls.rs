//! Depth-limited search, with an optional score for the frontier.
//!
//! Explores every path of at most `depth` edges (a state is never repeated along one path) in
//! depth-first order. If a goal is found, the shortest goal path met is returned. Otherwise the
//! frontier states (at the depth limit, or without successors) are scored by `leaf_score` and the
//! path to the best one is returned: this is the "search d steps ahead, score what you see, take
//! the first step of the best line" agent that re-plans every tick. When a budget runs out the
//! best answer found so far is returned, so the agent always has a move.

use crate::deadline::{Limits, Stop};
use crate::stats::SearchStats;
use crate::tables::hash::FastSet;
use std::hash::Hash;
use std::time::Instant;

/// The result of [`depth_limited`].
#[derive(Debug, Clone, PartialEq)]
pub struct DlsOutcome<N, S> {
    /// Path from the start (included) to the goal or to the best-scored frontier state.
    pub path: Vec<N>,
    /// Whether `path` ends in a goal.
    pub goal: bool,
    /// Score of the chosen frontier state (`None` for a goal or when nothing was scored).
    pub score: Option<S>,
    /// Whether some path was cut by the depth limit (if not, the whole space was seen).
    pub cutoff: bool,
    /// Set when a budget stopped the search early.
    pub stopped: Option<Stop>,
    /// Work done.
    pub stats: SearchStats,
}

/// Depth-limited search; see the module documentation.
///
/// ```
/// use search_core::{depth_limited, Limits};
/// // From 0, step +1 or +2; no goal within reach, prefer the largest number seen at depth 3.
/// let out = depth_limited(&0i32, |&n| [n + 1, n + 2], |_| false, |&n| n, 3, &Limits::none());
/// assert!(!out.goal);
/// assert_eq!(out.score, Some(6));
/// assert_eq!(out.path, vec![0, 2, 4, 6]);
/// // With a goal at 3, the shortest goal path is returned.
/// let out = depth_limited(&0i32, |&n| [n + 1, n + 2], |&n| n == 3, |&n| n, 3, &Limits::none());
/// assert!(out.goal);
/// assert_eq!(out.path.len(), 3); // 0 -> 1 -> 3
/// ```
pub fn depth_limited<N, S, FN, IN, FS, FL>(
    start: &N,
    mut successors: FN,
    mut success: FS,
    mut leaf_score: FL,
    depth: usize,
    limits: &Limits,
) -> DlsOutcome<N, S>
where
    N: Eq + Hash + Clone,
    S: PartialOrd,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FS: FnMut(&N) -> bool,
    FL: FnMut(&N) -> S,
{
    let timer = Instant::now();
    let mut stats = SearchStats::default();
    let mut out = DlsOutcome {
        path: vec![start.clone()],
        goal: false,
        score: None,
        cutoff: false,
        stopped: None,
        stats,
    };
    if success(start) {
        out.goal = true;
        return out;
    }
    // Goals deeper than this cannot improve on the best goal found so far.
    let mut max_depth = depth;
    let mut path = vec![start.clone()];
    let mut on_path: FastSet<N> = FastSet::default();
    on_path.insert(start.clone());
    let mut stack = Vec::new();
    if depth == 0 {
        out.cutoff = true;
        out.score = Some(leaf_score(start));
        return out;
    }
    stats.expanded += 1;
    stack.push((successors(start).into_iter(), false));
    while let Some((top, had_child)) = stack.last_mut() {
        match top.next() {
            None => {
                let leaf = !*had_child;
                stack.pop();
                let node = path.pop().unwrap();
                on_path.remove(&node);
                // A state without successors is a frontier state too (but never the start).
                if leaf && !path.is_empty() && !out.goal {
                    score_leaf(&mut out, &path, node, &mut leaf_score);
                }
            }
            Some(next) => {
                stats.generated += 1;
                if on_path.contains(&next) {
                    continue;
                }
                *had_child = true;
                if success(&next) {
                    if !out.goal || path.len() < out.path.len() {
                        out.goal = true;
                        out.score = None;
                        out.path.clone_from(&path);
                        out.path.push(next);
                        max_depth = path.len() - 1;
                    }
                    continue;
                }
                if path.len() > max_depth {
                    continue;
                }
                if path.len() == max_depth {
                    out.cutoff = true;
                    if !out.goal {
                        score_leaf(&mut out, &path, next, &mut leaf_score);
                    }
                    continue;
                }
                if let Some(stop) = limits.check(stats.expanded) {
                    out.stopped = Some(stop);
                    break;
                }
                stats.expanded += 1;
                let it = successors(&next).into_iter();
                on_path.insert(next.clone());
                path.push(next);
                stack.push((it, false));
                stats.max_frontier = stats.max_frontier.max(stack.len());
            }
        }
    }
    stats.elapsed = timer.elapsed();
    out.stats = stats;
    out
}

fn score_leaf<N: Clone, S: PartialOrd, FL: FnMut(&N) -> S>(
    out: &mut DlsOutcome<N, S>,
    prefix: &[N],
    leaf: N,
    leaf_score: &mut FL,
) {
    let s = leaf_score(&leaf);
    if out.score.as_ref().is_none_or(|best| s > *best) {
        out.score = Some(s);
        out.path.clear();
        out.path.extend_from_slice(prefix);
        out.path.push(leaf);
    }
}
