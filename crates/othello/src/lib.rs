//! # othello
//!
//! Othello for the course and beyond: bitboard rules proved by perft ([`rules`]), game records
//! and positions in GGF, WTHOR, Logistello's book lines and OBF ([`formats`]), the course's
//! heuristic and a learned pattern evaluation ([`eval`]), the course's deciders, an exact
//! endgame solver, the NBoard engine and an opening book built from expert games ([`search`],
//! on `search-core`), the trainers of the learned parts ([`learn`]), and the command line,
//! NBoard protocol and match tools ([`interfaces`]).

// Floors: rules < formats < eval < search < learn < interfaces
pub mod eval;
pub mod formats;
pub mod interfaces;
pub mod learn;
pub mod rules;
pub mod search;

pub use eval::{course, pattern, probcut};
pub use formats::ggf;
pub use interfaces::{cli, matchplay, play, run, trace};
pub use learn::{probcut_fit, train};
pub use rules::position::{Color, Move, Position};
pub use rules::{bitboard, perft, position, stability};
pub use search::{deciders, endgame};

/// The NBoard engine as one module, as users know it: the protocol ([`interfaces::nboard`])
/// and the thinking behind it ([`search::engine`]).
pub mod nboard {
    pub use crate::interfaces::nboard::*;
    pub use crate::search::engine::*;
}
