//! Distance fields: the cost from the nearest of several sources to every node of a graph whose
//! nodes are numbered `0..node_count` (a grid's cells, say), by breadth-first search when every
//! edge costs one and by Dijkstra's algorithm otherwise.

use crate::cost::Cost;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// The number of edges from the nearest of `sources` to every node, counted in `C` (`C::MAX`
/// where no source reaches), by breadth-first search. `successors(n, out)` appends the nodes
/// one edge away from `n` to `out` (which the search has emptied); every node must be below
/// `node_count`.
///
/// ```
/// use search_core::bfs_distances;
/// // A 3x3 grid, cells numbered row by row, with a wall on the centre cell (4).
/// let neighbours = |c: usize, out: &mut Vec<usize>| {
///     let (r, col) = (c / 3, c % 3);
///     if r > 0 { out.push(c - 3) }
///     if r < 2 { out.push(c + 3) }
///     if col > 0 { out.push(c - 1) }
///     if col < 2 { out.push(c + 1) }
///     out.retain(|&n| n != 4);
/// };
/// let d: Vec<u32> = bfs_distances(9, [0], neighbours);
/// assert_eq!(d[8], 4); // around the wall
/// assert_eq!(d[4], u32::MAX); // the wall itself is never entered
/// // Several sources: the distance to the nearest.
/// assert_eq!(bfs_distances::<u32, _, _>(9, [0, 8], neighbours)[2], 2);
/// ```
///
/// Heuristics precompute them once per map, searching backwards from the goal: the walking
/// distance to a station from every cell is one breadth-first search out of the station. Unlike
/// [`bfs`](crate::bfs) and [`ucs`](crate::ucs) there is no goal and no path: the whole reachable
/// graph is visited, and a plain vector indexed by node replaces the hash map of visited states.
/// Successors are written into a buffer the search reuses (as [`Game::generate_moves`] does)
/// rather than returned as an iterator: on a 1000x1000 grid (criterion
/// `heuristic_tables_1000x1000` in astar-map) an iterator of neighbours made the breadth-first
/// search 2.2 times as slow as the loop astar-map had written for itself, the buffer 1.25 times.
///
/// [`Game::generate_moves`]: crate::Game::generate_moves
pub fn bfs_distances<C, S, FN>(node_count: usize, sources: S, mut successors: FN) -> Vec<C>
where
    C: Cost,
    S: IntoIterator<Item = usize>,
    FN: FnMut(usize, &mut Vec<usize>),
{
    let mut dist = vec![C::MAX; node_count];
    let mut queue = VecDeque::new();
    for s in sources {
        if dist[s] == C::MAX {
            dist[s] = C::ZERO;
            queue.push_back(s);
        }
    }
    let mut next_nodes = Vec::new();
    while let Some(n) = queue.pop_front() {
        let next = dist[n] + C::ONE;
        next_nodes.clear();
        successors(n, &mut next_nodes);
        for &m in &next_nodes {
            if dist[m] == C::MAX {
                dist[m] = next;
                queue.push_back(m);
            }
        }
    }
    dist
}

/// The cheapest cost from the sources to every node (`C::MAX` where no source reaches), by
/// Dijkstra's algorithm. Each source starts at its own cost (a detour's first leg, say).
/// `successors(n, out)` appends the edges `(m, cost)` out of `n` to `out` (which the search has
/// emptied); costs must not be negative, no path may cost `C::MAX` or more, and every node must
/// be below `node_count`.
///
/// ```
/// use search_core::ucs_distances;
/// // A line 0 - 1 - 2 - 3 with edge costs 5, 1, 1; sources 0 (starting at 0) and 3 (at 4).
/// let edges = |n: usize, out: &mut Vec<(usize, u32)>| {
///     let cost = [5, 1, 1];
///     if n > 0 && n < 4 { out.push((n - 1, cost[n - 1])) }
///     if n < 3 { out.push((n + 1, cost[n])) }
/// };
/// assert_eq!(ucs_distances(4, [(0, 0u32), (3, 4)], edges), vec![0, 5, 5, 4]);
/// // Node 4 has no edges: nothing reaches it.
/// assert_eq!(ucs_distances(5, [(0, 0u32)], edges)[4], u32::MAX);
/// ```
pub fn ucs_distances<C, S, FN>(node_count: usize, sources: S, mut successors: FN) -> Vec<C>
where
    C: Cost,
    S: IntoIterator<Item = (usize, C)>,
    FN: FnMut(usize, &mut Vec<(usize, C)>),
{
    let mut dist = vec![C::MAX; node_count];
    let mut heap = BinaryHeap::new();
    for (s, c) in sources {
        if c < dist[s] {
            dist[s] = c;
            heap.push(Reverse((c, s)));
        }
    }
    let mut edges = Vec::new();
    while let Some(Reverse((d, n))) = heap.pop() {
        if d > dist[n] {
            continue; // a stale entry: `n` was reached more cheaply since
        }
        edges.clear();
        successors(n, &mut edges);
        for &(m, cost) in &edges {
            let via = d + cost;
            if via < dist[m] {
                dist[m] = via;
                heap.push(Reverse((via, m)));
            }
        }
    }
    dist
}
