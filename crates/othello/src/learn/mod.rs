//! Where the learned parts come from: the pattern weights fitted on labelled positions, and
//! Multi-ProbCut's error model fitted on pairs of shallow and deep searches.

pub mod expert;
pub mod probcut_fit;
pub mod train;
