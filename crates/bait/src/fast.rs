//! A direct implementation of Bait's tick (spec §4.3) for games whose description has exactly
//! Bait's rule structure (score values may differ): a handful of cell lookups instead of running
//! every interaction. [`recognize`] checks the structure; the simulator uses this path when it
//! matches and the general interpreter otherwise. Property tests compare the two on random
//! levels and action strings, state by state.

use crate::level::{Level, Role};
use crate::sim::{check_end, Action, MAX_TIMESTEPS};
use crate::state::{Bits, Outcome, State};
use crate::vgdl::{Class, Effect};

/// Bait's rules, compiled against one level.
#[derive(Debug, Clone)]
pub struct FastRules {
    // The layout fields are crate-visible so that `bound` can read them.
    pub(crate) walls: Bits,
    pub(crate) hole_at: Vec<Option<u8>>,
    pub(crate) key_at: Vec<Option<u8>>,
    pub(crate) goal_at: Vec<Option<u8>>,
    pub(crate) mushroom_at: Vec<Option<u8>>,
    pub(crate) withkey: u8,
    pub(crate) hole_score: i32,
    pub(crate) goal_score: i32,
    pub(crate) mushroom_score: i32,
}

/// Returns the compiled rules when the level's game has Bait's structure.
pub fn recognize(level: &Level) -> Option<FastRules> {
    let g = &level.game;
    let id = |n: &str| g.type_id(n);
    let (hole, avatar, nokey, withkey, mushroom, key, goal, bx) = (
        id("hole")?,
        id("avatar")?,
        id("nokey")?,
        id("withkey")?,
        id("mushroom")?,
        id("key")?,
        id("goal")?,
        id("box")?,
    );
    if g.types.len() != 9
        || g.types[nokey].parent != Some(avatar)
        || g.types[withkey].parent != Some(avatar)
        || g.types[avatar].class != Class::MovingAvatar
        || level.roles[bx] != Role::Mover(0)
        || [hole, mushroom, key, goal]
            .iter()
            .any(|&t| level.roles[t] != Role::Mortal)
        || level.roles[0] != Role::Frozen
    {
        return None;
    }
    let expected = [
        (avatar, 0, Effect::StepBack),
        (avatar, hole, Effect::KillSprite),
        (bx, avatar, Effect::BounceForward),
        (bx, 0, Effect::UndoAll),
        (bx, bx, Effect::UndoAll),
        (bx, mushroom, Effect::UndoAll),
        (bx, hole, Effect::KillBoth),
        (nokey, key, Effect::TransformTo(withkey)),
        (key, avatar, Effect::KillSprite),
        (nokey, goal, Effect::StepBack),
        (goal, withkey, Effect::KillSprite),
        (mushroom, avatar, Effect::KillSprite),
    ];
    if g.interactions.len() != expected.len() {
        return None;
    }
    let mut scores = [0; 12];
    for (k, (i, e)) in g.interactions.iter().zip(expected).enumerate() {
        if (i.first, i.second, i.effect) != e {
            return None;
        }
        scores[k] = i.score;
    }
    if scores
        .iter()
        .enumerate()
        .any(|(k, &s)| s != 0 && ![6, 10, 11].contains(&k))
    {
        return None;
    }
    let t = &g.terminations;
    if t.len() != 2
        || (t[0].stype, t[0].limit, t[0].win) != (goal, 0, true)
        || (t[1].stype, t[1].limit, t[1].win) != (avatar, 0, false)
    {
        return None;
    }
    let cells = level.rows * level.cols;
    let at = |ty: usize| {
        let mut v = vec![None; cells];
        for (k, &(mt, cell)) in level.mortals.iter().enumerate() {
            if mt == ty {
                v[cell] = Some(k as u8);
            }
        }
        v
    };
    Some(FastRules {
        walls: level.frozen[0],
        hole_at: at(hole),
        key_at: at(key),
        goal_at: at(goal),
        mushroom_at: at(mushroom),
        withkey: withkey as u8,
        hole_score: scores[6],
        goal_score: scores[10],
        mushroom_score: scores[11],
    })
}

impl FastRules {
    #[inline]
    fn alive(s: &State, slot: &[Option<u8>], cell: usize) -> Option<u8> {
        slot[cell].filter(|&k| s.alive >> k & 1 == 1)
    }

    /// One tick (same contract as [`crate::sim::step`]).
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
