//! Iterative deepening with a deadline: search depth 1, 2, 3, ... and keep the answer of the
//! last iteration that completed.
//!
//! Each iteration seeds the next through the transposition table (its best move is tried
//! first), so the sum of all iterations costs little more than the last one, and the search can
//! be stopped at any time with a sound move. An iteration cut by the deadline is discarded. The
//! driver stops early when a decided score (a forced win or loss) is proven within the depth
//! searched, since deeper iterations cannot change it. Each iteration can run plain alpha-beta
//! over the full window (or an aspiration window around the previous value, widened when the
//! value falls outside) or MTD(f) seeded with the previous value. A soft deadline stops the
//! driver from starting an iteration it probably cannot finish (time management), the hard
//! one aborts the running iteration.

use crate::adversarial::aspiration::aspiration_search;
use crate::adversarial::mtdf::mtdf;
use crate::adversarial::negamax::Searcher;
use crate::deadline::Deadline;
use crate::game::{mate_distance, Game, GameResult, Score, INF};
use crate::tables::tt::Transpositions;
use std::time::Instant;

/// How each iteration searches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum IterationKind {
    /// Full-window negamax alpha-beta.
    #[default]
    AlphaBeta,
    /// MTD(f) seeded with the previous iteration's value.
    Mtdf,
}

/// Budgets and options of [`iterative_deepening`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IterativeOptions {
    /// Deepest iteration to run.
    pub max_depth: u32,
    /// Stop (and discard the running iteration) when this passes.
    pub deadline: Deadline,
    /// Optional node budget over all iterations.
    pub node_limit: Option<u64>,
    /// Search method of each iteration.
    pub kind: IterationKind,
    /// No iteration starts after this passes (the running one goes on until `deadline`).
    pub soft_deadline: Deadline,
    /// Half-width of the aspiration window around the previous iteration's value, from depth 4
    /// on (`None`: full window). A value outside the window is searched again with that side
    /// widened fourfold, then opened.
    pub aspiration: Option<Score>,
    /// Time management by the best move's stability: the [soft
    /// deadline](Self::soft_deadline)'s budget is scaled by [`stability_scale`] of how often
    /// the best move changed in the last iterations, so a move that keeps changing gets up to
    /// twice the time and one that stays the same a little over half.
    pub stability_time: bool,
}

impl Default for IterativeOptions {
    fn default() -> Self {
        IterativeOptions {
            max_depth: 64,
            deadline: Deadline::none(),
            node_limit: None,
            kind: IterationKind::AlphaBeta,
            soft_deadline: Deadline::none(),
            aspiration: None,
            stability_time: false,
        }
    }
}

/// The share of the soft budget [`IterativeOptions::stability_time`] allows, given the best
/// move's `changes`: each iteration halves the count and adds 1 when its best move differs from
/// the one before. A best move that has not changed lately gets 0.6 of the budget, one that
/// just changed 1.4, one that keeps changing up to 2.
///
/// ```
/// use search_core::stability_scale;
/// assert_eq!(stability_scale(0.0), 0.6);
/// assert!((stability_scale(1.0) - 1.4).abs() < 1e-9);
/// assert_eq!(stability_scale(2.0), 2.0);
/// ```
pub fn stability_scale(changes: f64) -> f64 {
    (0.6 + 0.8 * changes).min(2.0)
}

/// Runs iterative deepening and returns the last completed iteration's result. `on_iteration`
/// is called after each completed iteration (for UCI `info` lines or progress reports).
///
/// ```
/// use search_core::{iterative_deepening, Game, IterativeOptions, Score, Searcher, Deadline};
/// struct Nim(u32);
/// impl Game for Nim {
///     type Move = u32;
///     fn generate_moves(&self, m: &mut Vec<u32>) { m.extend((1..=3).filter(|&k| k <= self.0)); }
///     fn play(&mut self, k: u32) { self.0 -= k; }
///     fn undo(&mut self, k: u32) { self.0 += k; }
///     fn evaluate(&self) -> Score { 0 }
///     fn hash(&self) -> u64 { (self.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) }
/// }
/// let mut s = Searcher::new(1);
/// let opts = IterativeOptions { deadline: Deadline::after(std::time::Duration::from_secs(5)), ..Default::default() };
/// let r = iterative_deepening(&mut Nim(21), &mut s, &opts, |_| {});
/// assert_eq!(r.best, Some(1)); // leave 20, a multiple of 4: a forced win
/// assert!(search_core::mate_distance(r.score).is_some());
/// ```
pub fn iterative_deepening<G: Game, T: Transpositions<G::Move>>(
    game: &mut G,
    searcher: &mut Searcher<G, T>,
    options: &IterativeOptions,
    mut on_iteration: impl FnMut(&GameResult<G::Move>),
) -> GameResult<G::Move> {
    let timer = Instant::now();
    searcher.set_deadline(options.deadline);
    searcher.set_node_limit(options.node_limit);
    searcher.reset_stats();
    let mut last: Option<GameResult<G::Move>> = None;
    let mut guess: Score = 0;
    // The soft deadline's budget, counted from here, and the decayed count of best-move
    // changes, when time management by stability is on.
    let soft_budget = options
        .soft_deadline
        .instant()
        .filter(|_| options.stability_time)
        .map(|at| at.saturating_duration_since(timer));
    let mut changes = 0.0;
    for depth in 1..=options.max_depth.max(1) {
        let result = match options.kind {
            IterationKind::AlphaBeta => {
                let window = options
                    .aspiration
                    .filter(|_| depth >= 4 && last.is_some() && mate_distance(guess).is_none());
                let score = match window {
                    Some(delta) => aspiration_search(game, searcher, depth, guess, delta),
                    None => searcher.search_root(game, depth, -INF, INF),
                };
                (!searcher.aborted()).then(|| GameResult {
                    score,
                    best: searcher.best_move(),
                    pv: searcher.pv().to_vec(),
                    stats: searcher.stats,
                })
            }
            IterationKind::Mtdf => mtdf(game, searcher, depth, guess),
        };
        let Some(mut r) = result else { break };
        guess = r.score;
        r.stats = searcher.stats;
        r.stats.depth = depth;
        r.stats.elapsed = timer.elapsed();
        on_iteration(&r);
        let decided = mate_distance(r.score).is_some_and(|d| d <= depth);
        let no_move = r.best.is_none();
        let changed = last.as_ref().is_some_and(|l| l.best != r.best);
        changes = changes / 2.0 + f64::from(u8::from(changed));
        last = Some(r);
        let soft_expired = match soft_budget {
            Some(budget) => timer.elapsed() >= budget.mul_f64(stability_scale(changes)),
            None => options.soft_deadline.expired(),
        };
        if decided || no_move || options.deadline.expired() || soft_expired {
            break;
        }
    }
    searcher.set_deadline(Deadline::none());
    let mut r = last.unwrap_or_else(|| {
        // Not even depth 1 finished in time: fall back to the first legal move.
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        game.order_moves(&mut moves);
        GameResult {
            score: 0,
            best: moves.first().copied(),
            pv: moves.first().copied().into_iter().collect(),
            stats: searcher.stats,
        }
    });
    r.stats.nodes = searcher.stats.nodes;
    r.stats.elapsed = timer.elapsed();
    r
}
