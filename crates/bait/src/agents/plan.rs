//! Plan-once agents: search the whole game at the first tick, then replay the plan.

use super::Agent;
use crate::level::Level;
use crate::sim::Action;
use crate::solve::shortest;
use crate::state::State;
use search_core::Limits;

/// Replays a fixed plan; NIL once it runs out.
#[derive(Debug, Clone, Default)]
pub struct Replay {
    plan: Vec<Action>,
    next: usize,
}

impl Replay {
    /// Stores a plan.
    pub fn set(&mut self, plan: Vec<Action>) {
        self.plan = plan;
        self.next = 0;
    }

    /// The next action of the plan.
    pub fn next(&mut self) -> Action {
        let a = self.plan.get(self.next).copied().unwrap_or(Action::Nil);
        self.next += 1;
        a
    }
}

/// The homework's A* agent: a shortest winning plan by `search-core`'s A* (admissible
/// heuristic: distance to the key then to the door), replayed.
#[derive(Debug, Clone, Default)]
pub struct AstarAgent {
    replay: Replay,
    searched: bool,
}

impl Agent for AstarAgent {
    fn act(&mut self, level: &Level, _state: &State) -> Action {
        if !self.searched {
            self.searched = true;
            self.replay.set(shortest(level, &Limits::none()).actions);
        }
        self.replay.next()
    }
}
