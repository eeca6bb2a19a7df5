//! The compact game state: what a search hashes and compares.
//!
//! Pushable sprites are bitsets of cells (one per pushable type), sprites that can only die are
//! one alive bit each, and the avatar is a cell, a type and a flag; the score and the outcome
//! complete it. Two states are equal when all of that is equal — the tick is carried along but
//! not compared, so a search merges the same situation reached at different times (the
//! homework's `equalPosition` merges far more: see spec §5). Everything is `Copy`, 48 bytes:
//! levels up to 192 cells and 64 sprites that can die.

use std::hash::{Hash, Hasher};

/// Largest level supported (cells).
pub const MAX_CELLS: usize = 192;
/// Largest number of pushable sprite types.
pub const MAX_MOVER_TYPES: usize = 1;

/// A set of cells.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bits(pub [u64; 3]);

impl Bits {
    /// Whether `cell` is in the set.
    #[inline]
    pub fn has(&self, cell: usize) -> bool {
        self.0[cell >> 6] >> (cell & 63) & 1 == 1
    }
    /// Adds `cell`.
    #[inline]
    pub fn set(&mut self, cell: usize) {
        self.0[cell >> 6] |= 1 << (cell & 63);
    }
    /// Removes `cell`.
    #[inline]
    pub fn clear(&mut self, cell: usize) {
        self.0[cell >> 6] &= !(1 << (cell & 63));
    }
    /// Union.
    #[inline]
    pub fn or(self, o: Bits) -> Bits {
        Bits([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }
    /// Intersection.
    #[inline]
    pub fn and(self, o: Bits) -> Bits {
        Bits([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }
    /// Whether empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 3]
    }
    /// Number of cells.
    #[inline]
    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// The cells in increasing order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..3).flat_map(move |w| {
            let mut word = self.0[w];
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let b = word.trailing_zeros() as usize;
                    word &= word - 1;
                    w * 64 + b
                })
            })
        })
    }
}

/// How the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Still going.
    Playing,
    /// Won (a winning termination fired).
    Won,
    /// Lost (avatar dead, a losing termination, or the time limit).
    Lost,
}

/// A game state.
#[derive(Debug, Clone, Copy)]
pub struct State {
    /// Cells of each pushable type.
    pub movers: [Bits; MAX_MOVER_TYPES],
    /// Alive flags of the level's mortal sprites.
    pub alive: u64,
    /// The avatar's cell.
    pub avatar_cell: u8,
    /// The avatar's type id.
    pub avatar_type: u8,
    /// Whether the avatar lives.
    pub avatar_alive: bool,
    /// Score so far.
    pub score: i32,
    /// Actions applied so far (not part of equality).
    pub tick: u32,
    /// Outcome.
    pub outcome: Outcome,
}

impl State {
    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.outcome != Outcome::Playing
    }
}

impl PartialEq for State {
    fn eq(&self, o: &Self) -> bool {
        self.movers == o.movers
            && self.alive == o.alive
            && self.avatar_cell == o.avatar_cell
            && self.avatar_type == o.avatar_type
            && self.avatar_alive == o.avatar_alive
            && self.score == o.score
            && self.outcome == o.outcome
    }
}
impl Eq for State {}

impl Hash for State {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.movers.hash(h);
        h.write_u64(self.alive);
        h.write_u32(
            self.avatar_cell as u32
                | (self.avatar_type as u32) << 8
                | (self.avatar_alive as u32) << 16
                | (self.outcome as u32) << 17,
        );
        h.write_i32(self.score);
    }
}
