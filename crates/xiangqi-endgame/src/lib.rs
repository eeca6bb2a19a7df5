//! # xiangqi-endgame
//!
//! Chinese chess for the USTC alpha-beta endgame assignment and beyond: legal moves checked by
//! perft, the course framework's generator and printer byte for byte, course and learned
//! evaluations, `search-core`'s searches, a UCI engine, and game records in every notation.
//! The folders are the floors, lowest first.
//!
//! ```
//! use xiangqi_endgame::{Position, perft::perft, START_FEN};
//! let mut p: Position = START_FEN.parse().unwrap();
//! assert_eq!(perft(&mut p, 3), 79_666);
//! ```

// Floors: board < values < rules < notation < eval < search < play < learn, course < interfaces
pub mod board;
pub mod course;
pub mod eval;
pub mod interfaces;
pub mod learn;
pub mod notation;
pub mod play;
pub mod rules;
pub mod search;
pub mod values;

pub use board::piece::{Color, Kind, Piece};
pub use board::square::{Move, Square};
pub use board::{piece, square};
pub use course::{course_io, grade};
pub use eval::{activity, nnue, see};
pub use interfaces::{cli, problems, svg, uci};
pub use learn::{train, train_activity, train_net, train_tables};
pub use play::selfplay;
pub use rules::fen::START_FEN;
pub use rules::position::Position;
pub use rules::{fen, framework, movegen, perft, position, repetition};
pub use search::{mates, proof};

/// The engine as one module, as users know it: the search drivers ([`search::engine`]), their
/// configuration ([`search::config`]) and the position they search
/// ([`search::search_position`]).
pub mod engine {
    pub use crate::search::config::*;
    pub use crate::search::engine::*;
    pub use crate::search::search_position::*;
}
pub use values::{piece_square, tables};
