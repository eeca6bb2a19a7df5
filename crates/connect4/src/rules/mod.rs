//! The rules: the course's board and judge (gravity, the forbidden cell, four in a row), a game
//! in progress on it, and the same position as bitboards for fast simulation.

pub mod bitstate;
pub mod board;
pub mod game_state;
