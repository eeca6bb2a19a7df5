//! The outer floor: the command line, levels and replays drawn as text and HTML, traces in the
//! homework engine's format, and the grader of a class's plans.

pub mod cli;
pub mod grade;
pub mod render;
pub mod trace;
