//! The searches, each a game handed to `search-core`: the engine (move choice, iterative
//! deepening), the mate prover (proof-number search), the project's mate problems, and the clock.

pub mod analysis;
pub mod clock;
pub mod config;
pub mod engine;
pub mod mates;
pub mod proof;
pub mod search_position;
