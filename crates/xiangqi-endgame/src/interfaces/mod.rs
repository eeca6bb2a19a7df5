//! The outer floor: the command line, the UCI engine loop, problem collections run through the
//! engine, the board drawn as SVG and a game's evaluation graphed.

pub mod cli;
pub mod eval_graph;
pub mod problems;
pub mod svg;
pub mod uci;
