//! A perfect solver for the standard 7x6 game (Pons' notation and score convention), one idea
//! per file: the bitboard position, the move sorter, the solver's rules (the search and its
//! table of bounds are search-core's [`ExactSolver`](search_core::ExactSolver)).

mod position;
mod solver;
mod sorter;

pub use position::{Position, HEIGHT, MAX_SCORE, MIN_SCORE, WIDTH};
pub use solver::Solver;
