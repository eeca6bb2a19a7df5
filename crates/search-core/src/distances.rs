//! Distance fields: the cost from the nearest of several sources to every node of a graph whose
//! nodes are numbered `0..node_count` (a grid's cells, say), by breadth-first search when every
//! edge costs one and by Dijkstra's algorithm otherwise.
//!
//! Heuristics precompute them once per map, searching backwards from the goal: the walking
//! distance to a station from every cell is one breadth-first search out of the station. Unlike
//! [`bfs`](crate::bfs) and [`ucs`](crate::ucs) there is no goal and no path: the whole reachable
//! graph is visited, and a plain vector indexed by node replaces the hash map of visited states.

use crate::Cost;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// The number of edges from the nearest of `sources` to every node (`None` where no source
/// reaches), by breadth-first search. `successors(n)` lists the nodes one edge away from `n`;
/// every node must be below `node_count`.
///
/// ```
/// use search_core::bfs_distances;
/// // A 3x3 grid, cells numbered row by row, with a wall on the centre cell (4).
/// let neighbours = |c: usize| {
///     let (r, col) = (c / 3, c % 3);
///     let mut out = Vec::new();
///     if r > 0 { out.push(c - 3) }
///     if r < 2 { out.push(c + 3) }
///     if col > 0 { out.push(c - 1) }
///     if col < 2 { out.push(c + 1) }
///     out.into_iter().filter(|&n| n != 4)
/// };
/// let d = bfs_distances(9, [0], neighbours);
/// assert_eq!(d[8], Some(4)); // around the wall
/// assert_eq!(d[4], None); // the wall itself is never entered
/// // Several sources: the distance to the nearest.
/// assert_eq!(bfs_distances(9, [0, 8], neighbours)[2], Some(2));
/// ```
pub fn bfs_distances<S, FN, IN>(
    node_count: usize,
    sources: S,
    mut successors: FN,
) -> Vec<Option<usize>>
where
    S: IntoIterator<Item = usize>,
    FN: FnMut(usize) -> IN,
    IN: IntoIterator<Item = usize>,
{
    let mut dist = vec![None; node_count];
    let mut queue = VecDeque::new();
    for s in sources {
        if dist[s].is_none() {
            dist[s] = Some(0);
            queue.push_back(s);
        }
    }
    while let Some(n) = queue.pop_front() {
        let next = dist[n].map(|d| d + 1);
        for m in successors(n) {
            if dist[m].is_none() {
                dist[m] = next;
                queue.push_back(m);
            }
        }
    }
    dist
}

/// The cheapest cost from the sources to every node (`None` where no source reaches), by
/// Dijkstra's algorithm. Each source starts at its own cost (a detour's first leg, say); edges
/// `(m, cost)` from `successors(n)` must not be negative; every node must be below `node_count`.
///
/// ```
/// use search_core::ucs_distances;
/// // A line 0 - 1 - 2 - 3 with edge costs 5, 1, 1; sources 0 (starting at 0) and 3 (at 4).
/// let edges = |n: usize| {
///     let cost = [5u32, 1, 1];
///     let mut out = Vec::new();
///     if n > 0 { out.push((n - 1, cost[n - 1])) }
///     if n < 3 { out.push((n + 1, cost[n])) }
///     out
/// };
/// let d = ucs_distances(4, [(0, 0u32), (3, 4)], edges);
/// assert_eq!(d, vec![Some(0), Some(5), Some(5), Some(4)]);
/// ```
pub fn ucs_distances<C, S, FN, IN>(
    node_count: usize,
    sources: S,
    mut successors: FN,
) -> Vec<Option<C>>
where
    C: Cost,
    S: IntoIterator<Item = (usize, C)>,
    FN: FnMut(usize) -> IN,
    IN: IntoIterator<Item = (usize, C)>,
{
    let mut dist: Vec<Option<C>> = vec![None; node_count];
    let mut heap = BinaryHeap::new();
    for (s, c) in sources {
        if dist[s].is_none_or(|d| c < d) {
            dist[s] = Some(c);
            heap.push(Reverse((c, s)));
        }
    }
    while let Some(Reverse((d, n))) = heap.pop() {
        if dist[n] != Some(d) {
            continue; // a stale entry: `n` was reached more cheaply since
        }
        for (m, cost) in successors(n) {
            let via = d + cost;
            if dist[m].is_none_or(|old| via < old) {
                dist[m] = Some(via);
                heap.push(Reverse((via, m)));
            }
        }
    }
    dist
}
