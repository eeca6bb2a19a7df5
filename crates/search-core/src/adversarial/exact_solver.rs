//! Exact solving of games with small integer scores (after Pascal Pons' Connect Four solver):
//! a fail-hard negamax that narrows its window with the score range each position can still
//! reach, remembers one bound per position in a [`BoundTable`], and finds the exact score by a
//! sequence of null-window searches that bisect the score range.
//!
//! A null-window search only answers "is the score above `x`?", but answers it with far fewer
//! nodes than a full-window search; bisection needs a handful of them, and each one reuses the
//! bounds the earlier ones stored. The game supplies what it knows: positions decided without
//! search (no move avoids an immediate loss, the board about to fill), the score range left
//! (scores that reward quick wins shrink with every move), a key and the moves in order.

use crate::tables::bound_table::{BoundTable, ScoreBound};

/// A two-player zero-sum game with exact integer scores in `MIN_SCORE..=MAX_SCORE`, from the
/// side to move's point of view, as an [`ExactSolver`] sees it. Positions are small values,
/// copied to play a move.
pub trait ExactGame: Copy {
    /// A move.
    type Move: Copy;
    /// The moves worth searching at a position in a compact form (for example a bitmask),
    /// handed back to [`order`](ExactGame::order) once the table has not settled the position.
    type Candidates: Copy;
    /// The lowest score of any position.
    const MIN_SCORE: i32;
    /// The highest score of any position.
    const MAX_SCORE: i32;
    /// The moves worth searching, or `Err(score)` when the position's score is known without
    /// search. An empty set of candidates is not allowed: return the score instead.
    fn candidates(&self) -> Result<Self::Candidates, i32>;
    /// The lowest and highest scores this undecided position can still reach.
    fn score_range(&self) -> (i32, i32);
    /// A key identifying the position (see [`BoundTable`] for when keys cannot collide).
    fn key(&self) -> u64;
    /// Appends the candidates to `out` (which the solver has cleared), best first.
    fn order(&self, candidates: Self::Candidates, out: &mut Vec<Self::Move>);
    /// The position after `mv`.
    fn play(&self, mv: Self::Move) -> Self;
}

/// A reusable exact solver with a table of `SLOTS` bounds: the table and the per-ply move
/// lists survive between positions (so solving related positions one after another gets
/// cheaper).
///
/// Nim with one heap, taking 1 to 3 tokens, the last token winning (1 a win, -1 a loss):
///
/// ```
/// use search_core::{ExactGame, ExactSolver};
/// #[derive(Clone, Copy)]
/// struct Heap(u64);
/// impl ExactGame for Heap {
///     type Move = u64;
///     type Candidates = ();
///     const MIN_SCORE: i32 = -1;
///     const MAX_SCORE: i32 = 1;
///     fn candidates(&self) -> Result<(), i32> {
///         // Facing an empty heap: the opponent took the last token.
///         if self.0 == 0 { Err(-1) } else { Ok(()) }
///     }
///     fn score_range(&self) -> (i32, i32) { (-1, 1) }
///     fn key(&self) -> u64 { self.0 + 1 }
///     fn order(&self, _: (), out: &mut Vec<u64>) {
///         out.extend((1..=3).filter(|&t| t <= self.0));
///     }
///     fn play(&self, take: u64) -> Heap { Heap(self.0 - take) }
/// }
/// let mut solver = ExactSolver::<Heap, 1009>::new();
/// // Multiples of 4 are lost for the side to move, the others won.
/// assert_eq!(solver.solve(&Heap(40), -1, 1), -1);
/// assert_eq!(solver.solve(&Heap(41), -1, 1), 1);
/// assert!(solver.explored() > 0);
/// ```
pub struct ExactSolver<G: ExactGame, const SLOTS: usize> {
    table: BoundTable<SLOTS>,
    moves: Vec<Vec<G::Move>>,
    explored: u64,
}

impl<G: ExactGame, const SLOTS: usize> ExactSolver<G, SLOTS> {
    /// A solver with an empty table (a prime `SLOTS` keeps keys from colliding; see
    /// [`BoundTable`]).
    pub fn new() -> Self {
        ExactSolver {
            table: BoundTable::new(G::MIN_SCORE, G::MAX_SCORE),
            moves: Vec::new(),
            explored: 0,
        }
    }

    /// Positions explored (nodes) since the last [`reset_explored`](Self::reset_explored).
    pub fn explored(&self) -> u64 {
        self.explored
    }

    /// Zeroes the explored-positions counter.
    pub fn reset_explored(&mut self) {
        self.explored = 0;
    }

    /// Empties the table (its bounds stay true for as long as the game's rules do).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The exact score of `g`, known to lie in `min..=max`: null-window searches bisect the
    /// range, probing nearer zero first (where most scores lie). With a range narrower than
    /// the true one the answer is clamped to it: `(-1, 1)` gives only the score's sign.
    pub fn solve(&mut self, g: &G, min: i32, max: i32) -> i32 {
        let (lowest, highest) = (min, max);
        let (mut min, mut max) = (min, max);
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(g, med, med + 1, 0);
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        // A fail-high beyond the range (a decided position's score passes any window) leaves
        // `min` above `highest`; a fail-low below it leaves `min` at `lowest`.
        min.clamp(lowest, highest)
    }

    /// Fail-hard negamax within `(alpha, beta)`: a result `<= alpha` is an upper bound on the
    /// score, `>= beta` a lower bound, anything between exact.
    pub fn negamax(&mut self, g: &G, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.explored += 1;
        let candidates = match g.candidates() {
            Ok(c) => c,
            Err(score) => return score,
        };
        let (min, mut max) = g.score_range();
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let key = g.key();
        match self.table.get(key) {
            Some(ScoreBound::Lower(lower)) if alpha < lower => {
                alpha = lower;
                if alpha >= beta {
                    return alpha;
                }
            }
            Some(ScoreBound::Upper(upper)) => max = upper,
            _ => {}
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        if self.moves.len() <= ply {
            self.moves.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        g.order(candidates, &mut moves);
        for &mv in &moves {
            let score = -self.negamax(&g.play(mv), -beta, -alpha, ply + 1);
            if score >= beta {
                self.table.store(key, ScoreBound::Lower(score));
                self.moves[ply] = moves;
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        self.moves[ply] = moves;
        self.table.store(key, ScoreBound::Upper(alpha));
        alpha
    }
}

impl<G: ExactGame, const SLOTS: usize> Default for ExactSolver<G, SLOTS> {
    fn default() -> Self {
        Self::new()
    }
}
