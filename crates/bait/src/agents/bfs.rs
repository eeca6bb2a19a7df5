//! Breadth-first agent: the fewest-actions winning plan by plain breadth-first search (no
//! heuristic), replayed. The same answer as A*, with more states visited.

use super::{moves, plan::Replay, Agent};
use crate::level::Level;
use crate::sim::Action;
use crate::solve::actions_of;
use crate::state::{Outcome, State};
use search_core::{bfs, Limits};

/// Breadth-first plan, then replay.
#[derive(Debug, Clone, Default)]
pub struct BfsAgent {
    replay: Replay,
    searched: bool,
}

impl Agent for BfsAgent {
    fn act(&mut self, level: &Level, state: &State) -> Action {
        if !self.searched {
            self.searched = true;
            let out = bfs(
                state,
                |s| moves(level, s).map(|(n, _)| n),
                |s| s.outcome == Outcome::Won,
                &Limits::nodes(60_000_000),
            );
            if let Some((path, _)) = out.solution {
                self.replay.set(actions_of(level, &path));
            }
        }
        self.replay.next()
    }
}
