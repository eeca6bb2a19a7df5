//! Games between engines: the engine against itself or an external UCI engine, from seeded
//! openings, refereed by the project's rules.

pub mod selfplay;
