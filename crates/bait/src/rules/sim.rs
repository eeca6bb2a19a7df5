//! One game tick, exactly as the homework's GVGAI engine runs it (spec §4).
//!
//! The avatar moves first (one cell; NIL stays). Then, for every interaction in the engine's
//! order, every pair of distinct overlapping sprites whose types match is handed to the effect,
//! skipping a first sprite already killed this tick; killed sprites stay present until the end of
//! the tick and are then removed; terminations are checked in file order; a game still running
//! after the 1001st action is lost on time. Sprites that nothing has touched this tick live in
//! the compact bitsets of [`State`]; a sprite that an effect moves, kills or creates is lifted
//! into a small list of objects for the rest of the tick, so a tick costs a few bitset
//! operations per interaction.

pub use crate::rules::action::{action_string, parse_actions, Action, MAX_TIMESTEPS};
pub use crate::rules::level::{check_end, count};
use crate::rules::level::{Level, Role};
use crate::rules::state::{Bits, Outcome, State};
use crate::rules::vgdl::{Class, Effect};
use std::fmt;

/// A sprite lifted out of the compact state for this tick.
#[derive(Debug, Clone, Copy)]
struct Obj {
    ty: usize,
    pos: usize,
    last: usize,
    killed: bool,
}

/// A sprite as an interaction sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sprite {
    Frozen(usize),
    Mover(usize, usize),
    Mortal(usize),
    Obj(usize),
}

/// A fixed-capacity list, so that a tick allocates nothing.
struct Small<T: Copy, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy, const N: usize> Small<T, N> {
    fn new(fill: T) -> Self {
        Small {
            items: [fill; N],
            len: 0,
        }
    }
    fn clear(&mut self) {
        self.len = 0;
    }
    fn push(&mut self, t: T) {
        assert!(self.len < N, "more than {N} sprites involved in one tick");
        self.items[self.len] = t;
        self.len += 1;
    }
    fn as_slice(&self) -> &[T] {
        &self.items[..self.len]
    }
    fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }
}

const NO_OBJ: Obj = Obj {
    ty: 0,
    pos: 0,
    last: 0,
    killed: false,
};

struct World<'a> {
    level: &'a Level,
    state: State,
    objs: Small<Obj, 16>,
    avatar: Option<usize>,
}

impl World<'_> {
    /// Lifts a sprite into the object list (if not already) and returns its index.
    fn lift(&mut self, s: Sprite) -> Option<usize> {
        match s {
            Sprite::Obj(i) => Some(i),
            Sprite::Mover(ty, cell) => {
                let Role::Mover(slot) = self.level.roles[ty] else {
                    return None;
                };
                self.state.movers[slot].clear(cell);
                Some(self.push_obj(ty, cell))
            }
            Sprite::Mortal(k) => {
                self.state.alive &= !(1u64 << k);
                let (ty, cell) = self.level.mortals[k];
                Some(self.push_obj(ty, cell))
            }
            Sprite::Frozen(_) => None,
        }
    }

    /// Adds an object of type `ty` standing at `cell`; returns its index.
    fn push_obj(&mut self, ty: usize, cell: usize) -> usize {
        self.objs.push(Obj {
            ty,
            pos: cell,
            last: cell,
            killed: false,
        });
        self.objs.len - 1
    }

    fn pos(&self, s: Sprite, cell: usize) -> usize {
        match s {
            Sprite::Obj(i) => self.objs.items[i].pos,
            _ => cell,
        }
    }

    fn killed(&self, s: Sprite) -> bool {
        matches!(s, Sprite::Obj(i) if self.objs.items[i].killed)
    }

    /// Cells that may hold a sprite matching rule type `r` (a superset for mortal sprites,
    /// which only ever disappear; [`World::sprites_at`] checks them exactly).
    #[inline]
    fn cells_matching(&self, r: usize) -> Bits {
        let m = &self.level.matching[r];
        let mut b = m.frozen.or(m.mortal_cells);
        let mut slots = m.mover_slots;
        while slots != 0 {
            let slot = slots.trailing_zeros() as usize;
            slots &= slots - 1;
            b = b.or(self.state.movers[slot]);
        }
        for o in self.objs.as_slice() {
            if self.level.game.matches[o.ty][r] {
                b.set(o.pos);
            }
        }
        b
    }

    /// The sprites on `cell` matching rule type `r`, in a fixed order.
    fn sprites_at(&self, cell: usize, r: usize, out: &mut Small<Sprite, 16>) {
        out.clear();
        let g = &self.level.game;
        for t in 0..g.types.len() {
            if !g.matches[t][r] {
                continue;
            }
            match self.level.roles[t] {
                Role::Frozen if self.level.frozen[t].has(cell) => out.push(Sprite::Frozen(t)),
                Role::Mover(slot) if self.state.movers[slot].has(cell) => {
                    out.push(Sprite::Mover(t, cell))
                }
                _ => {}
            }
        }
        for &k in &self.level.mortal_at[cell] {
            let k = k as usize;
            if self.state.alive >> k & 1 == 1 && g.matches[self.level.mortals[k].0][r] {
                out.push(Sprite::Mortal(k));
            }
        }
        for (i, o) in self.objs.as_slice().iter().enumerate() {
            if o.pos == cell && g.matches[o.ty][r] {
                out.push(Sprite::Obj(i));
            }
        }
    }

    fn shift(&self, cell: usize, d: (i32, i32)) -> usize {
        let (r, c) = (
            (cell / self.level.cols) as i32 + d.0,
            (cell % self.level.cols) as i32 + d.1,
        );
        if r < 0 || c < 0 || r >= self.level.rows as i32 || c >= self.level.cols as i32 {
            cell
        } else {
            r as usize * self.level.cols + c as usize
        }
    }
}

/// Applies one action to a running game and returns the next state (a finished game is
/// returned unchanged).
///
/// ```
/// use bait::{sim::{step, Action}, Level, DEFAULT_GAME};
/// let level = Level::parse(DEFAULT_GAME.parse().unwrap(), "wwwww\nwgAww\nww  w\nw 11w\nwwk w\nwwwww").unwrap();
/// let s = step(&level, &level.initial, Action::Left); // onto the door without the key
/// assert_eq!(s.avatar_cell, level.initial.avatar_cell); // stepped back
/// assert_eq!(s.tick, 1);
/// ```
#[inline]
pub fn step(level: &Level, state: &State, action: Action) -> State {
    match &level.fast {
        Some(fast) => fast.step(level, state, action),
        None => step_general(level, state, action),
    }
}

/// [`step`] by the general interpreter of the game description, whatever the rules are.
pub fn step_general(level: &Level, state: &State, action: Action) -> State {
    if state.over() {
        return *state;
    }
    let mut w = World {
        level,
        state: *state,
        objs: Small::new(NO_OBJ),
        avatar: None,
    };
    w.state.tick += 1;
    if state.avatar_alive {
        let cell = state.avatar_cell as usize;
        let to = w.shift(cell, action.delta());
        w.objs.push(Obj {
            ty: state.avatar_type as usize,
            pos: to,
            last: cell,
            killed: false,
        });
        w.avatar = Some(0);
    }
    let mut firsts = Small::new(Sprite::Frozen(0));
    let mut seconds = Small::new(Sprite::Frozen(0));
    for rule in &level.game.interactions {
        let hot = w
            .cells_matching(rule.first)
            .and(w.cells_matching(rule.second));
        if hot.is_empty() {
            continue;
        }
        for cell in hot.iter() {
            w.sprites_at(cell, rule.first, &mut firsts);
            for fi in 0..firsts.len {
                let mut s1 = firsts.items[fi];
                // A sprite lifted by an earlier pair now lives in the object list.
                let stale = match s1 {
                    Sprite::Mover(t, c) => match level.roles[t] {
                        Role::Mover(slot) => !w.state.movers[slot].has(c),
                        _ => true,
                    },
                    Sprite::Mortal(k) => w.state.alive >> k & 1 == 0,
                    _ => false,
                };
                if stale {
                    continue;
                }
                w.sprites_at(cell, rule.second, &mut seconds);
                for &s2 in seconds.as_slice() {
                    if s1 == s2
                        || w.killed(s1)
                        || w.pos(s1, cell) != cell
                        || w.pos(s2, cell) != cell
                    {
                        continue;
                    }
                    w.state.score += rule.score;
                    match rule.effect {
                        Effect::StepBack => {
                            if let Some(i) = w.lift(s1) {
                                w.objs.items[i].pos = w.objs.items[i].last;
                                s1 = Sprite::Obj(i);
                            }
                        }
                        Effect::KillSprite => {
                            if let Some(i) = w.lift(s1) {
                                w.objs.items[i].killed = true;
                                s1 = Sprite::Obj(i);
                            }
                        }
                        Effect::KillBoth => {
                            let i = w.lift(s1);
                            let j = w.lift(s2);
                            for k in [i, j].into_iter().flatten() {
                                w.objs.items[k].killed = true;
                            }
                            if let Some(i) = i {
                                s1 = Sprite::Obj(i);
                            }
                        }
                        Effect::BounceForward => {
                            let (p2, l2) = match s2 {
                                Sprite::Obj(j) => (w.objs.items[j].pos, w.objs.items[j].last),
                                _ => (cell, cell),
                            };
                            let dr = (p2 / level.cols) as i32 - (l2 / level.cols) as i32;
                            let dc = (p2 % level.cols) as i32 - (l2 % level.cols) as i32;
                            if (dr, dc) != (0, 0) {
                                if let Some(i) = w.lift(s1) {
                                    w.objs.items[i].pos =
                                        w.shift(w.objs.items[i].pos, (dr.signum(), dc.signum()));
                                    s1 = Sprite::Obj(i);
                                }
                            }
                        }
                        Effect::UndoAll => {
                            for o in w.objs.as_mut_slice() {
                                o.pos = o.last;
                            }
                        }
                        Effect::TransformTo(t) => {
                            if let Some(i) = w.lift(s1) {
                                let o = w.objs.items[i];
                                w.objs.items[i].killed = true;
                                w.objs.push(Obj {
                                    ty: t,
                                    pos: o.pos,
                                    last: o.last,
                                    killed: false,
                                });
                                if level.game.types[t].class == Class::MovingAvatar {
                                    w.avatar = Some(w.objs.len - 1);
                                }
                                s1 = Sprite::Obj(i);
                            }
                        }
                    }
                }
            }
        }
    }
    // Remove the killed, put the survivors back into the compact state.
    let mut next = w.state;
    next.avatar_alive = false;
    for (i, o) in w.objs.as_slice().iter().enumerate() {
        if o.killed {
            continue;
        }
        match level.roles[o.ty] {
            Role::Avatar => {
                if Some(i) == w.avatar || !next.avatar_alive {
                    next.avatar_alive = true;
                    next.avatar_cell = o.pos as u8;
                    next.avatar_type = o.ty as u8;
                }
            }
            Role::Mover(slot) => next.movers[slot].set(o.pos),
            Role::Mortal => {
                if let Some(&k) = level.mortal_at[o.pos]
                    .iter()
                    .find(|&&k| level.mortals[k as usize].0 == o.ty)
                {
                    next.alive |= 1u64 << k;
                }
            }
            Role::Frozen => {}
        }
    }
    if !next.avatar_alive {
        next.avatar_cell = state.avatar_cell;
        next.avatar_type = state.avatar_type;
    }
    next.outcome = check_end(level, &next);
    if next.outcome == Outcome::Playing && next.tick > MAX_TIMESTEPS {
        next.outcome = Outcome::Lost;
    }
    next
}

/// Plays actions from the level's start, stopping at game over.
pub fn play(level: &Level, actions: &[Action]) -> Vec<State> {
    let mut states = vec![level.initial];
    for &a in actions {
        let s = *states.last().unwrap();
        if s.over() {
            break;
        }
        states.push(step(level, &s, a));
    }
    states
}

/// The engine's result line for a finished game (or, for an unfinished one, the line the engine
/// prints when the agent then does nothing until the time limit).
pub struct ResultLine<'a> {
    /// The final state.
    pub state: &'a State,
    /// Print the score as a Java double (`5.0`) like the engine's console.
    pub java_double: bool,
}

impl fmt::Display for ResultLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.state;
        let (key, ticks) = match s.outcome {
            Outcome::Won => (1, s.tick.saturating_sub(1)),
            Outcome::Lost => (0, s.tick.saturating_sub(1)),
            Outcome::Playing => (0, MAX_TIMESTEPS),
        };
        let score = if self.java_double {
            format!("{}.0", s.score)
        } else {
            s.score.to_string()
        };
        write!(
            f,
            "Result (1->win; 0->lose):{key}, Score:{score}, timesteps:{ticks}"
        )
    }
}

/// The trace line of a state: `t=.. s=.. w=.. over=..` and the sorted non-wall sprites.
pub fn trace_state(level: &Level, s: &State) -> String {
    let g = &level.game;
    let mut sprites: Vec<String> = Vec::new();
    let mut push = |t: usize, cell: usize| {
        if t != 0 {
            let (r, c) = level.pos(cell);
            sprites.push(format!("{}@{r},{c}", g.types[t].name));
        }
    };
    for t in 0..g.types.len() {
        match level.roles[t] {
            Role::Frozen => level.frozen[t].iter().for_each(|c| push(t, c)),
            Role::Mover(slot) => s.movers[slot].iter().for_each(|c| push(t, c)),
            _ => {}
        }
    }
    for (k, &(t, cell)) in level.mortals.iter().enumerate() {
        if s.alive >> k & 1 == 1 {
            push(t, cell);
        }
    }
    if s.avatar_alive {
        push(s.avatar_type as usize, s.avatar_cell as usize);
    }
    sprites.sort();
    let w = match s.outcome {
        Outcome::Playing => "NO_WINNER",
        Outcome::Won => "PLAYER_WINS",
        Outcome::Lost => "PLAYER_LOSES",
    };
    let mut line = format!("t={} s={} w={w} over={}", s.tick, s.score, s.over());
    for sp in sprites {
        line.push(' ');
        line.push_str(&sp);
    }
    line
}
