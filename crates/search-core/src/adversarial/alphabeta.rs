//! Alpha-beta pruning (fail-soft, negamax form), without a transposition table.
//!
//! Returns exactly the minimax value while skipping subtrees that cannot change the decision.
//! Fail-soft means a node returns its best value found even when it lies outside the window,
//! which gives tighter bounds to callers such as MTD(f). Move order is the game's own
//! ([`Game::order_moves`]); the full-featured search with a table, killers and history is
//! [`negamax`](crate::negamax()).

use crate::deadline::Budget;
use crate::game::{open_node, NodeStart, PlyStack};
use crate::game::{Game, GameResult, Score, INF};
use crate::stats::GameStats;
use std::time::Instant;

/// Searches `depth` plies with alpha-beta pruning over the full window.
///
/// ```
/// use search_core::{alphabeta, minimax, Game, Score};
/// struct Nim(u32);
/// impl Game for Nim {
///     type Move = u32;
///     fn generate_moves(&self, m: &mut Vec<u32>) { m.extend((1..=3).filter(|&k| k <= self.0)); }
///     fn play(&mut self, k: u32) { self.0 -= k; }
///     fn undo(&mut self, k: u32) { self.0 += k; }
///     fn evaluate(&self) -> Score { 0 }
///     fn hash(&self) -> u64 { self.0 as u64 }
/// }
/// let ab = alphabeta(&mut Nim(9), 12);
/// let mm = minimax(&mut Nim(9), 12);
/// assert_eq!(ab.score, mm.score);
/// assert!(ab.stats.leaves < mm.stats.leaves);
/// ```
pub fn alphabeta<G: Game>(game: &mut G, depth: u32) -> GameResult<G::Move> {
    alphabeta_window(game, depth, -INF, INF)
}

/// Alpha-beta with an explicit `(alpha, beta)` window; the score is a lower bound when it is
/// `>= beta` and an upper bound when it is `<= alpha`.
pub fn alphabeta_window<G: Game>(
    game: &mut G,
    depth: u32,
    alpha: Score,
    beta: Score,
) -> GameResult<G::Move> {
    let timer = Instant::now();
    let mut s = AlphaBetaSearch::new();
    let score = s.value(game, depth, alpha, beta);
    GameResult::of_plain_search(score, &mut s.stack, s.stats, depth, timer)
}

/// [`alphabeta`] within `budget`: `None` when the budget ran out before the search was done.
///
/// ```
/// use search_core::{alphabeta_within, Budget, Game, Score};
/// struct Wide(u32);
/// impl Game for Wide {
///     type Move = u32;
///     fn generate_moves(&self, m: &mut Vec<u32>) { m.extend(0..30); }
///     fn play(&mut self, k: u32) { self.0 = self.0.wrapping_mul(31).wrapping_add(k + 1); }
///     fn undo(&mut self, k: u32) { self.0 = (self.0.wrapping_sub(k + 1)).wrapping_mul(0xdef7bdef); }
///     fn evaluate(&self) -> Score { (self.0 % 7) as Score }
///     fn hash(&self) -> u64 { self.0 as u64 }
/// }
/// let budget = Budget::new(search_core::Deadline::none(), Some(100));
/// assert!(alphabeta_within(&mut Wide(0), 8, &budget).is_none());
/// assert!(alphabeta_within(&mut Wide(0), 1, &budget).is_some());
/// ```
pub fn alphabeta_within<G: Game>(
    game: &mut G,
    depth: u32,
    budget: &Budget,
) -> Option<GameResult<G::Move>> {
    let timer = Instant::now();
    let mut s = AlphaBetaSearch::new();
    s.budget = Some(budget.clone());
    let score = s.value(game, depth, -INF, INF);
    (!s.aborted).then(|| GameResult::of_plain_search(score, &mut s.stack, s.stats, depth, timer))
}

/// A reusable plain alpha-beta search: its per-ply buffers survive from one search to the
/// next, so that many small searches (a shallow search under every move to order them)
/// allocate nothing and read no clock.
///
/// ```
/// use search_core::{alphabeta, AlphaBetaSearch, Game, Score, INF};
/// struct Nim(u32);
/// impl Game for Nim {
///     type Move = u32;
///     fn generate_moves(&self, m: &mut Vec<u32>) { m.extend((1..=3).filter(|&k| k <= self.0)); }
///     fn play(&mut self, k: u32) { self.0 -= k; }
///     fn undo(&mut self, k: u32) { self.0 += k; }
///     fn evaluate(&self) -> Score { (self.0 % 4) as Score }
///     fn hash(&self) -> u64 { self.0 as u64 }
/// }
/// let mut search = AlphaBetaSearch::new();
/// for n in 5..12 {
///     assert_eq!(search.value(&mut Nim(n), 3, -INF, INF), alphabeta(&mut Nim(n), 3).score);
/// }
/// assert!(search.stats().nodes > 0);
/// ```
pub struct AlphaBetaSearch<M> {
    stack: PlyStack<M>,
    stats: GameStats,
    /// What stops the search early ([`alphabeta_within`]); `None` for a plain search.
    budget: Option<Budget>,
    aborted: bool,
}

impl<M: Copy + PartialEq + std::fmt::Debug> Default for AlphaBetaSearch<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy + PartialEq + std::fmt::Debug> AlphaBetaSearch<M> {
    /// A search with no buffers yet.
    pub fn new() -> Self {
        AlphaBetaSearch {
            stack: PlyStack::new(),
            stats: GameStats::default(),
            budget: None,
            aborted: false,
        }
    }

    /// The fail-soft value of `game` searched `depth` plies within `(alpha, beta)`.
    pub fn value<G: Game<Move = M>>(
        &mut self,
        game: &mut G,
        depth: u32,
        alpha: Score,
        beta: Score,
    ) -> Score {
        self.search(game, depth, 0, alpha, beta)
    }

    /// Counters of every search so far.
    pub fn stats(&self) -> &GameStats {
        &self.stats
    }

    fn search<G: Game<Move = M>>(
        &mut self,
        game: &mut G,
        depth: u32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        if let Some(b) = &self.budget {
            if self.aborted || b.exhausted(self.stats.nodes) {
                self.aborted = true;
                return 0;
            }
        }
        let moves = match open_node(game, &mut self.stack, &mut self.stats, depth, ply) {
            NodeStart::Leaf(v) => return v,
            NodeStart::Moves(m) => m,
        };
        let mut best = -INF;
        let mut best_mv = moves[0];
        for &mv in &moves {
            game.play(mv);
            let v = -self.search(game, depth - 1, ply + 1, -beta, -alpha);
            game.undo(mv);
            if v > best {
                best = v;
                best_mv = mv;
                if v > alpha {
                    alpha = v;
                    self.stack.update_pv(ply, mv);
                    if v >= beta {
                        self.stats.cutoffs += 1;
                        break;
                    }
                }
            }
        }
        if ply == 0 && self.stack.pv[0].is_empty() {
            // Every move failed low: report the best of them as the move anyway.
            self.stack.pv[0].push(best_mv);
        }
        self.stack.moves[ply] = moves;
        best
    }
}
