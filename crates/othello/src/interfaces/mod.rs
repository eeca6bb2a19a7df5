//! The outer floor: the command line, the batch job, the NBoard protocol, matches between
//! engines, play in the terminal, and search trees drawn as DOT and SVG.

pub mod cli;
pub mod matchplay;
pub mod nboard;
pub mod play;
pub mod run;
pub mod trace;
