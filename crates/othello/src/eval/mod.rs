//! What a position is worth without searching it: the course's heuristic (its four terms and
//! action order) and the learned pattern evaluation.

pub mod course;
pub mod pattern;
