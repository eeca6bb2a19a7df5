//! The marks of ABDADA's parallel search ([`shared_search_root`](crate::shared_search_root)): which
//! positions some thread is searching right now, so that the others put them off.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Positions some thread is searching now, by hash: a small lossy table (a position's mark may
/// be overwritten by another's; a missed or stale mark only changes the order of the search).
pub struct BusyTable {
    slots: Vec<AtomicU64>,
}

impl BusyTable {
    /// Slots of the table: a few hundred positions are busy at once at most, so collisions are
    /// rare.
    const SLOTS: usize = 1 << 14;

    /// An empty table.
    pub fn new() -> BusyTable {
        BusyTable {
            slots: (0..Self::SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key >> 50) as usize & (Self::SLOTS - 1)]
    }

    /// Whether `key` is marked busy.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key
    }

    /// Marks `key` busy.
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    /// Clears `key`'s mark, if it is still there.
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }
}

impl Default for BusyTable {
    fn default() -> Self {
        BusyTable::new()
    }
}
