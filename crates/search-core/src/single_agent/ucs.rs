//! Uniform-cost search (Dijkstra's algorithm with a goal test on pop).
//!
//! It is A* with a zero heuristic, written as such so that the two can never drift apart: the
//! course comparison "A* versus h = 0" then measures exactly what the heuristic buys.

use crate::cost::Cost;
use crate::outcome::SearchOutcome;
use crate::single_agent::astar::{astar_with, AstarOptions};
use std::hash::Hash;

/// Finds a cheapest path by uniform-cost search.
///
/// ```
/// use search_core::ucs;
/// // Two routes from 'a' to 'd': a-b-d costs 1+5, a-c-d costs 2+2.
/// let out = ucs(&'a', |&n| match n {
///     'a' => vec![('b', 1u32), ('c', 2)],
///     'b' => vec![('d', 5)],
///     'c' => vec![('d', 2)],
///     _ => vec![],
/// }, |&n| n == 'd');
/// assert_eq!(out.solution, Some((vec!['a', 'c', 'd'], 4)));
/// ```
pub fn ucs<N, C, FN, IN, FS>(start: &N, successors: FN, success: FS) -> SearchOutcome<N, C>
where
    N: Eq + Hash + Clone,
    C: Cost,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, C)>,
    FS: FnMut(&N) -> bool,
{
    let no_heuristic = |_: &N| C::ZERO;
    let no_pruning = |_: &N, _: C| false;
    let options = AstarOptions::default();
    astar_with(
        start,
        successors,
        no_heuristic,
        success,
        no_pruning,
        &options,
    )
}
