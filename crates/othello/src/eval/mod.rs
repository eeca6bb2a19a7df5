//! What a position is worth without searching it: the course's heuristic (its four terms and
//! action order), the learned pattern evaluation, and Multi-ProbCut's model of how far its
//! shallow values stray from deep ones.

pub mod course;
pub mod pattern;
pub mod probcut;
