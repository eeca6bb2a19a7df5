//! Aspiration windows: search the root with a narrow window around a guessed value instead of
//! the full one, and widen only the side the value falls out of.
//!
//! A narrow window cuts far more than a wide one, so with a good guess (the previous
//! iteration's value, a midgame evaluation before an exact endgame solve) one search returns
//! the exact value for much less work; a poor guess costs a few re-searches, each window four
//! times wider on the failing side, then fully open.

use crate::adversarial::negamax::Searcher;
use crate::game::{Game, Score, INF, WIN_BOUND};
use crate::tables::tt::Transpositions;

/// The value of `game` searched to `depth` by `searcher`, first within `guess ± delta`, then
/// with the failing side widened fourfold until the value lies inside the window (a side
/// wider than [`WIN_BOUND`] is opened fully). The result is exact, as a full-window search's
/// would be, unless the searcher aborts (check [`Searcher::aborted`]); the searcher's
/// [`best_move`](Searcher::best_move) and [`pv`](Searcher::pv) are those of the last search.
///
/// ```
/// use search_core::{aspiration_search, alphabeta, Game, Score, Searcher};
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
/// // A guess 50 too low: the window's upper side widens 3, 12, 48, 192 until it holds 60.
/// let v = aspiration_search(&mut Count(60), &mut s, 2, 10, 3);
/// assert_eq!(v, alphabeta(&mut Count(60), 2).score);
/// assert_eq!(v, 60);
/// ```
pub fn aspiration_search<G: Game, T: Transpositions<G::Move>>(
    game: &mut G,
    searcher: &mut Searcher<G, T>,
    depth: u32,
    guess: Score,
    delta: Score,
) -> Score {
    let mut last = 0;
    let v = aspiration_windows(guess, delta, |alpha, beta| {
        last = searcher.search_root(game, depth, alpha, beta);
        (!searcher.aborted()).then_some(last)
    });
    v.unwrap_or(last)
}

/// The windows of [`aspiration_search`] around `guess`, each given to `search`, which returns
/// the fail-soft value within it (`None` to give up, which ends the loop with `None`); for
/// root searches other than [`Searcher::search_root`], such as
/// [`parallel_search_root`](crate::parallel_search_root).
///
/// ```
/// use search_core::aspiration_windows;
/// let mut windows = Vec::new();
/// // A value of 60 guessed at 10: the upper side widens until the window holds it.
/// let v = aspiration_windows(10, 3, |alpha, beta| {
///     windows.push((alpha, beta));
///     Some(60.clamp(alpha, beta)) // a fail-soft search could answer anything beyond the bound
/// });
/// assert_eq!(v, Some(60));
/// assert_eq!(windows, [(7, 13), (7, 22), (7, 58), (7, 202)]);
/// ```
pub fn aspiration_windows(
    guess: Score,
    delta: Score,
    mut search: impl FnMut(Score, Score) -> Option<Score>,
) -> Option<Score> {
    let (mut down, mut up) = (delta.max(1), delta.max(1));
    loop {
        let alpha = if down >= WIN_BOUND {
            -INF
        } else {
            guess - down
        };
        let beta = if up >= WIN_BOUND { INF } else { guess + up };
        let v = search(alpha, beta)?;
        if (v > alpha && v < beta) || (alpha == -INF && beta == INF) {
            return Some(v);
        }
        if v <= alpha {
            down = down.saturating_mul(4);
        } else {
            up = up.saturating_mul(4);
        }
    }
}
