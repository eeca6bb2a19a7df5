//! The perfect 7x6 solver (after Pascal Pons' "Solving Connect 4", parts 1–12): the rules
//! [`search_core::ExactSolver`] needs, from the bitboard [`Position`]. Only moves that do not
//! hand the opponent an immediate win are searched, the score range shrinks with the number of
//! stones, moves are ordered by the threats they create (centre first on ties), and the
//! search itself (negamax narrowing its window with that range, a table of bounds, null-window
//! bisection for the exact score) is search-core's.

use super::position::{column_mask, Position, HEIGHT, MAX_SCORE, MIN_SCORE, WIDTH};
use super::sorter::MoveSorter;
use search_core::{ExactGame, ExactSolver};

const CELLS: i32 = (WIDTH * HEIGHT) as i32;

/// Table size: a prime near 2^23 (8 M slots, 40 MB). Keys have 49 bits, fewer than the
/// slots' 23 bits plus the 32 stored, so they never collide.
const TABLE_SLOTS: usize = 8_388_593;

/// Columns centre first: 3, 2, 4, 1, 5, 0, 6.
const CENTRE_FIRST: [usize; WIDTH] = {
    let mut order = [0; WIDTH];
    let mut i = 0;
    while i < WIDTH {
        order[i] = (WIDTH as i32 / 2 + (1 - 2 * (i as i32 % 2)) * (i as i32 + 1) / 2) as usize;
        i += 1;
    }
    order
};

/// The rules the exact solver needs, in Pons' scoring: a win with the player's `k`-th stone
/// scores `22 - k`, a loss the negative, a draw 0.
impl ExactGame for Position {
    type Move = u64;
    /// The moves that do not hand the opponent an immediate win, as a bitmask.
    type Candidates = u64;
    const MIN_SCORE: i32 = MIN_SCORE;
    const MAX_SCORE: i32 = MAX_SCORE;

    /// Lost when every move hands the opponent a win; a draw when the board is about to fill
    /// (the solver is never asked about a position with a win on the board or in one move).
    fn candidates(&self) -> Result<u64, i32> {
        let next = self.possible_non_losing_moves();
        let moves = self.moves() as i32;
        if next == 0 {
            return Err(-(CELLS - moves) / 2);
        }
        if moves >= CELLS - 2 {
            return Err(0);
        }
        Ok(next)
    }

    /// The opponent cannot win before its next stone, nor the player before its next-but-one.
    fn score_range(&self) -> (i32, i32) {
        let moves = self.moves() as i32;
        (-(CELLS - 2 - moves) / 2, (CELLS - 1 - moves) / 2)
    }

    fn key(&self) -> u64 {
        Position::key(self)
    }

    /// By the number of winning cells a move creates, centre first among equals.
    fn order(&self, next: u64, out: &mut Vec<u64>) {
        let mut sorter = MoveSorter::new();
        for &col in CENTRE_FIRST.iter().rev() {
            let mv = next & column_mask(col);
            if mv != 0 {
                sorter.add(mv, self.move_score(mv));
            }
        }
        while let Some(mv) = sorter.next() {
            out.push(mv);
        }
    }

    fn play(&self, mv: u64) -> Position {
        let mut child = *self;
        Position::play(&mut child, mv);
        child
    }
}

/// The score of winning with the next stone after `moves` stones (Pons' convention), or 1
/// with `weak`.
fn win_now(moves: i32, weak: bool) -> i32 {
    if weak {
        1
    } else {
        (CELLS + 1 - moves) / 2
    }
}

/// A solver; keeps its table between positions.
#[derive(Default)]
pub struct Solver {
    exact: ExactSolver<Position, TABLE_SLOTS>,
}

impl Solver {
    /// Positions explored since the last [`Solver::reset_counter`].
    pub fn explored(&self) -> u64 {
        self.exact.explored()
    }

    /// Zeroes the explored-positions counter.
    pub fn reset_counter(&mut self) {
        self.exact.reset_explored();
    }

    /// Empties the transposition table.
    pub fn reset(&mut self) {
        self.exact.clear();
    }

    /// The exact score of `p` for the player to move (Pons' convention), or only its sign with
    /// `weak`.
    ///
    /// ```
    /// use connect4::solver7x6::{Position, Solver};
    /// let mut s = Solver::default();
    /// assert_eq!(s.solve(&Position::parse("4455").unwrap(), false), 18);
    /// assert_eq!(s.solve(&Position::parse("44455554221").unwrap(), false), -15);
    /// ```
    pub fn solve(&mut self, p: &Position, weak: bool) -> i32 {
        let moves = p.moves() as i32;
        if p.can_win_next() {
            return win_now(moves, weak);
        }
        let (min, max) = if weak {
            (-1, 1)
        } else {
            (-(CELLS - moves) / 2, (CELLS + 1 - moves) / 2)
        };
        self.exact.solve(p, min, max)
    }

    /// The score of every column (None where the column is full), as Pons' `-a` option.
    pub fn analyze(&mut self, p: &Position, weak: bool) -> [Option<i32>; WIDTH] {
        let mut out = [None; WIDTH];
        for (col, slot) in out.iter_mut().enumerate() {
            if !p.can_play(col) {
                continue;
            }
            *slot = Some(if p.is_winning_move(col) {
                win_now(p.moves() as i32, weak)
            } else {
                let mut child = *p;
                child.play_col(col);
                -self.solve(&child, weak)
            });
        }
        out
    }
}
