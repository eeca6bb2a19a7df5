//! A level: the grid read with the game's level mapping, and the classification of every sprite
//! type by what can happen to it, which decides how the compact state stores it.
//!
//! Level files are read as the Java engine reads them: the width is the length of the first
//! line, shorter lines are padded with spaces, unknown characters are empty cells, and there is
//! no row after a final newline. Types are classified from the rules: the avatar (MovingAvatar
//! class); *movers* (can be pushed: first type of a `bounceForward`), stored as one bitset of
//! cells per type; *mortals* (can die but never move), stored as one alive bit per sprite of the
//! level; and *frozen* types (nothing in the rules can change them, e.g. walls), kept in the level
//! only.

use crate::rules::state::{Bits, Outcome, State, MAX_CELLS, MAX_MOVER_TYPES};
use crate::rules::vgdl::{Class, Effect, Game};
use batch::InputError;

/// What can happen to sprites of a type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The avatar.
    Avatar,
    /// Can be pushed: slot in [`State::movers`].
    Mover(usize),
    /// Can die in place.
    Mortal,
    /// Never changes.
    Frozen,
}

/// A parsed level with its game.
#[derive(Debug, Clone)]
pub struct Level {
    /// The game description.
    pub game: Game,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Role of each type.
    pub roles: Vec<Role>,
    /// Frozen sprites, per type: cells.
    pub frozen: Vec<Bits>,
    /// Mortal sprites of the level: (type, cell), in row-major order.
    pub mortals: Vec<(usize, usize)>,
    /// For each cell, the indices into `mortals` of the sprites there.
    pub mortal_at: Vec<Vec<u8>>,
    /// The state at tick 0.
    pub initial: State,
    /// Per rule type: where and which sprites can match it (precomputed for the simulator).
    pub matching: Vec<Matching>,
    /// Per type: which sprites count as that type (it or its descendants), for terminations.
    pub counting: Vec<Matching>,
    /// Bait's rules compiled for speed, when the game has Bait's structure.
    pub fast: Option<FastRules>,
}

/// Which sprites belong to a set of types, in each storage class.
#[derive(Debug, Clone, Default)]
pub struct Matching {
    /// Cells of frozen sprites in the set.
    pub frozen: Bits,
    /// Number of frozen sprites in the set.
    pub frozen_count: usize,
    /// Cells of every mortal sprite of the level in the set (alive or not: a superset).
    pub mortal_cells: Bits,
    /// Mask of mortal sprites in the set.
    pub mortal_mask: u64,
    /// Mover slots in the set (bit per slot).
    pub mover_slots: u8,
    /// Avatar types in the set (bit per type id, ids below 64).
    pub avatar_types: u64,
}

/// A level of the project's own Bait description, for unit tests.
#[cfg(test)]
pub(crate) fn test_level(text: &str) -> Level {
    Level::parse(crate::rules::vgdl::DEFAULT_GAME.parse().unwrap(), text).unwrap()
}

impl Level {
    /// Reads `text` with `game`.
    ///
    /// ```
    /// let game: bait::vgdl::Game = bait::DEFAULT_GAME.parse().unwrap();
    /// let level = bait::Level::parse(game, "wwwww\nwgAww\nww  w\nw 11w\nwwk w\nwwwww").unwrap();
    /// assert_eq!((level.rows, level.cols), (6, 5));
    /// ```
    pub fn parse(game: Game, text: &str) -> Result<Level, InputError> {
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
        let cols = lines.first().map_or(0, |l| l.chars().count());
        if lines.is_empty() || cols == 0 {
            return Err(InputError::at(1, "empty level"));
        }
        let rows = lines.len();
        if rows * cols > MAX_CELLS {
            return Err(InputError::at(
                0,
                format!("level {rows}x{cols} has more than {MAX_CELLS} cells"),
            ));
        }
        for (i, l) in lines.iter().enumerate() {
            if l.chars().count() > cols {
                return Err(InputError::at(
                    i + 1,
                    format!("line is longer than the first line ({cols} characters)"),
                ));
            }
        }
        let roles = classify(&game)?;
        let mut frozen = vec![Bits::default(); game.types.len()];
        let mut mortals = Vec::new();
        let mut mortal_at = vec![Vec::new(); rows * cols];
        let mut movers = [Bits::default(); MAX_MOVER_TYPES];
        let mut avatar: Option<(usize, usize)> = None;
        for (r, line) in lines.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                let Some(&t) = game.mapping.get(&ch) else {
                    continue;
                };
                let cell = r * cols + c;
                match roles[t] {
                    Role::Avatar => {
                        if avatar.is_some() {
                            return Err(InputError::at(
                                r + 1,
                                "a second avatar (only one is supported)",
                            ));
                        }
                        avatar = Some((t, cell));
                    }
                    Role::Mover(slot) => movers[slot].set(cell),
                    Role::Mortal => {
                        if mortals.len() >= 64 {
                            return Err(InputError::at(r + 1, "more than 64 sprites that can die"));
                        }
                        mortal_at[cell].push(mortals.len() as u8);
                        mortals.push((t, cell));
                    }
                    Role::Frozen => frozen[t].set(cell),
                }
            }
        }
        let (avatar_type, avatar_cell) =
            avatar.ok_or_else(|| InputError::at(0, "the level has no avatar (`A`)"))?;
        // A sprite on the level that no interaction involves would sit there inert: the game
        // description's InteractionSet is missing what this level needs.
        for (r, line) in lines.iter().enumerate() {
            for ch in line.chars() {
                let Some(&t) = game.mapping.get(&ch) else {
                    continue;
                };
                let involved = game
                    .interactions
                    .iter()
                    .any(|i| game.matches[t][i.first] || game.matches[t][i.second]);
                if !involved {
                    return Err(InputError::at(
                        r + 1,
                        format!(
                            "`{ch}` is a `{}`, which no interaction of the game description \
                             involves: its InteractionSet is incomplete",
                            game.types[t].name
                        ),
                    ));
                }
            }
        }
        let alive = if mortals.len() == 64 {
            u64::MAX
        } else {
            (1u64 << mortals.len()) - 1
        };
        let initial = State {
            movers,
            alive,
            avatar_cell: avatar_cell as u8,
            avatar_type: avatar_type as u8,
            avatar_alive: true,
            score: 0,
            tick: 0,
            outcome: crate::rules::state::Outcome::Playing,
        };
        let n = game.types.len();
        if n > 64 {
            return Err(InputError::at(0, "more than 64 sprite types"));
        }
        let build = |member: &dyn Fn(usize) -> bool| {
            let mut m = Matching::default();
            for t in (0..n).filter(|&t| member(t)) {
                match roles[t] {
                    Role::Frozen => {
                        m.frozen = m.frozen.or(frozen[t]);
                        m.frozen_count += frozen[t].count();
                    }
                    Role::Mover(slot) => m.mover_slots |= 1 << slot,
                    Role::Avatar => m.avatar_types |= 1 << t,
                    Role::Mortal => {
                        for (k, &(mt, cell)) in mortals.iter().enumerate() {
                            if mt == t {
                                m.mortal_mask |= 1u64 << k;
                                m.mortal_cells.set(cell);
                            }
                        }
                    }
                }
            }
            m
        };
        let matching = (0..n).map(|r| build(&|t| game.matches[t][r])).collect();
        let counting = (0..n).map(|r| build(&|t| game.is_a(t, r))).collect();
        let mut level = Level {
            game,
            rows,
            cols,
            roles,
            frozen,
            mortals,
            mortal_at,
            initial,
            matching,
            counting,
            fast: None,
        };
        let outcome = check_end(&level, &level.initial);
        level.initial.outcome = outcome;
        level.fast = recognize(&level);
        Ok(level)
    }

    /// `(row, col)` of a cell.
    pub fn pos(&self, cell: usize) -> (usize, usize) {
        (cell / self.cols, cell % self.cols)
    }

    /// The cell of the first sprite of type `name` in the initial level (for heuristics).
    pub fn find(&self, name: &str) -> Option<usize> {
        let t = self.game.type_id(name)?;
        match self.roles[t] {
            Role::Avatar => (self.initial.avatar_type as usize == t)
                .then_some(self.initial.avatar_cell as usize),
            Role::Mover(s) => self.initial.movers[s].iter().next(),
            Role::Mortal => self.mortals.iter().find(|m| m.0 == t).map(|m| m.1),
            Role::Frozen => self.frozen[t].iter().next(),
        }
    }
}

fn classify(game: &Game) -> Result<Vec<Role>, InputError> {
    let n = game.types.len();
    let mut roles = vec![Role::Frozen; n];
    let mut movers = 0;
    for (t, role) in roles.iter_mut().enumerate() {
        let first_of = |f: &dyn Fn(&Effect) -> bool| {
            game.interactions
                .iter()
                .any(|i| game.matches[t][i.first] && f(&i.effect))
        };
        let second_of = |f: &dyn Fn(&Effect) -> bool| {
            game.interactions
                .iter()
                .any(|i| game.matches[t][i.second] && f(&i.effect))
        };
        let created = game
            .interactions
            .iter()
            .any(|i| matches!(i.effect, Effect::TransformTo(x) if x == t));
        *role = if game.types[t].class == Class::MovingAvatar {
            Role::Avatar
        } else if first_of(&|e| matches!(e, Effect::BounceForward)) {
            if movers == MAX_MOVER_TYPES {
                return Err(InputError::at(
                    0,
                    format!("more than {MAX_MOVER_TYPES} pushable sprite types"),
                ));
            }
            movers += 1;
            Role::Mover(movers - 1)
        } else if created {
            return Err(InputError::at(
                0,
                format!(
                    "transformTo into the non-avatar type `{}` is not supported",
                    game.types[t].name
                ),
            ));
        } else if first_of(&|e| {
            matches!(
                e,
                Effect::KillSprite | Effect::KillBoth | Effect::TransformTo(_)
            )
        }) || second_of(&|e| matches!(e, Effect::KillBoth))
        {
            Role::Mortal
        } else {
            // Nothing can move or kill it (a stepBack on a sprite that never moves changes nothing).
            Role::Frozen
        };
    }
    Ok(roles)
}

/// Number of sprites of type `stype` (descendants included).
#[inline]
pub fn count(level: &Level, s: &State, stype: usize) -> usize {
    let m = &level.counting[stype];
    let mut n = m.frozen_count + (s.alive & m.mortal_mask).count_ones() as usize;
    for slot in 0..s.movers.len() {
        if m.mover_slots >> slot & 1 == 1 {
            n += s.movers[slot].count();
        }
    }
    if s.avatar_alive && m.avatar_types >> s.avatar_type & 1 == 1 {
        n += 1;
    }
    n
}

/// The terminations, in order: the first satisfied decides.
pub fn check_end(level: &Level, s: &State) -> Outcome {
    for t in &level.game.terminations {
        if count(level, s, t.stype) <= t.limit {
            return if t.win { Outcome::Won } else { Outcome::Lost };
        }
    }
    Outcome::Playing
}

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
