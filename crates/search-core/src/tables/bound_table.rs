//! A compact table of score bounds for [`ExactSolver`](crate::ExactSolver): one byte of bound
//! and a 32-bit piece of the key per slot, indexed by the key modulo the (preferably prime)
//! number of slots, as in Pascal Pons' Connect Four solver.
//!
//! An exact solver only needs to remember, per position, one bound on its score: an upper
//! bound after a search that failed low, a lower bound after one that failed high. Scores of
//! such games fit in a small range, so a bound fits in a byte (0 meaning "empty"), and a slot
//! costs five bytes: millions of positions fit in a few tens of MiB. A key smaller than
//! `SLOTS × 2^32` is identified exactly by its slot and its low 32 bits (Chinese remainder
//! theorem, when the slot count is odd), so such keys never collide. The slot count is a
//! constant so that the key's remainder compiles to a multiplication, not a division (a
//! fifth of the exact solver's time otherwise).

/// A bound a [`BoundTable`] holds on a position's score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score is at most this.
    Upper(i32),
    /// The score is at least this.
    Lower(i32),
}

/// Score bounds by key, one per slot, the newest kept; `SLOTS` slots (a prime keeps keys
/// apart).
///
/// ```
/// use search_core::{BoundTable, ScoreBound};
/// let mut t = BoundTable::<1009>::new(-18, 18);
/// t.store(42, ScoreBound::Upper(-3));
/// t.store(43, ScoreBound::Lower(18));
/// assert_eq!(t.get(42), Some(ScoreBound::Upper(-3)));
/// assert_eq!(t.get(43), Some(ScoreBound::Lower(18)));
/// assert_eq!(t.get(42 + 1009), None); // same slot, another key
/// ```
pub struct BoundTable<const SLOTS: usize> {
    keys: Vec<u32>,
    values: Vec<u8>,
    min_score: i32,
    max_score: i32,
}

impl<const SLOTS: usize> BoundTable<SLOTS> {
    /// A table for scores in `min_score..=max_score` (a range of at most 127 scores, so that
    /// both kinds of bound fit in a byte).
    ///
    /// # Panics
    /// When the range is empty or wider than 127 scores, or `SLOTS` is 0.
    pub fn new(min_score: i32, max_score: i32) -> Self {
        assert!(SLOTS > 0, "a bound table needs at least one slot");
        assert!(
            min_score <= max_score && max_score - min_score < 127,
            "scores {min_score}..={max_score} do not fit a bound table"
        );
        BoundTable {
            keys: vec![0; SLOTS],
            values: vec![0; SLOTS],
            min_score,
            max_score,
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key % SLOTS as u64) as usize
    }

    /// Stores `bound` for `key`, replacing whatever the slot held.
    #[inline]
    pub fn store(&mut self, key: u64, bound: ScoreBound) {
        let span = self.max_score - self.min_score + 1;
        let value = match bound {
            ScoreBound::Upper(v) => v - self.min_score + 1,
            ScoreBound::Lower(v) => v - self.min_score + 1 + span,
        };
        debug_assert!((1..=2 * span).contains(&value), "score out of range");
        let i = self.slot(key);
        self.keys[i] = key as u32;
        self.values[i] = value as u8;
    }

    /// The bound stored for `key`, if its slot still holds it.
    #[inline]
    pub fn get(&self, key: u64) -> Option<ScoreBound> {
        let i = self.slot(key);
        let value = self.values[i] as i32;
        if value == 0 || self.keys[i] != key as u32 {
            return None;
        }
        let span = self.max_score - self.min_score + 1;
        Some(if value > span {
            ScoreBound::Lower(value - span + self.min_score - 1)
        } else {
            ScoreBound::Upper(value + self.min_score - 1)
        })
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.keys.iter_mut().for_each(|k| *k = 0);
        self.values.iter_mut().for_each(|v| *v = 0);
    }
}
