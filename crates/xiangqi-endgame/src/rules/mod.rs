//! The rules: the position with make and unmake, legal move generation, FEN and the course's
//! board files, the course framework's looser move rules, repetitions and the move limit, and
//! perft, the count that proves the generator.

pub mod fen;
pub mod framework;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod repetition;
#[cfg(test)]
pub(crate) mod testing;
