//! The GVGAI puzzle game Bait (NJU homework 1): simulated tick for tick with a compact hashable
//! state ([`rules`]); proven optima, bounds and winnable practice levels ([`solve`]); the
//! homework's agents on `search-core` ([`agents`]); command line, replays, grading ([`interfaces`]).
//!
//! ```
//! use bait::{sim::{parse_actions, play}, Level, DEFAULT_GAME};
//! let level = Level::parse(DEFAULT_GAME.parse().unwrap(), "wwwww\nwgAww\nww  w\nw 11w\nwwk w\nwwwww").unwrap();
//! let states = play(&level, &parse_actions("DRDLDUUUL").unwrap());
//! let last = states.last().unwrap();
//! assert_eq!((last.outcome, last.score, last.tick), (bait::state::Outcome::Won, 5, 9));
//! ```

// Floors: rules < solve < agents < interfaces
pub mod agents;
pub mod interfaces;
pub mod rules;
pub mod solve;

pub use interfaces::{cli, grade, render, trace};
pub use rules::level::Level;
pub use rules::vgdl::DEFAULT_GAME;
pub use rules::{action, fast, level, sim, state, vgdl};
pub use solve::{bound, generate, macros, score_bound, symmetry};
