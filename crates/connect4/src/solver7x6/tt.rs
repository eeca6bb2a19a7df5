//! The solver's transposition table: a fixed-size array indexed by key modulo a prime, storing
//! a truncated key and one small value (an upper or lower bound on the score, shifted so that 0
//! means "empty"), as in Pons' solver.

/// Bounded table of score bounds.
pub struct TranspositionTable {
    keys: Vec<u32>,
    values: Vec<u8>,
}

/// Table size: a prime near 2^23 (8 M entries, 40 MB).
const SIZE: usize = 8_388_593;

impl Default for TranspositionTable {
    fn default() -> Self {
        TranspositionTable {
            keys: vec![0; SIZE],
            values: vec![0; SIZE],
        }
    }
}

impl TranspositionTable {
    /// Stores `value` (non-zero) for `key`.
    #[inline]
    pub fn put(&mut self, key: u64, value: u8) {
        let i = (key % SIZE as u64) as usize;
        self.keys[i] = key as u32;
        self.values[i] = value;
    }

    /// The value stored for `key`, or 0.
    #[inline]
    pub fn get(&self, key: u64) -> u8 {
        let i = (key % SIZE as u64) as usize;
        if self.keys[i] == key as u32 {
            self.values[i]
        } else {
            0
        }
    }

    /// Empties the table.
    pub fn reset(&mut self) {
        self.keys.iter_mut().for_each(|k| *k = 0);
        self.values.iter_mut().for_each(|v| *v = 0);
    }
}
