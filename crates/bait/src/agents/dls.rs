//! The homework's depth-limited agent (task 2): every tick, a depth-limited search from the
//! current state within a time budget; frontier states are scored by a heuristic (score earned,
//! walking distance to the key and then the door, and a penalty for states already visited in
//! the real game, which breaks oscillations), and the first action of the best line is taken.

use super::{moves, Agent};
use crate::rules::level::Level;
use crate::rules::sim::Action;
use crate::rules::state::{Outcome, State};
use crate::solve::{actions_of, Guide};
use search_core::hash::FastMap;
use search_core::{depth_limited, Deadline, Limits};
use std::time::Duration;

/// Depth-limited look-ahead with heuristic leaves, re-planned every tick.
pub struct DlsAgent {
    depth: usize,
    budget: Duration,
    guide: Option<Guide>,
    visits: FastMap<State, u32>,
}

impl DlsAgent {
    /// Looks `depth` actions ahead within `budget` per tick.
    pub fn new(depth: usize, budget: Duration) -> Self {
        DlsAgent {
            depth,
            budget,
            guide: None,
            visits: FastMap::default(),
        }
    }
}

impl Agent for DlsAgent {
    fn act(&mut self, level: &Level, state: &State) -> Action {
        let guide = self.guide.get_or_insert_with(|| Guide::new(level));
        *self.visits.entry(*state).or_default() += 1;
        let visits = &self.visits;
        let leaf = |s: &State| -> i64 {
            if s.outcome == Outcome::Won {
                return i64::MAX / 2 + s.score as i64;
            }
            let h = guide.estimate(level, s).min(10_000) as i64;
            s.score as i64 * 1000 - h * 10 - *visits.get(s).unwrap_or(&0) as i64 * 25
        };
        let out = depth_limited(
            state,
            |s| moves(level, s).map(|(n, _)| n).collect::<Vec<_>>(),
            |s| s.outcome == Outcome::Won,
            leaf,
            self.depth,
            &Limits::deadline(Deadline::after(self.budget)),
        );
        if out.path.len() < 2 {
            return Action::Nil;
        }
        actions_of(level, &out.path[..2])[0]
    }
}
