//! MTD(f): the minimax value by a sequence of null-window alpha-beta probes.
//!
//! Each probe `(beta - 1, beta)` answers "is the value at least beta?" and narrows an interval
//! `[lower, upper]` around the true value, starting from a guess (usually the previous
//! iteration's value). It relies on a transposition table to avoid re-searching between probes,
//! so it runs on a [`Searcher`].

use crate::adversarial::negamax::Searcher;
use crate::game::{Game, GameResult, Score, INF};
use crate::tables::tt::Transpositions;
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
pub fn mtdf<G: Game, T: Transpositions<G::Move>>(
    game: &mut G,
    searcher: &mut Searcher<G, T>,
    depth: u32,
    first_guess: Score,
) -> Option<GameResult<G::Move>> {
    probes(game, searcher, depth, first_guess, Steps::Classic)
}

/// MTD(f) for a first guess that may be far off: while the probes keep failing the same way
/// the step from the bound doubles (1, 2, 4, ...), and once the value is bracketed the
/// interval is halved. The value is exact as with [`mtdf`]; a guess `d` away from the value
/// costs about `2 log2 d` probes instead of `d` (an Othello endgame guessed at 0 that ends
/// +64).
///
/// ```
/// use search_core::{mtdf_stepped, alphabeta, Game, Score, Searcher};
/// struct Count(i32); // a one-move game worth its number
/// impl Game for Count {
///     type Move = i32;
///     fn generate_moves(&self, m: &mut Vec<i32>) { if self.0 >= 0 { m.push(1) } }
///     fn play(&mut self, _: i32) { self.0 = -self.0 - 1000; }
///     fn undo(&mut self, _: i32) { self.0 = -(self.0 + 1000); }
///     fn outcome(&self) -> Option<Score> { (self.0 < 0).then(|| self.0 + 1000) }
///     fn evaluate(&self) -> Score { 0 }
///     fn hash(&self) -> u64 { self.0 as u64 }
/// }
/// let mut s = Searcher::new(1);
/// let r = mtdf_stepped(&mut Count(57), &mut s, 2, 0).unwrap();
/// assert_eq!(r.score, alphabeta(&mut Count(57), 2).score);
/// ```
pub fn mtdf_stepped<G: Game, T: Transpositions<G::Move>>(
    game: &mut G,
    searcher: &mut Searcher<G, T>,
    depth: u32,
    first_guess: Score,
) -> Option<GameResult<G::Move>> {
    probes(game, searcher, depth, first_guess, Steps::Doubling)
}

/// How the next probe is chosen.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Steps {
    /// At the last value returned (plain MTD(f)).
    Classic,
    /// Doubling steps away from the one bound known, bisection between two.
    Doubling,
}

fn probes<G: Game, T: Transpositions<G::Move>>(
    game: &mut G,
    searcher: &mut Searcher<G, T>,
    depth: u32,
    first_guess: Score,
    steps: Steps,
) -> Option<GameResult<G::Move>> {
    let timer = Instant::now();
    let before = searcher.stats;
    let (mut lower, mut upper) = (-INF, INF);
    let mut g = first_guess;
    let mut best = None;
    let mut pv = Vec::new();
    let mut step: Score = 1;
    while lower < upper {
        let beta = match steps {
            // After the first probe at least one bound is known.
            Steps::Doubling if lower > -INF || upper < INF => {
                let b = if lower > -INF && upper < INF {
                    lower + (upper - lower + 1) / 2
                } else if lower > -INF {
                    lower.saturating_add(step)
                } else {
                    upper.saturating_sub(step - 1)
                };
                step = step.saturating_mul(2);
                b.clamp(lower + 1, upper)
            }
            _ if g == lower => g + 1,
            _ => g,
        };
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
