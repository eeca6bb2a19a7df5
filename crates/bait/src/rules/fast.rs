//! A direct implementation of Bait's tick (spec §4.3) for games whose description has exactly
//! Bait's rule structure (score values may differ): a handful of cell lookups instead of running
//! every interaction. [`recognize`] checks the structure; the simulator uses this path when it
//! matches and the general interpreter otherwise. Property tests compare the two on random
//! levels and action strings, state by state.

use crate::rules::action::{Action, MAX_TIMESTEPS};
use crate::rules::level::{check_end, Level};
pub use crate::rules::level::{recognize, FastRules};
use crate::rules::state::{Outcome, State};

impl FastRules {
    #[inline]
    fn alive(s: &State, slot: &[Option<u8>], cell: usize) -> Option<u8> {
        slot[cell].filter(|&k| s.alive >> k & 1 == 1)
    }

    /// One tick (same contract as [`crate::rules::sim::step`]).
    pub fn step(&self, level: &Level, s: &State, action: Action) -> State {
        if s.over() {
            return *s;
        }
        let mut n = *s;
        n.tick += 1;
        if s.avatar_alive {
            self.act(level, &mut n, action);
        }
        n.outcome = check_end(level, &n);
        if n.outcome == Outcome::Playing && n.tick > MAX_TIMESTEPS {
            n.outcome = Outcome::Lost;
        }
        n
    }

    #[inline]
    fn act(&self, level: &Level, n: &mut State, action: Action) {
        let cols = level.cols;
        let from = n.avatar_cell as usize;
        let shift = |cell: usize| -> Option<usize> {
            let (r, c) = (cell / cols, cell % cols);
            match action {
                Action::Up if r > 0 => Some(cell - cols),
                Action::Down if r + 1 < level.rows => Some(cell + cols),
                Action::Left if c > 0 => Some(cell - 1),
                Action::Right if c + 1 < cols => Some(cell + 1),
                _ => None,
            }
        };
        let Some(to) = shift(from) else { return };
        if self.walls.has(to) {
            return;
        }
        if Self::alive(n, &self.hole_at, to).is_some() {
            n.avatar_alive = false;
            return;
        }
        if n.movers[0].has(to) {
            let Some(beyond) = shift(to) else { return };
            if self.walls.has(beyond)
                || n.movers[0].has(beyond)
                || Self::alive(n, &self.mushroom_at, beyond).is_some()
            {
                return;
            }
            n.movers[0].clear(to);
            if let Some(h) = Self::alive(n, &self.hole_at, beyond) {
                n.alive &= !(1 << h);
                n.score += self.hole_score;
            } else {
                n.movers[0].set(beyond);
            }
        }
        n.avatar_cell = to as u8;
        if let Some(k) = Self::alive(n, &self.key_at, to) {
            n.alive &= !(1 << k);
            n.avatar_type = self.withkey;
        }
        if let Some(gl) = Self::alive(n, &self.goal_at, to) {
            if n.avatar_type != self.withkey {
                n.avatar_cell = from as u8;
                return;
            }
            n.alive &= !(1 << gl);
            n.score += self.goal_score;
        }
        if let Some(m) = Self::alive(n, &self.mushroom_at, to) {
            n.alive &= !(1 << m);
            n.score += self.mushroom_score;
        }
    }
}
