//! The searches, each a game handed to `search-core`: the course's deciders, the exact endgame
//! solver, the NBoard engine's thinking, and the opening book.

pub mod book;
pub mod deciders;
pub mod endgame;
pub mod engine;
