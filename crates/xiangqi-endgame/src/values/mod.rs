//! What a piece is worth on a square: the course's numbers and the learned piece-square tables.
//! The position keeps their sums up to date as it moves, so they stand below it.

pub mod piece_square;
pub mod tables;
