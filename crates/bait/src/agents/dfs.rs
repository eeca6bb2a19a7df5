//! The homework's depth-first agent (task 1): one depth-first search over whole-game states at
//! the first tick (closed set on the real state, not the homework's `equalPosition`), then the
//! winning path is replayed. The plan is valid, rarely short.

use super::{moves, plan::Replay, Agent};
use crate::level::Level;
use crate::sim::Action;
use crate::solve::actions_of;
use crate::state::{Outcome, State};
use search_core::{dfs, Limits};

/// Depth-first plan, then replay.
#[derive(Debug, Clone, Default)]
pub struct DfsAgent {
    replay: Replay,
    searched: bool,
}

impl Agent for DfsAgent {
    fn act(&mut self, level: &Level, state: &State) -> Action {
        if !self.searched {
            self.searched = true;
            let out = dfs(
                state,
                |s| moves(level, s).map(|(n, _)| n).collect::<Vec<_>>(),
                |s| s.outcome == Outcome::Won,
                &Limits::nodes(50_000_000),
            );
            if let Some((path, _)) = out.solution {
                self.replay.set(actions_of(level, &path));
            }
        }
        self.replay.next()
    }
}
