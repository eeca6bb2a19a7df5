//! The ground floor: the board as two bitboards, legal moves and flips, positions and their
//! OBF text, stable discs, and perft, the count that proves the move generator.

pub mod bitboard;
pub mod perft;
pub mod position;
pub mod stability;
