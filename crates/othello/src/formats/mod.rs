//! Games and positions in the forms Othello programs exchange: GGF (the NBoard protocol's
//! games), WTHOR's binary archive (the French federation's tournament games), Logistello's
//! book lines, and what they have in common ([`record::GameRecord`], read from any mix of files
//! and folders by [`archive`]).

pub mod archive;
pub mod ggf;
pub mod logistello;
pub mod record;
pub mod summary;
pub mod wthor;
