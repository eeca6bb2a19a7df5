//! # othello
//!
//! Othello on two 64-bit boards: legal moves and flips by directional fills, perft (the ground
//! truth of move generation), positions in Edax's OBF form, and an exact endgame solver built on
//! `search-core`.

pub mod bitboard;
pub mod cli;
pub mod course;
pub mod deciders;
pub mod endgame;
pub mod ggf;
pub mod matchplay;
pub mod nboard;
pub mod pattern;
pub mod perft;
pub mod play;
pub mod position;
pub mod probcut;
pub mod probcut_fit;
pub mod run;
pub mod stability;
pub mod trace;
pub mod train;

pub use position::{Color, Move, Position};
