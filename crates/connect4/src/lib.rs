//! # connect4
//!
//! Gravity Connect Four as the Tsinghua assignment plays it (M x N boards, 9..12 each, with one
//! forbidden cell): the rules ([`rules`]), a perfect solver for the standard 7x6 game
//! ([`solver7x6`]), an MCTS engine with proof searches on `search-core` ([`engine`]), the
//! course's interfaces and tools ([`course`]) and the command line ([`interfaces`]).

// Floors: rules < solver7x6 < engine < course < interfaces
pub mod course;
pub mod engine;
pub mod interfaces;
pub mod rules;
pub mod solver7x6;

pub use course::{compete, ffi, move_times, protocol, run, tournament};
pub use engine::{agents, analyze, bit_search, rollout, root_parallel, search_game, zugzwang};
pub use interfaces::cli;
pub use rules::board::Board;
pub use rules::{bitstate, board, game_state};
