//! Parallel search along the principal variation (young brothers wait): at each node of the
//! leftmost line with enough depth left, the first move is searched first (itself split the
//! same way, all threads following it), to set a bound, then the node's other moves are shared
//! out among threads, each with its own [`Searcher`] and its own copy of the game. A move is
//! tried with a null window at the best value found so far, by any thread, and searched again
//! with the full window only when it beats it, as in principal-variation search.
//!
//! With searchers of their own tables, a subtree one thread has explored does not help another;
//! handles of one [`SharedTable`](crate::SharedTable) share what each learns. Threads wait at
//! the end of each split node for its last move; [`shared_search_root`](crate::shared_search_root)
//! never waits.

use crate::adversarial::negamax::Searcher;
use crate::game::{Game, Score};
use crate::tables::tt::{Bound, Transpositions};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The result of [`parallel_search_root`] and [`shared_search_root`](crate::shared_search_root).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParallelRoot<M> {
    /// The fail-soft value within the window.
    pub score: Score,
    /// The best root move (`None` when the root has no move).
    pub best: Option<M>,
    /// A searcher's deadline, node budget or stop signal cut the search: discard the result.
    pub aborted: bool,
}

/// Searches the root to `depth` plies within `(alpha, beta)` on as many threads as there are
/// searchers, splitting the nodes of the leftmost line that have at least `split_depth` plies
/// left (below that one thread searches). `games` holds one copy of the root position per
/// searcher (they are played on and restored); each searcher keeps its own table, options,
/// limits and counters (add up their `stats` for the work done). With one searcher this is a
/// plain principal-variation search.
///
/// # Panics
/// When `games` and `searchers` differ in length or are empty.
///
/// ```
/// use search_core::{parallel_search_root, alphabeta, Game, Score, Searcher, INF};
/// #[derive(Clone)]
/// struct Nim(u32);
/// impl Game for Nim {
///     type Move = u32;
///     fn generate_moves(&self, m: &mut Vec<u32>) { m.extend((1..=3).filter(|&k| k <= self.0)); }
///     fn play(&mut self, k: u32) { self.0 -= k; }
///     fn undo(&mut self, k: u32) { self.0 += k; }
///     fn evaluate(&self) -> Score { self.0 as Score % 4 }
///     fn hash(&self) -> u64 { (self.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) }
/// }
/// let mut games = vec![Nim(14), Nim(14)];
/// let mut searchers: Vec<Searcher<Nim>> = (0..2).map(|_| Searcher::new(1)).collect();
/// let r = parallel_search_root(&mut games, &mut searchers, 6, -INF, INF, 3);
/// assert_eq!(r.score, alphabeta(&mut Nim(14), 6).score);
/// assert_eq!(r.best, Some(2)); // leave 12, a multiple of 4
/// ```
pub fn parallel_search_root<G, T>(
    games: &mut [G],
    searchers: &mut [Searcher<G, T>],
    depth: u32,
    alpha: Score,
    beta: Score,
    split_depth: u32,
) -> ParallelRoot<G::Move>
where
    G: Game + Send,
    G::Move: Send + Sync,
    T: Transpositions<G::Move> + Send,
{
    assert!(
        !games.is_empty() && games.len() == searchers.len(),
        "one game per searcher"
    );
    let Node::Split(moves) = node_kind(&games[0], depth > 0, None) else {
        // Nothing to share out: the plain search values leaves, passes and ends.
        let score = searchers[0].search_root(&mut games[0], depth, alpha, beta);
        return ParallelRoot {
            score,
            best: searchers[0].best_move(),
            aborted: searchers[0].aborted(),
        };
    };
    let key = games[0].hash();
    for s in searchers.iter_mut() {
        s.start_root(key, depth);
    }
    split(
        games,
        searchers,
        moves,
        depth,
        0,
        alpha,
        beta,
        split_depth.max(1),
    )
}

/// How a node of the leftmost line is searched.
enum Node<M> {
    /// Its moves are shared out (the first one split again).
    Split(Vec<M>),
    /// The game values it at once ([`Game::leaf_solve`]).
    Leaf(Score),
    /// One thread searches it: too shallow to split, finished, or without moves.
    Serial,
}

/// What to do with `game`'s position, where splitting is `worth` it by depth; below the root
/// (`window` given, as the search does) the game may value it at once.
fn node_kind<G: Game>(game: &G, worth: bool, window: Option<(Score, Score)>) -> Node<G::Move> {
    if !worth || game.outcome().is_some() {
        return Node::Serial;
    }
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    if moves.is_empty() {
        return Node::Serial;
    }
    match window.and_then(|(alpha, beta)| game.leaf_solve(alpha, beta)) {
        Some(v) => Node::Leaf(v),
        None => Node::Split(moves),
    }
}

/// A node of the leftmost line, `ply` plies below the root, with its `moves`: the first one
/// searched by [`split`] again (every game follows it), the others shared out.
#[allow(clippy::too_many_arguments)]
fn split<G, T>(
    games: &mut [G],
    searchers: &mut [Searcher<G, T>],
    mut moves: Vec<G::Move>,
    depth: u32,
    ply: usize,
    alpha: Score,
    beta: Score,
    split_depth: u32,
) -> ParallelRoot<G::Move>
where
    G: Game + Send,
    G::Move: Send + Sync,
    T: Transpositions<G::Move> + Send,
{
    // The first searcher's table move first, then the game's order.
    let key = games[0].hash();
    let hash_move = searchers[0]
        .tt
        .probe(key, ply as u32)
        .and_then(|e| e.mv)
        .and_then(|h| moves.iter().position(|&m| m == h));
    match hash_move {
        Some(i) => {
            moves[..=i].rotate_right(1);
            games[0].order_moves(&mut moves[1..]);
        }
        None => games[0].order_moves(&mut moves),
    }
    // The eldest brother first, with the full window: split again while deep enough.
    let first = moves[0];
    for g in games.iter_mut() {
        g.play(first);
    }
    let (score, aborted) = match node_kind(&games[0], depth > split_depth, Some((-beta, -alpha))) {
        Node::Split(child_moves) => {
            let r = split(
                games,
                searchers,
                child_moves,
                depth - 1,
                ply + 1,
                -beta,
                -alpha,
                split_depth,
            );
            (-r.score, r.aborted)
        }
        Node::Leaf(v) => (-v, false),
        Node::Serial => {
            let v =
                searchers[0].search_below_root(&mut games[0], depth - 1, ply + 1, -beta, -alpha);
            (-v, searchers[0].aborted())
        }
    };
    let v = ParallelRoot {
        score,
        best: Some(first),
        aborted,
    };
    for g in games.iter_mut() {
        g.undo(first);
    }
    if v.aborted || v.score >= beta || moves.len() == 1 {
        return v;
    }
    // The others, shared out: (best value, best move, alpha) under one lock.
    let shared = Mutex::new((v.score, first, alpha.max(v.score)));
    let next = AtomicUsize::new(1);
    let cut = AtomicBool::new(false);
    let aborted = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for (game, searcher) in games.iter_mut().zip(searchers.iter_mut()) {
            let (moves, shared, next, cut, aborted) = (&moves, &shared, &next, &cut, &aborted);
            scope.spawn(move || loop {
                if cut.load(Ordering::Relaxed) || aborted.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&mv) = moves.get(i) else { break };
                let a = shared.lock().expect("no thread panics holding it").2;
                game.play(mv);
                let below = |s: &mut Searcher<G, T>, g: &mut G, lo: Score, hi: Score| {
                    -s.search_below_root(g, depth - 1, ply + 1, -hi, -lo)
                };
                let mut v = below(searcher, game, a, a + 1);
                if v > a && v < beta && !searcher.aborted() {
                    // It beats the bound it was tried at: its value, from the current bound.
                    let a = shared.lock().expect("no thread panics holding it").2;
                    if a < beta {
                        v = below(searcher, game, a, beta);
                    }
                }
                game.undo(mv);
                if searcher.aborted() {
                    aborted.store(true, Ordering::Relaxed);
                    break;
                }
                let mut best = shared.lock().expect("no thread panics holding it");
                if v > best.0 {
                    best.0 = v;
                    best.1 = mv;
                }
                if v > best.2 {
                    best.2 = v;
                    if v >= beta {
                        cut.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let (score, best, _) = shared.into_inner().expect("no thread panicked");
    let aborted = aborted.into_inner();
    if !aborted {
        // Remembered for the next window's order.
        let bound = Bound::of(score, alpha, beta);
        searchers[0]
            .tt
            .store(key, depth as i16, ply as u32, score, bound, Some(best));
    }
    ParallelRoot {
        score,
        best: Some(best),
        aborted,
    }
}
