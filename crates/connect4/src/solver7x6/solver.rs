//! The perfect 7x6 solver (after Pascal Pons' "Solving Connect 4", parts 1–12): negamax
//! alpha-beta that only considers moves not handing the opponent an immediate win, tightens the
//! window with the score bounds the number of stones implies, caches bounds in a transposition
//! table, orders moves by the threats they create (centre first on ties), and finds the exact
//! score by a sequence of null-window searches that bisect the score range.

use super::position::{column_mask, Position, HEIGHT, MAX_SCORE, MIN_SCORE, WIDTH};
use super::sorter::MoveSorter;
use super::tt::TranspositionTable;

const CELLS: i32 = (WIDTH * HEIGHT) as i32;

/// A solver; keeps its table between positions.
pub struct Solver {
    tt: TranspositionTable,
    /// Positions explored since the last [`Solver::reset_counter`].
    pub explored: u64,
    order: [usize; WIDTH],
}

impl Default for Solver {
    fn default() -> Self {
        let mut order = [0; WIDTH];
        for (i, o) in order.iter_mut().enumerate() {
            // 3, 2, 4, 1, 5, 0, 6: centre first.
            *o = (WIDTH as i32 / 2 + (1 - 2 * (i as i32 % 2)) * (i as i32 + 1) / 2) as usize;
        }
        Solver {
            tt: TranspositionTable::default(),
            explored: 0,
            order,
        }
    }
}

impl Solver {
    /// Zeroes the explored-positions counter.
    pub fn reset_counter(&mut self) {
        self.explored = 0;
    }

    /// Empties the transposition table.
    pub fn reset(&mut self) {
        self.tt.reset();
    }

    fn negamax(&mut self, p: &Position, mut alpha: i32, mut beta: i32) -> i32 {
        self.explored += 1;
        let next = p.possible_non_losing_moves();
        let moves = p.moves() as i32;
        if next == 0 {
            return -(CELLS - moves) / 2;
        }
        if moves >= CELLS - 2 {
            return 0;
        }
        let min = -(CELLS - 2 - moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let mut max = (CELLS - 1 - moves) / 2;
        let key = p.key();
        let v = self.tt.get(key) as i32;
        if v != 0 {
            if v > MAX_SCORE - MIN_SCORE + 1 {
                let lower = v + 2 * MIN_SCORE - MAX_SCORE - 2;
                if alpha < lower {
                    alpha = lower;
                    if alpha >= beta {
                        return alpha;
                    }
                }
            } else {
                max = v + MIN_SCORE - 1;
            }
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        let mut sorter = MoveSorter::new();
        for i in (0..WIDTH).rev() {
            let mv = next & column_mask(self.order[i]);
            if mv != 0 {
                sorter.add(mv, p.move_score(mv));
            }
        }
        while let Some(mv) = sorter.next() {
            let mut child = *p;
            child.play(mv);
            let score = -self.negamax(&child, -beta, -alpha);
            if score >= beta {
                self.tt
                    .put(key, (score + MAX_SCORE - 2 * MIN_SCORE + 2) as u8);
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        self.tt.put(key, (alpha - MIN_SCORE + 1) as u8);
        alpha
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
            return (CELLS + 1 - moves) / 2;
        }
        let (mut min, mut max) = if weak {
            (-1, 1)
        } else {
            (-(CELLS - moves) / 2, (CELLS + 1 - moves) / 2)
        };
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(p, med, med + 1);
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        min
    }

    /// The score of every column (None where the column is full), as Pons' `-a` option.
    pub fn analyze(&mut self, p: &Position, weak: bool) -> [Option<i32>; WIDTH] {
        let mut out = [None; WIDTH];
        for (col, slot) in out.iter_mut().enumerate() {
            if !p.can_play(col) {
                continue;
            }
            *slot = Some(if p.is_winning_move(col) {
                (CELLS + 1 - p.moves() as i32) / 2
            } else {
                let mut child = *p;
                child.play_col(col);
                -self.solve(&child, weak)
            });
        }
        out
    }
}
