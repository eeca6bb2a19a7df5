//! The homework's depth-first planner (task 1): one depth-first search over whole-game states
//! (closed set on the real state, not the homework's `equalPosition`). The plan is valid,
//! rarely short.

use super::moves;
use crate::rules::level::Level;
use crate::rules::sim::Action;
use crate::rules::state::{Outcome, State};
use crate::solve::actions_of;
use search_core::{dfs, Limits};

/// A depth-first plan from `state` (empty when none is found within `limits` and 50 M expansions).
pub fn dfs_plan(level: &Level, state: &State, limits: &Limits) -> Vec<Action> {
    let out = dfs(
        state,
        |s| moves(level, s).map(|(n, _)| n).collect::<Vec<_>>(),
        |s| s.outcome == Outcome::Won,
        &super::plan::capped(limits, 50_000_000),
    );
    out.solution
        .map_or_else(Vec::new, |(path, _)| actions_of(level, &path))
}
