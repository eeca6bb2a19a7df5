//! A perfect solver for the standard 7x6 game (Pons' notation and score convention), one idea
//! per file: the bitboard position, the transposition table, the move sorter, the solver.

mod position;
mod solver;
mod sorter;
mod tt;

pub use position::{Position, HEIGHT, MAX_SCORE, MIN_SCORE, WIDTH};
pub use solver::Solver;
