//! IDA*: iterative deepening on f = g + h.
//!
//! Each iteration is a depth-first search that cuts paths whose f exceeds the current bound;
//! the next bound is the smallest f that was cut. Memory is linear in the path length, which
//! makes it the algorithm of choice when A*'s open list would not fit. States are never repeated
//! along the current path (cycle check), but transpositions are re-searched.

use crate::cost::Cost;
use crate::deadline::{Limits, Stop};
use crate::outcome::SearchOutcome;
use crate::stats::SearchStats;
use std::time::Instant;

/// Finds a cheapest path with IDA*; the heuristic must be admissible.
///
/// ```
/// use search_core::{idastar, Limits};
/// // Walk on a line from 0 to 7 with steps of 1 or 3 (cost 1 each); h = ceil(distance / 3).
/// let out = idastar(
///     &0i32,
///     |&n| [(n + 1, 1u32), (n + 3, 1), (n - 1, 1)],
///     |&n| ((7 - n).max(0) as u32).div_ceil(3),
///     |&n| n == 7,
///     &Limits::none(),
/// );
/// assert_eq!(out.cost(), Some(3)); // 0 -> 3 -> 6 -> 7
/// ```
pub fn idastar<N, C, FN, IN, FH, FS>(
    start: &N,
    mut successors: FN,
    mut heuristic: FH,
    mut success: FS,
    limits: &Limits,
) -> SearchOutcome<N, C>
where
    N: Eq + Clone,
    C: Cost,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FS: FnMut(&N) -> bool,
{
    let timer = Instant::now();
    let mut ctx = Ctx {
        successors: &mut successors,
        heuristic: &mut heuristic,
        success: &mut success,
        limits,
        stats: SearchStats::default(),
        path: vec![start.clone()],
    };
    let mut bound = (ctx.heuristic)(start);
    let result = loop {
        match ctx.search(C::ZERO, bound) {
            Step::Found(cost) => break (Some(cost), None),
            Step::Stopped(stop) => break (None, Some(stop)),
            Step::Cut(Some(next)) => bound = next,
            Step::Cut(None) => break (None, None),
        }
    };
    SearchOutcome::timed(result.0.map(|c| (ctx.path, c)), result.1, ctx.stats, timer)
}

enum Step<C> {
    Found(C),
    Stopped(Stop),
    /// Nothing found under the bound; the smallest f that exceeded it, if any.
    Cut(Option<C>),
}

struct Ctx<'a, N, FN, FH, FS> {
    successors: &'a mut FN,
    heuristic: &'a mut FH,
    success: &'a mut FS,
    limits: &'a Limits,
    stats: SearchStats,
    path: Vec<N>,
}

impl<N, C, FN, IN, FH, FS> Ctx<'_, N, FN, FH, FS>
where
    N: Eq + Clone,
    C: Cost,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FS: FnMut(&N) -> bool,
{
    fn search(&mut self, g: C, bound: C) -> Step<C> {
        let node = self.path.last().unwrap().clone();
        let f = g + (self.heuristic)(&node);
        if f > bound {
            return Step::Cut(Some(f));
        }
        if (self.success)(&node) {
            return Step::Found(g);
        }
        if let Some(stop) = self.limits.check(self.stats.expanded) {
            return Step::Stopped(stop);
        }
        self.stats.expanded += 1;
        self.stats.max_frontier = self.stats.max_frontier.max(self.path.len());
        let mut next_bound: Option<C> = None;
        for (child, cost) in (self.successors)(&node) {
            self.stats.generated += 1;
            if self.path.contains(&child) {
                continue;
            }
            self.path.push(child);
            match self.search(g + cost, bound) {
                Step::Cut(Some(b)) => next_bound = Some(next_bound.map_or(b, |n| n.min(b))),
                Step::Cut(None) => {}
                done => return done,
            }
            self.path.pop();
        }
        Step::Cut(next_bound)
    }
}
