//! The outer floor: the command line.

pub mod cli;
