//! Move ordering for the solver: an insertion-sorted list of at most 7 moves by score (number of
//! winning spots a move creates), ties keeping the centre-first column order.

/// Moves with scores, highest first.
pub struct MoveSorter {
    entries: [(u64, u32); 7],
    size: usize,
}

impl MoveSorter {
    /// An empty sorter.
    pub fn new() -> Self {
        MoveSorter {
            entries: [(0, 0); 7],
            size: 0,
        }
    }

    /// Adds a move; among equal scores, earlier additions come out first.
    #[inline]
    pub fn add(&mut self, mv: u64, score: u32) {
        let mut pos = self.size;
        self.size += 1;
        while pos > 0 && self.entries[pos - 1].1 > score {
            self.entries[pos] = self.entries[pos - 1];
            pos -= 1;
        }
        self.entries[pos] = (mv, score);
    }

    /// The best remaining move.
    #[inline]
    pub fn next(&mut self) -> Option<u64> {
        (self.size > 0).then(|| {
            self.size -= 1;
            self.entries[self.size].0
        })
    }
}

impl Default for MoveSorter {
    fn default() -> Self {
        Self::new()
    }
}
