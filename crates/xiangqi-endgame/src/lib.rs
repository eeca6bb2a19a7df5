//! # xiangqi-endgame
//!
//! Chinese chess for the USTC alpha-beta endgame assignment: full legal move generation
//! (checked by perft against published counts), the course framework's looser generator and
//! debug printer reproduced byte for byte, the course evaluation, and `search-core`'s
//! iterative-deepening alpha-beta with a transposition table to pick red's move.
//!
//! ```
//! use xiangqi_endgame::{Position, perft::perft, START_FEN};
//! let mut p: Position = START_FEN.parse().unwrap();
//! assert_eq!(perft(&mut p, 3), 79_666);
//! ```

pub mod activity;
pub mod cli;
pub mod course_io;
pub mod engine;
pub mod eval;
pub mod fen;
pub mod framework;
pub mod grade;
pub mod mates;
pub mod movegen;
pub mod nnue;
pub mod perft;
pub mod piece;
pub mod piece_square;
pub mod position;
pub mod problems;
pub mod proof;
pub mod repetition;
pub mod see;
pub mod selfplay;
pub mod square;
pub mod svg;
pub mod tables;
#[cfg(test)]
mod testing;
pub mod train;
pub mod train_activity;
pub mod train_net;
pub mod train_tables;
pub mod uci;

pub use fen::START_FEN;
pub use piece::{Color, Kind, Piece};
pub use position::Position;
pub use square::{Move, Square};
