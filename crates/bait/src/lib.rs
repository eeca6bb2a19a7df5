//! The GVGAI puzzle game Bait (NJU homework 1): a simulator that reproduces the homework
//! engine tick for tick, a compact hashable state, the homework's agents built on
//! `search-core`, and provably optimal solutions (shortest win, maximum score).
//!
//! ```
//! use bait::{sim::{parse_actions, play}, Level, DEFAULT_GAME};
//! let level = Level::parse(DEFAULT_GAME.parse().unwrap(), "wwwww\nwgAww\nww  w\nw 11w\nwwk w\nwwwww").unwrap();
//! let states = play(&level, &parse_actions("DRDLDUUUL").unwrap());
//! let last = states.last().unwrap();
//! assert_eq!((last.outcome, last.score, last.tick), (bait::state::Outcome::Won, 5, 9));
//! ```

pub mod action;
pub mod agents;
pub mod bound;
pub mod cli;
pub mod fast;
pub mod generate;
pub mod grade;
pub mod level;
pub mod macros;
pub mod render;
pub mod score_bound;
pub mod sim;
pub mod solve;
pub mod state;
pub mod symmetry;
pub mod trace;
pub mod vgdl;

pub use level::Level;

/// The project's own description of Bait's rules (`inputs/bait/game.txt`), used when no
/// `--game` file is given.
pub const DEFAULT_GAME: &str = include_str!("../../../inputs/bait/game.txt");
