//! Breadth-first planner: the fewest-actions winning plan by plain breadth-first search (no
//! heuristic). The same answer as A*, with more states visited.

use super::moves;
use crate::rules::level::Level;
use crate::rules::sim::Action;
use crate::rules::state::{Outcome, State};
use crate::solve::actions_of;
use search_core::{bfs, Limits};

/// A breadth-first plan from `state` (empty when none is found within `limits` and 60 M expansions).
pub fn bfs_plan(level: &Level, state: &State, limits: &Limits) -> Vec<Action> {
    let out = bfs(
        state,
        |s| moves(level, s).map(|(n, _)| n),
        |s| s.outcome == Outcome::Won,
        &super::plan::capped(limits, 60_000_000),
    );
    out.solution
        .map_or_else(Vec::new, |(path, _)| actions_of(level, &path))
}
