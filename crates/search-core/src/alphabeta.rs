//! Alpha-beta pruning (fail-soft, negamax form), without a transposition table.
//!
//! Returns exactly the minimax value while skipping subtrees that cannot change the decision.
//! Fail-soft means a node returns its best value found even when it lies outside the window,
//! which gives tighter bounds to callers such as MTD(f). Move order is the game's own
//! ([`Game::order_moves`]); the full-featured search with a table, killers and history is
//! [`negamax`](crate::negamax()).

use crate::game::{open_node, NodeStart, PlyStack};
use crate::{Game, GameResult, GameStats, Score, INF};
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
    let mut s = AlphaBeta {
        stack: PlyStack::new(),
        stats: GameStats::default(),
    };
    let score = s.search(game, depth, 0, alpha, beta);
    s.stats.depth = depth;
    s.stats.elapsed = timer.elapsed();
    let pv = std::mem::take(&mut s.stack.pv[0]);
    GameResult {
        score,
        best: pv.first().copied(),
        pv,
        stats: s.stats,
    }
}

struct AlphaBeta<M> {
    stack: PlyStack<M>,
    stats: GameStats,
}

impl<M: Copy + PartialEq + std::fmt::Debug> AlphaBeta<M> {
    fn search<G: Game<Move = M>>(
        &mut self,
        game: &mut G,
        depth: u32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
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
