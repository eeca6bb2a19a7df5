//! Plan-once agents: search the whole game at the first tick, then replay the plan.

use super::Agent;
use crate::rules::level::Level;
use crate::rules::sim::Action;
use crate::rules::state::State;
use crate::solve::shortest;
use search_core::Limits;

/// Plans a whole game from a state within limits: the actions of a winning plan (empty when it
/// finds none in time).
pub type Planner = fn(&Level, &State, &Limits) -> Vec<Action>;

/// An agent that plans once with its [`Planner`] at its first tick, then replays the plan
/// (NIL once it runs out).
#[derive(Debug, Clone)]
pub struct PlanOnce {
    planner: Planner,
    limits: Limits,
    plan: Option<Vec<Action>>,
    next: usize,
}

impl PlanOnce {
    /// An agent that will plan with `planner`.
    pub fn new(planner: Planner) -> Self {
        PlanOnce::within(planner, Limits::none())
    }

    /// An agent that will plan with `planner` within `limits` (a server's time and states).
    pub fn within(planner: Planner, limits: Limits) -> Self {
        PlanOnce {
            planner,
            limits,
            plan: None,
            next: 0,
        }
    }
}

impl Agent for PlanOnce {
    fn act(&mut self, level: &Level, state: &State) -> Action {
        let plan = self
            .plan
            .get_or_insert_with(|| (self.planner)(level, state, &self.limits));
        let a = plan.get(self.next).copied().unwrap_or(Action::Nil);
        self.next += 1;
        a
    }
}

/// The homework's A* planner: a shortest winning plan by `search-core`'s A* (admissible
/// heuristic: distance to the key then to the door).
pub fn astar_plan(level: &Level, _state: &State, limits: &Limits) -> Vec<Action> {
    shortest(level, limits).actions
}

/// `limits` with the expansion cap lowered to `cap` (a planner's own bound).
pub(super) fn capped(limits: &Limits, cap: u64) -> Limits {
    Limits {
        max_expanded: Some(limits.max_expanded.map_or(cap, |m| m.min(cap))),
        ..*limits
    }
}
