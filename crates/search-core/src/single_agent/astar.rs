//! A* search: best-first on f = g + h with an admissible heuristic.

use crate::cost::Cost;
use crate::deadline::Limits;
use crate::outcome::SearchOutcome;
use crate::outcome::{reconstruct, NO_PARENT};
use crate::stats::SearchStats;
use crate::tables::hash::FastHasher;
use hashbrown::hash_table::{Entry, HashTable};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::hash::{Hash, Hasher};
use std::time::Instant;

/// How A* orders states of equal f on its open list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub enum TieBreak {
    /// Larger g first (deepest first); the `pathfinding` crate's order. Default.
    #[default]
    LargerG,
    /// Smaller g first (shallowest first).
    SmallerG,
    /// First pushed, first popped.
    Fifo,
    /// Last pushed, first popped.
    Lifo,
}

/// Options for [`astar_with`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AstarOptions {
    /// Tie-breaking among equal f.
    pub tie_break: TieBreak,
    /// Node and time budgets.
    pub limits: Limits,
}

/// Tie-break modes as const generic parameters, so the heap comparison has no runtime branch.
const LARGER_G: u8 = 0;
const SMALLER_G: u8 = 1;
const FIFO: u8 = 2;
const LIFO: u8 = 3;

/// An open-list entry: 16 bytes for 32-bit costs.
struct OpenEntry<C, const MODE: u8> {
    f: C,
    g: C,
    /// Push sequence number, for FIFO/LIFO tie-breaking.
    seq: u32,
    index: u32,
}

impl<C: Ord, const MODE: u8> PartialEq for OpenEntry<C, MODE> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl<C: Ord, const MODE: u8> Eq for OpenEntry<C, MODE> {}
impl<C: Ord, const MODE: u8> PartialOrd for OpenEntry<C, MODE> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<C: Ord, const MODE: u8> Ord for OpenEntry<C, MODE> {
    /// `BinaryHeap` pops the greatest entry, so "greater" means "pop first".
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        other.f.cmp(&self.f).then_with(|| match MODE {
            LARGER_G => self.g.cmp(&other.g),
            SMALLER_G => other.g.cmp(&self.g),
            FIFO => other.seq.cmp(&self.seq),
            _ => self.seq.cmp(&other.seq),
        })
    }
}

/// 32 bits of a state's hash: what the index table keeps to find and regrow itself.
#[inline]
fn short_hash<N: Hash>(state: &N) -> u32 {
    let mut h = FastHasher::default();
    state.hash(&mut h);
    (h.finish() >> 32) as u32
}

/// A table hash from 32 stored bits (spread over 64 so that both the bucket, from the low
/// bits, and the tag, from the high bits, vary).
#[inline]
fn spread(hash: u32) -> u64 {
    u64::from(hash).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// An arena node: the state, its parent's index and the best known cost to reach it.
struct Node<N, C> {
    state: N,
    parent: u32,
    g: C,
}

/// Finds a cheapest path from `start` to a state satisfying `success`.
///
/// Returns the path (start and goal included) and its cost in
/// [`SearchOutcome::solution`]. The heuristic must be admissible (never overestimate) for the
/// cost to be optimal; with a consistent heuristic every state is expanded at most once.
///
/// ```
/// use search_core::astar;
/// // Walk on the integer line from 1 to 17 with steps +1, +3 or *2 (cost 1 each).
/// let out = astar(
///     &1u32,
///     |&n| [(n + 1, 1u32), (n + 3, 1), (n * 2, 1)],
///     |&n| if n >= 17 { 0 } else { 1 },
///     |&n| n == 17,
/// );
/// let (path, cost) = out.solution.unwrap();
/// assert_eq!(cost, 4); // e.g. 1 -> 2 -> 4 -> 8 -> 16 -> 17 is 5; 1 -> 4 -> 8 -> 16 -> 17 is 4
/// assert_eq!(path.first(), Some(&1));
/// assert_eq!(path.last(), Some(&17));
/// ```
///
/// Generic over closures in the style of the `pathfinding` crate: `successors` yields
/// `(state, edge cost)` pairs, `heuristic` estimates the remaining cost and `success` tests
/// for the goal. The goal test happens when a state is popped, so the returned cost is optimal
/// for any admissible heuristic. States are stored once, in an arena; a hash table of arena
/// indices (8 bytes a state) finds them, and the open list is a binary heap of `(f, g, index)`
/// with stale entries skipped on pop (no decrease-key). Memory is proportional to the states
/// actually generated.
///
/// Ties on f are broken by [`TieBreak`]; the default prefers the larger g (the deeper state),
/// which on open grids walks straight to the goal instead of widening a whole band of equal f.
/// An optional `prune` hook lets the caller drop a popped state that it knows to be dominated
/// (for example, the same cell reached earlier with more food).
pub fn astar<N, C, FN, IN, FH, FS>(
    start: &N,
    successors: FN,
    heuristic: FH,
    success: FS,
) -> SearchOutcome<N, C>
where
    N: Eq + Hash + Clone,
    C: Cost,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FS: FnMut(&N) -> bool,
{
    astar_with(
        start,
        successors,
        heuristic,
        success,
        |_, _| false,
        &AstarOptions::default(),
    )
}

/// [`astar`] with a pruning hook, tie-breaking choice and budgets.
///
/// `prune(state, g)` is called for every state popped from the open list that is not a goal;
/// returning `true` drops it without expanding it. Pruning must only drop states that cannot
/// lead to a strictly cheaper goal than some state already expanded, or optimality is lost.
///
/// ```
/// use search_core::{astar_with, AstarOptions, Limits, TieBreak};
/// let opts = AstarOptions { tie_break: TieBreak::Fifo, limits: Limits::nodes(10) };
/// // A budget of 10 expansions is too small to walk 100 steps: the search says it stopped.
/// let out = astar_with(&0u32, |&n| [(n + 1, 1u32)], |_| 0, |&n| n == 100, |_, _| false, &opts);
/// assert!(out.solution.is_none());
/// assert!(out.stopped.is_some());
/// ```
pub fn astar_with<N, C, FN, IN, FH, FS, FP>(
    start: &N,
    successors: FN,
    heuristic: FH,
    success: FS,
    prune: FP,
    options: &AstarOptions,
) -> SearchOutcome<N, C>
where
    N: Eq + Hash + Clone,
    C: Cost,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FS: FnMut(&N) -> bool,
    FP: FnMut(&N, C) -> bool,
{
    match options.tie_break {
        TieBreak::LargerG => run::<LARGER_G, _, _, _, _, _, _, _>(
            start, successors, heuristic, success, prune, options,
        ),
        TieBreak::SmallerG => run::<SMALLER_G, _, _, _, _, _, _, _>(
            start, successors, heuristic, success, prune, options,
        ),
        TieBreak::Fifo => {
            run::<FIFO, _, _, _, _, _, _, _>(start, successors, heuristic, success, prune, options)
        }
        TieBreak::Lifo => {
            run::<LIFO, _, _, _, _, _, _, _>(start, successors, heuristic, success, prune, options)
        }
    }
}

fn run<const MODE: u8, N, C, FN, IN, FH, FS, FP>(
    start: &N,
    mut successors: FN,
    mut heuristic: FH,
    mut success: FS,
    mut prune: FP,
    options: &AstarOptions,
) -> SearchOutcome<N, C>
where
    N: Eq + Hash + Clone,
    C: Cost,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FS: FnMut(&N) -> bool,
    FP: FnMut(&N, C) -> bool,
{
    let timer = Instant::now();
    let mut stats = SearchStats::default();
    // Arena of nodes; the table finds a state's index. States live only in the arena: the
    // table holds (index, 32 hash bits), 8 bytes a state, so the lookups of a large search stay
    // in cache and growing the table never rehashes a state.
    let mut nodes: Vec<Node<N, C>> = vec![Node {
        state: start.clone(),
        parent: NO_PARENT,
        g: C::ZERO,
    }];
    let mut index: HashTable<(u32, u32)> = HashTable::new();
    let start_hash = short_hash(start);
    index.insert_unique(spread(start_hash), (0, start_hash), |&(_, h)| spread(h));
    let mut open: BinaryHeap<OpenEntry<C, MODE>> = BinaryHeap::new();
    let mut seq = 0u32;
    open.push(OpenEntry {
        f: heuristic(start),
        g: C::ZERO,
        seq,
        index: 0,
    });
    let mut stopped = None;
    while let Some(OpenEntry { g, index: i, .. }) = open.pop() {
        let i = i as usize;
        if g > nodes[i].g {
            continue; // stale entry: a cheaper route to this state was found after the push
        }
        if let Some(stop) = options.limits.check(stats.expanded) {
            stopped = Some(stop);
            break;
        }
        let node = nodes[i].state.clone();
        if success(&node) {
            stats.expanded += 1;
            let path = reconstruct(i, |k| (&nodes[k].state, nodes[k].parent as usize));
            return SearchOutcome::timed(Some((path, g)), None, stats, timer);
        }
        if prune(&node, g) {
            continue;
        }
        stats.expanded += 1;
        for (next, step) in successors(&node) {
            stats.generated += 1;
            let ng = g + step;
            let hash = short_hash(&next);
            let found = index.entry(
                spread(hash),
                |&(j, h)| h == hash && nodes[j as usize].state == next,
                |&(_, h)| spread(h),
            );
            let j = match found {
                Entry::Vacant(v) => {
                    let j = nodes.len() as u32;
                    v.insert((j, hash));
                    nodes.push(Node {
                        state: next,
                        parent: i as u32,
                        g: ng,
                    });
                    j
                }
                Entry::Occupied(o) => {
                    let j = o.get().0;
                    let n = &mut nodes[j as usize];
                    if ng >= n.g {
                        continue;
                    }
                    n.g = ng;
                    n.parent = i as u32;
                    j
                }
            };
            seq = seq.wrapping_add(1);
            let f = ng + heuristic(&nodes[j as usize].state);
            open.push(OpenEntry {
                f,
                g: ng,
                seq,
                index: j,
            });
        }
        stats.max_frontier = stats.max_frontier.max(open.len());
    }
    SearchOutcome::timed(None, stopped, stats, timer)
}
