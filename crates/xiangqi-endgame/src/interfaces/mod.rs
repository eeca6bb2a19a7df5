//! The outer floor: the command line, the UCI engine loop, problem collections run through the
//! engine, and the board drawn as SVG.

pub mod cli;
pub mod problems;
pub mod svg;
pub mod uci;
