//! # connect4
//!
//! Gravity Connect Four as the Tsinghua assignment plays it (M x N boards, 9..12 each, with one
//! forbidden cell), an MCTS engine on `search-core`, the course's text interfaces, and a perfect
//! solver for the standard 7x6 game.

pub mod agents;
pub mod analyze;
pub mod bit_search;
pub mod bitstate;
pub mod board;
pub mod cli;
pub mod compete;
pub mod engine;
pub mod ffi;
pub mod game_state;
pub mod move_times;
pub mod protocol;
pub mod rollout;
pub mod root_parallel;
pub mod run;
pub mod search_game;
pub mod solver7x6;
pub mod tournament;
pub mod zugzwang;

pub use board::Board;
