//! The ground floor: colours, kinds and pieces with their FEN letters, squares and moves.

pub mod piece;
pub mod square;
