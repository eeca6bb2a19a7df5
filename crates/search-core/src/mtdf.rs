//! MTD(f): the minimax value by a sequence of null-window alpha-beta probes.
//!
//! Each probe `(beta - 1, beta)` answers "is the value at least beta?" and narrows an interval
//! `[lower, upper]` around the true value, starting from a guess (usually the previous
//! iteration's value). It relies on a transposition table to avoid re-searching between probes,
//! so it runs on a [`Searcher`].

use crate::{Game, GameResult, Score, Searcher, INF};
use std::time::Instant;

/// Finds the exact value at `depth` with MTD(f) starting from `first_guess`.
///
/// The best move is the one that established the final lower bound. Returns `None` when the
/// searcher's deadline or node budget aborted a probe.
///
/// ```
/// use search_core::{mtdf, alphabeta, Game, Score, Searcher};
/// struct Nim(u32);
/// impl Game for Nim {
///     type Move = u32;
///     fn generate_moves(&self, m: &mut Vec<u32>) { m.extend((1..=3).filter(|&k| k <= self.0)); }
///     fn play(&mut self, k: u32) { self.0 -= k; }
///     fn undo(&mut self, k: u32) { self.0 += k; }
///     fn evaluate(&self) -> Score { self.0 as Score % 4 }
///     fn hash(&self) -> u64 { (self.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) }
/// }
/// let mut s = Searcher::new(1);
/// let r = mtdf(&mut Nim(13), &mut s, 6, 0).unwrap();
/// assert_eq!(r.score, alphabeta(&mut Nim(13), 6).score);
/// ```
pub fn mtdf<G: Game>(
    game: &mut G,
    searcher: &mut Searcher<G>,
    depth: u32,
    first_guess: Score,
) -> Option<GameResult<G::Move>> {
    let timer = Instant::now();
    let before = searcher.stats;
    let (mut lower, mut upper) = (-INF, INF);
    let mut g = first_guess;
    let mut best = None;
    let mut pv = Vec::new();
    while lower < upper {
        let beta = if g == lower { g + 1 } else { g };
        g = searcher.search_root(game, depth, beta - 1, beta);
        if searcher.aborted() {
            return None;
        }
        if g < beta {
            upper = g;
        } else {
            lower = g;
            best = searcher.best_move();
            pv = searcher.pv().to_vec();
        }
        if best.is_none() {
            best = searcher.best_move();
            pv = searcher.pv().to_vec();
        }
    }
    let mut stats = searcher.stats;
    stats.nodes -= before.nodes;
    stats.leaves -= before.leaves;
    stats.cutoffs -= before.cutoffs;
    stats.tt_cutoffs -= before.tt_cutoffs;
    stats.depth = depth;
    stats.elapsed = timer.elapsed();
    Some(GameResult {
        score: g,
        best,
        pv,
        stats,
    })
}
