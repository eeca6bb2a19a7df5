//! Two players over a [`Game`](crate::game::Game): minimax and alpha-beta as the course writes
//! them, the negamax searcher with its table and enhancements, MTD(f), aspiration windows,
//! iterative deepening with deadlines, exact solving by null-window bisection, and the
//! parallel searches (split at the root, ABDADA over a shared table).

pub mod abdada;
pub mod alphabeta;
pub mod aspiration;
pub mod exact_solver;
pub mod iterative;
pub mod minimax;
pub mod mtdf;
pub mod negamax;
pub mod parallel;
